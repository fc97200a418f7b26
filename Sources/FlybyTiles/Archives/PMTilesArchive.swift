import FlybyCore
import FlybyData

/// The fixed 127-byte PMTiles v3 header (§3): section offsets and lengths (little-endian
/// 64-bit), counts, compression and type codes, zooms, bounds and centre (positions in 1e-7°).
struct PMTilesHeader {
    static let size = 127
    var rootOffset: UInt64, rootLength: UInt64
    var metadataOffset: UInt64, metadataLength: UInt64
    var leafOffset: UInt64, leafLength: UInt64
    var dataOffset: UInt64, dataLength: UInt64
    var addressedTiles: UInt64, tileEntries: UInt64, tileContents: UInt64
    var clustered: Bool
    var internalCompression: TileCompression
    var tileCompression: TileCompression
    var tileTypeCode: UInt8
    var minZoom: Int, maxZoom: Int
    var bounds: [Double]
    var center: [Double]

    init(_ b: [UInt8]) throws(PMTilesDirectory.Problem) {
        guard b.count >= PMTilesHeader.size else {
            throw .init(message: "file is \(b.count) bytes, shorter than the 127-byte PMTiles header")
        }
        guard b.starts(with: Array("PMTiles".utf8)) else { throw .init(message: "no PMTiles magic number (§3.1): not a PMTiles file") }
        guard b[7] == 3 else { throw .init(message: "PMTiles version \(b[7]) is not supported (only version 3)") }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Double {
            Double(Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[at + $1]) << (8 * UInt32($1)) })) / 10_000_000
        }
        rootOffset = u64(8); rootLength = u64(16)
        metadataOffset = u64(24); metadataLength = u64(32)
        leafOffset = u64(40); leafLength = u64(48)
        dataOffset = u64(56); dataLength = u64(64)
        addressedTiles = u64(72); tileEntries = u64(80); tileContents = u64(88)
        clustered = b[96] == 1
        guard let ic = TileCompression(pmtilesCode: b[97]) else { throw .init(message: "unknown internal compression code \(b[97]) (§3.3 knows 0–4)") }
        guard let tc = TileCompression(pmtilesCode: b[98]) else { throw .init(message: "unknown tile compression code \(b[98]) (§3.3 knows 0–4)") }
        internalCompression = ic; tileCompression = tc
        tileTypeCode = b[99]
        minZoom = Int(b[100]); maxZoom = Int(b[101])
        bounds = [i32(102), i32(106), i32(110), i32(114)]
        center = [i32(119), i32(123), Double(b[118])]
    }

    var tileType: String {
        switch tileTypeCode {
        case 1: "mvt"
        case 2: "png"
        case 3: "jpeg"
        case 4: "webp"
        case 5: "avif"
        case 6: "mlt"
        default: "unknown"
        }
    }
}

/// A PMTiles v3 archive (the PMTiles v3 specification, protomaps/PMTiles `spec/v3/spec.md`), read with
/// positioned reads: the header and root directory at open, leaf directories and tiles on demand.
///
/// Limits: a directory is at most 16 MiB compressed and 64 MiB decompressed; leaf directories
/// nest at most 4 deep (the spec discourages more than one level; deeper is treated as a cycle);
/// every section and entry must lie inside its section and the file; a tile is at most 64 MiB
/// compressed and inflated. The last 64 leaf directories read are cached.
public final class PMTilesArchive: TileArchive {
    public let path: String
    let file: ArchiveFile
    let header: PMTilesHeader
    let root: [PMTilesEntry]
    let metadata: JSONNode?
    private var leafCache: [UInt64: [PMTilesEntry]] = [:]

    static let maxDirectoryBytes: UInt64 = 16 << 20
    static let maxLeafDepth = 4
    static let leafCacheSize = 64

    /// The PMTiles tile id of z/x/y (§4.1): (4^z − 1) / 3 + the Hilbert index of (x, y).
    /// Requires a valid address (`TileID.isValid`).
    public static func tileID(z: Int, x: Int, y: Int) -> UInt64 { PMTilesTileID.id(z: z, x: x, y: y) }

    public convenience init(path: String) throws(TileError) {
        try self.init(file: ArchiveFile(path: path))
    }

    /// An archive held in memory; `name` stands for the file in errors.
    public convenience init(bytes: [UInt8], name: String) throws(TileError) {
        try self.init(file: ArchiveFile(bytes: bytes, name: name))
    }

    init(file: ArchiveFile) throws(TileError) {
        self.file = file
        path = file.path
        let path = file.path
        let head = try file.read(offset: 0, length: min(UInt64(PMTilesHeader.size), file.size), what: "header")
        do throws(PMTilesDirectory.Problem) { header = try PMTilesHeader(head) } catch { throw TileError(file: path, message: error.message) }
        for (name, offset, length) in [("root directory", header.rootOffset, header.rootLength), ("metadata", header.metadataOffset, header.metadataLength),
                                       ("leaf directories", header.leafOffset, header.leafLength), ("tile data", header.dataOffset, header.dataLength)] {
            guard offset <= file.size, length <= file.size - offset else {
                throw TileError(file: path, message: "the \(name) section (\(length) bytes at offset \(offset)) runs past the end of the file (\(file.size) bytes)")
            }
        }
        guard header.rootLength > 0 else { throw TileError(file: path, message: "the root directory is empty (§4.2: a directory has at least one entry)") }
        root = try PMTilesArchive.readDirectory(file, offset: header.rootOffset, length: header.rootLength,
                                                compression: header.internalCompression, what: "root directory")
        if header.metadataLength > 0 {
            guard header.metadataLength <= PMTilesArchive.maxDirectoryBytes else {
                throw TileError(file: path, message: "metadata is \(header.metadataLength) bytes, more than the limit of 16 MiB")
            }
            let raw = try file.read(offset: header.metadataOffset, length: header.metadataLength, what: "metadata")
            let text: [UInt8]
            do throws(DecompressionError) { text = try Decompressor.decompress(raw, header.internalCompression) } catch {
                throw TileError(file: path, message: "metadata: \(error.message)")
            }
            do throws(JSONSyntaxError) { metadata = try JSONParser.parse(text) } catch {
                throw TileError(file: path, message: "metadata is not JSON (\(error.description))")
            }
        } else {
            metadata = nil
        }
    }

    static func readDirectory(_ file: ArchiveFile, offset: UInt64, length: UInt64, compression: TileCompression, what: String) throws(TileError) -> [PMTilesEntry] {
        guard length <= maxDirectoryBytes else {
            throw TileError(file: file.path, message: "\(what) is \(length) bytes, more than the limit of 16 MiB")
        }
        let raw = try file.read(offset: offset, length: length, what: what)
        do {
            let bytes = try Decompressor.decompress(raw, compression)
            return try PMTilesDirectory.decode(bytes)
        } catch let e as DecompressionError {
            throw TileError(file: file.path, message: "\(what): \(e.message)")
        } catch let e as PMTilesDirectory.Problem {
            throw TileError(file: file.path, message: "\(what): \(e.message)")
        } catch {
            throw TileError(file: file.path, message: "\(what): \(error)")
        }
    }

    /// A leaf directory at `entry` (offset relative to the leaf section, §4.1), cached.
    func leaf(_ entry: PMTilesEntry, tile: TileID?) throws(TileError) -> [PMTilesEntry] {
        if let cached = leafCache[entry.offset] { return cached }
        guard entry.offset <= header.leafLength, entry.length <= header.leafLength - entry.offset else {
            throw TileError(file: path, tile: tile, message: "a leaf directory (\(entry.length) bytes at offset \(entry.offset)) lies outside the leaf directories section (\(header.leafLength) bytes)")
        }
        let entries = try PMTilesArchive.readDirectory(file, offset: header.leafOffset + entry.offset, length: entry.length,
                                                       compression: header.internalCompression, what: "leaf directory at offset \(entry.offset)")
        if leafCache.count >= PMTilesArchive.leafCacheSize { leafCache.removeAll(keepingCapacity: true) }
        leafCache[entry.offset] = entries
        return entries
    }

    public func tile(z: Int, x: Int, y: Int) throws(TileError) -> [UInt8]? {
        let id = try checked(z, x, y)
        let tileID = PMTilesTileID.id(z: z, x: x, y: y)
        var directory = root
        for depth in 0...PMTilesArchive.maxLeafDepth {
            guard let entry = PMTilesDirectory.find(tileID, in: directory) else { return nil }
            if entry.runLength > 0 {
                guard entry.offset <= header.dataLength, entry.length <= header.dataLength - entry.offset else {
                    throw TileError(file: path, tile: id, message: "tile data (\(entry.length) bytes at offset \(entry.offset)) lies outside the tile data section (\(header.dataLength) bytes)")
                }
                guard entry.length <= UInt64(Decompressor.defaultLimit) else {
                    throw TileError(file: path, tile: id, message: "tile is \(entry.length) bytes, more than the limit of 64 MiB")
                }
                let raw = try file.read(offset: header.dataOffset + entry.offset, length: entry.length, what: "tile \(id)")
                do throws(DecompressionError) {
                    return try Decompressor.decompress(raw, header.tileCompression)
                } catch {
                    throw TileError(file: path, tile: id, message: error.message)
                }
            }
            if depth == PMTilesArchive.maxLeafDepth { break }
            directory = try leaf(entry, tile: id)
        }
        throw TileError(file: path, tile: id, message: "leaf directories nest deeper than \(PMTilesArchive.maxLeafDepth) levels (a cycle?)")
    }

    public func info() throws(TileError) -> TileArchiveInfo {
        var info = TileArchiveInfo(format: "pmtiles", tileType: header.tileType, tileCompression: header.tileCompression)
        info.minZoom = header.minZoom
        info.maxZoom = header.maxZoom
        info.bounds = header.bounds
        info.center = header.center
        info.addressedTiles = header.addressedTiles == 0 ? nil : header.addressedTiles
        info.tileEntries = header.tileEntries == 0 ? nil : header.tileEntries
        info.tileContents = header.tileContents == 0 ? nil : header.tileContents
        info.tiles = header.addressedTiles > 0 ? Int(clamping: header.addressedTiles) : try countTiles()
        info.metadata = metadata
        info.vectorLayers = metadata?["vector_layers"]
        return info
    }

    /// Tiles with data, by walking every directory (when the header does not say).
    func countTiles() throws(TileError) -> Int {
        var total: UInt64 = 0
        var visited = 0, processed = 0
        func walk(_ entries: [PMTilesEntry], depth: Int) throws(TileError) {
            // Leaves may point at the same leaf many times: bound the total work, not just depth.
            processed += entries.count
            guard processed <= 50_000_000 else {
                throw TileError(file: path, message: "directories hold more than 50,000,000 entries in all (repeated leaves?)")
            }
            for e in entries {
                if e.runLength > 0 { total &+= e.runLength; continue }
                visited += 1
                guard depth < PMTilesArchive.maxLeafDepth, visited <= 1_000_000 else {
                    throw TileError(file: path, message: "leaf directories nest deeper than \(PMTilesArchive.maxLeafDepth) levels (a cycle?)")
                }
                try walk(try leaf(e, tile: nil), depth: depth + 1)
            }
        }
        try walk(root, depth: 0)
        return Int(clamping: total)
    }
}
