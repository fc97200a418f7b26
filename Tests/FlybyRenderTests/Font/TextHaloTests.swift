import FlybyCore
import Testing
@testable import FlybyRender

/// Text halos are filled from per-glyph halo outlines cached in glyph coordinates; they must look
/// exactly like stroking the placed glyph outlines, on the first draw (cache miss) and later ones.
@Suite struct TextHaloTests {
    struct Case: Sendable, CustomStringConvertible {
        var cos: Double, sin: Double, halo: Double
        var description: String { "rotation (\(cos), \(sin)), halo \(halo) px" }
    }

    @Test(arguments: [Case(cos: 1, sin: 0, halo: 1.5), Case(cos: 0.8, sin: 0.6, halo: 1.2),
                      Case(cos: 0.6, sin: -0.8, halo: 0.3)])
    func cachedHaloLooksLikeStrokingThePlacedGlyphs(_ c: Case) throws {
        var text = try TextRenderer()
        let block = text.layout("Mannerheimintie 5", bold: false, pixelSize: 13, maxWidth: nil)
        let origin = ScreenPoint(x: 100.3, y: 60.7)
        let ink = Color(red: 40, green: 40, blue: 60), haloInk = Color(red: 250, green: 240, blue: 200, alpha: 220)
        var painter = Painter(width: 200, height: 120)

        // The reference: the placed glyph path stroked and filled directly.
        text.appendBlock(block, bold: false, pixelSize: 13, origin: origin, pivot: block.size / 2, cos: c.cos, sin: c.sin)
        let glyphs = text.glyphPath
        text.glyphPath.removeAll()
        text.placedGlyphs.removeAll()
        var expected = PixelBuffer(width: 200, height: 120, color: .white)
        var withoutHalo = expected
        expected.withView { view in
            painter.stroke(glyphs, style: StrokeStyle(width: 2 * c.halo, join: .round, tolerance: 0.25), color: haloInk,
                           into: view)
            painter.fill(glyphs, color: ink, rule: .nonZero, into: view)
        }
        withoutHalo.withView { painter.fill(glyphs, color: ink, rule: .nonZero, into: $0) }
        #expect(expected != withoutHalo, "the halo must show for the comparison to mean anything")

        for draw in 1...2 {
            var actual = PixelBuffer(width: 200, height: 120, color: .white)
            text.appendBlock(block, bold: false, pixelSize: 13, origin: origin, pivot: block.size / 2, cos: c.cos, sin: c.sin)
            actual.withView { text.drawPath(color: ink, halo: c.halo, haloColor: haloInk, painter: &painter, view: $0) }
            let differing = zip(actual.pixels, expected.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "draw \(draw): \(differing) pixels differ")
        }
        #expect(text.haloOutlines.count > 0)
    }
}
