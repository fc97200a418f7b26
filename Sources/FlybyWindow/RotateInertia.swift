import FlybyCore

/// Inertia after a rotate/pitch drag, as MapLibre GL JS's `handler_inertia.ts` computes it
/// (docs/research/maplibre-camera-algorithms.md §8): the drag's changes over the last 160 ms give a speed
/// per channel, `speed = clamp(amount · linearity / T, ±maxSpeed)`; the map keeps turning for
/// `|speed| / (deceleration · linearity)` seconds and travels `speed · duration / 2` more along
/// the curve (0, 0, 0.3, 1). Bearing: deceleration 1000 °/s², max 360 °/s, travel within ±179°;
/// pitch: 1000 °/s², max 90 °/s. The longest channel sets the duration of one ease.
///
/// A drag held still for 160 ms before the release keeps fewer than two samples and so has no
/// inertia, as in MapLibre. Times are simulation seconds, so a session replays identically.
public struct RotateInertia: Sendable {
    /// Samples older than this (seconds) before the release are ignored.
    public static let window = 0.16
    public static let linearity = 0.3
    public static let bearingDeceleration = 1000.0, bearingMaxSpeed = 360.0, bearingMaxTravel = 179.0
    public static let pitchDeceleration = 1000.0, pitchMaxSpeed = 90.0
    /// The inertia easing curve.
    public static let curve = AnimationCurve.bezier(0, 0, 0.3, 1)

    /// What the release leads to: degrees to add to bearing and pitch over `duration` seconds.
    public struct Glide: Equatable, Sendable {
        public var bearing: Double
        public var pitch: Double
        public var duration: Double
    }

    private var samples: [(time: Double, bearing: Double, pitch: Double)] = []

    public init() {}

    /// Forgets every sample (a new drag begins).
    public mutating func reset() { samples.removeAll(keepingCapacity: true) }

    /// One change of the drag at `time`: the bearing and pitch it moved the camera, in degrees.
    public mutating func record(time: Double, bearing: Double, pitch: Double) {
        guard time.isFinite, bearing.isFinite, pitch.isFinite else { return }
        samples.append((time, bearing, pitch))
        drain(before: time)
    }

    /// The glide for a release at `time`, or nil when the drag was not moving.
    public mutating func release(time: Double) -> Glide? {
        defer { reset() }
        drain(before: time)
        guard samples.count >= 2, let first = samples.first, let last = samples.last else { return nil }
        let seconds = last.time - first.time
        guard seconds > timeEpsilon else { return nil }
        let bearing = Self.ease(samples.reduce(0) { $0 + $1.bearing }, over: seconds,
                                deceleration: Self.bearingDeceleration, maxSpeed: Self.bearingMaxSpeed)
        let pitch = Self.ease(samples.reduce(0) { $0 + $1.pitch }, over: seconds,
                              deceleration: Self.pitchDeceleration, maxSpeed: Self.pitchMaxSpeed)
        let duration = max(bearing.duration, pitch.duration)
        guard duration > timeEpsilon else { return nil }
        return Glide(bearing: min(max(bearing.travel, -Self.bearingMaxTravel), Self.bearingMaxTravel), pitch: pitch.travel, duration: duration)
    }

    private mutating func drain(before time: Double) {
        samples.removeAll { time - $0.time > Self.window + timeEpsilon }
    }

    /// MapLibre's per-channel easing: travel in degrees and duration in seconds.
    static func ease(_ amount: Double, over seconds: Double, deceleration: Double, maxSpeed: Double) -> (travel: Double, duration: Double) {
        guard amount != 0 else { return (0, 0) }
        let speed = min(max(amount * linearity / seconds, -maxSpeed), maxSpeed)
        let duration = abs(speed) / (deceleration * linearity)
        return (speed * duration / 2, duration)
    }
}
