@testable import FlybyCore

/// A fix at (lat, lon) at track time t.
func fix(
    _ lat: Double, _ lon: Double, t: Double, course: Double? = nil, speed: Double? = nil,
    accuracy: Double = 0, heading: Double? = nil
) -> Location {
    Location(
        coordinate: LocationCoordinate2D(latitude: lat, longitude: lon), timestamp: t, course: course,
        speed: speed, horizontalAccuracy: accuracy, heading: heading)
}

/// Metres between two coordinates.
func metres(_ a: LocationCoordinate2D, _ b: LocationCoordinate2D) -> Double { Geodesy.distance(from: a, to: b) }

/// A straight track due north from (60, 25) at `speed` m/s, one fix per `interval` s.
func straightTrack(count: Int, interval: Double = 1, speed: Double = 10, withSpeed: Bool = true) throws -> Track {
    let start = LocationCoordinate2D(latitude: 60, longitude: 25)
    var fixes: [Location] = []
    for i in 0..<count {
        let c = Geodesy.destination(from: start, bearing: 0, distance: speed * interval * Double(i))
        fixes.append(
            Location(
                coordinate: c, timestamp: Double(i) * interval, course: withSpeed ? 0 : nil,
                speed: withSpeed ? speed : nil, horizontalAccuracy: 5))
    }
    return try Track(name: "straight", fixes: fixes)
}
