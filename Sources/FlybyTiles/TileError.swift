import FlybyCore
/// A tile archive or a tile that cannot be read: one line that names the file and, for a tile,
/// its `z/x/y` (XYZ scheme), e.g. `city.pmtiles: tile 14/9330/4740: gzip data inflates past the
/// limit of 64 MiB`.
public struct TileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The archive path (or a name such as `fuzz.pmtiles`).
    public var file: String
    /// The tile the error is about, or nil for an error about the archive itself.
    public var tile: TileID?
    public var message: String

    public init(file: String, tile: TileID? = nil, message: String) {
        self.file = file; self.tile = tile; self.message = message
    }

    public var description: String {
        var s = file + ": "
        if let tile { s += "tile \(tile): " }
        return s + message
    }
}

