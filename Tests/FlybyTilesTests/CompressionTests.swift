import FlybyCore
import FlybyData
import FlybyTiles
import Testing

@Suite struct CompressionTests {
    static let plain: [UInt8] = Array("vector tiles are small, mostly".utf8)

    @Test func gzipRoundTrips() throws {
        #expect(try Decompressor.decompress(gzip(Self.plain), .gzip) == Self.plain)
        #expect(try Decompressor.decompress(gzip(Self.plain), .unknown) == Self.plain)
        #expect(try Decompressor.decompress(Self.plain, .unknown) == Self.plain)
    }

    @Test func aGzipBombStopsAtTheLimit() throws {
        // 16 MiB of zeros compress to about 16 KiB; with a 1 MiB limit the inflater must stop.
        let bomb = gzip([UInt8](repeating: 0, count: 16 << 20))
        #expect(bomb.count < 100_000)
        #expect(throws: DecompressionError.self) { try Decompressor.decompress(bomb, .gzip, limit: 1 << 20) }
        #expect(try Decompressor.decompress(bomb, .gzip, limit: 16 << 20).count == 16 << 20)
    }

    @Test func truncatedAndCorruptGzipAreErrors() {
        let g = gzip(Self.plain)
        #expect(throws: DecompressionError.self) { try Decompressor.decompress(Array(g.prefix(g.count / 2)), .gzip) }
        var corrupt = g
        corrupt[12] ^= 0xFF
        corrupt[13] ^= 0xFF
        #expect(throws: DecompressionError.self) { try Decompressor.decompress(corrupt, .gzip) }
        #expect(throws: DecompressionError.self) { try Decompressor.decompress([], .gzip) }
    }

    @Test func brotliAndZstdDecodeToTheSameBytes() throws {
        let original = try TileFixtures.bytes("compression/multi-polygon.pbf")
        #expect(try Decompressor.decompress(try TileFixtures.bytes("compression/multi-polygon.pbf.br"), .brotli) == original)
        #expect(try Decompressor.decompress(try TileFixtures.bytes("compression/multi-polygon.pbf.zst"), .zstd) == original)
    }

    @Test func brotliAndZstdRespectTheLimitAndRefuseGarbage() throws {
        #expect(throws: DecompressionError.self) { try Decompressor.decompress(try TileFixtures.bytes("compression/multi-polygon.pbf.br"), .brotli, limit: 10) }
        #expect(throws: DecompressionError.self) { try Decompressor.decompress(try TileFixtures.bytes("compression/multi-polygon.pbf.zst"), .zstd, limit: 10) }
        #expect(throws: DecompressionError.self) { try Decompressor.decompress(Self.plain, .zstd) }
        #expect(throws: DecompressionError.self) { try Decompressor.decompress([0xFF, 0xFF, 0xFF, 0xFF], .brotli) }
        let zst = try TileFixtures.bytes("compression/multi-polygon.pbf.zst")
        #expect(throws: DecompressionError.self) { try Decompressor.decompress(Array(zst.prefix(20)), .zstd) }
    }

    @Test func uncompressedDataIsAlsoBounded() {
        #expect(throws: DecompressionError.self) { try Decompressor.decompress(Self.plain, .none, limit: 4) }
    }
}
