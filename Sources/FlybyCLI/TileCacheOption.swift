import FlybyRender

/// The one `--tile-cache MiB` parser of `snapshot`, `bench render` and `play`: the most memory
/// the decoded tiles of each tiled source may hold (``VectorTileSet/cacheBudget``). What the
/// cache holds never changes a pixel, only how often a tile is read and decoded again.
enum TileCacheOption {
    /// The help line every command that takes the option prints.
    static let help = """
      --tile-cache MiB decoded tiles kept per tiled source, in MiB (0…65536); by default as many
                       tiles as five views of the frame size hold (MapLibre's rule), at most 256 MiB;
                       frames are the same for any size, a smaller cache only decodes tiles again
    """

    /// The budget in bytes: whole MiB 0…65,536 (64 GiB), 256 MiB when not given.
    /// - Throws: ``CommandError`` (exit 2) naming `--tile-cache` and the accepted range.
    static func parse(_ text: String?) throws -> Int {
        guard let text else { return 256 << 20 }
        guard let mib = Int(text), (0...65_536).contains(mib) else {
            throw CommandError("--tile-cache must be a whole number of MiB 0…65536, not '\(text)'")
        }
        return mib << 20
    }

    /// The most tiles each tiled source keeps: nil when `--tile-cache` is given (its MiB alone
    /// bound the cache), else sized from the frame, `width × height` pixels
    /// (``StyleLoader/viewportTileCount(width:height:tileSize:)``), so a long flight's cache
    /// fills to its size within the first frames instead of growing for minutes (docs/tiles.md).
    static func tiles(_ text: String?, width: Int, height: Int) -> Int? {
        text == nil ? StyleLoader.viewportTileCount(width: width, height: height) : nil
    }
}
