import FlybyCore
import Testing
@testable import FlybyRender

/// Labels are drawn from glyph signed distance fields; they must look like the exact outline
/// rendering (the glyph outlines filled by ``PathFiller``, the halo a round-joined stroke of them).
@Suite struct GlyphFieldTextTests {
    static let ink = Color(rgb: 0x474747)
    static let haloInk = Color(rgb: 0xFFFFFF)
    static let frame = (width: 240, height: 140)

    struct Case: Sendable, CustomStringConvertible {
        var size: Float, angle: Double, halo: Double
        var description: String { "\(size) px, angle \(angle) rad, halo \(halo) px" }
    }

    static let cases: [Case] = [10, 12, 16].flatMap { size in
        [0, 0.45].flatMap { angle in [0, 1.2, 0.3].map { Case(size: size, angle: angle, halo: $0) } }
    }

    /// The exact outline rendering of the block: glyph outlines placed as ``TextRenderer/appendBlock``
    /// places them, the halo stroked `2 · halo` wide with round joins, then the glyphs filled.
    static func outlineRendering(_ text: TextRenderer, _ block: TextBlock, size: Float, origin: ScreenPoint,
                                 pivot: SIMD2<Float>, cos c: Double, sin s: Double, halo: Double, ground: Color) throws -> PixelBuffer {
        var path = Path()
        for glyph in block.glyphs {
            let outline = try text.regular.font.outline(of: glyph.glyph, pixelSize: size, tolerance: 0.01)
            let dx = Double(glyph.position.x - pivot.x), dy = Double(glyph.position.y - pivot.y)
            for contour in outline.contours {
                path.beginContour()
                for p in contour {
                    let x = Double(p.x) + dx, y = Double(p.y) + dy
                    path.appendPoint(ScreenPoint(x: origin.x + c * x - s * y, y: origin.y + s * x + c * y))
                }
                path.endContour(closed: true, minimumCount: 3)
            }
        }
        var painter = Painter(width: frame.width, height: frame.height)
        var buffer = PixelBuffer(width: frame.width, height: frame.height, color: ground)
        buffer.withView { view in
            if halo > 0 {
                painter.stroke(path, style: StrokeStyle(width: 2 * halo, join: .round, tolerance: 0.25), color: haloInk, into: view)
            }
            painter.fill(path, color: ink, rule: .nonZero, into: view)
        }
        return buffer
    }

    /// The block drawn through the distance fields.
    static func fieldRendering(_ text: inout TextRenderer, _ block: TextBlock, size: Float, origin: ScreenPoint,
                               pivot: SIMD2<Float>, cos c: Double, sin s: Double, halo: Double,
                               color: Color = ink, haloColor: Color = haloInk, ground: Color) -> PixelBuffer {
        let painter = Painter(width: frame.width, height: frame.height)
        var buffer = PixelBuffer(width: frame.width, height: frame.height, color: ground)
        text.appendBlock(block, font: .regular, pixelSize: size, origin: origin, pivot: pivot, cos: c, sin: s)
        buffer.withView { text.drawPlacedGlyphs(color: color, halo: halo, haloColor: haloColor, painter: painter, view: $0) }
        return buffer
    }

    static func largestChannelDifference(_ a: UInt32, _ b: UInt32) -> Int {
        var largest = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            let p = Int((a >> UInt32(shift)) & 0xFF), q = Int((b >> UInt32(shift)) & 0xFF)
            largest = max(largest, abs(p - q))
        }
        return largest
    }

    /// Pixels of the label's box (its layout box rotated into place, grown by the halo and a pixel
    /// of anti-aliasing) that differ by more than 24 levels in a channel, and the box's pixel count.
    static func compare(_ c: Case, ground: Color) throws -> (off: Int, total: Int, inked: Int, outsideChanged: Int) {
        var text = try TextRenderer()
        let block = text.layout("Mannerheimintie 5", font: .regular, pixelSize: c.size, maxWidth: nil)
        let origin = ScreenPoint(x: 120.3, y: 70.7)
        let cs = (cos: mapCos(c.angle), sin: mapSin(c.angle))
        let pivot = block.size / 2
        let expected = try outlineRendering(text, block, size: c.size, origin: origin, pivot: pivot,
                                            cos: cs.cos, sin: cs.sin, halo: c.halo, ground: ground)
        let actual = fieldRendering(&text, block, size: c.size, origin: origin, pivot: pivot,
                                    cos: cs.cos, sin: cs.sin, halo: c.halo, ground: ground)
        let grow = c.halo + 1
        var result = (off: 0, total: 0, inked: 0, outsideChanged: 0)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                // The pixel centre in block coordinates.
                let dx = Double(x) + 0.5 - origin.x, dy = Double(y) + 0.5 - origin.y
                let bx = cs.cos * dx + cs.sin * dy + Double(pivot.x), by = -cs.sin * dx + cs.cos * dy + Double(pivot.y)
                let e = expected.pixel(x: x, y: y), a = actual.pixel(x: x, y: y)
                guard bx > -grow && bx < Double(block.size.x) + grow && by > -grow && by < Double(block.size.y) + grow else {
                    if e != a || a != ground.premultipliedARGB { result.outsideChanged += 1 }
                    continue
                }
                result.total += 1
                if largestChannelDifference(e, ground.premultipliedARGB) > 24 { result.inked += 1 }
                if largestChannelDifference(e, a) > 24 { result.off += 1 }
            }
        }
        return result
    }

    /// The city style's colours: dark text, a white halo, a light ground.
    ///
    /// Against a ground far from the halo colour (a white halo on #202020), 4–8 % of the box
    /// pixels of 1.2 px halos differ by more than 24 levels: a distance sample gives the coverage
    /// of one edge, so in a notch narrower than the halo (inside an M, between two stems) a pixel
    /// that the halos of both sides cover together gets only the ramp of the nearer one. Mapbox
    /// GL's distance-field halos behave the same; the text itself agrees on any ground (below).
    @Test(arguments: cases)
    func labelAgreesWithTheExactOutlineRendering(_ c: Case) throws {
        let r = try Self.compare(c, ground: Color(rgb: 0xF7EDE5))
        #expect(r.inked > r.total / 8, "the label must cover a good part of its box for the comparison to mean anything")
        #expect(Double(r.off) <= 0.02 * Double(r.total), "\(r.off) of \(r.total) box pixels differ by more than 24 levels")
        #expect(r.outsideChanged == 0, "\(r.outsideChanged) pixels outside the label's box changed")
    }

    @Test(arguments: cases.filter { $0.halo == 0 })
    func textWithoutHaloAgreesOnDarkAndMidToneGrounds(_ c: Case) throws {
        for ground in [Color(rgb: 0x202020), Color(red: 150, green: 160, blue: 170)] {
            let r = try Self.compare(c, ground: ground)
            #expect(r.inked > r.total / 20, "the label must show on \(ground)")
            #expect(Double(r.off) <= 0.02 * Double(r.total), "on \(ground): \(r.off) of \(r.total) box pixels differ by more than 24 levels")
        }
    }

    @Test func overlappingGlyphHalosAreNotDarkerThanOneHalo() throws {
        var text = try TextRenderer()
        // Two l's 3 px apart with 3 px halos: the halos overlap between them.
        let block = text.layout("ll", font: .regular, pixelSize: 16, maxWidth: nil)
        let stems = block.glyphs.map(\.position.x)
        #expect(stems.count == 2 && stems[1] - stems[0] < 6)
        let shade = Color(red: 0, green: 0, blue: 0, alpha: 100)
        let buffer = Self.fieldRendering(&text, block, size: 16, origin: ScreenPoint(x: 100.4, y: 60.2), pivot: block.size / 2,
                                         cos: 1, sin: 0, halo: 3, color: .transparent, haloColor: shade, ground: .white)
        let oneHalo = PixelBlend.sourceOver(shade.premultipliedARGB, Color.white.premultipliedARGB)
        let darkest = buffer.pixels.map { $0 & 0xFF }.min() ?? 255
        #expect(darkest == oneHalo & 0xFF, "darkest \(darkest), one full halo \(oneHalo & 0xFF)")
    }

    @Test func twoRendersGiveIdenticalPixelsAndTheFieldsDoNotDependOnSize() throws {
        var first = try TextRenderer(), second = try TextRenderer()
        let origin = ScreenPoint(x: 117.61, y: 66.13)
        func render(_ text: inout TextRenderer, _ size: Float) -> PixelBuffer {
            let block = text.layout("Aleksanterinkatu", font: .regular, pixelSize: size, maxWidth: nil)
            return Self.fieldRendering(&text, block, size: size, origin: origin, pivot: block.size / 2,
                                       cos: mapCos(-0.3), sin: mapSin(-0.3), halo: 1.2, ground: Color(rgb: 0xF7EDE5))
        }
        let a = render(&first, 12)
        let glyphs = first.regular.count
        let b = render(&first, 12)        // warm cache
        let c = render(&second, 12)       // another renderer, cold cache
        #expect(a == b)
        #expect(a == c)
        _ = render(&first, 15.25)
        #expect(first.regular.count == glyphs, "a new size must reuse every glyph's field")
    }

    /// Distance from `p` to the nearest edge of the outline's polygons (texels).
    static func distanceToOutline(_ outline: GlyphOutline, _ p: SIMD2<Float>) -> Float {
        var best = Float.infinity
        for contour in outline.contours {
            for i in contour.indices {
                let a = contour[i], b = contour[(i + 1) % contour.count]
                let ab = b - a, ap = p - a
                let t = min(1, max(0, (ap * ab).sum() / max((ab * ab).sum(), 1e-12)))
                let d = ap - ab * t
                best = min(best, (d * d).sum().squareRoot())
            }
        }
        return best
    }

    @Test(arguments: ["l", "o"])
    func glyphFieldHasTheRightSignAndDistance(_ character: String) throws {
        let font = try TextRenderer().regular.font
        let scalar = try #require(character.unicodeScalars.first)
        let id = font.glyphID(for: scalar)
        let field = try #require(try GlyphDistanceField(glyph: id, of: font))
        let texels = Float(GlyphDistanceField.baseTexelsPerEm)
        #expect(field.texelsPerEm == texels)
        let outline = try font.outline(of: id, pixelSize: texels, tolerance: 0.01)
        let path = Path(rings: outline.contours.map { $0.map { ScreenPoint(x: Double($0.x), y: Double($0.y)) } })
        let mid = (outline.boundsMin + outline.boundsMax) / 2
        // Probes in glyph texels: the middle, across the ink box, and beyond it on each side.
        let probes: [SIMD2<Float>] = [
            mid, SIMD2(outline.boundsMin.x + 1.3, mid.y), SIMD2(outline.boundsMax.x - 1.7, mid.y + 2.1),
            SIMD2(outline.boundsMin.x - 3.4, mid.y), SIMD2(outline.boundsMax.x + 6.2, mid.y - 4),
            SIMD2(mid.x, outline.boundsMin.y - 9.5), SIMD2(mid.x + 0.7, outline.boundsMax.y + 2.3),
            SIMD2(outline.boundsMin.x - 12, outline.boundsMin.y - 5),
        ]
        var insideSeen = false, outsideSeen = false
        for p in probes {
            let inside = winding(path, Double(p.x), Double(p.y)) != 0
            let truth = Self.distanceToOutline(outline, p) * (inside ? -1 : 1)
            let sampled = field.distanceTexels(u: p.x - Float(field.originX) - 0.5, v: p.y - Float(field.originY) - 0.5)
            if inside { insideSeen = true } else { outsideSeen = true }
            #expect((sampled < 0) == inside || abs(truth) < 0.5, "probe \(p): sampled \(sampled), true \(truth)")
            #expect(abs(sampled - truth) <= 1, "probe \(p): sampled \(sampled) texels, true \(truth)")
        }
        #expect(insideSeen && outsideSeen)
    }

    @Test func squareFieldIsExactAtCornersEdgesAndInside() {
        // A 10 × 10 texel square (clockwise on screen, as outer contours are) at (3.3, 4.6).
        let corner = SIMD2<Float>(3.3, 4.6)
        let square = GlyphOutline(contours: [[corner, corner + SIMD2(10, 0), corner + SIMD2(10, 10), corner + SIMD2(0, 10)]],
                                  advance: 12)
        let field = GlyphDistanceField(outline: square, texelsPerEm: 48)
        func sampled(_ p: SIMD2<Float>) -> Float {
            field.distanceTexels(u: p.x - Float(field.originX) - 0.5, v: p.y - Float(field.originY) - 0.5)
        }
        let centre = corner + SIMD2(5, 5)
        // Inside: the distance to the nearest side; outside a corner: to the corner point.
        #expect(abs(sampled(centre) + 5) <= 0.25)
        #expect(abs(sampled(corner + SIMD2(2, 5)) + 2) <= 0.25)
        #expect(abs(sampled(corner + SIMD2(-3, 5)) - 3) <= 0.25)
        #expect(abs(sampled(corner + SIMD2(-3, -4)) - 5) <= 0.25)
        #expect(abs(sampled(corner + SIMD2(13, 14)) - 5) <= 0.25)
    }

    @Test func fieldCacheStaysWithinItsByteBudget() throws {
        let font = try TextRenderer().regular.font
        var cache = GlyphFieldCache(font: font, byteBudget: 20_000)
        var largest = 0
        for scalar in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ".unicodeScalars {
            if let f = cache.field(font.glyphID(for: scalar)) { largest = max(largest, f.byteCount) }
            #expect(cache.byteCount <= 20_000 + GlyphDistanceField.maxSide * GlyphDistanceField.maxSide)
        }
        #expect(largest > 0 && largest <= GlyphDistanceField.maxSide * GlyphDistanceField.maxSide)
        #expect(cache.count < 36, "the cache must have started over at least once")
        // A field made again after starting over is the same field.
        let again = GlyphFieldCache(font: font)
        var fresh = again
        let id = font.glyphID(for: "a")
        #expect(fresh.field(id)?.values == cache.field(id)?.values)
    }

    @Test func distanceTransformFindsTheNearestSeedOfEveryPoint() {
        let width = 23, height = 17
        // A fixed scatter of seeds (a multiplicative hash picks about one point in nine).
        let seeds = (0..<(width * height)).filter { ($0 &* 2_654_435_761) % 9 == 0 }
        var f = [Double](repeating: 1e20, count: width * height)
        for k in seeds { f[k] = 0 }
        var nearest = [Int](repeating: -1, count: width * height)
        DistanceTransform.nearestSeeds(&f, nearest: &nearest, width: width, height: height)
        func squared(_ a: Int, _ b: Int) -> Double {
            let dx = a % width - b % width, dy = a / width - b / width
            return Double(dx * dx + dy * dy)
        }
        for k in 0..<(width * height) {
            let best = seeds.map { squared(k, $0) }.min() ?? .infinity
            #expect(f[k] == best, "point \(k)")
            #expect(seeds.contains(nearest[k]) && squared(k, nearest[k]) == best, "point \(k): seed \(nearest[k])")
        }
    }
}
