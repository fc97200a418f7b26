#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Web Mercator (EPSG:3857) in the tile-size convention of Mapbox GL and MapLibre: the world is
/// 512 points wide at zoom 0, so at zoom z it is `512 · 2^z` points wide.
///
/// World points ("world px") have their origin at the north-west corner (lng −180, lat 85.05°),
/// x east and y **south**. Unit coordinates are world points divided by the world size (0…1).
/// Formulas: Snyder, *Map Projections — A Working Manual* (USGS 1987), §7, spherical Mercator.
public enum WebMercator {
    /// World width in points at zoom 0.
    public static let tileSize: Double = 512
    /// The latitude at which the square Web Mercator world ends, degrees.
    public static let maxLatitude: Double = 85.051129
    /// Mean Earth radius used for metres (GL JS's 6,371,008.8 m).
    public static let earthRadius: Double = 6_371_008.8

    /// World size in points at a zoom level.
    @inlinable
    public static func worldSize(zoom: Double) -> Double { tileSize * exp2(zoom) }

    /// Unit x (0…1) of a longitude in degrees. Not wrapped: lng 190 gives x > 1.
    @inlinable
    public static func unitX(longitude: Double) -> Double { (longitude + 180) / 360 }

    /// Unit y (0 at the north edge, 1 at the south edge) of a latitude in degrees, clamped to ±maxLatitude.
    @inlinable
    public static func unitY(latitude: Double) -> Double {
        let lat = min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180
        return 0.5 - log(tan(.pi / 4 + lat / 2)) / (2 * .pi)
    }

    @inlinable
    public static func longitude(unitX x: Double) -> Double { x * 360 - 180 }

    @inlinable
    public static func latitude(unitY y: Double) -> Double {
        360 / .pi * atan(exp((0.5 - y) * 2 * .pi)) - 90
    }

    /// World point of a coordinate at a world size (points).
    @inlinable
    public static func project(_ c: LocationCoordinate2D, worldSize: Double) -> (x: Double, y: Double) {
        (unitX(longitude: c.longitude) * worldSize, unitY(latitude: c.latitude) * worldSize)
    }

    /// The coordinate of a world point at a world size (points). Longitude is not wrapped.
    @inlinable
    public static func unproject(x: Double, y: Double, worldSize: Double) -> LocationCoordinate2D {
        LocationCoordinate2D(latitude: latitude(unitY: y / worldSize), longitude: longitude(unitX: x / worldSize))
    }

    /// Metres per screen point at a latitude and zoom (ground resolution on the sphere).
    @inlinable
    public static func metersPerPoint(latitude: Double, zoom: Double) -> Double {
        2 * .pi * earthRadius * cos(latitude * .pi / 180) / worldSize(zoom: zoom)
    }
}
