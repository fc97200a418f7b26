/// A geographic coordinate on the WGS84 ellipsoid, in degrees.
///
/// The counterpart of Core Location's `CLLocationCoordinate2D` (which does not exist on Linux);
/// the field names are the same so code from the Mapbox guides reads the same.
public struct LocationCoordinate2D: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator, −90…90.
    public var latitude: Double
    /// Degrees east of Greenwich. Not wrapped by this type; the camera wraps it to [−180, 180).
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Both components are finite numbers.
    public var isFinite: Bool { latitude.isFinite && longitude.isFinite }

    public var description: String { "(\(latitude), \(longitude))" }
}

/// The Core Location name, for code ported from the Mapbox guides.
public typealias CLLocationCoordinate2D = LocationCoordinate2D

/// Wraps a longitude (degrees) into [−180, 180).
@inlinable
public func wrapLongitude(_ longitude: Double) -> Double {
    if longitude >= -180 && longitude < 180 { return longitude + 0.0 }  // + 0.0 turns −0 into 0
    var wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
    if wrapped < 0 { wrapped += 360 }
    let result = wrapped - 180
    return result >= 180 ? result - 360 : result
}

/// Wraps a direction (degrees clockwise from north) into [0, 360).
@inlinable
public func wrapBearing(_ bearing: Double) -> Double {
    if bearing >= 0 && bearing < 360 { return bearing + 0.0 }  // + 0.0 turns −0 into 0
    var wrapped = bearing.truncatingRemainder(dividingBy: 360)
    if wrapped < 0 { wrapped += 360 }
    return wrapped >= 360 ? 0 : wrapped
}

/// The value of `to`, shifted by a multiple of 360, that is closest to `from`: the end of the
/// shortest rotation (or longitude path) from `from`.
///
/// Mapbox's `shouldOptimizeBearingPath` rule: a difference of +180 or more turns
/// counter-clockwise, −180 or less clockwise, so 0 → 180 becomes 0 → −180, 350 → 10 becomes
/// 350 → 370 and 10 → 350 becomes 10 → −10. Unlike Mapbox, `from` may be any number of turns away.
@inlinable
public func shortestAngle(from: Double, to: Double) -> Double {
    guard from.isFinite && to.isFinite else { return to }
    var d = (to - from).truncatingRemainder(dividingBy: 360)
    if d >= 180 { d -= 360 } else if d <= -180 { d += 360 }
    return from + d
}
