import Foundation
import FlybyMedia
import Testing

/// PNG, JPEG and WebP raster tiles: the format from the first bytes, the pixels, and corrupt input
/// refused with an error (never a crash).
@Suite struct TileImageDecoderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/raster")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test func theFormatIsToldFromTheFirstBytes() throws {
        #expect(ImageFormat.sniff(try Self.fixture("toner-1-0-0.png")) == .png)
        #expect(ImageFormat.sniff(try Self.fixture("toner-1-0-0.jpg")) == .jpeg)
        #expect(ImageFormat.sniff(try Self.fixture("whitney-8-43-100.webp")) == .webp)
        #expect(ImageFormat.sniff(Array("RIFF1234WAVE".utf8)) == nil)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil)
    }

    @Test func aWebPTileDecodesToOpaquePixels() throws {
        let image = try TileImageDecoder.decode(try Self.fixture("whitney-8-43-100.webp"))
        #expect(image.width == 512 && image.height == 512)
        #expect(image.pixels.allSatisfy { $0 >> 24 == 0xFF })
        // A topographic map: not one flat colour.
        #expect(Set(image.pixels).count > 1000)
    }

    @Test func aJPEGTileDecodesCloseToThePNGItWasMadeFrom() throws {
        let jpeg = try TileImageDecoder.decode(try Self.fixture("toner-1-0-0.jpg"))
        let png = try TileImageDecoder.decode(try Self.fixture("toner-1-0-0.png"))
        #expect(jpeg.width == 256 && jpeg.height == 256)
        var total = 0
        for (a, b) in zip(jpeg.pixels, png.pixels) {
            for shift in [16, 8, 0] as [UInt32] { total += abs(Int(a >> shift & 0xFF) - Int(b >> shift & 0xFF)) }
        }
        let mean = Double(total) / Double(3 * 256 * 256)
        #expect(mean < 6, "mean channel difference \(mean)")
    }

    @Test func truncatedWebPAndJPEGDataAreErrorsNamingTheFormat() throws {
        for (name, format) in [("whitney-8-43-100.webp", "WebP"), ("toner-1-0-0.jpg", "JPEG")] {
            let bytes = try Self.fixture(name)
            for cut in [20, bytes.count / 2] {
                #expect {
                    _ = try TileImageDecoder.decode(Array(bytes.prefix(cut)))
                } throws: { error in
                    guard case MediaError.invalidImage(let m) = error else { return false }
                    return m.hasPrefix(format)
                }
            }
        }
    }

    @Test func bytesOfNoImageFormatAreAnError() {
        #expect(throws: MediaError.self) { _ = try TileImageDecoder.decode(Array("not an image at all".utf8)) }
        #expect(throws: MediaError.self) { _ = try TileImageDecoder.decode([]) }
    }

    @Test func anImageLargerThanTheLimitIsRefusedBeforeItIsDecoded() throws {
        // The WebP tile is 512 × 512: over a limit of 256 × 256.
        #expect {
            _ = try TileImageDecoder.decode(try Self.fixture("whitney-8-43-100.webp"), maxPixels: 256 * 256)
        } throws: { error in
            guard case MediaError.invalidImage(let m) = error else { return false }
            return m.contains("512×512")
        }
        // A PNG header claiming 100000 × 100000 pixels.
        var png = try Self.fixture("toner-1-0-0.png")
        png[16...23] = [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0]
        #expect(throws: MediaError.self) { _ = try TileImageDecoder.decode(png) }
    }
}
