import FlybyCore
import FlybyData
import Foundation

/// A collection of tiles addressed by z/x/y in the XYZ scheme (row 0 at the north), whatever its
/// container: a PMTiles v3 file, an MBTiles 1.3 file, or a folder `{z}/{x}/{y}.EXT`.
///
/// Not thread-safe: one archive object per thread (they are cheap to open; the file is shared
/// through the operating system).
public protocol TileArchive: AnyObject {
    /// The path the archive was opened from (named in every error).
    var path: String { get }
    /// Header and metadata facts for `flyby tiles info` (docs/formats.md §1).
    func info() throws(TileError) -> TileArchiveInfo
    /// The tile's bytes, decompressed (at most `Decompressor.defaultLimit`), or nil when the
    /// archive holds no tile there. Throws for an invalid address or unreadable data.
    func tile(z: Int, x: Int, y: Int) throws(TileError) -> [UInt8]?
}

extension TileArchive {
    /// The tile decoded as a Mapbox Vector Tile, or nil when the archive holds no tile there.
    public func vectorTile(z: Int, x: Int, y: Int, options: VectorTileDecoder.Options = .init()) throws(TileError) -> VectorTile? {
        guard let bytes = try tile(z: z, x: x, y: y) else { return nil }
        do throws(VectorTileError) {
            return try VectorTileDecoder.decode(bytes, options: options)
        } catch {
            throw TileError(file: path, tile: TileID(z: z, x: x, y: y), message: "not a valid vector tile: \(error.message)")
        }
    }

    /// Checks an address before a lookup.
    func checked(_ z: Int, _ x: Int, _ y: Int) throws(TileError) -> TileID {
        let id = TileID(z: z, x: x, y: y)
        guard id.isValid else {
            throw TileError(file: path, tile: id, message: "no such tile address (z must be 0…\(TileID.maximumZoom) and x, y in 0…2^z − 1)")
        }
        return id
    }
}

/// Opens tile archives by path.
public enum TileArchives {
    /// Opens `path`: a folder is a folder archive; a file is PMTiles or MBTiles by its first bytes
    /// (`PMTiles` magic, `SQLite format 3` header), else by its extension (so a damaged
    /// `.pmtiles` gets the PMTiles error that explains the damage).
    public static func open(_ path: String) throws(TileError) -> any TileArchive {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TileError(file: path, message: "no such file or folder")
        }
        if isDirectory.boolValue { return try FolderArchive(path: path) }
        let file = try ArchiveFile(path: path)
        let head = (try? file.read(offset: 0, length: min(16, file.size), what: "header")) ?? []
        if head.starts(with: Array("PMTiles".utf8)) { return try PMTilesArchive(file: file) }
        if head.starts(with: MBTilesArchive.sqliteMagic) { return try MBTilesArchive(path: path) }
        let lower = path.lowercased()
        if lower.hasSuffix(".pmtiles") { return try PMTilesArchive(file: file) }
        if lower.hasSuffix(".mbtiles") { return try MBTilesArchive(path: path) }
        throw TileError(file: path, message: "not a tile archive: expected a .pmtiles file (PMTiles v3), an .mbtiles file (SQLite) or a folder {z}/{x}/{y}.EXT")
    }
}

/// What `flyby tiles info` prints (docs/formats.md §1). Absent values are omitted from the JSON.
public struct TileArchiveInfo: Sendable {
    /// `pmtiles`, `mbtiles` or `folder`.
    public var format: String
    /// `mvt`, `png`, `jpeg`, `webp`, `avif`, `mlt` or `unknown`.
    public var tileType: String
    public var tileCompression: TileCompression
    public var minZoom: Int?
    public var maxZoom: Int?
    /// [west, south, east, north] in degrees.
    public var bounds: [Double]?
    /// [longitude, latitude, zoom].
    public var center: [Double]?
    /// Tiles that have data.
    public var tiles: Int?
    /// PMTiles header counts (§3.2); nil where the format has none or the header says 0 (unknown).
    public var addressedTiles: UInt64?
    public var tileEntries: UInt64?
    public var tileContents: UInt64?
    /// The metadata's `vector_layers` array (TileJSON 3.0 style), as stored.
    public var vectorLayers: JSONNode?
    /// The archive's metadata object as stored (PMTiles JSON; MBTiles `metadata` rows as strings).
    public var metadata: JSONNode?

    public init(format: String, tileType: String, tileCompression: TileCompression) {
        self.format = format; self.tileType = tileType; self.tileCompression = tileCompression
    }

    /// One JSON object on one line, keys in the order of docs/formats.md §1, then a newline.
    public func json() -> [UInt8] {
        var out: [UInt8] = []
        var first = true
        func key(_ k: String) {
            out.append(first ? 0x7B : 0x2C); first = false
            JSONWriter.appendString(k, to: &out); out.append(0x3A)
        }
        func numbers(_ a: [Double]) {
            out.append(0x5B)
            for (i, v) in a.enumerated() { if i > 0 { out.append(0x2C) }; JSONWriter.appendNumber(v, to: &out) }
            out.append(0x5D)
        }
        key("format"); JSONWriter.appendString(format, to: &out)
        key("tileType"); JSONWriter.appendString(tileType, to: &out)
        key("tileCompression"); JSONWriter.appendString(tileCompression == .unknown ? "unknown" : tileCompression.rawValue, to: &out)
        if let minZoom { key("minZoom"); JSONWriter.appendNumber(Double(minZoom), to: &out) }
        if let maxZoom { key("maxZoom"); JSONWriter.appendNumber(Double(maxZoom), to: &out) }
        if let bounds { key("bounds"); numbers(bounds) }
        if let center { key("center"); numbers(center) }
        if let tiles { key("tiles"); out.append(contentsOf: Array(String(tiles).utf8)) }
        if let addressedTiles { key("addressedTiles"); out.append(contentsOf: Array(String(addressedTiles).utf8)) }
        if let tileEntries { key("tileEntries"); out.append(contentsOf: Array(String(tileEntries).utf8)) }
        if let tileContents { key("tileContents"); out.append(contentsOf: Array(String(tileContents).utf8)) }
        if let vectorLayers { key("vectorLayers"); JSONText.append(vectorLayers, to: &out) }
        if let metadata { key("metadata"); JSONText.append(metadata, to: &out) }
        if first { out.append(0x7B) }
        out.append(contentsOf: [0x7D, 0x0A])
        return out
    }
}

/// Writes a parsed JSON node back as compact JSON text, members in document order.
enum JSONText {
    static func append(_ node: JSONNode, to out: inout [UInt8]) {
        switch node.value {
        case .null: out.append(contentsOf: Array("null".utf8))
        case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
        case .number(let d): JSONWriter.appendNumber(d, to: &out)
        case .string(let s): JSONWriter.appendString(s, to: &out)
        case .array(let items):
            out.append(0x5B)
            for (i, item) in items.enumerated() { if i > 0 { out.append(0x2C) }; append(item, to: &out) }
            out.append(0x5D)
        case .object(let members):
            out.append(0x7B)
            for (i, m) in members.enumerated() {
                if i > 0 { out.append(0x2C) }
                JSONWriter.appendString(m.key, to: &out); out.append(0x3A); append(m.value, to: &out)
            }
            out.append(0x7D)
        }
    }
}
