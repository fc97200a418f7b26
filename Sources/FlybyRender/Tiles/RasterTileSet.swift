import FlybyCore
import FlybyData
import FlybyMedia
import FlybyTiles
import Synchronization

/// A decoded raster tile: premultiplied ARGB pixels (`0xAARRGGBB`), row-major, top row first,
/// `size × size` (a tile is square).
///
/// The pixels live in memory the image owns (freed with it), so the renderer's inner loops read
/// them through a plain pointer while the frame holds the image, with no reference counting per
/// pixel. They are never written after `init`, so the image is safe to share between threads.
public final class RasterImage: CachedTile, @unchecked Sendable {
    /// Pixels per side.
    public let size: Int
    /// True when every pixel is opaque (alpha 255): the renderer may copy rows instead of blending.
    public let isOpaque: Bool
    let storage: UnsafeMutablePointer<UInt32>
    var byteCount: Int { 128 + size * size * 4 }

    /// - Precondition: `pixels.count == size * size`.
    public init(size: Int, pixels: [UInt32]) {
        precondition(pixels.count == size * size, "a raster tile is size × size pixels")
        self.size = size
        storage = .allocate(capacity: max(1, pixels.count))
        _ = UnsafeMutableBufferPointer(start: storage, count: pixels.count).initialize(from: pixels)
        isOpaque = pixels.allSatisfy { $0 >> 24 == 0xFF }
    }

    deinit { storage.deallocate() }

    /// A copy of the pixels.
    public var pixels: [UInt32] { Array(UnsafeBufferPointer(start: storage, count: size * size)) }

    /// The pixel at column `x`, row `y` (0 ..< size).
    @inline(__always)
    public func pixel(x: Int, y: Int) -> UInt32 { storage[y * size + x] }
}

/// The elevations of a `raster-dem` tile in metres, `size × size`, row-major, top row first.
///
/// Like ``RasterImage``, the heights live in memory the tile owns (freed with it) and are never
/// written after `init`: the mesh's and the hillshade's loops read them through a plain pointer
/// while they hold the tile, with no reference counting per read. Safe to share between threads.
final class ElevationTile: CachedTile, @unchecked Sendable {
    let size: Int
    let heights: UnsafePointer<Float>
    var byteCount: Int { 128 + size * size * 4 }

    /// - Precondition: `heights.count == size * size`.
    init(size: Int, heights: [Float]) {
        precondition(heights.count == size * size, "a DEM tile is size × size heights")
        self.size = size
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: max(1, heights.count))
        _ = UnsafeMutableBufferPointer(start: storage, count: heights.count).initialize(from: heights)
        self.heights = UnsafePointer(storage)
    }

    deinit { UnsafeMutablePointer(mutating: heights).deallocate() }
}

/// A style's `raster` or `raster-dem` source: its archive, zoom range, tile size, and the tiles
/// decoded so far (one least-recently-used cache bounded by bytes, ``cacheBudget``, holding the
/// decoded images and, for a DEM, their elevations and slopes).
///
/// Image tiles may be PNG, JPEG or WebP (told apart by their first bytes, ``ImageFormat``).
/// A `raster-dem` source's tiles are decoded into elevations with its ``encoding``; every DEM tile
/// of a source must have the same size (the first one read fixes it), or it is an error naming the
/// tile. Like ``VectorTileSet``, the set is shared by every renderer of a style and is thread-safe
/// (the archive and the cache behind a mutex each, decoding outside them); what the cache holds
/// never changes a pixel.
public final class RasterTileSet: Sendable {
    public let sourceID: String
    /// The archive's path (named in errors).
    public let path: String
    /// The zoom levels the archive holds (the style's `minzoom`/`maxzoom`, else the archive's).
    public let minZoom: Int, maxZoom: Int
    /// `tileSize`: the points a tile covers at its own zoom (256 or 512).
    public let tileSize: Int
    /// The elevation encoding (nil for a plain `raster` source).
    public let encoding: DEMEncoding?
    /// The archive's `attribution` (its metadata), for the frame's credits.
    public let attribution: String?
    /// The most bytes of decoded tiles kept: images, elevations and slopes together.
    public let cacheBudget: Int
    /// The most tiles kept (nil: only ``cacheBudget`` bounds the cache); a DEM tile's image,
    /// elevations and slope count as one tile.
    public let cacheTiles: Int?

    private let archive: Mutex<RasterArchiveBox>
    private let cache: Mutex<TileLRU<RasterCacheKey, RasterCached>>
    /// The pixel size of the DEM tiles (0 until the first is read).
    private let demSize = Atomic<Int>(0)

    /// Opens the archive at `path`.
    /// - Throws: ``InputError`` naming the archive when it cannot be opened or read.
    public convenience init(sourceID: String, path: String, spec: RasterSourceSpec, cacheBudget: Int = 256 << 20,
                            cacheTiles: Int? = nil) throws(InputError) {
        let opened = try SourceArchive(path: path, minZoom: spec.minZoom, maxZoom: spec.maxZoom, defaultMaxZoom: 22)
        self.init(sourceID: sourceID, path: path, minZoom: opened.minZoom, maxZoom: opened.maxZoom,
                  tileSize: spec.tileSize, encoding: spec.encoding, attribution: opened.attribution,
                  opened: opened.archive, memory: [:], cacheBudget: cacheBudget, cacheTiles: cacheTiles)
    }

    /// Encoded tiles given in memory (tests), by XYZ address.
    package convenience init(sourceID: String, encodedTiles: [TileID: [UInt8]], minZoom: Int, maxZoom: Int, tileSize: Int,
                             encoding: DEMEncoding? = nil, cacheBudget: Int = 256 << 20, cacheTiles: Int? = nil) {
        self.init(sourceID: sourceID, path: "memory:\(sourceID)", minZoom: minZoom, maxZoom: maxZoom, tileSize: tileSize,
                  encoding: encoding, attribution: nil, opened: nil, memory: encodedTiles, cacheBudget: cacheBudget, cacheTiles: cacheTiles)
    }

    private init(sourceID: String, path: String, minZoom: Int, maxZoom: Int, tileSize: Int, encoding: DEMEncoding?,
                 attribution: String?, opened: sending (any TileArchive)?, memory: [TileID: [UInt8]], cacheBudget: Int,
                 cacheTiles: Int?) {
        self.sourceID = sourceID
        self.path = path
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.tileSize = tileSize
        self.encoding = encoding
        self.attribution = attribution
        self.cacheBudget = max(0, cacheBudget)
        self.cacheTiles = cacheTiles.map { max(1, $0) }
        archive = Mutex(RasterArchiveBox(archive: opened, memory: memory))
        cache = Mutex(TileLRU())
    }

    /// What the cache holds for tile `id` (z/x/y) of `kind`.
    func cached(_ kind: RasterCacheKey.Kind, _ id: TileID) -> RasterCached? {
        cache.withLock { $0.get(RasterCacheKey(kind: kind, id: id)) }
    }

    /// Keeps `tile` for tile `id` (z/x/y), evicting the least recently used of any kind past ``cacheBudget``.
    func keep(_ tile: RasterCached, _ id: TileID) {
        // Up to three entries a tile (image, elevations, slope) for a DEM source.
        let entries = cacheTiles.map { $0 * (encoding == nil ? 1 : 3) } ?? .max
        cache.withLock { $0.put(RasterCacheKey(kind: tile.kind, id: id), tile, budget: cacheBudget, maxCount: entries) }
    }

    /// The encoded bytes of tile `id` (its world copy ignored); nil when the archive has none.
    private func bytes(_ key: TileID) throws(InputError) -> [UInt8]? {
        let read: Result<[UInt8]?, TileError> = archive.withLock { box in
            if let archive = box.archive {
                return Result { () throws(TileError) in try archive.tile(z: key.z, x: key.x, y: key.y) }
            }
            return .success(box.memory[key])
        }
        switch read {
        case .success(let b): return b
        case .failure(let e): throw InputError(file: path, message: "tile \(key): \(e.message)")
        }
    }

    /// The decoded pixels of tile `id`, or nil when the archive holds no tile there.
    /// - Throws: ``InputError`` naming the archive and the tile for a tile that cannot be read or
    ///   decoded, or that is not square.
    public func image(_ id: TileID) throws(InputError) -> RasterImage? {
        let key = TileID(z: id.z, x: id.x, y: id.y)
        if case .image(let hit)? = cached(.image, key) { return hit }
        guard let data = try bytes(key), !data.isEmpty else { return nil }
        let decoded: PNGImage
        do throws(MediaError) {
            decoded = try TileImageDecoder.decode(data)
        } catch {
            throw InputError(file: path, message: "tile \(key): \(error)")
        }
        guard decoded.width == decoded.height else {
            throw InputError(file: path, message: "tile \(key): a raster tile must be square, found \(decoded.width)×\(decoded.height) pixels")
        }
        let image = RasterImage(size: decoded.width, pixels: decoded.pixels)
        keep(.image(image), key)
        return image
    }

    /// The elevations of DEM tile `id` in metres, or nil when the archive holds no tile there.
    /// - Throws: ``InputError`` naming the tile when it cannot be decoded, or when its size differs
    ///   from the source's DEM tiles' (the first tile read fixes it).
    func elevation(_ id: TileID) throws(InputError) -> ElevationTile? {
        let key = TileID(z: id.z, x: id.x, y: id.y)
        if case .elevation(let hit)? = cached(.elevation, key) { return hit }
        guard let encoding, let image = try image(key) else { return nil }
        let n = image.size
        let (exchanged, known) = demSize.compareExchange(expected: 0, desired: n, ordering: .relaxed)
        if !exchanged && known != n {
            throw InputError(file: path, message: "tile \(key): a DEM tile of \(n)×\(n) pixels in a source whose DEM tiles are \(known)×\(known) (every tile of a raster-dem source must have the same size)")
        }
        var heights = [Float](repeating: 0, count: n * n)
        withExtendedLifetime(image) {
            let px = image.storage
            heights.withUnsafeMutableBufferPointer { h in
                for k in 0..<(n * n) {
                    // A transparent pixel is no data (NaN: shaded as flat ground); a translucent
                    // one is un-premultiplied first.
                    let p = px[k], a = p >> 24
                    if a == 255 {
                        h[k] = encoding.elevation(r: p >> 16 & 0xFF, g: p >> 8 & 0xFF, b: p & 0xFF)
                    } else if a == 0 {
                        h[k] = .nan
                    } else {
                        func c(_ v: UInt32) -> UInt32 { min(255, (v * 255 + a / 2) / a) }
                        h[k] = encoding.elevation(r: c(p >> 16 & 0xFF), g: c(p >> 8 & 0xFF), b: c(p & 0xFF))
                    }
                }
            }
        }
        let tile = ElevationTile(size: n, heights: heights)
        keep(.elevation(tile), key)
        return tile
    }

    /// The pixel size of the source's DEM tiles, nil until the first one is decoded.
    var demPixelSize: Int? {
        let n = demSize.load(ordering: .relaxed)
        return n > 0 ? n : nil
    }

    /// Bytes of decoded tiles (images, elevations and slopes) now cached.
    public var cachedBytes: Int { cache.withLock { $0.bytes } }
    /// Entries now cached (a DEM tile's image, elevations and slope are three).
    var cachedEntryCount: Int { cache.withLock { $0.count } }
}

/// What a raster source caches of one tile.
struct RasterCacheKey: Hashable {
    enum Kind: UInt8 { case image, elevation, slope }
    let kind: Kind
    let id: TileID
}

/// A cached image, elevation grid or slope grid (they share the source's one budget).
enum RasterCached: CachedTile {
    case image(RasterImage)
    case elevation(ElevationTile)
    case slope(SlopeTile)

    var kind: RasterCacheKey.Kind {
        switch self {
        case .image: .image
        case .elevation: .elevation
        case .slope: .slope
        }
    }

    var byteCount: Int {
        switch self {
        case .image(let t): t.byteCount
        case .elevation(let t): t.byteCount
        case .slope(let t): t.byteCount
        }
    }
}

/// The archive (or the encoded tiles given in memory), moved into the mutex.
private struct RasterArchiveBox: ~Copyable {
    var archive: (any TileArchive)?
    var memory: [TileID: [UInt8]] = [:]

    init(archive: (any TileArchive)?, memory: [TileID: [UInt8]]) { self.archive = archive; self.memory = memory }
}
