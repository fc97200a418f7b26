import Foundation
import Testing
@testable import FlybyRender

/// The package root, found from this file's path (Tests/FlybyRenderTests/Font/…).
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let fontPath = packageRoot.appendingPathComponent("Sources/FlybyData/Resources/fonts/DejaVuSans.ttf").path
let boldFontPath = packageRoot.appendingPathComponent("Sources/FlybyData/Resources/fonts/DejaVuSans-Bold.ttf").path

/// Loaded once for all tests (immutable, Sendable).
let dejaVu: TrueTypeFont = {
    do { return try TrueTypeFont(contentsOfFile: fontPath) } catch { fatalError("\(error)") }
}()

/// Shoelace signed area (positive = counter-clockwise in y-up terms, i.e. clockwise on screen… see use).
func signedArea(_ polygon: [SIMD2<Float>]) -> Float {
    var a: Float = 0
    for i in polygon.indices {
        let p = polygon[i], q = polygon[(i + 1) % polygon.count]
        a += p.x * q.y - q.x * p.y
    }
    return a / 2
}

@Suite struct TrueTypeFontTests {
    @Test func headerMetrics() {
        #expect(dejaVu.name == "DejaVuSans.ttf")
        #expect(dejaVu.unitsPerEm == 2048)
        #expect(dejaVu.ascender > 1500 && dejaVu.ascender < 2200)
        #expect(dejaVu.descender > 300 && dejaVu.descender < 700)
        #expect(dejaVu.glyphCount > 5000)
    }

    @Test func letterAHasAnAdvanceAndContours() throws {
        let a = dejaVu.glyphID(for: "A")
        #expect(a != 0)
        #expect(dejaVu.advanceWidth(of: a) > 0)
        let outline = try dejaVu.outline(of: a, pixelSize: 16)
        #expect(outline.contours.count == 2)  // outer shape and the counter
        #expect(outline.advance == Float(dejaVu.advanceWidth(of: a)) * 16 / 2048)
        // Y down from the baseline: the apex is about a cap height (≈ 0.73 em) above it.
        #expect(outline.boundsMin.y < -10 && outline.boundsMin.y > -13)
        #expect(abs(outline.boundsMax.y) < 0.01)
        #expect(outline.boundsMin.x >= 0 && outline.boundsMax.x <= outline.advance + 0.5)
    }

    @Test func spaceHasAdvanceButNoContours() throws {
        let space = dejaVu.glyphID(for: " ")
        #expect(space != 0)
        #expect(dejaVu.advanceWidth(of: space) > 0)
        let outline = try dejaVu.outline(of: space, pixelSize: 16)
        #expect(outline.isEmpty)
        #expect(outline.boundsMin == .zero && outline.boundsMax == .zero)
    }

    /// In DejaVu Sans 'Ä', 'é' and 'ö' are composites (base + accent); 'Å' is a simple glyph.
    @Test(arguments: ["Ä", "Å", "é", "ö"] as [Unicode.Scalar])
    func accentedGlyphsResolve(_ scalar: Unicode.Scalar) throws {
        let glyph = dejaVu.glyphID(for: scalar)
        #expect(glyph != 0)
        #expect(try dejaVu.isComposite(glyph) == (scalar != "Å"), "U+\(String(scalar.value, radix: 16))")
        let resolved = try dejaVu.contours(of: glyph)
        #expect(resolved.contourEnds.count >= 3, "base letter plus the accent")
        #expect(resolved.points.count == resolved.onCurve.count)
        #expect(resolved.contourEnds.last == resolved.points.count)
    }

    @Test func aUmlautIsABovePlusTwoDots() throws {
        let a = try dejaVu.outline(of: "A" as Unicode.Scalar, pixelSize: 32)
        let aUmlaut = try dejaVu.outline(of: "Ä" as Unicode.Scalar, pixelSize: 32)
        #expect(aUmlaut.contours.count == a.contours.count + 2)
        #expect(aUmlaut.boundsMin.y < a.boundsMin.y - 3)  // the dots sit above the apex
        #expect(aUmlaut.advance == a.advance)
        // The A part is the same A (component offset 0).
        #expect(aUmlaut.contours.contains(a.contours[0]))
    }

    @Test func cmapFormat12AndFormat4Agree() throws {
        let format4 = try CharacterMap(dejaVu.cmapTable, onlyFormat: 4)
        let format12 = try CharacterMap(dejaVu.cmapTable, onlyFormat: 12)
        #expect(format12.groups.count > 0 && format4.segments.count > 0)
        var mapped = 0
        for c in UInt32(0)...0xFFFF {
            let g4 = format4.lookup(c)
            #expect(g4 == format12.lookup(c), "U+\(String(c, radix: 16))")
            if g4 != 0 { mapped += 1 }
        }
        #expect(mapped > 3000)
        #expect(dejaVu.glyphID(for: "Ä") == format4.lookup(0xC4))
        #expect(dejaVu.glyphID(for: "\u{10FFFF}") == 0)
        #expect(!dejaVu.hasGlyph(for: "\u{E000}"))
    }

    @Test func kerningFromTheKernTable() {
        #expect(dejaVu.kerningPairs.count > 1000)
        let a = dejaVu.glyphID(for: "A"), v = dejaVu.glyphID(for: "V"), t = dejaVu.glyphID(for: "T"), o = dejaVu.glyphID(for: "o")
        #expect(dejaVu.kerning(a, v) < 0)
        #expect(dejaVu.kerning(t, o) < 0)
        #expect(dejaVu.kerning(o, o) == 0)
    }

    @Test func rectangleGlyphHasTheAreaOfItsBoxAndScreenOrientation() throws {
        // 'I' is a single rectangle: the flattened polygon's area equals its bounding box's.
        let outline = try dejaVu.outline(of: "I" as Unicode.Scalar, pixelSize: 100)
        #expect(outline.contours.count == 1)
        let box = outline.boundsMax - outline.boundsMin
        let area = signedArea(outline.contours[0])
        #expect(abs(abs(area) - box.x * box.y) < 0.01 * box.x * box.y)
        // Outer contours are clockwise in y-up font units, so with y down the shoelace area is positive.
        #expect(area > 0)
    }

    @Test func everyGlyphOfBothFontsParses() throws {
        for path in [fontPath, boldFontPath] {
            let font = try TrueTypeFont(contentsOfFile: path)
            var points = 0
            for g in 0..<font.glyphCount {
                let c = try font.contours(of: GlyphID(g))
                points += c.points.count
            }
            #expect(points > 100_000)
        }
    }
}

@Suite struct FontErrorTests {
    private var bytes: [UInt8] { [UInt8](FileManager.default.contents(atPath: fontPath)!) }

    @Test func truncatedFilesThrowClearErrors() {
        let all = bytes
        for length in [0, 3, 12, 100, 1000, 50_000, 600_000, all.count - 1] {
            #expect(throws: FontError.self, "length \(length)") {
                _ = try TrueTypeFont(data: Array(all.prefix(length)), name: "cut.ttf")
            }
        }
        do {
            _ = try TrueTypeFont(data: Array(all.prefix(600_000)), name: "cut.ttf")
        } catch {
            #expect(error.description.hasPrefix("cut.ttf: table '"), "\(error)")
            #expect(error.description.contains("runs past the end"), "\(error)")
        }
    }

    @Test func notAFontIsAnError() {
        #expect(throws: FontError(font: "x.ttf", message: "not a TrueType font (sfnt version 0x3c68746d)")) {
            _ = try TrueTypeFont(data: Array("<html>not a font</html>".utf8), name: "x.ttf")
        }
        #expect(throws: FontError.self) { _ = try TrueTypeFont(contentsOfFile: "/nonexistent/font.ttf") }
    }

    /// Flips bytes inside 'glyf' and 'loca' (seeded) and reads every glyph: errors are fine, traps are not.
    @Test func corruptedGlyphDataNeverTraps() throws {
        let original = bytes
        let font = try TrueTypeFont(data: original, name: "DejaVuSans.ttf")
        var state: UInt64 = 12345
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for _ in 0..<8 {
            var data = original
            for _ in 0..<400 {
                let at = font.glyf.start + next() % font.glyf.count
                data[at] = UInt8(truncatingIfNeeded: next())
            }
            guard let broken = try? TrueTypeFont(data: data, name: "broken.ttf") else { continue }
            var errors = 0
            for g in stride(from: 0, to: broken.glyphCount, by: 3) {
                do { _ = try broken.outline(of: GlyphID(g), pixelSize: 12) } catch { errors += 1 }
            }
            _ = errors
        }
    }

    @Test func selfReferencingCompositeIsAnErrorNotARecursionCrash() throws {
        var data = bytes
        let glyph = dejaVu.glyphID(for: "Ä")
        #expect(try dejaVu.isComposite(glyph))
        // The first component's glyph index sits 12 bytes into the glyph record.
        let at = dejaVu.glyf.start + Int(dejaVu.glyphOffsets[Int(glyph)]) + 12
        data[at] = UInt8(glyph >> 8)
        data[at + 1] = UInt8(glyph & 0xFF)
        let looped = try TrueTypeFont(data: data, name: "loop.ttf")
        #expect(throws: FontError.self) { _ = try looped.outline(of: glyph, pixelSize: 16) }
        do {
            _ = try looped.contours(of: glyph)
        } catch {
            #expect(error.message.contains("nests deeper"), "\(error)")
        }
    }

    @Test func badPixelSizeIsAnError() {
        #expect(throws: FontError.self) { _ = try dejaVu.outline(of: "A" as Unicode.Scalar, pixelSize: .nan) }
        #expect(throws: FontError.self) { _ = try dejaVu.outline(of: "A" as Unicode.Scalar, pixelSize: 0) }
    }

    @Test func outOfRangeGlyphIsAnError() {
        #expect(throws: FontError.self) { _ = try dejaVu.contours(of: GlyphID(dejaVu.glyphCount)) }
        #expect(dejaVu.advanceWidth(of: GlyphID.max) == 0)
    }
}
