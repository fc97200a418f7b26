import FlybyCore
import FlybyData
import Foundation

/// A folder of tiles laid out `{z}/{x}/{y}.EXT` (XYZ rows, as tippecanoe `--output-to-directory`
/// and most tile tools write), EXT one of `pbf`, `mvt`, `png`, `jpg`, `jpeg`, `webp`. Each tile
/// is gzip-inflated when it starts with the gzip magic, else returned as stored. An optional
/// `metadata.json` (name → string pairs, as tippecanoe writes) supplies the metadata of `info`.
/// A tile file is at most 64 MiB, inflated too.
public final class FolderArchive: TileArchive {
    public let path: String
    /// The extension the tiles use (found at open from the first tile file), e.g. `pbf`.
    public let fileExtension: String

    static let extensions = ["pbf", "mvt", "png", "jpg", "jpeg", "webp"]

    public init(path: String) throws(TileError) {
        self.path = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        guard let ext = FolderArchive.firstTile(in: self.path)?.ext else {
            throw TileError(file: path, message: "no tiles found: expected files {z}/{x}/{y}.EXT with EXT one of \(FolderArchive.extensions.joined(separator: ", "))")
        }
        fileExtension = ext
    }

    static func numericEntries(_ dir: String) -> [Int] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).compactMap { Int($0) }.filter { $0 >= 0 }.sorted()
    }

    static func splitTileName(_ name: String) -> (y: Int, ext: String)? {
        guard let dot = name.firstIndex(of: "."), let y = Int(name[..<dot]), y >= 0 else { return nil }
        let ext = String(name[name.index(after: dot)...]).lowercased()
        return extensions.contains(ext) ? (y, ext) : nil
    }

    static func firstTile(in path: String) -> (z: Int, ext: String)? {
        for z in numericEntries(path) where z <= TileID.maximumZoom {
            for x in numericEntries("\(path)/\(z)") {
                let files = ((try? FileManager.default.contentsOfDirectory(atPath: "\(path)/\(z)/\(x)")) ?? []).sorted()
                if let t = files.lazy.compactMap(splitTileName).first { return (z, t.ext) }
            }
        }
        return nil
    }

    func filePath(_ id: TileID) -> String { "\(path)/\(id.z)/\(id.x)/\(id.y).\(fileExtension)" }

    public func tile(z: Int, x: Int, y: Int) throws(TileError) -> [UInt8]? {
        let id = try checked(z, x, y)
        let file = filePath(id)
        guard FileInput.isFile(file) else { return nil }
        let data: [UInt8]
        do throws(InputError) { data = try FileInput.read(file, maxBytes: Decompressor.defaultLimit) } catch {
            throw TileError(file: path, tile: id, message: error.message)
        }
        do throws(DecompressionError) {
            return try Decompressor.decompress(data, TileCompression.isGzip(data) ? .gzip : .none)
        } catch {
            throw TileError(file: path, tile: id, message: error.message)
        }
    }

    public func info() throws(TileError) -> TileArchiveInfo {
        let type = TileMetadata.tileType(format: fileExtension)
        var info = TileArchiveInfo(format: "folder", tileType: type, tileCompression: .none)
        var count = 0
        var minZ = Int.max, maxZ = -1
        var firstTile: TileID?
        // Tile extents at the deepest zoom, for bounds when there is no metadata.
        var range: (x0: Int, y0: Int, x1: Int, y1: Int)?
        for z in FolderArchive.numericEntries(path) where z <= TileID.maximumZoom {
            var found = false
            for x in FolderArchive.numericEntries("\(path)/\(z)") where x < 1 << z {
                for name in ((try? FileManager.default.contentsOfDirectory(atPath: "\(path)/\(z)/\(x)")) ?? []).sorted() {
                    guard let t = FolderArchive.splitTileName(name), t.ext == fileExtension, t.y < 1 << z else { continue }
                    count += 1; found = true
                    if firstTile == nil { firstTile = TileID(z: z, x: x, y: t.y) }
                    if z > maxZ { range = nil }
                    if z >= maxZ {
                        let r = range ?? (x, t.y, x, t.y)
                        range = (min(r.x0, x), min(r.y0, t.y), max(r.x1, x), max(r.y1, t.y))
                    }
                    if z > maxZ { maxZ = z }
                }
            }
            if found { minZ = min(minZ, z) }
        }
        info.tiles = count
        if maxZ >= 0 { info.minZoom = minZ; info.maxZoom = maxZ }
        if let r = range, maxZ >= 0 {
            let n = Double(1 << maxZ)
            let west = WebMercator.longitude(unitX: Double(r.x0) / n), east = WebMercator.longitude(unitX: Double(r.x1 + 1) / n)
            let north = WebMercator.latitude(unitY: Double(r.y0) / n), south = WebMercator.latitude(unitY: Double(r.y1 + 1) / n)
            info.bounds = [west, south, east, north]
            info.center = [(west + east) / 2, (south + north) / 2, Double(minZ)]
        }
        if let t = firstTile, let data = try? FileInput.read(filePath(t), maxBytes: Decompressor.defaultLimit), TileCompression.isGzip(data) {
            info.tileCompression = .gzip
        }
        let metadataFile = path + "/metadata.json"
        if FileInput.isFile(metadataFile) {
            do throws(InputError) {
                let doc = try JSONDocument(contentsOfFile: metadataFile)
                var pairs: [(key: String, value: String)] = []
                for m in try doc.cursor.members() {
                    if let s = m.value.node.stringValue { pairs.append((m.key, s)) }
                    else { var out: [UInt8] = []; JSONText.append(m.value.node, to: &out); pairs.append((m.key, String(decoding: out, as: UTF8.self))) }
                }
                TileMetadata.apply(pairs, to: &info)
                info.tileType = type
            } catch {
                throw TileError(file: metadataFile, message: error.description)
            }
        }
        return info
    }
}
