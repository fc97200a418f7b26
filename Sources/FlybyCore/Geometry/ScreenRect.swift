/// A rectangle in screen points (origin top-left, y down): the counterpart of `CGRect`.
public struct ScreenRect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: ScreenPoint
    public var size: ScreenSize

    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = ScreenPoint(x: x, y: y); size = ScreenSize(width: width, height: height)
    }

    /// A rectangle of `size` centred on a point (e.g. a 44 × 44 tap box).
    public init(center: ScreenPoint, size: ScreenSize) {
        self.init(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
    }

    public var x: Double { origin.x }
    public var y: Double { origin.y }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }

    /// True when the interiors overlap (rectangles that only touch do not).
    public func intersects(_ o: ScreenRect) -> Bool { x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY }

    /// True when `o` lies wholly inside this rectangle.
    public func contains(_ o: ScreenRect) -> Bool { o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY }

    /// True when the point is inside or on the edge.
    public func contains(_ p: ScreenPoint) -> Bool { p.x >= x && p.x <= maxX && p.y >= y && p.y <= maxY }

    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}
