/// One fix as delivered to the simulation: the fix and the simulation time it arrives at.
public struct LocationUpdate: Hashable, Sendable {
    /// Simulation time of delivery, seconds.
    public var time: Double
    /// The fix. Its `timestamp` is in track time (plus whole loop periods when looping).
    public var location: Location
    /// Track seconds per simulation second (the replay speed factor), so a speed in m/s of
    /// track time can be turned into metres per simulation second.
    public var rate: Double

    public init(time: Double, location: Location, rate: Double = 1) {
        self.time = time
        self.location = location
        self.rate = rate
    }
}

/// A source of location fixes, pulled by the simulation with its own clock.
///
/// Unlike Mapbox's push-style `LocationProvider` (observers called on the main thread when Core
/// Location delivers), this is a pure, pull-style description of *when* each fix arrives: the
/// simulation asks every tick for the fixes that arrived since the previous tick. No wall clock,
/// no threads, no callbacks. A Mapbox-style observer API is a thin layer on top: keep a
/// ``LocationFeed`` and call the observers with what ``LocationFeed/poll(through:)`` returns.
///
/// Both requirements must be pure functions of their arguments (the same answer every call).
public protocol LocationProvider: Sendable {
    /// The fixes delivered in the half-open simulation-time interval (`start`, `end`], oldest
    /// first. `start` may be `-Double.infinity` for "from the beginning".
    func updates(after start: Double, through end: Double) -> [LocationUpdate]

    /// The newest fix delivered at or before simulation time `time`; nil before the first.
    func latestUpdate(at time: Double) -> LocationUpdate?
}

extension LocationProvider {
    /// The locations of ``updates(after:through:)``.
    public func locations(after start: Double, upTo end: Double) -> [Location] {
        updates(after: start, through: end).map(\.location)
    }

    /// The location of ``latestUpdate(at:)``.
    public func latestLocation(at time: Double) -> Location? { latestUpdate(at: time)?.location }
}

/// Remembers how far a ``LocationProvider`` has been polled, so each tick gets only the fixes
/// that are new. This is where a Mapbox-style `onLocationChange` observer would hang.
public struct LocationFeed<Provider: LocationProvider>: Sendable {
    public let provider: Provider
    /// The simulation time of the last poll; nil before the first.
    public private(set) var polledThrough: Double?
    /// The newest update returned so far.
    public private(set) var latest: LocationUpdate?

    public init(provider: Provider) { self.provider = provider }

    /// The fixes delivered since the previous poll, up to and including simulation time `time`
    /// (on the first poll: everything delivered up to `time`).
    /// - Precondition: `time` is finite and not before the previous poll.
    public mutating func poll(through time: Double) -> [LocationUpdate] {
        precondition(time.isFinite, "LocationFeed.poll: time must be finite")
        let start = polledThrough ?? -Double.infinity
        precondition(time >= start, "LocationFeed.poll: time went backwards (\(time) < \(start))")
        let updates = provider.updates(after: start, through: time)
        polledThrough = time
        if let last = updates.last { latest = last }
        return updates
    }
}
