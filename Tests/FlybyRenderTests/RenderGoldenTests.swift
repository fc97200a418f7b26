import FlybyCore
import FlybyMedia
import FlybyRender
import FlybyTestSupport
import Foundation
import Testing

/// Whole-frame goldens: every scenario (built-in style × flat/pitched camera × one/three row bands)
/// is rendered at 320 × 180 and its FNV-1a 64 checksum of the premultiplied pixels compared with
/// the one recorded in `Traces/render/checksums.txt` (one `scenario checksum` line each).
///
/// Recording is opt-in, as for the trace goldens: `FLYBY_RECORD_GOLDENS=1 swift test --filter
/// RenderGoldenTests` rewrites the file and **fails**, so a recording run never passes by accident.
/// Commit re-recorded checksums with the reason in the message.
///
/// A changed checksum names the scenario and writes `<scenario>.actual.png` to
/// `.build/render-goldens/` (the path is printed). Every passing run keeps its frames there as
/// `<scenario>.good.png`; when the kept frame still has the golden checksum, a failing run also
/// writes `<scenario>.diff.png`: unchanged pixels dimmed to grey, changed pixels in magenta.
@Suite struct RenderGoldenTests {
    static let goldenPath = repositoryRoot() + "/Traces/render/checksums.txt"
    /// This file's path (for tests in sub-folders that need the repository root).
    static let sourceFile = #filePath
    static let outputFolder = repositoryRoot() + "/.build/render-goldens"
    static let width = 320, height = 180

    /// One frame to check: a style spec, a camera and the number of row bands.
    struct Scenario: CustomStringConvertible, Sendable {
        var style: String
        var pitched: Bool
        var threads: Int
        /// `world:night/pitched/3-bands`, the key in the checksum file.
        var description: String { "\(style)/\(pitched ? "pitched" : "flat")/\(threads)-band\(threads == 1 ? "" : "s")" }
        /// A file name for the images (no `/` or `:`).
        var fileStem: String { description.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: ":", with: "-") }
    }

    static let scenarios: [Scenario] = (["world", "world:night", "city", "city:night"] + textFixtures).flatMap { style in
        [false, true].flatMap { pitched in [1, 3].map { Scenario(style: style, pitched: pitched, threads: $0) } }
    } + extrusionStyles.flatMap { style in [1, 3].map { Scenario(style: style, pitched: true, threads: $0) } }
      + PropertyScenes.names.flatMap { name in [1, 3].map { Scenario(style: "props:" + name, pitched: false, threads: $0) } }
      + [1, 3].map { Scenario(style: "puck3d", pitched: true, threads: $0) }
      + [1, 3].map { Scenario(style: terrainStyle, pitched: true, threads: $0) }
      + [1, 3].map { Scenario(style: terrainBlocksStyle, pitched: true, threads: $0) }

    /// 3D terrain: Jacksboro draped on its DEM at exaggeration 2, pitched 70°, with a sky
    /// (Fixtures/terrain/jacksboro-3d.json; docs/terrain.md).
    static let terrainStyle = "jacksboro-terrain-3d"

    /// Buildings on the terrain: two blocks, one in the valley, one behind the ridge, seen low
    /// over the valley (Fixtures/terrain/jacksboro-blocks.json; docs/terrain.md, step 7).
    static let terrainBlocksStyle = "jacksboro-blocks-3d"

    /// 3D buildings (`fill-extrusion`) over the Helsinki vector tiles, by day and at dusk.
    static let extrusionStyles = ["osm-bright-3d", "osm-bright-3d:dusk"]

    /// Label scenes from `Tests/FlybyRenderTests/Fixtures/text/<name>.json` (glyph PBF labels),
    /// drawn with ``textCamera(pitched:)``.
    static let textFixtures = ["text-pbf-labels", "text-line-labels", "text-symbol-features", "text-variable-anchors",
                                "text-pitch-map"]

    static func textCamera(pitched: Bool) -> CameraState {
        pitched ? CameraState(center: .init(latitude: 60.1695, longitude: 24.9400), zoom: 13, bearing: 20, pitch: 50)
            : CameraState(center: .init(latitude: 60.1695, longitude: 24.9400), zoom: 13)
    }

    static let helsinki = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9445)

    /// The camera of a scenario: Europe for the world styles, central Helsinki for the city styles.
    static func camera(_ s: Scenario) -> CameraState {
        if s.style.hasPrefix("osm-bright") { return CameraState(center: helsinki, zoom: 15.5, bearing: -20, pitch: 60) }
        if s.style.hasPrefix("text-") { return textCamera(pitched: s.pitched) }
        if s.style.hasPrefix("props:") { return PropertyScenes.camera(String(s.style.dropFirst("props:".count))) }
        if s.style == terrainStyle {
            return CameraState(center: .init(latitude: 36.5896, longitude: -84.2458), zoom: 12, bearing: 300, pitch: 70)
        }
        if s.style == terrainBlocksStyle {
            return CameraState(center: .init(latitude: 36.5780, longitude: -84.2310), zoom: 12.7, bearing: 315, pitch: 72)
        }
        return switch (s.style.hasPrefix("city"), s.pitched) {
        case (false, false): CameraState(center: .init(latitude: 48, longitude: 10), zoom: 3)
        case (false, true): CameraState(center: .init(latitude: 48, longitude: 10), zoom: 3.6, bearing: 30, pitch: 60)
        case (true, false): CameraState(center: helsinki, zoom: 15.5)
        case (true, true): CameraState(center: helsinki, zoom: 15, bearing: 40, pitch: 60)
        }
    }

    /// The styles, loaded once through one loader (presets share the parsed data).
    static let styles: [String: LoadedStyle] = {
        var loader = StyleLoader()
        var styles: [String: LoadedStyle] = [:]
        for spec in ["world", "world:night", "city", "city:night"] + extrusionStyles { styles[spec] = try! loader.load(spec) }
        for name in textFixtures {
            let file = repositoryRoot() + "/Tests/FlybyRenderTests/Fixtures/text/\(name.dropFirst("text-".count)).json"
            styles[name] = try! loader.load(file)
        }
        styles[terrainStyle] = try! loader.load(repositoryRoot() + "/Tests/FlybyRenderTests/Fixtures/terrain/jacksboro-3d.json")
        styles[terrainBlocksStyle] = try! loader.load(repositoryRoot() + "/Tests/FlybyRenderTests/Fixtures/terrain/jacksboro-blocks.json")
        return styles
    }()

    /// The city scenes draw a puck with a heading and an accuracy ring.
    static let puck = PuckState(location: Location(coordinate: helsinki, timestamp: 0, course: 30, horizontalAccuracy: 40))

    static func render(_ s: Scenario) throws -> PixelBuffer {
        if s.style.hasPrefix("props:") {
            var renderer = try makeRenderer(PropertyScenes.style(String(s.style.dropFirst("props:".count))), width: width, height: height)
            renderer.attribution = ""
            PropertyScenes.addImages(to: &renderer)
            renderer.threads = s.threads
            var frame = PixelBuffer(width: width, height: height)
            renderer.render(camera: camera(s), into: &frame)
            return frame
        }
        if s.style == "puck3d" { return try renderPuck3D(threads: s.threads) }
        var renderer = try MapRenderer(style: try #require(styles[s.style]), width: width, height: height)
        renderer.threads = s.threads
        var frame = PixelBuffer(width: width, height: height)
        renderer.render(camera: camera(s), puck: s.style.hasPrefix("city") ? puck : nil, into: &frame)
        return frame
    }

    /// The recorded checksums, by scenario name; empty when the file is missing.
    static func readGoldens() -> [String: UInt64] {
        guard let text = try? String(contentsOfFile: goldenPath, encoding: .utf8) else { return [:] }
        var goldens: [String: UInt64] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = UInt64(parts[1], radix: 16) { goldens[String(parts[0])] = value }
        }
        return goldens
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    @Test func everyScenarioHasAGolden() {
        let goldens = Self.readGoldens()
        let missing = Self.scenarios.map(\.description).filter { goldens[$0] == nil }
        #expect(missing.isEmpty, "no checksum in \(Self.goldenPath) for \(missing) (record with FLYBY_RECORD_GOLDENS=1)")
    }

    @Test func checksumsChangeWhenOnePixelChanges() {
        var frame = PixelBuffer(width: 4, height: 2, color: Color(rgb: 0x336699))
        let before = frame.fnv1a64
        frame.pixels[5] &+= 1
        #expect(frame.fnv1a64 != before)
        #expect(PixelBuffer(width: 0, height: 0).fnv1a64 == 0xcbf2_9ce4_8422_2325, "the FNV-1a 64 offset basis for no bytes")
    }

    @Test func everyScenarioMatchesItsGolden() throws {
        let recording = ProcessInfo.processInfo.environment["FLYBY_RECORD_GOLDENS"] == "1"
        let goldens = Self.readGoldens()
        try FileManager.default.createDirectory(atPath: Self.outputFolder, withIntermediateDirectories: true)
        var lines = ["# Render goldens: FNV-1a 64 of the premultiplied 0xAARRGGBB pixels (little-endian bytes, row by row)",
                     "# of a \(Self.width)x\(Self.height) frame per scenario; see Tests/FlybyRenderTests/RenderGoldenTests.swift."]
        var changed: [String] = []
        for s in Self.scenarios {
            let frame = try Self.render(s)
            let sum = frame.fnv1a64
            lines.append("\(s) \(Self.hex(sum))")
            let good = Self.outputFolder + "/" + s.fileStem + ".good.png"
            guard let golden = goldens[s.description] else { changed.append("\(s): no golden"); continue }
            if golden == sum {
                if !recording { try Self.writePNG(frame, to: good) }
                continue
            }
            changed.append("\(s): golden \(Self.hex(golden)), now \(Self.hex(sum))")
            if recording { continue }
            try Self.writePNG(frame, to: Self.outputFolder + "/" + s.fileStem + ".actual.png")
            if let bytes = FileManager.default.contents(atPath: good), let image = try? PNGDecoder.decode([UInt8](bytes)),
               image.width == frame.width, image.height == frame.height {
                var reference = PixelBuffer(width: image.width, height: image.height)
                reference.pixels = image.pixels
                if reference.fnv1a64 == golden {
                    try Self.writePNG(Self.diffImage(reference, frame), to: Self.outputFolder + "/" + s.fileStem + ".diff.png")
                }
            }
        }
        if recording {
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: Self.goldenPath))
            Issue.record("recorded \(Self.goldenPath) (\(changed.count) changed: \(changed)); re-run without FLYBY_RECORD_GOLDENS")
        } else {
            #expect(changed.isEmpty, """
                render goldens differ: \(changed.joined(separator: "; ")). Frames (.actual.png, and .diff.png where a \
                frame of the golden was kept) are in \(Self.outputFolder)
                """)
        }
    }

    @Test func oneBandAndThreeBandsHaveTheSameGolden() {
        let goldens = Self.readGoldens()
        for s in Self.scenarios where s.threads == 3 {
            var one = s
            one.threads = 1
            #expect(goldens[s.description] == goldens[one.description], "\(s)")
        }
    }

    static func writePNG(_ frame: PixelBuffer, to path: String) throws {
        let png = try PNGEncoder(compressionLevel: 6).encode(pixels: frame.pixels, width: frame.width, height: frame.height)
        try Data(png).write(to: URL(fileURLWithPath: path))
    }

    /// Unchanged pixels as a dim grey of their luminance, changed pixels opaque magenta.
    static func diffImage(_ a: PixelBuffer, _ b: PixelBuffer) -> PixelBuffer {
        var out = PixelBuffer(width: a.width, height: a.height)
        for i in a.pixels.indices {
            if a.pixels[i] != b.pixels[i] { out.pixels[i] = 0xFFFF_00FF; continue }
            let p = a.pixels[i]
            let luma = (((p >> 16) & 0xFF) * 3 + ((p >> 8) & 0xFF) * 6 + (p & 0xFF)) / 10 / 3 + 40
            out.pixels[i] = 0xFF00_0000 | luma << 16 | luma << 8 | luma
        }
        return out
    }
}

extension PixelBuffer {
    /// FNV-1a 64 over the pixels' bytes, little-endian, row by row
    /// (Fowler–Noll–Vo, IETF draft-eastlake-fnv: offset basis 0xcbf29ce484222325, prime 0x100000001b3).
    var fnv1a64: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for p in pixels {
            for shift in stride(from: 0, to: 32, by: 8) {
                hash ^= UInt64((p >> UInt32(shift)) & 0xFF)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        return hash
    }
}
