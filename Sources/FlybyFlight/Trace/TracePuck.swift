import FlybyCore

/// The location puck of one trace frame: the optional `puck` field of a trace line
/// (docs/formats.md §3, `"puck": [lng, lat, bearing]`), written when a location track is active.
///
/// A value type with named fields instead of the bare array the line holds; ``TraceWriter``
/// writes it back as the same three numbers (shortest round-trip form), so traces are byte for
/// byte what they were.
public struct TracePuck: Sendable, Equatable {
    /// Longitude in degrees (WGS84), wrapped to [−180, 180) when recorded.
    public var longitude: Double
    /// Latitude in degrees (WGS84).
    public var latitude: Double
    /// Direction of the puck arrow in degrees clockwise from north (the puck's `puckBearing`
    /// source: course or heading); nil for a line that recorded only `[lng, lat]`.
    public var bearing: Double?

    public init(longitude: Double, latitude: Double, bearing: Double?) {
        self.longitude = longitude; self.latitude = latitude; self.bearing = bearing
    }

    /// The puck as drawn by the renderer: accuracy 0 and course = heading = ``bearing`` (a trace
    /// keeps only what the arrow showed). `t` is the frame's time in seconds.
    public func puckState(at t: Double) -> PuckState {
        let c = LocationCoordinate2D(latitude: latitude, longitude: longitude)
        return PuckState(coordinate: c, course: bearing, heading: bearing, horizontalAccuracy: 0,
                         location: Location(coordinate: c, timestamp: t, course: bearing, heading: bearing))
    }

    /// The numbers of the trace field, in order: `[lng, lat]` or `[lng, lat, bearing]`.
    public var fieldValues: [Double] { bearing.map { [longitude, latitude, $0] } ?? [longitude, latitude] }
}

extension MapSimulation {
    /// The puck as a trace records it, when a location is active: its interpolated position
    /// (longitude wrapped to [−180, 180)) and the bearing the arrow shows.
    public var tracePuck: TracePuck? {
        guard let location, let p = location.puck else { return nil }
        return TracePuck(longitude: wrapLongitude(p.coordinate.longitude), latitude: p.coordinate.latitude,
                         bearing: p.bearing(location.puckBearing))
    }
}
