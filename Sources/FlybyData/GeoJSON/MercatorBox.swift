import FlybyCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Latitude limit of Web Mercator in degrees (where the projected world is square).
public let mercatorMaxLatitude = 85.051129

/// Projects a longitude (degrees) to Web Mercator unit x: 0 at −180°, 1 at +180°; longitudes
/// outside ±180 map outside 0…1 (the same world shifted by whole units).
@inlinable
public func mercatorX(longitude: Double) -> Double { (longitude + 180) / 360 }

/// Projects a latitude (degrees) to Web Mercator unit y, growing southward: 0 at 85.051129° N,
/// 0.5 at the equator, 1 at 85.051129° S. Latitudes beyond ±85.051129° are clamped.
///
/// y = 0.5 − ln(tan(π/4 + φ/2)) / (2π) (the spherical Mercator of EPSG:3857, scaled to 0…1).
@inlinable
public func mercatorY(latitude: Double) -> Double {
    let phi = min(max(latitude, -mercatorMaxLatitude), mercatorMaxLatitude) * Double.pi / 180
    return 0.5 - log(tan(Double.pi / 4 + phi / 2)) / (2 * Double.pi)
}

/// An axis-aligned box in Web Mercator unit coordinates (x east, y south; the world is 0…1).
public struct MercatorBox: Hashable, Sendable, CustomStringConvertible {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// The empty box (contains nothing, the identity of ``union(_:)``).
    public static let empty = MercatorBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    public var isEmpty: Bool { minX > maxX || minY > maxY }

    /// True when the boxes share at least one point (edges touching count).
    @inlinable
    public func intersects(_ o: MercatorBox) -> Bool {
        minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }

    @inlinable
    public mutating func include(x: Double, y: Double) {
        if x < minX { minX = x }
        if x > maxX { maxX = x }
        if y < minY { minY = y }
        if y > maxY { maxY = y }
    }

    public func union(_ o: MercatorBox) -> MercatorBox {
        MercatorBox(minX: Swift.min(minX, o.minX), minY: Swift.min(minY, o.minY),
                    maxX: Swift.max(maxX, o.maxX), maxY: Swift.max(maxY, o.maxY))
    }

    /// The box shifted east by `dx` world widths (for the world copies either side of the antimeridian).
    public func shifted(byWorlds dx: Double) -> MercatorBox {
        MercatorBox(minX: minX + dx, minY: minY, maxX: maxX + dx, maxY: maxY)
    }

    public var description: String { "[\(minX), \(minY), \(maxX), \(maxY)]" }
}
