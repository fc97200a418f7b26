@testable import FlybyCLI
import Testing

/// `--tile-cache`: given, its MiB alone bound each tiled source; not given, a count sized from
/// the frame bounds it too (so a long flight's cache stops growing early; docs/tiles.md).
@Suite struct TileCacheDefaultTests {
    @Test func withoutTheOptionTheCacheIsSizedFromTheFrame() throws {
        #expect(TileCacheOption.tiles(nil, width: 1280, height: 720) == 60)
        #expect(try TileCacheOption.parse(nil) == 256 << 20)
    }

    @Test func aGivenSizeIsTheOnlyBound() throws {
        #expect(TileCacheOption.tiles("64", width: 1280, height: 720) == nil)
        #expect(try TileCacheOption.parse("64") == 64 << 20)
    }
}
