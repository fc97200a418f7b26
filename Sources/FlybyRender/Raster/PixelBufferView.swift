/// An unsafe, non-owning view of premultiplied `0xAARRGGBB` pixels (stride == width), for the
/// rasterizer's inner loops and for rendering disjoint row bands on several threads.
///
/// It is `@unchecked Sendable` so that band renderers on different threads can share one frame:
/// that is sound only when each thread writes a disjoint set of rows (a ``PathFiller`` built for
/// rows `a..<b` never touches other rows) and the owning ``PixelBuffer`` outlives the work.
/// Obtain one from ``PixelBuffer/withView(_:)``.
public struct PixelBufferView: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<UInt32>?
    public let width: Int
    public let height: Int

    /// Plumbing (a raw pointer): hosts get a view from ``PixelBuffer/withView(_:)``.
    @inlinable
    package init(base: UnsafeMutablePointer<UInt32>?, width: Int, height: Int) {
        precondition(width >= 0 && height >= 0 && (base != nil || width * height == 0))
        self.base = base; self.width = width; self.height = height
    }

    public var bounds: PixelRect { PixelRect(minX: 0, minY: 0, maxX: width, maxY: height) }

    /// The first pixel of row `y` (unchecked).
    @inlinable @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt32> { base.unsafelyUnwrapped + y * width }

    /// Source-over `premultiplied` onto every pixel of `rect` clipped to the view.
    public func fill(_ rect: PixelRect, premultiplied: UInt32) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.minY..<r.maxY { blendSpan(row(y), r.minX, r.maxX, premultiplied) }
    }
}

/// Source-over `source` (premultiplied, coverage already applied) onto `row[x0..<x1]`.
/// An opaque source stores directly; a transparent one returns at once.
@inlinable @inline(__always)
func blendSpan(_ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int, _ source: UInt32) {
    let alpha = source >> 24
    if alpha == 255 {
        (row + x0).update(repeating: source, count: x1 - x0)
    } else if alpha != 0 || source != 0 {
        let inverse = 255 &- alpha
        var x = x0
        while x < x1 {
            row[x] = source &+ PixelBlend.scale(row[x], by: inverse)
            x &+= 1
        }
    }
}
