import CZlib
import FlybyCore
import FlybyTestSupport
import FlybyTiles
import Foundation

/// Paths and builders shared by the tile tests.
enum TileFixtures {
    static let root = repositoryRoot() + "/Tests/FlybyTilesTests/Fixtures"

    static func bytes(_ relative: String) throws -> [UInt8] {
        guard let d = FileManager.default.contents(atPath: root + "/" + relative) else { throw TileError(file: relative, message: "missing fixture") }
        return [UInt8](d)
    }

    /// A fresh empty folder under the temporary directory.
    static func temporaryFolder(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "flyby-tiles-tests-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ bytes: [UInt8], to path: String) {
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    /// Tile z/x/y (XYZ) of the archive at `path` as the GeoJSON text `flyby tiles decode` prints
    /// (``TileGeoJSON``); a missing tile is an error.
    static func geoJSON(_ path: String, z: Int, x: Int, y: Int) throws -> String {
        guard let tile = try TileArchives.open(path).vectorTile(z: z, x: x, y: y) else {
            throw TileError(file: path, message: "no tile \(z)/\(x)/\(y)")
        }
        return String(decoding: TileGeoJSON.featureCollection(tile, id: TileID(z: z, x: x, y: y)), as: UTF8.self)
    }
}

/// gzip (RFC 1952) compression for building test archives: zlib `deflateInit2_` with window bits
/// 15 + 16.
func gzip(_ input: [UInt8]) -> [UInt8] {
    var stream = z_stream()
    precondition(deflateInit2_(&stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK)
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
    var input = input
    let produced = input.withUnsafeMutableBufferPointer { inp in
        output.withUnsafeMutableBufferPointer { out in
            stream.next_in = inp.baseAddress; stream.avail_in = uInt(inp.count)
            stream.next_out = out.baseAddress; stream.avail_out = uInt(out.count)
            precondition(deflate(&stream, Z_FINISH) == Z_STREAM_END)
            return out.count - Int(stream.avail_out)
        }
    }
    return Array(output[0..<produced])
}

/// Protocol-buffer varint (base 128, little-endian groups).
func varint(_ v: UInt64) -> [UInt8] {
    var v = v, out: [UInt8] = []
    while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
    out.append(UInt8(v))
    return out
}

/// Builds small MVT protobufs by hand.
enum MVTBuilder {
    static func field(_ number: UInt64, _ wire: UInt64) -> [UInt8] { varint(number << 3 | wire) }
    static func bytesField(_ number: UInt64, _ payload: [UInt8]) -> [UInt8] { field(number, 2) + varint(UInt64(payload.count)) + payload }
    static func packed(_ number: UInt64, _ values: [UInt32]) -> [UInt8] { bytesField(number, values.flatMap { varint(UInt64($0)) }) }
    static func zz(_ v: Int32) -> UInt32 { UInt32(bitPattern: (v << 1) ^ (v >> 31)) }
    static func command(_ id: UInt32, _ count: UInt32) -> UInt32 { id | count << 3 }

    /// A tile with one layer `name` holding features (type, geometry commands, tags).
    static func tile(layer name: String = "l", extent: UInt64 = 4096, keys: [String] = [], values: [String] = [],
                     features: [(type: UInt64, geometry: [UInt32], tags: [UInt32], id: UInt64?)]) -> [UInt8] {
        var layer = field(15, 0) + varint(2) + bytesField(1, Array(name.utf8))
        for f in features {
            var feature: [UInt8] = []
            if let id = f.id { feature += field(1, 0) + varint(id) }
            if !f.tags.isEmpty { feature += packed(2, f.tags) }
            feature += field(3, 0) + varint(f.type)
            feature += packed(4, f.geometry)
            layer += bytesField(2, feature)
        }
        for k in keys { layer += bytesField(3, Array(k.utf8)) }
        for v in values { layer += bytesField(4, bytesField(1, Array(v.utf8))) }
        layer += field(5, 0) + varint(extent)
        return bytesField(3, layer)
    }
}

/// Builds PMTiles v3 archives by hand (spec §3–§4) for tests: a header, a root directory, an
/// optional leaf section, metadata and tile data, each compressed as asked.
struct PMTilesBuilder {
    struct Entry { var tileID: UInt64; var offset: UInt64; var length: UInt64; var runLength: UInt64 }

    static func directory(_ entries: [Entry]) -> [UInt8] {
        var out = varint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries { out += varint(e.tileID - last); last = e.tileID }
        for e in entries { out += varint(e.runLength) }
        for e in entries { out += varint(e.length) }
        for (i, e) in entries.enumerated() {
            if i > 0 && e.offset == entries[i - 1].offset + entries[i - 1].length { out += varint(0) } else { out += varint(e.offset + 1) }
        }
        return out
    }

    var root: [UInt8]
    var leaves: [UInt8] = []
    var metadata: [UInt8] = Array("{}".utf8)
    var data: [UInt8] = []
    var internalCompression: UInt8 = 1
    var tileCompression: UInt8 = 1
    var tileType: UInt8 = 1
    var counts: (addressed: UInt64, entries: UInt64, contents: UInt64) = (0, 0, 0)
    /// Overrides of header fields (byte offset → u64), to corrupt offsets.
    var overrides: [Int: UInt64] = [:]

    func build() -> [UInt8] {
        var h = [UInt8](repeating: 0, count: 127)
        h.replaceSubrange(0..<7, with: Array("PMTiles".utf8)); h[7] = 3
        func put(_ at: Int, _ v: UInt64) { for i in 0..<8 { h[at + i] = UInt8((v >> (8 * UInt64(i))) & 0xFF) } }
        let rootOffset: UInt64 = 127
        let metaOffset = rootOffset + UInt64(root.count)
        let leafOffset = metaOffset + UInt64(metadata.count)
        let dataOffset = leafOffset + UInt64(leaves.count)
        put(8, rootOffset); put(16, UInt64(root.count))
        put(24, metaOffset); put(32, UInt64(metadata.count))
        put(40, leafOffset); put(48, UInt64(leaves.count))
        put(56, dataOffset); put(64, UInt64(data.count))
        put(72, counts.addressed); put(80, counts.entries); put(88, counts.contents)
        h[96] = 1; h[97] = internalCompression; h[98] = tileCompression; h[99] = tileType
        h[100] = 0; h[101] = 14
        for (at, v) in overrides { put(at, v) }
        return h + root + metadata + leaves + data
    }
}
