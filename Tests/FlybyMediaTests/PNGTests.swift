import CZlib
import FlybyCore
import Foundation
import Testing
@testable import FlybyMedia

/// Walks the chunks of a PNG file: (type, data, stored CRC, bytes the CRC covers).
private func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8], crc: UInt32, covered: ArraySlice<UInt8>)] {
    var result: [(String, [UInt8], UInt32, ArraySlice<UInt8>)] = []
    var i = 8
    func be(_ at: Int) -> UInt32 { png[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
    while i + 12 <= png.count {
        let length = Int(be(i))
        let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
        result.append((type, Array(png[(i + 8)..<(i + 8 + length)]), be(i + 8 + length), png[(i + 4)..<(i + 8 + length)]))
        i += 12 + length
    }
    return result
}

/// Builds a PNG by hand from raw (already filtered) scanlines, for decoder tests.
private func handMadePNG(width: Int, height: Int, depth: UInt8, colorType: UInt8, interlace: UInt8 = 0,
                         extra: [(String, [UInt8])] = [], scanlines: [UInt8]) throws -> [UInt8] {
    var out = PNGEncoder.signature
    var ihdr: [UInt8] = []
    ihdr.appendBigEndian(UInt32(width)); ihdr.appendBigEndian(UInt32(height))
    ihdr += [depth, colorType, 0, 0, interlace]
    PNGEncoder.appendChunk("IHDR", ihdr, to: &out)
    for (type, data) in extra { PNGEncoder.appendChunk(type, data, to: &out) }
    let z = try scanlines.withUnsafeBytes { try zlibDeflate($0, level: 9, strategy: .defaultStrategy) }
    PNGEncoder.appendChunk("IDAT", z, to: &out)
    PNGEncoder.appendChunk("IEND", [], to: &out)
    return out
}

@Suite struct PNGTests {
    @Test func zlibCRCMatchesTheStandardCheckValueAndAnIndependentCRC() {
        let check = Array("123456789".utf8)
        #expect(check.withUnsafeBytes { zlibCRC32(0, $0) } == 0xCBF4_3926)
        #expect(referenceCRC32(check) == 0xCBF4_3926)
        // And the C function called directly, outside FlybyMedia's wrapper.
        let direct = check.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        #expect(direct == 0xCBF4_3926)
    }

    @Test func signatureIHDRAndChunkCRCsAreCorrect() throws {
        let pixels: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FFFF, 0xFF00_0000, 0xFF80_8080]
        let png = try PNGEncoder().encode(pixels: pixels, width: 3, height: 2)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let list = chunks(png)
        #expect(list.map(\.type) == ["IHDR", "sRGB", "IDAT", "IEND"])
        let ihdr = try #require(list.first)
        #expect(ihdr.data == [0, 0, 0, 3, 0, 0, 0, 2, 8, 2, 0, 0, 0])  // 3×2, 8-bit, RGB, no interlace
        for chunk in list {
            #expect(chunk.crc == referenceCRC32(chunk.covered), "CRC of \(chunk.type)")
        }
        // The chunk walk consumed the whole file.
        #expect(list.reduce(8) { $0 + 12 + $1.data.count } == png.count)
    }

    @Test func translucentImagesAreRGBA() throws {
        let png = try PNGEncoder().encode(pixels: [0x8040_2010], width: 1, height: 1)
        #expect(chunks(png).first?.data[9] == 6)
    }

    @Test(arguments: PNGEncoder.Filter.allCases)
    func opaqueRoundTripIsExact(filter: PNGEncoder.Filter) throws {
        var rng = SplitMix64(seed: 7)
        let (w, h) = (37, 23)
        let pixels = (0..<(w * h)).map { _ in 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0x00FF_FFFF }
        let png = try PNGEncoder(compressionLevel: 3, filter: filter).encode(pixels: pixels, width: w, height: h)
        let image = try PNGDecoder.decode(png)
        #expect(image.width == w && image.height == h)
        #expect(image.pixels == pixels)
    }

    /// Valid premultiplied pixels (every channel ≤ alpha) come back exactly: the documented
    /// un-premultiply rounding loses nothing after re-premultiplying.
    @Test(arguments: PNGEncoder.Filter.allCases)
    func translucentRoundTripIsExactForValidPremultipliedPixels(filter: PNGEncoder.Filter) throws {
        var rng = SplitMix64(seed: 11)
        var pixels: [UInt32] = []
        for a in 0...255 {
            for _ in 0..<8 {
                let c = (0..<3).map { _ in a == 0 ? 0 : UInt32(rng.next() % UInt64(a + 1)) }
                pixels.append(UInt32(a) << 24 | c[0] << 16 | c[1] << 8 | c[2])
            }
        }
        let png = try PNGEncoder(filter: filter).encode(pixels: pixels, width: 64, height: 32)
        let image = try PNGDecoder.decode(png)
        #expect(image.pixels == pixels)
    }

    @Test func unpremultiplyRoundingIsAsDocumented() {
        // p = 64 at a = 128: 64·255/128 = 127.5 → 128 (half up).
        #expect(PNGEncoder.unpremultiply(64, 128) == 128)
        #expect(PNGEncoder.unpremultiply(1, 1) == 255)
        #expect(PNGEncoder.unpremultiply(200, 100) == 255)  // invalid p > a is clamped
        #expect(PNGDecoder.premultiply(0x80FF_8000) == 0x8080_4000)
    }

    @Test func encodingIsDeterministic() throws {
        let frame = mapLikeFrame(width: 160, height: 90)
        let a = try PNGEncoder().encode(pixels: frame, width: 160, height: 90)
        let b = try PNGEncoder().encode(pixels: frame, width: 160, height: 90)
        #expect(a == b)
    }

    @Test func wrongPixelCountIsAnError() {
        #expect(throws: MediaError.self) { try PNGEncoder().encode(pixels: [0, 0, 0], width: 2, height: 2) }
        #expect(throws: MediaError.self) { try PNGEncoder().encode(pixels: [], width: 0, height: 0) }
    }

    @Test func decodesGreyGreyAlphaAndPalette() throws {
        // 8-bit grey 2×1, filter None.
        let grey = try handMadePNG(width: 2, height: 1, depth: 8, colorType: 0, scanlines: [0, 0, 200])
        #expect(try PNGDecoder.decode(grey).pixels == [0xFF00_0000, 0xFFC8_C8C8])
        // Grey + alpha, filter Sub: second pixel = first + (10, 0).
        let ga = try handMadePNG(width: 2, height: 1, depth: 8, colorType: 4, scanlines: [1, 255, 255, 10, 0])
        #expect(try PNGDecoder.decode(ga).pixels == [0xFFFF_FFFF, 0xFF09_0909])
        // 2-bit palette with a transparent entry, 3×2, two rows (row 2 uses Up).
        let plte: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255]
        let pal = try handMadePNG(width: 3, height: 2, depth: 2, colorType: 3,
                                  extra: [("PLTE", plte), ("tRNS", [255, 0])],
                                  scanlines: [0, 0b00_01_10_00, 2, 0])
        #expect(try PNGDecoder.decode(pal).pixels == [0xFFFF_0000, 0, 0xFF00_00FF, 0xFFFF_0000, 0, 0xFF00_00FF])
        // 16-bit RGB keeps the high byte.
        let rgb16 = try handMadePNG(width: 1, height: 1, depth: 16, colorType: 2, scanlines: [0, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC])
        #expect(try PNGDecoder.decode(rgb16).pixels == [0xFF12_569A])
    }

    @Test func malformedFilesThrowClearErrors() throws {
        let good = try PNGEncoder().encode(pixels: mapLikeFrame(width: 40, height: 30), width: 40, height: 30)
        #expect(throws: MediaError.invalidPNG("missing PNG signature")) { try PNGDecoder.decode(Array(good.dropFirst())) }
        for cut in [9, 20, 33, good.count / 2, good.count - 13, good.count - 1] {
            #expect(throws: MediaError.self, "truncated at \(cut)") { try PNGDecoder.decode(Array(good.prefix(cut))) }
        }
        var corrupt = good
        corrupt[40] ^= 0x55  // inside IDAT
        #expect(throws: MediaError.self) { try PNGDecoder.decode(corrupt) }
        let interlaced = try handMadePNG(width: 1, height: 1, depth: 8, colorType: 0, interlace: 1, scanlines: [0, 0])
        #expect(throws: MediaError.unsupportedPNG("interlaced (Adam7) images are not supported")) {
            try PNGDecoder.decode(interlaced)
        }
        let badFilter = try handMadePNG(width: 1, height: 1, depth: 8, colorType: 0, scanlines: [7, 0])
        #expect(throws: MediaError.invalidPNG("row 0 has unknown filter type 7")) { try PNGDecoder.decode(badFilter) }
        let short = try handMadePNG(width: 4, height: 4, depth: 8, colorType: 0, scanlines: [0, 1, 2])
        #expect(throws: MediaError.self) { try PNGDecoder.decode(short) }
        let noPalette = try handMadePNG(width: 1, height: 1, depth: 8, colorType: 3, scanlines: [0, 0])
        #expect(throws: MediaError.invalidPNG("palette image without PLTE")) { try PNGDecoder.decode(noPalette) }
    }

    /// Seeded random corruption of a valid PNG, with chunk CRCs repaired so the damage reaches the
    /// header, zlib and filter code: decoding may fail but must never trap.
    @Test func corruptedPNGsNeverTrap() throws {
        let good = try PNGEncoder(filter: .paeth).encode(pixels: mapLikeFrame(width: 48, height: 32), width: 48, height: 32)
        var rng = SplitMix64(seed: 99)
        var failures = 0
        for _ in 0..<300 {
            var png = good
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                png[8 + Int(rng.next() % UInt64(png.count - 8))] = UInt8(truncatingIfNeeded: rng.next())
            }
            // Repair every chunk's CRC (lengths may now be garbage: stop at the first bad one).
            var i = 8
            while i + 12 <= png.count {
                let length = Int(png[i..<i + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                guard length <= png.count - i - 12 else { break }
                let crc = referenceCRC32(png[(i + 4)..<(i + 8 + length)])
                for k in 0..<4 { png[i + 8 + length + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
                i += 12 + length
            }
            do { _ = try PNGDecoder.decode(png) } catch { failures += 1 }
        }
        #expect(failures > 0)
    }

    /// Prints size and median time for filter/strategy/level choices on a 1280×720 map-like frame.
    /// Informative only (enabled by FLYBY_BENCH); run in release:
    /// `FLYBY_BENCH=1 swift test -c release --filter 'FlybyMediaTests.PNGTests/pngBenchmark'`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FLYBY_BENCH"] != nil))
    func pngBenchmark() throws {
        let (w, h) = (1280, 720)
        let frame = mapLikeFrame(width: w, height: h)
        let clock = ContinuousClock()
        func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
            var times: [Double] = []
            for _ in 0..<runs {
                let t0 = clock.now
                try body()
                let d = clock.now - t0
                times.append(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
            }
            return times.sorted()[runs / 2]
        }
        let filterOnly = frame.withUnsafeBufferPointer { px in
            median(15) { _ = PNGEncoder.filterImage(px, width: w, height: h, channels: 3, filter: .up) }
        }
        print("png convert+filter(up) only: median \(filterOnly) ms")
        var size = 0
        let defaultTime = try median(15) { size = try PNGEncoder().encode(pixels: frame, width: w, height: h).count }
        print("png default (up, level 6, standard): \(size) bytes, median of 15 \(defaultTime) ms")
        for strategy in [PNGEncoder.Strategy.standard, .filtered, .rle] {
            for filter in PNGEncoder.Filter.allCases where filter != .average {
                for level in [1, 6, 9] {
                    let encoder = PNGEncoder(compressionLevel: level, filter: filter, strategy: strategy)
                    let t = try median(7) { size = try encoder.encode(pixels: frame, width: w, height: h).count }
                    print("png \(strategy) \(filter) level \(level): \(size) bytes, median \(t) ms")
                }
            }
        }
    }
}
