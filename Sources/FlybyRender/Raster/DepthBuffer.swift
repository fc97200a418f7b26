/// A depth buffer: one depth per pixel of a `width × height` frame, in the caller's units (the
/// terrain uses points along the camera's view axis; smaller is nearer), `Float.infinity` where
/// nothing has been drawn. A value type, self-contained: the terrain (one depth per pixel) and
/// the 3D puck (``ModelRaster``, one per sub-pixel sample, storing −1/W so that smaller is
/// nearer here too) share it.
public struct DepthBuffer: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// At least `width · height` depths, row by row (storage kept by ``reset(width:height:)``).
    public var depths: [Float]

    /// An empty buffer (every pixel at infinity).
    /// - Precondition: `width >= 0`, `height >= 0`.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "DepthBuffer size must not be negative")
        self.width = width
        self.height = height
        depths = Array(repeating: .infinity, count: width * height)
    }

    /// Empties the buffer and sizes it to `width × height` (the storage is kept when it is large
    /// enough, so a buffer reused frame after frame allocates once).
    public mutating func reset(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "DepthBuffer size must not be negative")
        self.width = width
        self.height = height
        let n = width * height
        if depths.count < n { depths = Array(repeating: .infinity, count: n); return }
        depths.withUnsafeMutableBufferPointer { d in for k in 0..<n { d[k] = .infinity } }
    }

    /// The depth test at linear index `k` = y · width + x (the caller keeps `k` in the frame):
    /// keeps `depth` when it is strictly nearer and returns whether it did.
    @inline(__always)
    public mutating func test(index k: Int, depth: Float) -> Bool {
        guard depth < depths[k] else { return false }
        depths[k] = depth
        return true
    }

    /// Forgets every depth in rows `rows` (back to infinity).
    public mutating func clear(rows: Range<Int>) {
        let lo = max(0, rows.lowerBound), hi = min(height, rows.upperBound)
        guard lo < hi else { return }
        depths.withUnsafeMutableBufferPointer { d in
            for k in (lo * width)..<(hi * width) { d[k] = .infinity }
        }
    }

    /// The depth at pixel (`x`, `y`); infinity outside the frame.
    @inlinable
    public func depth(x: Int, y: Int) -> Float {
        guard x >= 0, y >= 0, x < width, y < height else { return .infinity }
        return depths[y * width + x]
    }

    /// Keeps `depth` at (`x`, `y`) when it is strictly nearer than what is there; returns whether
    /// it was kept (the depth test). Pixels outside the frame are never kept.
    @inlinable
    public mutating func test(x: Int, y: Int, depth: Float) -> Bool {
        guard x >= 0, y >= 0, x < width, y < height else { return false }
        let k = y * width + x
        guard depth < depths[k] else { return false }
        depths[k] = depth
        return true
    }

    /// Whether a point at `depth` is visible at (`x`, `y`): nearer than the stored depth by the
    /// relative `bias` (a point on the surface itself passes). Outside the frame: false.
    @inlinable
    public func isVisible(x: Int, y: Int, depth: Float, bias: Float = 0.01) -> Bool {
        guard x >= 0, y >= 0, x < width, y < height else { return false }
        return depth <= depths[y * width + x] * (1 + bias)
    }
}
