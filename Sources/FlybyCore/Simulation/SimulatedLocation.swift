/// A replayed location track with its puck interpolation, ticked by the simulation.
public final class SimulatedLocation {
    public let track: Track
    public private(set) var interpolator: PuckInterpolator
    private var feed: LocationFeed<TrackReplayProvider>
    /// The puck as of the last tick (nil before the first fix).
    public private(set) var puck: PuckState?
    /// Which direction the puck arrow shows (Mapbox's `puckBearing`).
    public var puckBearing: PuckBearing = .course

    /// - Parameters: `speed` scales replay time; `loop` restarts the track at its end; `startTime`
    ///   is the simulation time of the first fix.
    public init(track: Track, speed: Double = 1, loop: Bool = false, startTime: Double = 0, mode: PuckInterpolationMode = .mapboxDefault) {
        self.track = track
        feed = LocationFeed(provider: TrackReplayProvider(track: track, speed: speed, loop: loop, startTime: startTime))
        interpolator = PuckInterpolator(mode: mode)
    }

    /// Delivers the fixes due by `time` and returns whether the puck moved.
    @discardableResult
    func advance(to time: Double) -> Bool {
        let next = interpolator.advance(to: time, feed: &feed)
        defer { puck = next }
        return next != puck
    }

    /// The true position (between fixes, linearly) at a simulation time, for lag measurements.
    public func truePosition(at time: Double) -> LocationCoordinate2D { feed.provider.truePosition(at: time) }
}
