/// A depth buffer over a rectangle of samples: one `Float` per sample holding the inverse depth
/// 1/W (W the distance along the view axis, in points, as in ``FrameGeometry``), 0 where nothing
/// has been drawn. Larger is nearer. 1/W varies linearly across a projected triangle, so
/// interpolating it in screen space is exact under perspective.
///
/// Kept small and separate so that the map's other depth-tested drawing (terrain) can share the
/// type; storage is reused from frame to frame.
struct DepthBuffer {
    private(set) var width = 0, height = 0
    private(set) var values: [Float] = []

    /// Empties the buffer and sizes it to `width × height` samples (storage kept when it fits).
    mutating func reset(width: Int, height: Int) {
        self.width = width; self.height = height
        let n = width * height
        if values.count < n { values = [Float](repeating: 0, count: n) } else {
            values.withUnsafeMutableBufferPointer { p in for i in 0..<n { p[i] = 0 } }
        }
    }

    /// True (and the sample takes `inverseDepth`) when `inverseDepth` is nearer than what the
    /// sample holds.
    @inline(__always)
    mutating func testAndSet(_ index: Int, _ inverseDepth: Float) -> Bool {
        guard inverseDepth > values[index] else { return false }
        values[index] = inverseDepth
        return true
    }
}
