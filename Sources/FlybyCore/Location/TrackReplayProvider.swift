/// Replays a ``Track`` in simulation time, with a speed factor and optional looping.
///
/// A fix with track time τ is delivered at simulation time `startTime + (τ − τ₀) / speed`, where
/// τ₀ is the track's first fix time. Without looping, the last fix stays the latest one for ever
/// (the puck rests there). With looping, lap k (k = 0, 1, …) delivers every fix again
/// `k · track.loopPeriod / speed` later, with `timestamp` τ + k·loopPeriod so track time keeps
/// increasing; the first fix of a lap comes one typical fix interval after the last fix of the
/// previous lap (``Track/loopPeriod``).
///
/// Fixes are delivered exactly, however coarse the ticks: a poll over a long interval returns
/// every fix in it, each with its own delivery time.
public struct TrackReplayProvider: LocationProvider {
    public let track: Track
    /// Track seconds per simulation second (2 = twice as fast as recorded).
    public let speed: Double
    public let loops: Bool
    /// Simulation time at which the first fix is delivered, seconds.
    public let startTime: Double

    /// - Precondition: `speed` is finite and > 0 and `startTime` is finite (the flight-script
    ///   parser refuses other values with a positioned error).
    public init(track: Track, speed: Double = 1, loop: Bool = false, startTime: Double = 0) {
        precondition(speed.isFinite && speed > 0, "TrackReplayProvider: speed must be finite and > 0, got \(speed)")
        precondition(startTime.isFinite, "TrackReplayProvider: startTime must be finite")
        self.track = track
        self.speed = speed
        self.loops = loop
        self.startTime = startTime
    }

    /// Simulation time at which fix `index` of lap `lap` is delivered.
    public func deliveryTime(ofFix index: Int, lap: Int = 0) -> Double {
        let tau = track.fixes[index].timestamp - track.startTime + Double(lap) * track.loopPeriod
        return startTime + tau / speed
    }

    /// The lap in progress at simulation time `time` (0 before the start; 0 without looping).
    private func lap(at time: Double) -> Int {
        guard loops, time.isFinite else { return 0 }
        let laps = ((time - startTime) * speed / track.loopPeriod).rounded(.down)
        return laps <= 0 ? 0 : Int(min(laps, Double(Int.max / 4)))
    }

    /// Index of the first fix of `lap` delivered strictly after `time` (fixes.count when none).
    private func firstIndex(after time: Double, lap: Int) -> Int {
        var lo = 0
        var hi = track.fixes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if deliveryTime(ofFix: mid, lap: lap) > time { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    private func update(_ index: Int, lap: Int) -> LocationUpdate {
        var location = track.fixes[index]
        location.timestamp += Double(lap) * track.loopPeriod
        return LocationUpdate(time: deliveryTime(ofFix: index, lap: lap), location: location, rate: speed)
    }

    public func updates(after start: Double, through end: Double) -> [LocationUpdate] {
        guard end >= start, !end.isNaN, !start.isNaN else { return [] }
        precondition(end.isFinite, "TrackReplayProvider.updates: end must be finite")
        var out: [LocationUpdate] = []
        // One lap of margin on each side absorbs rounding in `lap(at:)`; the exact test is the
        // delivery time, computed the same way every time, so no fix is returned twice by
        // consecutive polls or skipped between them.
        let firstLap = max(0, lap(at: start) - 1)
        let lastLap = loops ? lap(at: end) + 1 : 0
        for k in firstLap...lastLap {
            let from = firstIndex(after: start, lap: k)
            let to = firstIndex(after: end, lap: k)
            if from < to { for i in from..<to { out.append(update(i, lap: k)) } }
        }
        return out
    }

    public func latestUpdate(at time: Double) -> LocationUpdate? {
        precondition(time.isFinite, "TrackReplayProvider.latestUpdate: time must be finite")
        var k = lap(at: time) + (loops ? 1 : 0)
        while k >= 0 {
            let i = firstIndex(after: time, lap: k)
            if i > 0 { return update(i - 1, lap: k) }
            k -= 1
        }
        return nil
    }

    /// Track time (seconds, including whole loop periods) at simulation time `time`.
    public func trackTime(at time: Double) -> Double {
        track.startTime + (time - startTime) * speed
    }

    /// The true position at simulation time `time`: linear interpolation between the fixes around
    /// it (``Track/position(at:)``). When looping, between a lap's last fix and the next lap's
    /// first fix the position moves linearly from one to the other. Before the first fix it is
    /// the first fix.
    public func truePosition(at time: Double) -> LocationCoordinate2D {
        let u = trackTime(at: time) - track.startTime
        guard loops, u > 0 else { return track.position(at: track.startTime + u) }
        let period = track.loopPeriod
        let w = u - (u / period).rounded(.down) * period
        if w <= track.duration { return track.position(at: track.startTime + w) }
        let f = (w - track.duration) / (period - track.duration)
        return Geodesy.lerp(track.fixes[track.fixes.count - 1].coordinate, track.fixes[0].coordinate, f)
    }
}
