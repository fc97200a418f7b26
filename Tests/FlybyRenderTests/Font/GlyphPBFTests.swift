import FlybyCore
import FlybyTestSupport
import Foundation
import Testing
@testable import FlybyRender

/// Glyph PBFs (the style's `glyphs`): decoding, refusing malformed files, the fallback along the
/// `text-font` stack and to the built-in font.
@Suite struct GlyphPBFTests {
    /// The repository root (this file is one folder deeper than ``repositoryRoot(filePath:)`` expects).
    static let root = repositoryRoot(filePath: RenderGoldenTests.sourceFile)
    static let folder = root + "/Tests/FlybyRenderTests/Fixtures/text/glyphs"
    static let regular = folder + "/Noto Sans Regular/0-255.pbf"

    static func fixtureBytes() throws -> [UInt8] { [UInt8](try #require(FileManager.default.contents(atPath: regular))) }

    // MARK: - A protobuf writer for crafted inputs

    static func varint(_ v: UInt64) -> [UInt8] {
        var v = v, out: [UInt8] = []
        while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        return out + [UInt8(v)]
    }
    static func field(_ n: UInt64, _ v: UInt64) -> [UInt8] { varint(n << 3) + varint(v) }
    static func field(_ n: UInt64, bytes: [UInt8]) -> [UInt8] { varint(n << 3 | 2) + varint(UInt64(bytes.count)) + bytes }
    static func zigzag(_ v: Int) -> UInt64 { UInt64(bitPattern: Int64((v << 1) ^ (v >> 63))) }

    /// A glyph message; `bitmapLength` nil gives the right length.
    static func glyph(id: UInt64, width: Int = 2, height: Int = 3, bitmapLength: Int? = nil) -> [UInt8] {
        let length = bitmapLength ?? (width + 6) * (height + 6)
        return field(1, id) + field(2, bytes: [UInt8](repeating: 200, count: length)) + field(3, UInt64(width))
            + field(4, UInt64(height)) + field(5, zigzag(1)) + field(6, zigzag(-10)) + field(7, 9)
    }

    static func file(_ glyphs: [[UInt8]]) -> [UInt8] {
        field(1, bytes: field(1, bytes: Array("Test".utf8)) + field(2, bytes: Array("0-255".utf8)) + glyphs.flatMap { field(3, bytes: $0) })
    }

    // MARK: - Decoding

    @Test func theCommittedNotoRangeDecodesWithItsDocumentedMetrics() throws {
        let range = try PBFGlyphRange.decode(try Self.fixtureBytes(), file: "0-255.pbf", firstCodePoint: 0)
        #expect(range.name == "Sans Regular", "the name inside the file lacks 'Noto' (fonts README)")
        #expect(range.range == "0-255")
        #expect(range.glyphs.count == 195)
        let a = try #require(range.glyphs.first { $0.id == 65 })
        #expect((a.width, a.height, a.left, a.top, a.advance) == (15, 17, 0, -8, 15))
        #expect(a.bitmap.count == 483)
        let space = try #require(range.glyphs.first { $0.id == 32 })
        #expect(space.bitmap.isEmpty && space.advance > 0)
    }

    @Test func aCraftedFileDecodesItsSignedMetrics() throws {
        let range = try PBFGlyphRange.decode(Self.file([Self.glyph(id: 300)]), file: "t.pbf", firstCodePoint: 256)
        let g = try #require(range.glyphs.first)
        #expect((g.id, g.width, g.height, g.left, g.top, g.advance) == (300, 2, 3, 1, -10, 9))
    }

    @Test(arguments: [
        ("truncated", Array(file([glyph(id: 65)]).dropLast(5)), "not a glyph PBF"),
        ("bitmap too short", file([glyph(id: 65, bitmapLength: 10)]), "bitmap of 10 bytes"),
        ("bitmap too long", file([glyph(id: 65, bitmapLength: 73)]), "expected (2+6)×(3+6) = 72"),
        ("too wide", file([glyph(id: 65, width: 129, height: 1)]), "at most 128×128"),
        ("id outside the range", file([glyph(id: 256)]), "outside the file's range 0-255"),
        ("no id", field(1, bytes: field(3, bytes: field(3, 1))), "has no id"),
        ("too many glyphs", file((0..<257).map { _ in glyph(id: 65) }), "more than 256 glyphs"),
        ("garbage", [0xFF, 0xFF, 0xFF], "not a glyph PBF"),
    ] as [(String, [UInt8], String)])
    func malformedFilesAreRefusedNamingTheFile(_ name: String, _ bytes: [UInt8], _ expected: String) {
        do {
            _ = try PBFGlyphRange.decode(bytes, file: "bad/0-255.pbf", firstCodePoint: 0)
            Issue.record("\(name): accepted")
        } catch {
            #expect(error.font == "bad/0-255.pbf", "\(name)")
            #expect(error.message.contains(expected), "\(name): \(error.message)")
        }
    }

    // MARK: - Distance fields

    @Test func aPBFFieldHasItsEdgeWhereMapLibreThresholdsIt() throws {
        // A 1×1 glyph whose bitmap is 192 (MapLibre's edge) everywhere: distance 0 → stored 128.
        var g = PBFGlyph(id: 65, width: 1, height: 1, left: 0, top: -24, advance: 5, bitmap: [UInt8](repeating: 192, count: 49))
        var field = try #require(GlyphDistanceField(pbf: g))
        #expect(field.texelsPerEm == 24)
        #expect(field.values[field.width * (field.height / 2) + field.width / 2] == 128)
        // 32 PBF steps are one pixel at 24 px per em: 160 is 1 px outside (12 quanta at 288 per em).
        g.bitmap = [UInt8](repeating: 160, count: 49)
        field = try #require(GlyphDistanceField(pbf: g))
        #expect(field.values[field.width * (field.height / 2) + field.width / 2] == 140)
        // Grown past the 3 px border to the painter's padding, distances keep growing outward.
        let row = field.height / 2
        #expect(field.values[row * field.width] > field.values[row * field.width + 6])
        #expect(field.width == 1 + 2 * 10 && field.originX == -10, "10 texels of padding at 24 per em")
        // The ink box sits 1 px below the baseline's 25 px line top: top −24 is 1 px above the baseline.
        #expect(field.originY == -(-24 + 25) - 10)
    }

    @Test func aGlyphWithoutBitmapHasNoField() {
        #expect(GlyphDistanceField(pbf: PBFGlyph(id: 32, width: 0, height: 0, left: 0, top: 0, advance: 6, bitmap: [])) == nil)
    }

    // MARK: - Stacks and fallback

    static func stack(_ names: [String], fallback: [String: String] = [:], folder: String = folder) throws -> GlyphStackFont {
        GlyphStackFont(names: names, source: GlyphSource(template: folder + "/{fontstack}/{range}.pbf", fallback: fallback),
                       fallback: try TrueTypeFont.builtin(), fallbackIsBold: false)
    }

    @Test func aStackFallsBackAlongItsNamesThenToTheBuiltinFont() throws {
        var font = try Self.stack(["Missing Font", "Noto Sans Regular"])
        font.prepare("AĀ")
        #expect(font.glyphID(for: "A") >= 0x8000, "A comes from the second font's PBF")
        #expect(font.field(font.glyphID(for: "A")) != nil)
        let macron = font.glyphID(for: "Ā")  // U+0100: range 256-511 is not in the fixtures
        #expect(macron != 0 && macron < 0x8000, "Ā comes from the built-in font")
        #expect(font.warnings.count == 1)
        #expect(font.warnings.first?.contains("256-511") == true)
        #expect(font.warnings.first?.contains("'Missing Font', 'Noto Sans Regular'") == true)
        font.prepare("Ā again")
        #expect(font.warnings.count == 1, "each missing range is reported once")
    }

    @Test func aFontWithoutAFolderUsesTheFallbackTableFolder() throws {
        var font = try Self.stack(["Noto Sans Bold"], fallback: ["Noto Sans Bold": "Noto Sans Regular"])
        font.prepare("H")
        #expect(font.glyphID(for: "H") >= 0x8000)
        #expect(font.warnings.isEmpty)
    }

    @Test func aCorruptRangeIsReportedOnceAndItsTextUsesTheBuiltinFont() throws {
        let dir = FileManager.default.temporaryDirectory.path + "/flyby-glyph-pbf-tests-corrupt"
        try FileManager.default.createDirectory(atPath: dir + "/Broken", withIntermediateDirectories: true)
        try Data([0x0A, 0xFF, 0x01]).write(to: URL(fileURLWithPath: dir + "/Broken/0-255.pbf"))
        var font = try Self.stack(["Broken"], folder: dir)
        font.prepare("Hello")
        font.prepare("World")
        #expect(font.warnings.count == 1)
        #expect(font.warnings.first?.contains(dir + "/Broken/0-255.pbf") == true)
        let h = font.glyphID(for: "H")
        #expect(h != 0 && h < 0x8000)
        let block = font.layout("Hello", pixelSize: 16)
        #expect(block.size.x > 20, "the text is still laid out")
    }

    @Test func pbfAdvancesScaleWithTheSize() throws {
        var font = try Self.stack(["Noto Sans Regular"])
        font.prepare("AA")
        let at24 = font.measure("AA", pixelSize: 24), at12 = font.measure("AA", pixelSize: 12)
        #expect(at24 == 30, "two advances of 15 px at the format's 24 px em")
        #expect(at12 == 15)
    }

    @Test func aStyleWithGlyphsDrawsItsLabelsFromThePBFStack() throws {
        var loader = StyleLoader()
        let style = try loader.load(Self.root + "/Tests/FlybyRenderTests/Fixtures/text/pbf-labels.json")
        var renderer = try MapRenderer(style: style, width: 320, height: 180)
        var frame = PixelBuffer(width: 320, height: 180)
        renderer.render(camera: RenderGoldenTests.textCamera(pitched: false), into: &frame)
        #expect(renderer.text.stacks.count == 1)
        #expect(renderer.text.stacks.first?.slots.count == 1, "one range loaded: 0-255")
        #expect(renderer.textWarnings.isEmpty, "\(renderer.textWarnings)")
        #expect(renderer.placedSymbolBoxes.count >= 2)
    }

    /// The label boxes of the fixture style with `extra` added to its symbol layer's layout.
    static func boxes(layout extra: String) throws -> [SymbolBox] {
        let original = try String(contentsOfFile: root + "/Tests/FlybyRenderTests/Fixtures/text/pbf-labels.json", encoding: .utf8)
        let edited = original.replacingOccurrences(of: "\"glyphs/{fontstack}", with: "\"\(folder)/{fontstack}")
            .replacingOccurrences(of: "\"text-max-width\": 6,", with: "\"text-max-width\": 6, \(extra)")
        let path = FileManager.default.temporaryDirectory.path + "/flyby-text-line-height-\(extra.count).json"
        try Data(edited.utf8).write(to: URL(fileURLWithPath: path))
        var loader = StyleLoader()
        var renderer = try MapRenderer(style: try loader.load(path), width: 320, height: 180)
        var frame = PixelBuffer(width: 320, height: 180)
        renderer.render(camera: RenderGoldenTests.textCamera(pitched: false), into: &frame)
        return renderer.placedSymbolBoxes
    }

    @Test func textLineHeightSetsTheDistanceBetweenLinesInEms() throws {
        let normal = try #require(try Self.boxes(layout: "\"text-line-height\": 1.2,").first { $0.text.hasPrefix("Åbo") })
        let tall = try #require(try Self.boxes(layout: "\"text-line-height\": 2.4,").first { $0.text.hasPrefix("Åbo") })
        let padding = 2.0 * 2  // text-padding 2 on both sides
        let ratio = (tall.maxY - tall.minY - padding) / (normal.maxY - normal.minY - padding)
        #expect(abs(ratio - 2) < 0.01, "two lines 2.4 em apart are twice as tall as 1.2 em apart (\(ratio))")
    }
}
