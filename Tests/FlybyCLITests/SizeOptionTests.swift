import FlybyCore
import Testing

/// `--size` is parsed once for every command (``PixelSize``): `WxH` or a preset.
@Suite struct SizeOptionTests {
    @Test(arguments: [("720p", 1280, 720), ("1080p", 1920, 1080), ("4k", 3840, 2160), ("square", 1080, 1080), ("4K", 3840, 2160),
                      ("640x360", 640, 360), ("16X9", 16, 9)])
    func sizesAndPresetsParse(_ text: String, _ width: Int, _ height: Int) throws {
        let size = try PixelSize(parsing: text)
        #expect(size.width == width && size.height == height)
    }

    @Test(arguments: ["12xx", "0x5", "big", "x720", "1280x", "20000x10"])
    func badSizesNameTheOptionAndThePresets(_ text: String) {
        do {
            _ = try PixelSize(parsing: text)
            Issue.record("'\(text)' parsed")
        } catch {
            #expect("\(error)".contains("--size must be WxH") && "\(error)".contains("720p"), "\(error)")
        }
    }

    @Test func theWindowLimitAlsoLimitsPresets() {
        #expect(throws: (any Error).self) { try PixelSize(parsing: "9000x100", maxSide: 8192) }
        #expect((try? PixelSize(parsing: "4k", maxSide: 8192))?.width == 3840)
        #expect(throws: (any Error).self) { try PixelSize(parsing: "4k", maxSide: 2000) }
    }
}
