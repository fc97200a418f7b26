import FlybyData
import FlybyMedia
import FlybyRender
import Foundation
import Testing

@Suite struct SpriteSheetTests {
    /// Writes `name.png` (a `w × h` opaque red image) and `name.json` into a fresh folder.
    static func sheet(json: String, w: Int = 64, h: Int = 64) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flyby-sprite-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let png = try PNGEncoder().encode(pixels: Array(repeating: 0xFFFF_0000, count: w * h), width: w, height: h)
        FileManager.default.createFile(atPath: dir + "/s.png", contents: Data(png))
        FileManager.default.createFile(atPath: dir + "/s.json", contents: Data(json.utf8))
        return dir + "/s"
    }

    @Test func imagesAreCutOutOfTheSheet() throws {
        let s = try SpriteSheet(path: try Self.sheet(json: #"{"a": {"x": 8, "y": 4, "width": 10, "height": 6, "pixelRatio": 1, "sdf": true}}"#))
        let a = try #require(s.images["a"])
        #expect(a.width == 10 && a.height == 6)
        #expect(a.pixels.allSatisfy { $0 == 0xFFFF_0000 })
        #expect(s.sdfNames == ["a"])
    }

    @Test func anEntryOutsideTheImageIsAnErrorNamingIt() throws {
        let path = try Self.sheet(json: #"{"a": {"x": 60, "y": 0, "width": 10, "height": 6}}"#)
        #expect { try SpriteSheet(path: path) } throws: { e in
            "\(e)".contains("'a'") && "\(e)".contains("outside") && "\(e)".contains("s.json")
        }
    }

    @Test func overlappingEntriesCannotAskForUnboundedMemory() throws {
        // 10,000 entries, each the whole 1024 × 1024 sheet: 10 Gi pixels if cut out.
        let entries = (0..<10_000).map { #""e\#($0)": {"x": 0, "y": 0, "width": 1024, "height": 1024}"# }
        let path = try Self.sheet(json: "{" + entries.joined(separator: ",") + "}", w: 1024, h: 1024)
        #expect { try SpriteSheet(path: path) } throws: { e in "\(e)".contains("pixels") }
    }
}
