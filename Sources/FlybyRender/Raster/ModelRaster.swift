/// Solid triangles rasterized with a depth test at `s × s` samples per pixel over a rectangle
/// of the frame, then resolved (averaged) onto the frame: the 3D puck's renderer.
///
/// Sample (i, j) of the frame sits at ((i + ½) / s, (j + ½) / s) pixels, counted from the
/// frame's top-left corner, whatever the rectangle: a renderer that draws only some rows (a
/// band, ``MapRenderer/threads``) computes exactly the samples a whole-frame renderer computes
/// for those rows, so the pixels do not depend on the band split. A sample is inside a triangle
/// when all three edge functions are ≥ 0 (Pineda, "A parallel algorithm for polygon
/// rasterization", SIGGRAPH 1988); where triangles overlap, the nearer (larger 1/W) wins.
struct ModelRaster {
    var depth = DepthBuffer(width: 0, height: 0)
    /// Premultiplied 0xAARRGGBB per sample; 0 where empty.
    var colors: [UInt32] = []
    /// The pixels being drawn.
    private(set) var region = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    private(set) var samplesPerSide = 4
    /// The frame's depth buffer of what is already drawn in 3D (the terrain's relief), or nil: a
    /// sample more than 1 % behind its pixel's depth there is hidden (the labels' test).
    var occluder: DepthBuffer?

    /// Starts a drawing over `region` (pixels) at `samplesPerSide`² samples a pixel (1…4).
    mutating func begin(region: PixelRect, samplesPerSide s: Int) {
        self.region = region
        samplesPerSide = s
        let w = region.width * s, h = region.height * s
        depth.reset(width: w, height: h)
        if colors.count < w * h { colors = [UInt32](repeating: 0, count: w * h) } else {
            colors.withUnsafeMutableBufferPointer { p in for i in 0..<(w * h) { p[i] = 0 } }
        }
    }

    /// One triangle of screen points (pixels) with inverse depths `1/W`, in `color`
    /// (premultiplied). Either winding.
    mutating func fill(_ a: (x: Double, y: Double, inverseDepth: Double), _ b: (x: Double, y: Double, inverseDepth: Double),
                       _ c: (x: Double, y: Double, inverseDepth: Double), color: UInt32) {
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        guard area != 0, area.isFinite else { return }
        let s = Double(samplesPerSide)
        // The samples whose centres can lie in the triangle, in frame sample indices, cut to the region.
        let sx0 = max(region.minX * samplesPerSide, Int((min(a.x, b.x, c.x) * s - 0.5).rounded(.up)))
        let sx1 = min(region.maxX * samplesPerSide - 1, Int((max(a.x, b.x, c.x) * s - 0.5).rounded(.down)))
        let sy0 = max(region.minY * samplesPerSide, Int((min(a.y, b.y, c.y) * s - 0.5).rounded(.up)))
        let sy1 = min(region.maxY * samplesPerSide - 1, Int((max(a.y, b.y, c.y) * s - 0.5).rounded(.down)))
        guard sx0 <= sx1, sy0 <= sy1 else { return }
        let inv = 1 / area
        let w = region.width * samplesPerSide
        let ox = region.minX * samplesPerSide, oy = region.minY * samplesPerSide
        for j in sy0...sy1 {
            let py = (Double(j) + 0.5) / s
            for i in sx0...sx1 {
                let px = (Double(i) + 0.5) / s
                // Barycentric weights from the edge functions, signed by the winding.
                let wa = ((b.x - px) * (c.y - py) - (b.y - py) * (c.x - px)) * inv
                let wb = ((c.x - px) * (a.y - py) - (c.y - py) * (a.x - px)) * inv
                let wc = 1 - wa - wb
                guard wa >= 0, wb >= 0, wc >= 0 else { continue }
                let z = Float(wa * a.inverseDepth + wb * b.inverseDepth + wc * c.inverseDepth)
                let k = (j - oy) * w + (i - ox)
                if let occluder, !occluder.isVisible(x: i / samplesPerSide, y: j / samplesPerSide, depth: 1 / z, bias: 0.01) { continue }
                if depth.test(index: k, depth: -z) { colors[k] = color }  // −1/W: smaller is nearer
            }
        }
    }

    /// Averages each pixel's samples (empty ones transparent, so edges are anti-aliased), scales
    /// by `opacity` (0…255) and draws the result source-over onto `view`.
    func resolve(opacity: UInt32, into view: PixelBufferView) {
        let s = samplesPerSide, n = UInt32(s * s)
        let w = region.width * s
        for y in region.minY..<region.maxY {
            let row = view.row(y)
            for x in region.minX..<region.maxX {
                var a: UInt32 = 0, r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                let base = (y - region.minY) * s * w + (x - region.minX) * s
                for j in 0..<s {
                    for i in 0..<s {
                        let p = colors[base + j * w + i]
                        a += p >> 24; r += (p >> 16) & 0xFF; g += (p >> 8) & 0xFF; b += p & 0xFF
                    }
                }
                guard a > 0 else { continue }
                let h = n / 2
                let pixel = ((a + h) / n) << 24 | ((r + h) / n) << 16 | ((g + h) / n) << 8 | (b + h) / n
                row[x] = PixelBlend.sourceOver(PixelBlend.scale(pixel, by: opacity), row[x])
            }
        }
    }
}
