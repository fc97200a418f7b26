/// A problem with the fixes given to ``Track/init(name:fixes:)``: which fix (its index in the
/// array given) and what is wrong. File loaders turn it into an error naming the file position.
public struct TrackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Index of the offending fix in the input array; nil for whole-track problems (empty).
    public var index: Int?
    public var message: String
    public init(index: Int?, message: String) {
        self.index = index
        self.message = message
    }
    public var description: String {
        if let index { return "fix \(index): \(message)" }
        return message
    }
}

/// A recorded or derived trip: at least two timed fixes in strictly increasing time order.
///
/// Construction validates and completes the fixes, so everything downstream can rely on them:
/// - every field is finite and in range (``Location/invalidReason``); NaN and infinities are refused;
/// - times strictly increase. Times that go backwards are refused (a track is never silently
///   re-ordered: an unsorted file is usually a broken file). An exact repeat (same time and same
///   position, as GPX writers produce where two segments meet) is dropped; the same time with a
///   different position is refused;
/// - a missing **course** is derived from consecutive fixes as the great-circle initial bearing
///   (``Geodesy/initialBearing(from:to:)``) from the previous fix, but only when the move is larger
///   than the fix noise, ``movementThreshold(_:_:)``. Otherwise (a stop, or jitter around one
///   spot) the last good course is kept, so a stop never yields NaN or a spinning arrow. Fixes
///   before the first real move take the first derived course. A track that never moves keeps
///   nil courses;
/// - a missing **speed** is derived the same way: distance / time from the previous fix when the
///   move is above the noise threshold, 0 otherwise (the first fix takes the second fix's speed).
///
/// Course and heading are wrapped to [0, 360). Track time is whatever axis the fixes use; file
/// loaders use seconds since the first fix.
public struct Track: Sendable, Equatable {
    /// A name for messages and traces (the feature id or `<name>`, or the built-in name).
    public var name: String
    /// The validated and completed fixes, oldest first; at least two.
    public let fixes: [Location]

    /// Moves shorter than this many metres are always treated as noise (GPS jitter of a
    /// stationary receiver with a clear sky is a few metres).
    public static let minimumMovement: Double = 3

    /// The distance in metres a fix must move from the previous one to count as a real move
    /// for course and speed: max(``minimumMovement``, mean of the two accuracy radii). Below it,
    /// the two positions cannot be told apart with ~68 % confidence.
    public static func movementThreshold(_ a: Location, _ b: Location) -> Double {
        max(minimumMovement, (a.horizontalAccuracy + b.horizontalAccuracy) / 2)
    }

    /// Validates and completes `fixes` (see the type's documentation).
    /// - Throws: ``TrackError`` for an empty or one-fix track, a fix with a non-finite or
    ///   out-of-range field, times not in increasing order, or one time with two positions.
    public init(name: String = "", fixes input: [Location]) throws(TrackError) {
        if input.isEmpty { throw TrackError(index: nil, message: "the track has no fixes") }
        var fixes: [Location] = []
        fixes.reserveCapacity(input.count)
        for (k, var fix) in input.enumerated() {
            if let reason = fix.invalidReason { throw TrackError(index: k, message: reason) }
            fix.course = fix.course.map(wrapBearing)
            fix.heading = fix.heading.map(wrapBearing)
            if let last = fixes.last {
                if fix.timestamp < last.timestamp {
                    throw TrackError(
                        index: k,
                        message: "time \(fix.timestamp) s is before the previous fix's "
                            + "\(last.timestamp) s; fixes must be in time order")
                }
                if fix.timestamp == last.timestamp {
                    if fix.coordinate == last.coordinate { continue }
                    throw TrackError(
                        index: k,
                        message: "duplicate time \(fix.timestamp) s with a different "
                            + "position than the previous fix")
                }
            }
            fixes.append(fix)
        }
        if fixes.count < 2 {
            throw TrackError(index: nil, message: "the track has only one fix; at least two are needed")
        }
        Track.complete(&fixes)
        self.name = name
        self.fixes = fixes
        self.typicalInterval = Track.median(of: fixes)
    }

    /// Fills missing courses and speeds (see the type's documentation).
    private static func complete(_ fixes: inout [Location]) {
        var lastCourse: Double? = nil
        var firstDerived: Double? = nil
        for i in fixes.indices {
            let hadCourse = fixes[i].course != nil
            if i > 0 {
                let a = fixes[i - 1]
                let b = fixes[i]
                let d = Geodesy.distance(from: a.coordinate, to: b.coordinate)
                let moved = d > movementThreshold(a, b)
                if b.speed == nil { fixes[i].speed = moved ? d / (b.timestamp - a.timestamp) : 0 }
                if !hadCourse, moved, let c = Geodesy.initialBearing(from: a.coordinate, to: b.coordinate) {
                    fixes[i].course = c
                    if firstDerived == nil { firstDerived = c }
                }
            }
            if fixes[i].course == nil { fixes[i].course = lastCourse }
            if let c = fixes[i].course {
                lastCourse = c
                if firstDerived == nil { firstDerived = c }
            }
        }
        if fixes[0].speed == nil { fixes[0].speed = fixes[1].speed }
        for i in fixes.indices where fixes[i].course == nil { fixes[i].course = firstDerived }
    }

    /// Track time of the first fix, seconds.
    public var startTime: Double { fixes[0].timestamp }
    /// Track time of the last fix, seconds.
    public var endTime: Double { fixes[fixes.count - 1].timestamp }
    /// Seconds from the first to the last fix.
    public var duration: Double { endTime - startTime }
    /// The fixes' positions, in order (for an overview of the track).
    public var coordinates: [LocationCoordinate2D] { fixes.map(\.coordinate) }
    /// The fixes as a line, e.g. for an overview of the whole track (`"geometry": "track"`).
    public var geometry: Geometry { .lineString(coordinates) }
    /// Length of the polyline through the fixes in metres (haversine).
    public var length: Double {
        var sum = 0.0
        for i in 1..<fixes.count { sum += Geodesy.distance(from: fixes[i - 1].coordinate, to: fixes[i].coordinate) }
        return sum
    }

    /// The median time between consecutive fixes, seconds: the track's nominal fix interval
    /// (1 s for the drive, about 10 s for the TrafficSense traces, whatever their gaps).
    public let typicalInterval: Double

    private static func median(of fixes: [Location]) -> Double {
        var gaps: [Double] = []
        gaps.reserveCapacity(fixes.count - 1)
        for i in 1..<fixes.count { gaps.append(fixes[i].timestamp - fixes[i - 1].timestamp) }
        gaps.sort()
        let m = gaps.count / 2
        return gaps.count % 2 == 1 ? gaps[m] : (gaps[m - 1] + gaps[m]) / 2
    }

    /// Track time from one lap's first fix to the next lap's first fix when looping: the
    /// duration plus one ``typicalInterval``, so the first fix of a lap follows the last fix of
    /// the previous one like any other fix.
    public var loopPeriod: Double { duration + typicalInterval }

    /// Index of the last fix at or before `time` (0 before the start).
    public func lastFixIndex(atOrBefore time: Double) -> Int {
        var lo = 0
        var hi = fixes.count - 1
        if time >= fixes[hi].timestamp { return hi }
        while lo < hi {  // invariant: fixes[lo].timestamp <= time < fixes[hi + 1] … narrowed to the last ≤
            let mid = (lo + hi + 1) / 2
            if fixes[mid].timestamp <= time { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The true position at `time` (track time): linear interpolation between the two fixes
    /// around it (``Geodesy/lerp(_:_:_:)``), the first or last fix outside the track's span.
    /// This is the reference the puck lag is measured against.
    public func position(at time: Double) -> LocationCoordinate2D {
        let i = lastFixIndex(atOrBefore: time)
        if i == fixes.count - 1 || time <= fixes[i].timestamp { return fixes[i].coordinate }
        let a = fixes[i]
        let b = fixes[i + 1]
        return Geodesy.lerp(a.coordinate, b.coordinate, (time - a.timestamp) / (b.timestamp - a.timestamp))
    }
}
