/// Distance statistics between the displayed puck and the true position over a replay, metres.
public struct PuckLagStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Mean distance, metres.
    public var mean: Double
    /// 95th percentile (nearest rank), metres.
    public var p95: Double
    /// Largest distance, metres.
    public var max: Double
    /// Number of ticks measured.
    public var samples: Int
    /// Largest distance the puck moved in one tick, metres (a jump shows up here).
    public var maxStep: Double

    public var description: String {
        func f(_ x: Double) -> String {
            let r = (x * 10).rounded() / 10
            return "\(r)"
        }
        return "mean \(f(mean)) m, p95 \(f(p95)) m, max \(f(max)) m, max step \(f(maxStep)) m, \(samples) ticks"
    }
}

/// Measures how far the puck trails the true position (maplibre-native#4608,
/// mapbox-navigation-ios#2587).
public enum PuckLag {
    /// Replays `track` with a ``TrackReplayProvider`` (no loop) at `fps` ticks per simulation
    /// second and, in every tick from the first fix to the last, measures the haversine distance
    /// between the puck of `mode` and the true position: the linear interpolation between the
    /// fixes around the tick's track time (``TrackReplayProvider/truePosition(at:)``).
    /// Deterministic: tick i is at t = i / fps.
    public static func measure(track: Track, mode: PuckInterpolationMode, fps: Double = 60, speed: Double = 1)
        -> PuckLagStatistics
    {
        precondition(fps.isFinite && fps > 0, "PuckLag.measure: fps must be > 0")
        let provider = TrackReplayProvider(track: track, speed: speed)
        var feed = LocationFeed(provider: provider)
        var puck = PuckInterpolator(mode: mode)
        let ticks = Int((track.duration / speed * fps).rounded(.down))
        var distances: [Double] = []
        distances.reserveCapacity(ticks + 1)
        var previous: LocationCoordinate2D? = nil
        var maxStep = 0.0
        for i in 0...ticks {
            let t = Double(i) / fps
            guard let state = puck.advance(to: t, feed: &feed) else { continue }
            distances.append(Geodesy.distance(from: state.coordinate, to: provider.truePosition(at: t)))
            if let previous { maxStep = Swift.max(maxStep, Geodesy.distance(from: previous, to: state.coordinate)) }
            previous = state.coordinate
        }
        let sorted = distances.sorted()
        let rank = Swift.max(0, Int((0.95 * Double(sorted.count)).rounded(.up)) - 1)
        return PuckLagStatistics(
            mean: sorted.reduce(0, +) / Double(sorted.count), p95: sorted[rank],
            max: sorted[sorted.count - 1], samples: sorted.count, maxStep: maxStep)
    }
}
