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
    /// Median distance the puck moved in one tick while moving (steps > 1 mm), metres.
    public var medianStep: Double

    public var description: String {
        func f(_ x: Double) -> String {
            let r = (x * 10).rounded() / 10
            return "\(r)"
        }
        return "mean \(f(mean)) m, p95 \(f(p95)) m, max \(f(max)) m, max step \(f(maxStep)) m, median step \(f(medianStep)) m, \(samples) ticks"
    }
}

/// Measures how far the puck trails the true position (maplibre-native#4608,
/// mapbox-navigation-ios#2587).
///
/// Built-in tracks at 60 fps, replay speed 1 (`swift test --filter LocationLagTests` prints this
/// table; metres):
///
/// | track | mode | mean | p95 | max |
/// | --- | --- | ---: | ---: | ---: |
/// | helsinki-drive | Mapbox default | 8.56 | 12.11 | 12.19 |
/// | helsinki-drive | predictive | 0.42 | 1.35 | 5.69 |
/// | tram9 | Mapbox default | 14.89 | 52.88 | 154.1 |
/// | tram9 | predictive | 14.12 | 42.53 | 154.22 |
/// | walk-railway-station | Mapbox default | 7.29 | 16.9 | 47.11 |
/// | walk-railway-station | predictive | 4.92 | 14.17 | 43.74 |
///
/// The tram's max is the fix with a 188 m accuracy radius, which the truth passes through.
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
        var steps: [Double] = []
        for i in 0...ticks {
            let t = Double(i) / fps
            guard let state = puck.advance(to: t, feed: &feed) else { continue }
            distances.append(Geodesy.distance(from: state.coordinate, to: provider.truePosition(at: t)))
            if let previous { steps.append(Geodesy.distance(from: previous, to: state.coordinate)) }
            previous = state.coordinate
        }
        let sorted = distances.sorted()
        let rank = Swift.max(0, Int((0.95 * Double(sorted.count)).rounded(.up)) - 1)
        let moving = steps.filter { $0 > 0.001 }.sorted()
        return PuckLagStatistics(
            mean: sorted.reduce(0, +) / Double(sorted.count), p95: sorted[rank],
            max: sorted[sorted.count - 1], samples: sorted.count, maxStep: steps.max() ?? 0,
            medianStep: moving.isEmpty ? 0 : moving[moving.count / 2])
    }
}
