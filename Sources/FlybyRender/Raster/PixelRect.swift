/// A rectangle of whole pixels: columns `minX..<maxX`, rows `minY..<maxY` (origin top-left, y down).
///
/// Used as the clip rectangle of draw calls. An empty rectangle (`maxX <= minX` or `maxY <= minY`)
/// clips everything away.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var minX: Int
    public var minY: Int
    public var maxX: Int
    public var maxY: Int

    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    public var width: Int { max(0, maxX - minX) }
    public var height: Int { max(0, maxY - minY) }
    public var isEmpty: Bool { maxX <= minX || maxY <= minY }

    /// The common part of two rectangles (possibly empty).
    public func intersection(_ other: PixelRect) -> PixelRect {
        PixelRect(minX: max(minX, other.minX), minY: max(minY, other.minY),
                  maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
    }

    public var description: String { "[\(minX)..<\(maxX), \(minY)..<\(maxY)]" }
}
