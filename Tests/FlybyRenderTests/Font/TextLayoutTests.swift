import Testing
@testable import FlybyRender

@Suite struct GlyphFlattenerTests {
    /// Distance from `p` to the quadratic through a, b (control), c, sampled finely.
    private func distanceToCurve(_ p: SIMD2<Float>, _ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>) -> Float {
        var best = Float.infinity
        for i in 0...4000 {
            let t = Float(i) / 4000, u = 1 - t
            let q = u * u * a + 2 * u * t * b + t * t * c
            best = min(best, ((q - p) * (q - p)).sum().squareRoot())
        }
        return best
    }

    @Test(arguments: [1.0, 0.2, 0.05] as [Float])
    func flattenedCurveStaysWithinTolerance(tolerance: Float) {
        // One contour: on (0,0), off (50,100), on (100,0); closed by a straight line back.
        let contour = GlyphContours(points: [SIMD2(0, 0), SIMD2(50, 100), SIMD2(100, 0)], onCurve: [true, false, true],
                                    contourEnds: [3])
        let polygon = GlyphFlattener.flatten(contour, scale: SIMD2(1, 1), tolerance: tolerance)[0]
        #expect(polygon.first == SIMD2(0, 0))
        #expect(polygon.contains(SIMD2(100, 0)))
        for i in 0..<(polygon.count - 1) {
            let mid = (polygon[i] + polygon[i + 1]) / 2
            #expect(distanceToCurve(mid, SIMD2(0, 0), SIMD2(50, 100), SIMD2(100, 0)) <= tolerance * 1.01)
        }
        // Fewer segments for a looser tolerance: n = ⌈√(|p0 − 2p1 + p2| / 4t)⌉ = ⌈√(200 / 4t)⌉.
        #expect(polygon.count == Int((200 / (4 * tolerance)).squareRoot().rounded(.up)) + 1)
    }

    @Test func allOffCurveContourIsClosedAndSymmetric() {
        // Four off-curve points of a square: a rounded shape through the edge midpoints.
        let contour = GlyphContours(points: [SIMD2(0, 0), SIMD2(10, 0), SIMD2(10, 10), SIMD2(0, 10)],
                                    onCurve: [false, false, false, false], contourEnds: [4])
        let polygon = GlyphFlattener.flatten(contour, scale: SIMD2(1, 1), tolerance: 0.01)[0]
        #expect(polygon[0] == SIMD2(0, 5))  // midpoint of the last and first points
        for mid in [SIMD2<Float>(5, 0), SIMD2(10, 5), SIMD2(5, 10)] { #expect(polygon.contains(mid)) }
        #expect(abs(signedArea(polygon)) > 70 && abs(signedArea(polygon)) < 100)
    }
}

@Suite struct TextLayoutTests {
    @Test func helsinkiWidthIsPlausibleAndMatchesAdvancesPlusKerning() {
        let width = dejaVu.measure("Helsinki", pixelSize: 16)
        // DejaVu Sans is wide: about 0.49 em per letter here.
        #expect(width > 50 && width < 75, "\(width)")
        let s: Float = 16 / 2048
        var expected: Float = 0
        var previous: GlyphID?
        for scalar in "Helsinki".unicodeScalars {
            let g = dejaVu.glyphID(for: scalar)
            if let previous { expected += Float(dejaVu.kerning(previous, g)) * s }
            expected += Float(dejaVu.advanceWidth(of: g)) * s
            previous = g
        }
        #expect(abs(width - expected) < 1e-4)
        #expect(dejaVu.measure("Helsinki", pixelSize: 32) == 2 * width)
        #expect(dejaVu.measure("", pixelSize: 16) == 0)
    }

    @Test func kerningMovesGlyphsCloser() {
        let av = dejaVu.layoutLine("AV", pixelSize: 20)
        let a = Float(dejaVu.advanceWidth(of: dejaVu.glyphID(for: "A"))) * 20 / 2048
        #expect(av.glyphs[1].position.x < a)
        let spaced = dejaVu.layoutLine("AV", pixelSize: 20, letterSpacing: 3)
        #expect(abs(spaced.glyphs[1].position.x - (av.glyphs[1].position.x + 3)) < 1e-4)
    }

    @Test func breaksAtSpacesWithinTheMaximumWidth() {
        let text = "Helsingin päärautatieasema Central Railway Station"
        for balanced in [false, true] {
            let lines = dejaVu.breakLines(text, pixelSize: 16, maxWidth: 150, balanced: balanced)
            #expect(lines.count >= 2)
            #expect(lines.joined(separator: " ") == text)
            for line in lines where line.contains(" ") {
                #expect(dejaVu.measure(line, pixelSize: 16) <= 150, "\(line)")
            }
        }
        // A single word wider than the limit stays whole on its own line.
        #expect(dejaVu.breakLines("Mannerheimintie 5", pixelSize: 16, maxWidth: 40) == ["Mannerheimintie", "5"])
        // Explicit newlines always break; runs of spaces collapse.
        #expect(dejaVu.breakLines("Kamppi\nKampen   Centre", pixelSize: 16, maxWidth: 1000) == ["Kamppi", "Kampen Centre"])
    }

    @Test func balancedBreakingEvensOutLines() {
        let text = "Helsinki Central Railway Station"
        let greedy = dejaVu.breakLines(text, pixelSize: 16, maxWidth: 200, balanced: false)
        let balanced = dejaVu.breakLines(text, pixelSize: 16, maxWidth: 200, balanced: true)
        #expect(greedy.count == 2 && balanced.count == 2)
        func spread(_ lines: [String]) -> Float {
            let w = lines.map { dejaVu.measure($0, pixelSize: 16) }
            return w.max()! - w.min()!
        }
        #expect(spread(balanced) <= spread(greedy))
        #expect(balanced == ["Helsinki Central", "Railway Station"])
    }

    @Test(arguments: [TextJustification.left, .center, .right])
    func justification(_ justification: TextJustification) {
        let block = dejaVu.layout("Suomenlinna\nSveaborg fortress", pixelSize: 16, justification: justification)
        #expect(block.lines.count == 2)
        let widest = block.lines.map(\.width).max()!
        #expect(block.size == SIMD2(widest, 2 * 16 * 1.2))
        for line in block.lines {
            let left = line.glyphs.first!.position.x
            let right = line.glyphs.last!.position.x + line.glyphs.last!.advance
            switch justification {
            case .left: #expect(left == 0)
            case .center: #expect(abs(left - (widest - line.width) / 2) < 1e-3)
            case .right: #expect(abs(right - widest) < 1e-3)
            }
            #expect(line.glyphs.allSatisfy { $0.position.y == line.baseline })
        }
        // Baselines are one line height apart, the first inside the first line box.
        #expect(abs(block.lines[1].baseline - block.lines[0].baseline - 19.2) < 1e-4)
        #expect(block.lines[0].baseline > 0 && block.lines[0].baseline < 19.2)
    }

    @Test func layoutWrapsToMaxWidth() {
        let block = dejaVu.layout("Helsinki Central Railway Station", pixelSize: 16, maxWidth: 200)
        #expect(block.lines.map(\.text) == ["Helsinki Central", "Railway Station"])
        #expect(block.size.x <= 200)
        #expect(block.glyphs.count == "Helsinki Central Railway Station".count - 1)  // the break's space is dropped
    }

    @Test func glyphCacheFlattensOnce() throws {
        var cache = GlyphCache(font: dejaVu)
        let a = dejaVu.glyphID(for: "a")
        let first = try cache.outline(a, pixelSize: 14)
        let second = try cache.outline(a, pixelSize: 14)
        #expect(first == second)
        #expect(cache.count == 1)
        _ = try cache.outline(a, pixelSize: 15)
        #expect(cache.count == 2)
        #expect(first == (try dejaVu.outline(of: a, pixelSize: 14)))
    }

    @Test func placedOutlinesSitInsideTheBlock() throws {
        var cache = GlyphCache(font: dejaVu)
        let block = dejaVu.layout("Töölö Bay", pixelSize: 20)
        let outlines = try cache.placedOutlines(of: block, pixelSize: 20, at: SIMD2(100, 50))
        #expect(outlines.count == 8)  // nine characters, one space
        for o in outlines {
            #expect(o.boundsMin.x >= 100 - 1 && o.boundsMax.x <= 100 + block.size.x + 1)
            #expect(o.boundsMin.y >= 50 - 1 && o.boundsMax.y <= 50 + block.size.y + 1)
        }
    }
}
