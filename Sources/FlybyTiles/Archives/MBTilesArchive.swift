import FlybyData

/// An MBTiles 1.3 file (https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md), read
/// through the system SQLite, read-only.
///
/// Tiles come from the `tiles` table or view (`zoom_level`, `tile_column`, `tile_row`,
/// `tile_data`), or, when only tippecanoe's deduplicated layout exists, from `map` joined with
/// `images` on `tile_id`. Rows are TMS (row 0 at the south): the XYZ row y is stored as
/// 2^z − 1 − y. Tile data is decompressed by its magic bytes (gzip 1F 8B, zstd 28 B5 2F FD);
/// anything else is returned as stored. A tile blob is at most 64 MiB, inflated too.
public final class MBTilesArchive: TileArchive {
    public let path: String
    let database: SQLiteDatabase
    let lookup: SQLiteStatement
    /// The table or view the tiles are counted in (`tiles` or `map`).
    let tileTable: String

    /// The first 16 bytes of every SQLite 3 database file.
    static let sqliteMagic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    public init(path: String) throws(TileError) {
        self.path = path
        let file = try ArchiveFile(path: path)
        let head = try file.read(offset: 0, length: min(16, file.size), what: "header")
        guard head == MBTilesArchive.sqliteMagic else {
            throw TileError(file: path, message: "not an SQLite database (an MBTiles file is SQLite 3; the file does not start with 'SQLite format 3')")
        }
        do throws(SQLiteError) {
            database = try SQLiteDatabase(readOnly: path)
            let names = try MBTilesArchive.tableNames(database)
            if names.contains("tiles") {
                tileTable = "tiles"
                lookup = try database.prepare("SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3")
            } else if names.contains("map") && names.contains("images") {
                tileTable = "map"
                lookup = try database.prepare("SELECT images.tile_data FROM map JOIN images ON images.tile_id = map.tile_id WHERE map.zoom_level = ?1 AND map.tile_column = ?2 AND map.tile_row = ?3")
            } else {
                throw SQLiteError(message: "no 'tiles' table or view, and not tippecanoe's 'map' + 'images' layout: not an MBTiles file")
            }
        } catch {
            throw TileError(file: path, message: error.message)
        }
    }

    static func tableNames(_ db: SQLiteDatabase) throws(SQLiteError) -> Set<String> {
        let s = try db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
        var names = Set<String>()
        while try s.step() { if let n = s.text(0) { names.insert(n) } }
        return names
    }

    public func tile(z: Int, x: Int, y: Int) throws(TileError) -> [UInt8]? {
        let id = try checked(z, x, y)
        let row = (1 << z) - 1 - y
        do throws(SQLiteError) {
            lookup.reset()
            try lookup.bind(1, Int64(z)); try lookup.bind(2, Int64(x)); try lookup.bind(3, Int64(row))
            guard try lookup.step(), !lookup.isNull(0) else { lookup.reset(); return nil }
            guard lookup.byteCount(0) <= Decompressor.defaultLimit else {
                throw SQLiteError(message: "tile is \(lookup.byteCount(0)) bytes, more than the limit of 64 MiB")
            }
            let data = lookup.blob(0)
            lookup.reset()
            do throws(DecompressionError) {
                return try Decompressor.decompress(data, MBTilesArchive.compression(of: data))
            } catch {
                throw SQLiteError(message: error.message)
            }
        } catch {
            throw TileError(file: path, tile: id, message: error.message)
        }
    }

    /// Compression recognised from the first bytes: gzip, zstd or none.
    static func compression(of data: [UInt8]) -> TileCompression {
        if TileCompression.isGzip(data) { return .gzip }
        if data.count >= 4 && data[0] == 0x28 && data[1] == 0xB5 && data[2] == 0x2F && data[3] == 0xFD { return .zstd }
        return .none
    }

    public func info() throws(TileError) -> TileArchiveInfo {
        var info = TileArchiveInfo(format: "mbtiles", tileType: "unknown", tileCompression: .none)
        do throws(SQLiteError) {
            let count = try database.prepare("SELECT COUNT(*), MIN(zoom_level), MAX(zoom_level) FROM \(tileTable)")
            if try count.step() {
                info.tiles = Int(count.int64(0))
                if !count.isNull(1) { info.minZoom = Int(count.int64(1)); info.maxZoom = Int(count.int64(2)) }
            }
            // The compression of the first tile stands for all (MBTiles has no field for it).
            let first = try database.prepare("SELECT tile_data FROM \(tileTable == "tiles" ? "tiles" : "images") LIMIT 1")
            if try first.step(), first.byteCount(0) >= 4 {
                info.tileCompression = MBTilesArchive.compression(of: Array(first.blob(0).prefix(4)))
            }
            if try MBTilesArchive.tableNames(database).contains("metadata") {
                let m = try database.prepare("SELECT name, value FROM metadata ORDER BY name")
                var pairs: [(key: String, value: String)] = []
                while try m.step() { if let k = m.text(0) { pairs.append((k, m.text(1) ?? "")) } }
                TileMetadata.apply(pairs, to: &info)
            }
        } catch {
            throw TileError(file: path, message: error.message)
        }
        return info
    }
}
