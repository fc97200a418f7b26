/// Which direction the puck's arrow shows (Mapbox `PuckBearing`).
public enum PuckBearing: String, Hashable, Sendable {
    /// The compass heading (where the device points).
    case heading
    /// The direction of travel.
    case course
}

/// What the puck shows at one instant: the interpolated position, course, heading and accuracy
/// (Mapbox `PuckRenderingData`).
public struct PuckState: Hashable, Sendable {
    /// Displayed position, degrees; longitude wrapped to [−180, 180).
    public var coordinate: LocationCoordinate2D
    /// Displayed direction of travel in degrees [0, 360); nil when no fix had one.
    public var course: Double?
    /// Displayed compass heading in degrees [0, 360); nil when no fix had one.
    public var heading: Double?
    /// Displayed accuracy radius, metres.
    public var horizontalAccuracy: Double
    /// The newest fix; fields that are not interpolated (speed, altitude, timestamp) come from it.
    public var location: Location

    /// A puck with these displayed values (for playing back a recorded trace).
    public init(coordinate: LocationCoordinate2D, course: Double?, heading: Double?, horizontalAccuracy: Double, location: Location) {
        self.coordinate = coordinate; self.course = course; self.heading = heading
        self.horizontalAccuracy = horizontalAccuracy; self.location = location
    }

    /// The arrow direction for `source` in degrees [0, 360); 0 when missing, as Mapbox does.
    public func bearing(_ source: PuckBearing) -> Double {
        switch source {
        case .heading: return heading ?? 0
        case .course: return course ?? 0
        }
    }
}

/// Settings of the predictive puck mode (see ``PuckInterpolationMode/predictive(_:)``).
public struct PuckPrediction: Hashable, Sendable {
    /// A fix slower than this (m/s) that lies within the noise threshold
    /// (``Track/movementThreshold(_:_:)``) of where the puck rests is taken as standing still:
    /// the puck stays where it is instead of following GPS jitter (walking is about 1.3 m/s).
    public static let stationarySpeed: Double = 0.5
    /// The largest distance, metres, that still counts as jitter for ``stationarySpeed``, however
    /// poor the accuracy: a 188 m accuracy radius must not pin the puck while the tram moves on.
    public static let stationaryRadius: Double = 10

    /// The longest time ahead of the newest fix, in seconds of track time, the puck is
    /// extrapolated; beyond it the puck waits for the next fix. The effective cap is the smaller
    /// of this and the time since the previous fix, so a 1 Hz track extrapolates at most 1 s and
    /// a 10 s track at most 10 s, and the first fix after a long gap cannot fling the puck far.
    public var maxExtrapolationTime: Double
    /// The farthest the puck is extrapolated from the newest fix, metres.
    public var maxExtrapolationDistance: Double
    /// Simulation seconds over which the difference between the displayed position and the new
    /// fix's prediction is blended out (smoothstep), so a new fix never makes the puck jump.
    /// Course and accuracy blend over the same time.
    public var correctionDuration: Double

    /// Defaults chosen by measuring the built-in drive and the TrafficSense traces with
    /// ``PuckLag`` (8 s, 40 m, 1 s). On the ~10 s real traces, caps of 6–12 s and 30–60 m
    /// differ by under 1 m mean; an uncapped distance (1000 m) made the tram's p95 30 % worse
    /// (overshoot into stops), and a 2 s correction doubled the drive's p95.
    public init(
        maxExtrapolationTime: Double = 8, maxExtrapolationDistance: Double = 40,
        correctionDuration: Double = 1
    ) {
        precondition(
            maxExtrapolationTime.isFinite && maxExtrapolationTime >= 0, "maxExtrapolationTime must be finite, ≥ 0")
        precondition(
            maxExtrapolationDistance.isFinite && maxExtrapolationDistance >= 0,
            "maxExtrapolationDistance must be finite, ≥ 0")
        precondition(correctionDuration.isFinite && correctionDuration > 0, "correctionDuration must be finite, > 0")
        self.maxExtrapolationTime = maxExtrapolationTime
        self.maxExtrapolationDistance = maxExtrapolationDistance
        self.correctionDuration = correctionDuration
    }
}

/// How the puck moves between fixes.
public enum PuckInterpolationMode: Hashable, Sendable {
    /// Mapbox's behaviour: each fix restarts a linear interpolation from the displayed value to
    /// the fix over 1.1 s (heading 0.3 s). The puck is up to about one fix interval behind.
    case mapboxDefault
    /// Dead reckoning: from each fix the puck moves on along the fix's course at its speed
    /// (capped, see ``PuckPrediction``), and the error against the new fix is blended out, so
    /// the lag of the default mode mostly disappears (maplibre-native#4608,
    /// mapbox-navigation-ios#2587) without jumps. At a stop (speed below
    /// ``PuckPrediction/stationarySpeed`` and a position within the fix noise of where the puck
    /// rests) the puck stays put rather than following GPS jitter, which the default mode, like
    /// Mapbox, follows. Write `.predictive()` for the default ``PuckPrediction``.
    case predictive(PuckPrediction = PuckPrediction())
}

/// Turns discrete fixes into a puck that moves smoothly, as Mapbox's `LocationInterpolator` and
/// `HeadingInterpolator` do, as a pure function of simulation time.
///
/// Feed each fix with ``update(with:at:rate:)`` (or let ``advance(to:feed:)`` pull them), then
/// read ``puck(at:)`` for any time. The state changes only on a fix; reading is pure and
/// deterministic.
///
/// Default mode (docs/research/mapbox-camera-viewport.md §9, behaviour 30): the first fix is shown at
/// once; every later fix restarts a **linear** interpolation from the value displayed at that
/// instant to the fix over ``locationDuration`` (1.1 s): latitude linearly, longitude the short
/// way round, course the short way round, accuracy linearly. The heading restarts the same way
/// over ``headingDuration`` (0.3 s), the short way round. A fix A at t = 0 and B at t = 1 show
/// the midpoint of A and B at t = 1.55 and exactly B from t = 2.1.
public struct PuckInterpolator: Sendable {
    /// Duration of the location interpolation after each fix, simulation seconds (Mapbox: 1.1 s).
    public static let locationDuration: Double = 1.1
    /// Duration of the heading interpolation after each heading, simulation seconds (Mapbox: 0.3 s).
    public static let headingDuration: Double = 0.3

    public let mode: PuckInterpolationMode

    /// The motion started by the newest fix.
    private struct Segment: Sendable {
        var start: Double
        var fix: Location
        /// Displayed values when the fix arrived.
        var fromCoordinate: LocationCoordinate2D
        var fromCourse: Double?
        var fromAccuracy: Double
        /// Predictive mode: course (deg) and speed (m per simulation second) to extrapolate
        /// with, the cap in metres, and the error (displayed − fix) in degrees to blend out.
        var course: Double?
        var metresPerSecond: Double = 0
        var capTime: Double = 0
        var capDistance: Double = 0
        var errorLatitude: Double = 0
        var errorLongitude: Double = 0
        /// Predictive mode: where the extrapolation starts: the fix, or while stationary the
        /// position the puck already rests at.
        var anchor: LocationCoordinate2D
    }

    private struct HeadingSegment: Sendable {
        var start: Double
        var from: Double
        var to: Double
    }

    private var segment: Segment?
    private var headingSegment: HeadingSegment?
    /// Simulation time of the last ``advance(to:feed:)``.
    public private(set) var advancedThrough: Double?

    public init(mode: PuckInterpolationMode = .mapboxDefault) { self.mode = mode }

    /// Starts the motion toward a new fix that arrived at simulation time `time`.
    /// - Parameters:
    ///   - location: the fix (validated, e.g. by ``Track``); its speed is in m/s of track time.
    ///   - time: simulation time of arrival, seconds.
    ///   - rate: track seconds per simulation second (the replay speed factor).
    /// - Precondition: `time` and `rate` are finite, `rate` > 0, and the location is valid.
    public mutating func update(with location: Location, at time: Double, rate: Double = 1) {
        precondition(time.isFinite && rate.isFinite && rate > 0, "PuckInterpolator.update: bad time or rate")
        precondition(location.invalidReason == nil, "PuckInterpolator.update: \(location.invalidReason ?? "")")
        var fix = location
        fix.coordinate.longitude = wrapLongitude(fix.coordinate.longitude)
        fix.course = fix.course.map(wrapBearing)
        fix.heading = fix.heading.map(wrapBearing)

        if let heading = fix.heading {
            let from = headingSegment.map { headingValue($0, at: time) } ?? heading
            headingSegment = HeadingSegment(start: time, from: from, to: heading)
        }

        guard let previous = segment else {
            // The very first fix is shown at once.
            var s = Segment(
                start: time, fix: fix, fromCoordinate: fix.coordinate, fromCourse: fix.course,
                fromAccuracy: fix.horizontalAccuracy, anchor: fix.coordinate)
            s.course = fix.course
            if case .predictive(let options) = mode, fix.course != nil {
                // Predictive: the first fix is shown at once and moves on at its own speed.
                s.metresPerSecond = (fix.speed ?? 0) * rate
                s.capTime = options.maxExtrapolationTime / rate
                s.capDistance = options.maxExtrapolationDistance
            }
            segment = s
            return
        }
        let shown = value(previous, at: time)
        var s = Segment(
            start: time, fix: fix, fromCoordinate: shown.coordinate, fromCourse: shown.course,
            fromAccuracy: shown.horizontalAccuracy, anchor: fix.coordinate)
        if case .predictive(let options) = mode {
            // Course and speed from the fix, else estimated from the previous fix (below the
            // noise threshold of `Track.movementThreshold` the puck is taken to stand still).
            let last = previous.fix
            let dt = fix.timestamp - last.timestamp
            let d = Geodesy.distance(from: last.coordinate, to: fix.coordinate)
            let moved = d > Track.movementThreshold(last, fix)
            var course = fix.course
            if course == nil && moved { course = Geodesy.initialBearing(from: last.coordinate, to: fix.coordinate) }
            if course == nil { course = previous.course }
            var speed = fix.speed ?? (moved && dt > 0 ? d / dt : 0)
            if course == nil { speed = 0 }
            // Stationary: a slow fix within the noise of where the puck rests does not move it,
            // so GPS jitter at a stop does not make the puck wander.
            if speed < PuckPrediction.stationarySpeed,
                Geodesy.distance(from: previous.anchor, to: fix.coordinate)
                    <= min(Track.movementThreshold(last, fix), PuckPrediction.stationaryRadius)
            {
                s.anchor = previous.anchor
                speed = 0
            }
            s.course = course
            s.metresPerSecond = speed * rate
            let interval = dt > 0 ? dt : options.maxExtrapolationTime
            s.capTime = min(options.maxExtrapolationTime, interval) / rate
            s.capDistance = options.maxExtrapolationDistance
            s.errorLatitude = shown.coordinate.latitude - s.anchor.latitude
            s.errorLongitude =
                shortestAngle(from: s.anchor.longitude, to: shown.coordinate.longitude)
                - s.anchor.longitude
            if s.fix.course == nil { s.fix.course = course }
        }
        segment = s
    }

    /// ``update(with:at:rate:)`` for a delivered update.
    public mutating func update(_ update: LocationUpdate) {
        self.update(with: update.location, at: update.time, rate: update.rate)
    }

    /// Pulls the fixes delivered up to `time` from `feed`, feeds each at its own delivery time,
    /// and returns the puck at `time` (nil before the first fix). Call once per tick.
    public mutating func advance<P: LocationProvider>(to time: Double, feed: inout LocationFeed<P>) -> PuckState? {
        for u in feed.poll(through: time) { update(u) }
        advancedThrough = time
        return puck(at: time)
    }

    /// The puck at simulation time `time`; nil before the first fix. Pure.
    public func puck(at time: Double) -> PuckState? {
        guard let segment else { return nil }
        var state = value(segment, at: time)
        state.heading = headingSegment.map { headingValue($0, at: time) }
        return state
    }

    private func headingValue(_ h: HeadingSegment, at time: Double) -> Double {
        let f = progress(time - h.start, PuckInterpolator.headingDuration)
        let to = shortestAngle(from: h.from, to: h.to)
        return f >= 1 ? h.to : wrapBearing(h.from + (to - h.from) * f)
    }

    private func progress(_ elapsed: Double, _ duration: Double) -> Double {
        elapsed <= 0 ? 0 : elapsed >= duration ? 1 : elapsed / duration
    }

    private static func lerpAngle(_ a: Double?, _ b: Double?, _ f: Double) -> Double? {
        guard let b else { return a }
        guard let a else { return b }
        if f >= 1 { return b }
        return wrapBearing(a + (shortestAngle(from: a, to: b) - a) * f)
    }

    /// Location part of the puck for one segment at `time`.
    private func value(_ s: Segment, at time: Double) -> PuckState {
        switch mode {
        case .mapboxDefault:
            let f = progress(time - s.start, PuckInterpolator.locationDuration)
            let coordinate = f >= 1 ? s.fix.coordinate : Geodesy.lerp(s.fromCoordinate, s.fix.coordinate, f)
            return PuckState(
                coordinate: coordinate, course: Self.lerpAngle(s.fromCourse, s.fix.course, f),
                heading: nil,
                horizontalAccuracy: s.fromAccuracy + (s.fix.horizontalAccuracy - s.fromAccuracy) * f,
                location: s.fix)
        case .predictive(let options):
            let elapsed = max(0, time - s.start)
            var base = s.anchor
            if let course = s.course, s.metresPerSecond > 0 {
                let distance = min(s.metresPerSecond * min(elapsed, s.capTime), s.capDistance)
                base = Geodesy.destination(from: base, bearing: course, distance: distance)
            }
            let f = progress(elapsed, options.correctionDuration)
            let w = 1 - f * f * (3 - 2 * f)  // smoothstep: the error fades with zero slope at both ends
            let coordinate = LocationCoordinate2D(
                latitude: min(90, max(-90, base.latitude + s.errorLatitude * w)),
                longitude: wrapLongitude(base.longitude + s.errorLongitude * w))
            return PuckState(
                coordinate: coordinate, course: Self.lerpAngle(s.fromCourse, s.course, f),
                heading: nil,
                horizontalAccuracy: s.fromAccuracy + (s.fix.horizontalAccuracy - s.fromAccuracy) * f,
                location: s.fix)
        }
    }
}
