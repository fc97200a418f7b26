import FlybyCore

/// One glyph of a label on screen: a point `p` of the glyph (pixels at ``pixelSize``, from the pen
/// position on the baseline, y down) lands on the screen pixel `origin + R(cos, sin) · (p + offset)`,
/// or `origin + linear · (p + offset)` when ``linear`` is set (a glyph lying on the pitched ground,
/// ``GroundFrame``).
struct PlacedGlyph: Sendable {
    var field: GlyphDistanceField
    /// The em size in pixels.
    var pixelSize: Float
    var offset: (x: Double, y: Double)
    var origin: ScreenPoint
    var cos: Double, sin: Double
    /// A general linear map in place of the rotation (its determinant is not near 0).
    var linear: Linear2? = nil
}

/// Draws labels (their text and an optional halo) from glyph distance fields
/// (see ``GlyphDistanceField``).
///
/// For each glyph the screen pixels of its rotated box are walked; each pixel centre is mapped
/// back into the field and the bilinear sample `d` (pixels, positive outside) gives the text
/// coverage `clamp(0.5 − d, 0, 1)` and the halo coverage `clamp(halo + 0.5 − d, 0, 1)`: the halo is
/// the set within `halo` px of the outline, as a round-joined stroke of the outline `2 · halo`
/// wide would be, plus the glyph itself. Coverages are gathered per label with **max** into two
/// scratch planes, so glyphs whose halos overlap never blend twice, and then the label is
/// composited: halo colour with the halo coverage, then text colour with the text coverage,
/// premultiplied source-over. Nothing is allocated once the scratch planes have grown to the
/// largest label. Units: pixels, y down.
struct GlyphFieldPainter: Sendable {
    /// The glyphs of the label to draw next (see ``draw(color:halo:haloColor:clip:into:)``).
    var glyphs: [PlacedGlyph] = []
    /// Per-pixel coverages (0…255) over the label's box, row by row; all zero between labels.
    private var textCoverage: [UInt8] = []
    private var haloCoverage: [UInt8] = []
    /// The columns of each box row that may hold a non-zero coverage (`lo > hi`: none).
    private var rowSpans: [(lo: Int, hi: Int)] = []

    /// Draws ``glyphs`` with `color` over a `halo`-px halo of `haloColor`, only inside `clip`, then
    /// forgets them.
    ///
    /// As with ``Painter/stroke(_:style:color:clip:into:)``, a halo under 1 px wide (`2 · halo < 1`)
    /// is drawn 1 px wide with its alpha scaled by the width. A halo wider than a quarter of the
    /// text size is drawn a quarter of the size wide (the style spec's limit on `text-halo-width`).
    ///
    /// `blur` (`text-halo-blur`, `icon-halo-blur`: "distance of halo fade", pixels) widens the
    /// halo's outer edge ramp from 1 px to `1 + blur` px, centred on the halo's edge: the halo
    /// coverage is `clamp((halo + (1 + blur)/2 − d) / (1 + blur), 0, 1)` (0 gives the sharp edge
    /// above). The ramp is kept inside the field's padding like the halo itself.
    mutating func draw(color: Color, halo: Double, haloBlur: Double = 0, haloColor: Color, clip: PixelRect,
                       into view: PixelBufferView) {
        defer { glyphs.removeAll(keepingCapacity: true) }
        let width = 2 * halo
        let hasHalo = width > 0 && width.isFinite && haloColor.alpha != 0
        let haloPaint = hasHalo && width < 1 ? haloColor.withAlphaScaled(by: width) : haloColor
        let haloPx = hasHalo ? max(width, 1) / 2 : 0
        let blur = hasHalo && haloBlur.isFinite ? max(0, haloBlur) : 0
        guard !glyphs.isEmpty, color.alpha != 0 || hasHalo else { return }

        // The label's box on screen: the union of the glyphs' boxes, clipped.
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for g in glyphs {
            let (lo, hi) = GlyphFieldPainter.sampleBox(g, reach: GlyphFieldPainter.haloReach(haloPx, blur, g))
            guard lo.x <= hi.x && lo.y <= hi.y else { continue }
            let t = GlyphFieldPainter.Mapping(g)
            for corner in 0..<4 {  // (no array literal: nothing is allocated per frame)
                let p = t.screenPoint(u: Double(corner & 1 == 0 ? lo.x : hi.x), v: Double(corner < 2 ? lo.y : hi.y))
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard minX <= maxX, minY <= maxY else { return }
        let box = PixelRect(minX: Int(max(-1e9, minX).rounded(.down)), minY: Int(max(-1e9, minY).rounded(.down)),
                            maxX: Int(min(1e9, maxX).rounded(.up)), maxY: Int(min(1e9, maxY).rounded(.up)))
            .intersection(clip).intersection(view.bounds)
        guard !box.isEmpty else { return }
        let stride = box.maxX - box.minX, rows = box.maxY - box.minY
        if textCoverage.count < stride * rows {
            textCoverage = [UInt8](repeating: 0, count: stride * rows)
            haloCoverage = textCoverage
        }
        if rowSpans.count < rows { rowSpans = [(lo: Int, hi: Int)](repeating: (Int.max, Int.min), count: rows) }

        for g in glyphs {
            let h = hasHalo ? GlyphFieldPainter.clampedHalo(haloPx, g) : -1
            accumulate(g, halo: h, blur: hasHalo ? GlyphFieldPainter.clampedBlur(h, blur, g) : 0, box: box)
        }
        composite(box: box, text: color.alpha == 0 ? 0 : color.premultipliedARGB,
                  halo: hasHalo ? haloPaint.premultipliedARGB : 0, into: view)
    }

    /// The halo width in pixels drawn for `g`: at most a quarter of its size, and never past the
    /// field's padding.
    static func clampedHalo(_ halo: Double, _ g: PlacedGlyph) -> Double {
        let size = Double(g.pixelSize)
        let room = (Double(GlyphDistanceField.paddingEm) - 1.5 / Double(g.field.texelsPerEm)) * size - 0.5
        return max(0, min(halo, size / 4, room))
    }

    /// The blur drawn for `g` around a halo of `halo` px: the ramp's outer half stays within the
    /// field's padding.
    static func clampedBlur(_ halo: Double, _ blur: Double, _ g: PlacedGlyph) -> Double {
        guard blur > 0 else { return 0 }
        let size = Double(g.pixelSize)
        let room = (Double(GlyphDistanceField.paddingEm) - 1.5 / Double(g.field.texelsPerEm)) * size - 0.5
        return max(0, min(blur, 2 * (room - max(halo, 0))))
    }

    /// How far past the outline a pixel can be covered by the halo (or the text): pixels.
    static func haloReach(_ halo: Double, _ blur: Double, _ g: PlacedGlyph) -> Double {
        let h = clampedHalo(halo, g)
        return h + 0.5 + clampedBlur(h, blur, g) / 2
    }

    /// The sample-coordinate box of `g`'s field where a pixel can be covered: its ink box grown by
    /// `reach` pixels and a texel, within the grid.
    static func sampleBox(_ g: PlacedGlyph, reach: Double) -> (SIMD2<Float>, SIMD2<Float>) {
        let f = g.field
        let grow = Float(reach) * f.texelsPerEm / g.pixelSize + 1
        let lo = pointwiseMax(f.inkMin - grow, SIMD2(0, 0))
        let hi = pointwiseMin(f.inkMax + grow, SIMD2(Float(f.width - 1), Float(f.height - 1)))
        return (lo, hi)
    }

    /// The affine map between screen pixels and sample coordinates of one placed glyph.
    struct Mapping {
        /// Sample coordinates at the screen point (0, 0) and their steps per screen pixel.
        var u0: Double, v0: Double, dudx: Double, dudy: Double, dvdx: Double, dvdy: Double
        /// Texels per screen pixel.
        let k: Double
        /// What the inverse needs: the glyph's placement and the field's corner (texels).
        let origin: ScreenPoint, offset: (x: Double, y: Double), cos: Double, sin: Double
        let linear: Linear2?
        let fieldOrigin: (x: Double, y: Double)

        init(_ g: PlacedGlyph) {
            k = Double(g.field.texelsPerEm) / Double(g.pixelSize)
            origin = g.origin; offset = g.offset; cos = g.cos; sin = g.sin
            linear = g.linear
            fieldOrigin = (Double(g.field.originX), Double(g.field.originY))
            let o = g.origin
            if let m = g.linear {
                // Glyph pixels of screen point P: M⁻¹(P − origin) − offset.
                let det = m.determinant
                let i00 = m.d / det, i01 = -m.b / det, i10 = -m.c / det, i11 = m.a / det
                dudx = k * i00; dudy = k * i01; dvdx = k * i10; dvdy = k * i11
                u0 = k * (-i00 * o.x - i01 * o.y - g.offset.x) - fieldOrigin.x - 0.5
                v0 = k * (-i10 * o.x - i11 * o.y - g.offset.y) - fieldOrigin.y - 0.5
                return
            }
            let c = g.cos, s = g.sin
            // Glyph pixels of screen point P: Rᵀ(P − origin) − offset; sample = glyph · k − (fieldOrigin + 0.5).
            dudx = k * c; dudy = k * s; dvdx = -k * s; dvdy = k * c
            u0 = k * (-c * o.x - s * o.y - g.offset.x) - fieldOrigin.x - 0.5
            v0 = k * (s * o.x - c * o.y - g.offset.y) - fieldOrigin.y - 0.5
        }

        /// The screen point of sample coordinates `(u, v)`.
        func screenPoint(u: Double, v: Double) -> ScreenPoint {
            let x = (u + fieldOrigin.x + 0.5) / k + offset.x
            let y = (v + fieldOrigin.y + 0.5) / k + offset.y
            if let m = linear { return ScreenPoint(x: origin.x + m.a * x + m.b * y, y: origin.y + m.c * x + m.d * y) }
            return ScreenPoint(x: origin.x + cos * x - sin * y, y: origin.y + sin * x + cos * y)
        }
    }

    /// Adds `g`'s coverages to the scratch planes with max (`halo < 0`: no halo plane).
    private mutating func accumulate(_ g: PlacedGlyph, halo: Double, blur: Double, box: PixelRect) {
        let t = Mapping(g)
        let (lo, hi) = GlyphFieldPainter.sampleBox(g, reach: max(halo, 0) + 0.5 + blur / 2)
        guard lo.x <= hi.x && lo.y <= hi.y else { return }
        let f = g.field
        let w = f.width, lastI = f.width - 2, lastJ = f.height - 2
        // t = 0.5 − d with d = (value − 128) · size / quantaPerEm pixels.
        let perValue = g.pixelSize / GlyphDistanceField.quantaPerEm
        let bias = 0.5 + 128 * perValue
        // Halo coverage (halo + ½ + blur/2 − d) / (1 + blur) = (coverage + haloShift) · haloGain.
        let haloPx = Float(max(halo, 0) + blur / 2), wantsHalo = halo >= 0
        let haloGain = Float(1 / (1 + blur))
        let stride = box.maxX - box.minX
        // Pixel centres x + 0.5 whose samples lie in [lo, hi] along one axis of the field.
        func columns(_ base: Double, _ slope: Double, _ a: Float, _ b: Float) -> (Double, Double) {
            if abs(slope) < 1e-12 { return base >= Double(a) && base <= Double(b) ? (-.infinity, .infinity) : (1, 0) }
            let p = (Double(a) - base) / slope, q = (Double(b) - base) / slope
            return (min(p, q), max(p, q))
        }
        let du = FastMath.nearest(t.dudx * 65536), dv = FastMath.nearest(t.dvdx * 65536)
        f.values.withUnsafeBufferPointer { field in
            textCoverage.withUnsafeMutableBufferPointer { text in
                haloCoverage.withUnsafeMutableBufferPointer { haloPlane in
                    rowSpans.withUnsafeMutableBufferPointer { rowSpans in
                        for y in box.minY..<box.maxY {
                            let py = Double(y) + 0.5
                            let uRow = t.u0 + t.dudy * py, vRow = t.v0 + t.dvdy * py
                            let cu = columns(uRow, t.dudx, lo.x, hi.x), cv = columns(vRow, t.dvdx, lo.y, hi.y)
                            let a = max(cu.0, cv.0), b = min(cu.1, cv.1)
                            guard a <= b else { continue }
                            let x0 = max(box.minX, FastMath.ceil(max(-1e9, a - 0.5)))
                            let x1 = min(box.maxX - 1, FastMath.floor(min(1e9, b - 0.5)))
                            guard x0 <= x1 else { continue }
                            let r = y - box.minY
                            rowSpans[r].lo = min(rowSpans[r].lo, x0)
                            rowSpans[r].hi = max(rowSpans[r].hi, x1)
                            // Sample coordinates in 16.16 fixed point, stepped per pixel: the integer
                            // part and fraction come without float-to-int conversions (which Swift
                            // range-checks; they were a fifth of this loop).
                            let px0 = Double(x0) + 0.5
                            var uf = FastMath.nearest((uRow + t.dudx * px0) * 65536)
                            var vf = FastMath.nearest((vRow + t.dvdx * px0) * 65536)
                            let rowBase = r * stride - box.minX
                            for x in x0...x1 {
                                defer { uf &+= du; vf &+= dv }
                                let i = min(max(uf >> 16, 0), lastI), j = min(max(vf >> 16, 0), lastJ)
                                let fu = Float(uf & 0xFFFF) * (1 / 65536), fv = Float(vf & 0xFFFF) * (1 / 65536)
                                let k = j * w + i
                                let v00 = Float(field[k]), v10 = Float(field[k + 1])
                                let v01 = Float(field[k + w]), v11 = Float(field[k + w + 1])
                                let top = v00 + (v10 - v00) * fu, bottom = v01 + (v11 - v01) * fu
                                let coverage = bias - (top + (bottom - top) * fv) * perValue
                                let ht = (coverage + haloPx) * haloGain
                                guard ht > 0 else { continue }
                                let index = rowBase + x
                                if coverage > 0 {
                                    let c = GlyphFieldPainter.byte(coverage)
                                    if c > text[index] { text[index] = c }
                                }
                                if wantsHalo {
                                    let c = GlyphFieldPainter.byte(ht)
                                    if c > haloPlane[index] { haloPlane[index] = c }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `round(min(coverage, 1) · 255)` for a coverage > 0, ties to even: adding 1.5 · 2²³ leaves
    /// the rounded integer in the low bits of the float (cheaper than a checked conversion).
    @inline(__always)
    static func byte(_ coverage: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (min(coverage, 1) * 255 + 12_582_912).bitPattern)
    }

    /// Blends the halo, then the text, over the touched pixels of `box`, and zeroes the planes.
    private mutating func composite(box: PixelRect, text textSource: UInt32, halo haloSource: UInt32,
                                    into view: PixelBufferView) {
        let stride = box.maxX - box.minX
        // An opaque colour at full coverage replaces the pixel: source-over then gives the
        // colour itself exactly (scaling by 255/255 is exact and the destination weighs 0).
        let textReplaces: UInt32 = textSource >> 24 == 255 ? 255 : 256
        let haloReplaces: UInt32 = haloSource >> 24 == 255 ? 255 : 256
        textCoverage.withUnsafeMutableBufferPointer { text in
            haloCoverage.withUnsafeMutableBufferPointer { halo in
                rowSpans.withUnsafeMutableBufferPointer { rowSpans in
                    for r in 0..<(box.maxY - box.minY) {
                        let span = rowSpans[r]
                        rowSpans[r] = (Int.max, Int.min)
                        guard span.lo <= span.hi else { continue }
                        let row = view.row(box.minY + r)
                        let base = r * stride - box.minX
                        for x in span.lo...span.hi {
                            let hc = UInt32(halo[base + x]), tc = UInt32(text[base + x])
                            guard hc | tc != 0 else { continue }
                            halo[base + x] = 0
                            text[base + x] = 0
                            if tc == textReplaces { row[x] = textSource; continue }
                            var p = hc == haloReplaces ? haloSource : row[x]
                            if hc != 0 && hc != haloReplaces { p = PixelBlend.sourceOver(haloSource, coverage: hc, p) }
                            if tc != 0 { p = PixelBlend.sourceOver(textSource, coverage: tc, p) }
                            row[x] = p
                        }
                    }
                }
            }
        }
    }
}
