import FlybyCore
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
