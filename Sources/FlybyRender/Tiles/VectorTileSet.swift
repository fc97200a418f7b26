import FlybyCore
import FlybyData
import FlybyTiles
import Synchronization

/// A style's `vector` source: its tile archive, its zoom range and the tiles decoded so far.
///
/// Shared by every renderer of a style (the window, snapshot, each worker of a video), so a tile
/// is read and decoded once whichever frame needs it first. Decoded tiles are kept in a
/// least-recently-used cache bounded by bytes (``cacheBudget``); what the cache holds never
/// changes a pixel: a tile's pieces depend only on its bytes in the archive.
///
/// Thread safety: the archive (not thread-safe itself) and the cache each sit behind a mutex;
/// decoding runs outside both, so threads decode different tiles at the same time.
public final class VectorTileSet: Sendable {
    /// The style's id of the source.
    public let sourceID: String
    /// The archive's path (named in errors).
    public let path: String
    /// The zoom levels the archive holds (the style's `minzoom`/`maxzoom`, else the archive's).
    public let minZoom: Int, maxZoom: Int
    /// The style's `promoteId` (one property name for every source layer, or one per layer).
    public let promoteId: PromoteID?
    /// The most bytes of decoded tiles kept (default 256 MiB).
    public let cacheBudget: Int
    /// The most decoded tiles kept (nil: only ``cacheBudget`` bounds the cache), e.g. sized from
    /// the viewport as ``StyleLoader/viewportTileCount(width:height:tileSize:)`` does.
    public let cacheTiles: Int?
    /// The archive's `attribution` (from its metadata), for the frame's credits.
    public let attribution: String?

    private let archive: Mutex<ArchiveBox>
    private let cache: Mutex<TileLRU<TileID, DecodedVectorTile>>

    /// `promoteId`: one property for every layer, or a property per source layer.
    public enum PromoteID: Sendable, Equatable {
        case all(String)
        case byLayer([String: String])

        func key(forLayer layer: String) -> String? {
            switch self {
            case .all(let k): return k
            case .byLayer(let m): return m[layer]
            }
        }
    }

    /// Opens the archive at `path`.
    /// - Throws: ``InputError`` naming the archive when it cannot be opened or read.
    public init(sourceID: String, path: String, minZoom: Int?, maxZoom: Int?, promoteId: PromoteID?,
                cacheBudget: Int = 256 << 20, cacheTiles: Int? = nil) throws(InputError) {
        self.sourceID = sourceID
        self.path = path
        self.promoteId = promoteId
        self.cacheBudget = max(0, cacheBudget)
        self.cacheTiles = cacheTiles.map { max(1, $0) }
        let opened = try SourceArchive(path: path, minZoom: minZoom, maxZoom: maxZoom, defaultMaxZoom: 14)
        self.minZoom = opened.minZoom
        self.maxZoom = opened.maxZoom
        attribution = opened.attribution
        archive = Mutex(ArchiveBox(archive: opened.archive))
        cache = Mutex(TileLRU())
    }

    /// Tiles already decoded (tests and hosts that make tiles in memory), by XYZ address.
    package init(sourceID: String, tiles: [TileID: VectorTile], minZoom: Int, maxZoom: Int, promoteId: PromoteID? = nil,
                 cacheBudget: Int = 256 << 20, cacheTiles: Int? = nil) {
        self.sourceID = sourceID
        path = "memory:\(sourceID)"
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.promoteId = promoteId
        self.cacheBudget = max(0, cacheBudget)
        self.cacheTiles = cacheTiles.map { max(1, $0) }
        attribution = nil
        archive = Mutex(ArchiveBox(memory: tiles))
        cache = Mutex(TileLRU())
    }

    /// The decoded tile `id` (its world copy is ignored), from the cache or the archive; an empty
    /// tile when the archive holds none there.
    /// - Throws: ``InputError`` naming the archive and the tile for a tile that cannot be read or
    ///   decoded.
    func tile(_ id: TileID) throws(InputError) -> DecodedVectorTile {
        let key = TileID(z: id.z, x: id.x, y: id.y)
        if let hit = cache.withLock({ $0.get(key) }) { return hit }
        let read: Result<VectorTile?, TileError> = archive.withLock { box in
            if let archive = box.archive {
                return Result { () throws(TileError) in try archive.vectorTile(z: key.z, x: key.x, y: key.y) }
            }
            return .success(box.memory[key])
        }
        let decoded: DecodedVectorTile
        switch read {
        case .success(let tile): decoded = DecodedVectorTile(tile, id: key)
        case .failure(let e): throw InputError(file: path, message: "tile \(key): \(e.message)")
        }
        cache.withLock { $0.put(key, decoded, budget: cacheBudget, maxCount: cacheTiles ?? .max) }
        return decoded
    }

    /// Bytes of decoded tiles now cached.
    public var cachedBytes: Int { cache.withLock { $0.bytes } }
    /// Decoded tiles now cached.
    var cachedTileCount: Int { cache.withLock { $0.count } }
}

/// The archive (or the tiles given in memory), moved into the mutex.
private struct ArchiveBox: ~Copyable {
    var archive: (any TileArchive)?
    var memory: [TileID: VectorTile] = [:]

    init(archive: any TileArchive) { self.archive = archive }
    init(memory: [TileID: VectorTile]) { self.memory = memory }
}

/// A decoded tile as a ``TileLRU`` keeps it: its size in bytes.
protocol CachedTile: Sendable {
    var byteCount: Int { get }
}

/// One decoded tile: its layers' pieces by source-layer name.
struct DecodedVectorTile: CachedTile {
    let id: TileID
    let layers: [String: TilePiece]
    let byteCount: Int

    init(_ tile: VectorTile?, id: TileID) {
        self.id = id
        var layers: [String: TilePiece] = [:]
        for layer in tile?.layers ?? [] where layers[layer.name] == nil {
            layers[layer.name] = TilePiece(layer: layer, tile: id)
        }
        self.layers = layers
        byteCount = 256 + layers.values.reduce(0) { $0 + $1.byteCount }
    }
}

/// Least recently used tiles, bounded by bytes, by `Key` (a tile address, or an address and what
/// was made of the tile). Use order is a counter, so eviction is the same for the same sequence
/// of requests.
struct TileLRU<Key: Hashable, Tile: CachedTile>: ~Copyable {
    private var entries: [Key: (tile: Tile, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    private(set) var bytes = 0
    /// Entries kept.
    var count: Int { entries.count }

    mutating func get(_ id: Key) -> Tile? {
        guard let e = entries[id] else { return nil }
        clock &+= 1
        entries[id] = (e.tile, clock)
        return e.tile
    }

    /// Keeps `tile`, then evicts the least recently used others while the cache holds more than
    /// `budget` bytes or more than `maxCount` entries.
    mutating func put(_ id: Key, _ tile: Tile, budget: Int, maxCount: Int = .max) {
        clock &+= 1
        if let old = entries[id] { bytes -= old.tile.byteCount }
        entries[id] = (tile, clock)
        bytes += tile.byteCount
        while bytes > budget || entries.count > maxCount, entries.count > 1 {
            // Evict the least recently used other than the one just added.
            guard let victim = entries.filter({ $0.key != id }).min(by: { $0.value.used < $1.value.used }) else { break }
            bytes -= victim.value.tile.byteCount
            entries[victim.key] = nil
        }
    }
}
