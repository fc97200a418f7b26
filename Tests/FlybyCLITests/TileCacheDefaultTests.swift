@testable import FlybyCLI
import Testing

/// `--tile-cache`: given, its MiB alone bound each tiled source; not given, a count sized from
/// the frame bounds it too (so a long flight's cache stops growing early; docs/tiles.md).
@Suite struct TileCacheDefaultTests {
    static func parse(_ args: [String]) throws -> ParsedOptions {
        try ParsedOptions(args, command: "snapshot", helpName: "snapshot", options: [OptionSpec.tileCache], positionals: .none)
    }

    @Test func withoutTheOptionTheCacheIsSizedFromTheFrame() throws {
        let o = try Self.parse([])
        #expect(o.tileCacheTiles(width: 1280, height: 720) == 60)
        #expect(o.tileCacheBytes == 256 << 20)
    }

    @Test func aGivenSizeIsTheOnlyBound() throws {
        let o = try Self.parse(["--tile-cache", "64"])
        #expect(o.tileCacheTiles(width: 1280, height: 720) == nil)
        #expect(o.tileCacheBytes == 64 << 20)
    }
}
