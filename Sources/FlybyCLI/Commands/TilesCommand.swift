import FlybyCore
import FlybyData
import FlybyTiles

/// `flyby tiles info ARCHIVE` and `flyby tiles decode ARCHIVE Z X Y [--out FILE]` (docs/formats.md §1).
enum TilesCommand: FlybyCommand {
    static let name = "tiles"
    static let summary = "inspect a tile archive (tiles info) or print one vector tile as GeoJSON (tiles decode)"
    static let about = """
    ARCHIVE is a .pmtiles file (PMTiles v3), an .mbtiles file (MBTiles 1.3) or a folder laid out
    {z}/{x}/{y}.EXT (pbf, mvt, png, jpg, webp). X and Y are in the XYZ scheme (row 0 at the north)
    for every format.
    """
    static let notes = """
    A tile the archive does not hold, or bad data, is exit 2 naming the file and Z/X/Y.
    See docs/tiles.md.
    """
    static let subcommands: [any FlybyCommand.Type] = [Info.self, Decode.self]

    /// `flyby tiles info ARCHIVE`.
    enum Info: FlybyCommand {
        static let name = "info"
        static let summary = "one JSON object about a tile archive"
        static let about = """
        prints one JSON object: format, tileType, tileCompression, minZoom, maxZoom, bounds, center,
        tiles, and where the format records them addressedTiles, tileEntries, tileContents,
        vectorLayers and metadata.
        """
        static let positionals = Positionals.exactly("ARCHIVE", "takes one archive")

        static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
            out.write(try TileArchives.open(parsed.positional[0]).info().json())
        }
    }

    /// `flyby tiles decode ARCHIVE Z X Y [--out FILE]`.
    enum Decode: FlybyCommand {
        static let name = "decode"
        static let summary = "one vector tile as GeoJSON"
        static let about = """
        prints the vector tile as a GeoJSON FeatureCollection in longitude/latitude: every feature
        of every layer in tile order, with its properties, its id when it has one and a foreign
        member "layer".
        """
        static let positionals = Positionals.exactly("ARCHIVE Z X Y", "takes ARCHIVE Z X Y")
        static let options = [OptionSpec("out", .string, "FILE", help: "write the GeoJSON to FILE (atomically)", defaultText: "standard output")]

        static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
            let path = parsed.positional[0]
            let numbers = parsed.positional[1...].map { Int($0) }
            guard numbers.allSatisfy({ $0 != nil }), let z = numbers[0], let x = numbers[1], let y = numbers[2] else {
                throw CommandError("'tiles decode': Z X Y must be whole numbers, got \(parsed.positional[1...].joined(separator: " "))")
            }
            let archive = try TileArchives.open(path)
            guard let tile = try archive.vectorTile(z: z, x: x, y: y) else {
                throw CommandError("\(path): tile \(z)/\(x)/\(y): the archive holds no such tile")
            }
            let bytes = TileGeoJSON.featureCollection(tile, id: TileID(z: z, x: x, y: y))
            if let dest = parsed.string("out") { try writeOutput(dest, bytes) } else { out.write(bytes) }
        }
    }
}
