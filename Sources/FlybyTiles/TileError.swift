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

/// A tile address in the XYZ scheme of web maps: zoom `z`, column `x` from the west, row `y`
/// from the north (row 0 touches latitude +85.05°). Valid when 0 ≤ x, y < 2^z.
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int

    public init(z: Int, x: Int, y: Int) { self.z = z; self.x = x; self.y = y }

    /// The deepest zoom any archive format here can address (PMTiles tile ids fit 64 bits to z 31).
    public static let maxZoom = 30

    /// True when z is in 0…``maxZoom`` and x and y are inside the 2^z × 2^z grid.
    public var isValid: Bool {
        guard z >= 0, z <= TileID.maxZoom else { return false }
        let n = 1 << z
        return x >= 0 && y >= 0 && x < n && y < n
    }

    public var description: String { "\(z)/\(x)/\(y)" }
}
