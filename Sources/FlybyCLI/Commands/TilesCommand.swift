import FlybyCore
import FlybyData
import FlybyTiles

/// `flyby tiles info ARCHIVE` and `flyby tiles decode ARCHIVE Z X Y [--out FILE]` (docs/formats.md §1).
enum TilesCommand {
    static let help = """
    usage: flyby tiles info ARCHIVE
           flyby tiles decode ARCHIVE Z X Y [--out FILE]

    ARCHIVE is a .pmtiles file (PMTiles v3), an .mbtiles file (MBTiles 1.3) or a folder laid out
    {z}/{x}/{y}.EXT (pbf, mvt, png, jpg, webp). X and Y are in the XYZ scheme (row 0 at the north)
    for every format.

    info    prints one JSON object: format, tileType, tileCompression, minZoom, maxZoom, bounds,
            center, tiles, and where the format records them addressedTiles, tileEntries,
            tileContents, vectorLayers and metadata.
    decode  prints the vector tile as a GeoJSON FeatureCollection in longitude/latitude: every
            feature of every layer in tile order, with its properties, its id when it has one and
            a foreign member "layer". --out writes it to FILE (atomically) instead of stdout.

    A tile the archive does not hold, or bad data, is exit 2 naming the file and Z/X/Y.
    See docs/tiles.md.
    """

    static func run(_ args: [String], _ out: CommandOutput) throws {
        guard let sub = args.first else { throw CommandError("'tiles' needs 'info' or 'decode' (see 'flyby help tiles')") }
        let rest = Array(args.dropFirst())
        switch sub {
        case "info":
            let o = try Options(rest, command: "tiles info", valued: [])
            guard o.positional.count == 1 else { throw CommandError("'tiles info' takes one archive (see 'flyby help tiles')") }
            out.write(try TileArchives.open(o.positional[0]).info().json())
        case "decode":
            let o = try Options(rest, command: "tiles decode", valued: ["out"])
            guard o.positional.count == 4 else { throw CommandError("'tiles decode' takes ARCHIVE Z X Y (see 'flyby help tiles')") }
            let path = o.positional[0]
            let numbers = o.positional[1...].map { Int($0) }
            guard numbers.allSatisfy({ $0 != nil }), let z = numbers[0], let x = numbers[1], let y = numbers[2] else {
                throw CommandError("'tiles decode': Z X Y must be whole numbers, got \(o.positional[1...].joined(separator: " "))")
            }
            let archive = try TileArchives.open(path)
            guard let tile = try archive.vectorTile(z: z, x: x, y: y) else {
                throw CommandError("\(path): tile \(z)/\(x)/\(y): the archive holds no such tile")
            }
            let bytes = TileGeoJSON.featureCollection(tile, id: TileID(z: z, x: x, y: y))
            if let dest = o.values["out"] { try writeOutput(dest, bytes) } else { out.write(bytes) }
        default:
            throw CommandError("unknown 'tiles' subcommand '\(sub)' (use 'info' or 'decode'; see 'flyby help tiles')")
        }
    }
}
