/// One location fix, as a GPS receiver or a replayed track reports it.
///
/// The counterpart of Mapbox's `Location` (which wraps `CLLocation`), with time as a plain number:
/// ``timestamp`` is in **seconds of track time** (the time axis of the track the fix came from,
/// for built-in and loaded tracks seconds since the first fix). A ``TrackReplayProvider`` maps it
/// to simulation time.
public struct Location: Hashable, Sendable, CustomStringConvertible {
    /// Position in degrees.
    public var coordinate: LocationCoordinate2D
    /// Seconds of track time.
    public var timestamp: Double
    /// Direction of travel in degrees clockwise from true north, [0, 360); nil when unknown.
    public var course: Double?
    /// Ground speed in metres per second (≥ 0); nil when unknown.
    public var speed: Double?
    /// Radius of the 68 % confidence circle in metres (≥ 0); 0 when the source gives none.
    public var horizontalAccuracy: Double
    /// Compass heading (where the device points) in degrees clockwise from true north,
    /// [0, 360); nil when there is no compass.
    public var heading: Double?
    /// Height above the WGS84 ellipsoid (GPX `<ele>`) in metres; nil when unknown. Not drawn.
    public var altitude: Double?

    public init(
        coordinate: LocationCoordinate2D, timestamp: Double, course: Double? = nil,
        speed: Double? = nil, horizontalAccuracy: Double = 0, heading: Double? = nil,
        altitude: Double? = nil
    ) {
        self.coordinate = coordinate
        self.timestamp = timestamp
        self.course = course
        self.speed = speed
        self.horizontalAccuracy = horizontalAccuracy
        self.heading = heading
        self.altitude = altitude
    }

    /// Why this fix cannot be used, or nil when every field is finite and in range: latitude
    /// −90…90, longitude −180…180, accuracy and speed ≥ 0, course and heading finite.
    public var invalidReason: String? {
        if !coordinate.latitude.isFinite || !(-90...90).contains(coordinate.latitude) {
            return "latitude \(coordinate.latitude) is out of range -90…90"
        }
        if !coordinate.longitude.isFinite || !(-180...180).contains(coordinate.longitude) {
            return "longitude \(coordinate.longitude) is out of range -180…180"
        }
        if !timestamp.isFinite { return "time \(timestamp) is not a finite number" }
        if !horizontalAccuracy.isFinite || horizontalAccuracy < 0 {
            return "accuracy \(horizontalAccuracy) must be a finite number ≥ 0"
        }
        if let speed, !speed.isFinite || speed < 0 { return "speed \(speed) must be a finite number ≥ 0" }
        if let course, !course.isFinite { return "course \(course) is not a finite number" }
        if let heading, !heading.isFinite { return "heading \(heading) is not a finite number" }
        if let altitude, !altitude.isFinite { return "altitude \(altitude) is not a finite number" }
        return nil
    }

    public var description: String {
        var s = "Location(\(coordinate), t: \(timestamp)"
        if let course { s += ", course: \(course)" }
        if let speed { s += ", speed: \(speed)" }
        s += ", accuracy: \(horizontalAccuracy)"
        if let heading { s += ", heading: \(heading)" }
        return s + ")"
    }
}
