extension GlyphDistanceField {
    /// The field of a glyph PBF bitmap, in the encoding ``GlyphFieldPainter`` thresholds.
    ///
    /// The mapping. A PBF byte `v` encodes the distance to the outline in pixels of the 24 px em
    /// as MapLibre's glyph shader reads it: the edge is at `v = 192` (its `(256 − 64) / 256`
    /// cut-off) and 8 px of distance (`SDF_PX`) span 256 steps, so `d = (192 − v) / 32` px,
    /// positive outside. Flyby's fields store `128 + d_em · quantaPerEm`, so a PBF byte becomes
    /// `128 + (192 − v) · 12 / 32` (one texel per PBF pixel: 24 texels per em). The painter's
    /// text edge (`d = 0`) is then MapLibre's, and a halo of `h` px reaches `h` px from it.
    ///
    /// The PBF border is only 3 px (⅛ em), narrower than the halo room the painter assumes
    /// (``paddingEm``); the grid is grown to that padding, each new texel taking the smallest
    /// `d(b) + |p − b|` over the bitmap's outermost texels `b` (an upper bound on its distance
    /// by the triangle inequality, exact where the nearest ink lies straight through the border).
    ///
    /// Nil for a glyph without a bitmap (a space).
    init?(pbf g: PBFGlyph) {
        guard g.width > 0, g.height > 0, g.bitmap.count == (g.width + 6) * (g.height + 6) else { return nil }
        let texelsPerEm = PBFGlyph.emPixels
        let b = PBFGlyph.border
        let grow = max(0, Int((GlyphDistanceField.paddingEm * texelsPerEm).rounded(.up)) - b)
        let sw = g.width + 2 * b, sh = g.height + 2 * b
        let w = sw + 2 * grow, h = sh + 2 * grow
        // Distances in texels (= PBF pixels) of the source grid.
        let source = g.bitmap.map { (192 - Float($0)) / 32 }
        // The outer ring of the source grid.
        var ring: [(x: Int, y: Int, d: Float)] = []
        for y in 0..<sh {
            for x in 0..<sw where y == 0 || y == sh - 1 || x == 0 || x == sw - 1 {
                ring.append((x, y, source[y * sw + x]))
            }
        }
        let quantaPerTexel = GlyphDistanceField.quantaPerEm / texelsPerEm
        var values = [UInt8](repeating: 255, count: w * h)
        for j in 0..<h {
            for i in 0..<w {
                let x = i - grow, y = j - grow
                var d: Float
                if x >= 0 && y >= 0 && x < sw && y < sh {
                    d = source[y * sw + x]
                } else {
                    d = .infinity
                    for r in ring {
                        let dx = Float(x - r.x), dy = Float(y - r.y)
                        d = min(d, r.d + (dx * dx + dy * dy).squareRoot())
                    }
                }
                values[j * w + i] = UInt8(min(255, max(0, (d * quantaPerTexel + 128).rounded())))
            }
        }
        self.texelsPerEm = texelsPerEm
        width = w; height = h
        originX = g.left - b - grow
        originY = -(g.top + PBFGlyph.ascent) - b - grow
        let ink = Float(b + grow) - 0.5
        inkMin = SIMD2(ink, ink)
        inkMax = SIMD2(ink + Float(g.width), ink + Float(g.height))
        self.values = values
    }
}
