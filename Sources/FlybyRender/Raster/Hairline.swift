import FlybyCore

/// Anti-aliased thin lines (width ≤ 1 px) drawn straight into the frame, without the general
/// stroker and the area filler.
///
/// docs/render-baselines.md found the 1 px outline costing more than the fill in every library but
/// Skia, which draws such strokes as "hairlines". This is our own hairline: each segment is walked
/// along its major axis one pixel column (or row) at a time; in each column the line is taken as a
/// vertical band of height `width · √(1 + m²)` (m the slope) centred on the centre line at the
/// column's middle, and each pixel gets the band's overlap with it times the length of the
/// segment inside the column (a box-filter estimate of the covered area). End columns get their
/// fractional share, so consecutive segments of a polyline add up to one full column at the
/// shared vertex. Diagonal lines keep their weight (unlike Wu's algorithm, whose 45° lines come
/// out lighter by √2). Pixels where two segments cross are blended twice, as with any per-segment
/// hairline. Units: screen pixels, origin top-left, y down.
enum Hairline {
    /// Strokes every contour of `path` (closing closed ones) with a `width`-pixel line of `color`.
    static func stroke(_ path: Path, width: Double, color: Color, clip: PixelRect? = nil, into view: PixelBufferView) {
        let w = min(max(width, 0), 1)
        let source = color.premultipliedARGB
        guard w > 0, source >> 24 != 0 else { return }
        var box = view.bounds
        if let clip { box = box.intersection(clip) }
        guard !box.isEmpty else { return }
        path.points.withUnsafeBufferPointer { pts in
            for c in path.contours {
                guard c.end - c.start >= 2 else { continue }
                var i = c.start
                while i < c.end - 1 {
                    segment(pts[i], pts[i + 1], w, source, box, view)
                    i += 1
                }
                if c.isClosed && c.end - c.start > 2 { segment(pts[c.end - 1], pts[c.start], w, source, box, view) }
            }
        }
    }

    @inline(__always)
    static func segment(_ a: ScreenPoint, _ b: ScreenPoint, _ w: Double, _ source: UInt32, _ box: PixelRect,
                        _ view: PixelBufferView) {
        // Off-screen segments (most of a large country's coastline when zoomed in) cost nothing.
        if (a.x < Double(box.minX) - 1 && b.x < Double(box.minX) - 1) || (a.x > Double(box.maxX) + 1 && b.x > Double(box.maxX) + 1)
            || (a.y < Double(box.minY) - 1 && b.y < Double(box.minY) - 1) || (a.y > Double(box.maxY) + 1 && b.y > Double(box.maxY) + 1) {
            return
        }
        let dx = b.x - a.x, dy = b.y - a.y
        guard dx.isFinite && dy.isFinite else { return }
        if abs(dx) >= abs(dy) {
            guard dx != 0 else { return }
            let (x0, y0, x1) = dx > 0 ? (a.x, a.y, b.x) : (b.x, b.y, a.x)
            let m = dy / dx
            band(major0: x0, major1: x1, minor0: y0, slope: m, width: w, source: source,
                 majorLo: box.minX, majorHi: box.maxX, minorLo: box.minY, minorHi: box.maxY, transposed: false, view)
        } else {
            let (y0, x0, y1) = dy > 0 ? (a.y, a.x, b.y) : (b.y, b.x, a.y)
            let m = dx / dy
            band(major0: y0, major1: y1, minor0: x0, slope: m, width: w, source: source,
                 majorLo: box.minY, majorHi: box.maxY, minorLo: box.minX, minorHi: box.maxX, transposed: true, view)
        }
    }

    /// ⌊x⌋ for |x| < 2^62 without a libm call (the default x86-64 target has no `roundsd`).
    @inline(__always)
    static func floor(_ x: Double) -> Int {
        let i = Int(x)
        return Double(i) > x ? i - 1 : i
    }

    /// Walks major-axis cells `[i, i+1)` from `major0` to `major1` (ascending); minor position
    /// `minor0 + slope · (t − major0)`.
    ///
    /// The inner loops count cell edges in Doubles and step pixel pointers instead of converting
    /// and multiplying per pixel; every value equals the direct formula (integers below 2^53 are
    /// exact in a Double), so the pixels are the same.
    @inline(__always)
    static func band(major0: Double, major1: Double, minor0: Double, slope m: Double, width w: Double, source: UInt32,
                     majorLo: Int, majorHi: Int, minorLo: Int, minorHi: Int, transposed: Bool, _ view: PixelBufferView) {
        let half = 0.5 * w * (1 + m * m).squareRoot()
        // ⌊major0⌋ and ⌈major1⌉ without libm's floor/ceil calls.
        let start = max(majorLo, Hairline.floor(max(-1e9, major0)))
        let end = min(majorHi - 1, -Hairline.floor(-min(1e9, major1)) - 1)
        guard start <= end else { return }
        guard let base = view.base else { return }
        // Pixel (major i, minor j) lives at base + i · majorStep + j · minorStep.
        let majorStep = transposed ? view.width : 1, minorStep = transposed ? 1 : view.width
        var i = start
        var cellLo = Double(start)   // == Double(i)
        while i <= end {
            let cellHi = cellLo + 1
            let ma = max(major0, cellLo), mb = min(major1, cellHi)
            let length = mb - ma
            if length > 0 {
                let center = minor0 + m * ((ma + mb) * 0.5 - major0)
                let lo = center - half, hi = center + half
                let j0 = max(minorLo, Hairline.floor(max(-1e9, lo))), j1 = min(minorHi - 1, Hairline.floor(min(1e9, hi)))
                if j0 <= j1 {
                    // Wrapping arithmetic: indices are inside the frame, and the checks cost
                    // instructions on every pixel.
                    var p = base + (i &* majorStep &+ j0 &* minorStep)
                    var rowLo = Double(j0)   // == Double(j)
                    var j = j0
                    while j <= j1 {
                        let rowHi = rowLo + 1
                        let cover = (min(hi, rowHi) - max(lo, rowLo)) * length
                        rowLo = rowHi
                        let a = UInt32(min(256, max(0, cover * 256 + 0.5)))
                        if a != 0 {
                            let s = a >= 256 ? source : scaleAll(source, a)
                            p.pointee = s &+ PixelBlend.scale(p.pointee, by: 255 &- s >> 24)
                        }
                        p += minorStep
                        j &+= 1
                    }
                }
            }
            i &+= 1
            cellLo += 1
        }
    }
}
