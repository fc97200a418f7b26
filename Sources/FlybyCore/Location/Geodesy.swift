#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Spherical-earth formulas for distances and directions between coordinates, used by the
/// location code (course estimation, extrapolation, lag measurement).
///
/// The earth is a sphere of radius ``earthRadius`` (the IUGG mean radius R₁ = 6 371 008.8 m).
/// Over the few hundred metres between GPS fixes the error against the WGS84 ellipsoid is below
/// 0.5 %, far below GPS noise. Formulas follow Ed Williams' *Aviation Formulary* and Chris Veness'
/// *Movable Type* notes (haversine distance, initial bearing, destination point).
public enum Geodesy {
    /// Mean earth radius in metres (IUGG R₁).
    public static let earthRadius: Double = 6_371_008.8

    @usableFromInline static let radiansPerDegree = Double.pi / 180

    /// Great-circle distance in metres by the haversine formula:
    /// a = sin²(Δφ/2) + cos φ₁ · cos φ₂ · sin²(Δλ/2), d = 2R · atan2(√a, √(1 − a)).
    public static func distance(from a: LocationCoordinate2D, to b: LocationCoordinate2D) -> Double {
        let phi1 = a.latitude * radiansPerDegree
        let phi2 = b.latitude * radiansPerDegree
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * radiansPerDegree
        let s1 = sin(dPhi / 2)
        let s2 = sin(dLambda / 2)
        let h = min(1, max(0, s1 * s1 + cos(phi1) * cos(phi2) * s2 * s2))
        return 2 * earthRadius * atan2(h.squareRoot(), (1 - h).squareRoot())
    }

    /// Initial great-circle bearing from `a` to `b` in degrees clockwise from true north, [0, 360):
    /// θ = atan2(sin Δλ · cos φ₂, cos φ₁ · sin φ₂ − sin φ₁ · cos φ₂ · cos Δλ).
    ///
    /// Returns nil when the points coincide (the direction is undefined), so callers never see
    /// a NaN or an arbitrary 0.
    public static func initialBearing(from a: LocationCoordinate2D, to b: LocationCoordinate2D) -> Double? {
        let phi1 = a.latitude * radiansPerDegree
        let phi2 = b.latitude * radiansPerDegree
        let dLambda = (b.longitude - a.longitude) * radiansPerDegree
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        guard x != 0 || y != 0 else { return nil }
        let theta = atan2(y, x) / radiansPerDegree
        return wrapBearing(theta)
    }

    /// The point reached from `start` after `distance` metres along the great circle with initial
    /// bearing `bearing` (degrees): φ₂ = asin(sin φ₁ cos δ + cos φ₁ sin δ cos θ),
    /// λ₂ = λ₁ + atan2(sin θ sin δ cos φ₁, cos δ − sin φ₁ sin φ₂), with δ = d / R.
    /// The longitude is not wrapped, so it stays continuous with `start`'s.
    public static func destination(from start: LocationCoordinate2D, bearing: Double, distance: Double)
        -> LocationCoordinate2D
    {
        guard distance != 0 else { return start }
        let delta = distance / earthRadius
        let theta = bearing * radiansPerDegree
        let phi1 = start.latitude * radiansPerDegree
        let lambda1 = start.longitude * radiansPerDegree
        let sinPhi2 = min(1, max(-1, sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta)))
        let phi2 = asin(sinPhi2)
        let lambda2 = lambda1 + atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sinPhi2)
        return LocationCoordinate2D(latitude: phi2 / radiansPerDegree, longitude: lambda2 / radiansPerDegree)
    }

    /// Linear interpolation between two coordinates: latitude linearly, longitude along the
    /// shorter way round (``shortestAngle(from:to:)``), result longitude wrapped to [−180, 180).
    /// `t` = 0 gives `a`, 1 gives `b`. This is the puck's interpolation (Mapbox `ValueInterpolator`).
    public static func lerp(_ a: LocationCoordinate2D, _ b: LocationCoordinate2D, _ t: Double) -> LocationCoordinate2D {
        let lon2 = shortestAngle(from: a.longitude, to: b.longitude)
        return LocationCoordinate2D(
            latitude: a.latitude + (b.latitude - a.latitude) * t,
            longitude: wrapLongitude(a.longitude + (lon2 - a.longitude) * t))
    }
}
