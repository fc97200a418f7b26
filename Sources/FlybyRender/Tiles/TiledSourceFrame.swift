import FlybyCore
import FlybyData

/// The tiles of a frame, as sources the renderer draws like any GeoJSON source.
///
/// For every (tiled source, source layer) that a style layer draws, the frame's tiles
/// (``TileCover``, world copies folded onto the primary world: the renderer draws the copies) are
/// joined into one ``LoadedSource``. Pieces of one feature in several tiles (the same feature id,
/// or without one the same `promoteId` value; never two features of one tile) become one feature again, so a polygon cut by tile edges is
/// filled as one path (no seam: ``TilePiece``), a line is stroked as one, and a label is placed
/// once. Features without any id are joined when they continue across a tile edge with equal
/// properties (``TileStitching``), and their labels are placed on their line parts chained end
/// to end (``Slot/labels``).
///
/// The joined source is kept while the cover stays the same (a pan within the same tiles, a
/// rotation, most frames of a smooth flight), and with it the layer memos; it depends only on the
/// cover and the archive, so the pixels of a frame depend only on its camera and its data.
struct TiledSourceFrame {
    struct SlotKey: Hashable {
        var source: Int
        var sourceLayer: String
    }

    struct Slot {
        var cover: [TileID]
        var loaded: LoadedSource
        /// The geometry labels are placed on: ``loaded``'s with the line parts of joined features
        /// chained end to end (nil when no parts chain: then ``loaded``'s own).
        var labels: GeometryLevel?
        /// Changes whenever ``loaded`` is rebuilt (the layer memos of the slot's layers forget).
        var generation: Int
    }

    /// The slot of each style layer that draws a tiled source (by layer index).
    private(set) var layerSlots: [Int: SlotKey] = [:]
    /// A number for each slot, in the order of the first layer that draws it.
    private var slotNumbers: [SlotKey: Int] = [:]
    private var slots: [SlotKey: Slot] = [:]
    /// The first tile that could not be read in the frames drawn so far.
    private(set) var firstError: InputError?

    /// True when the style has at least one tiled layer.
    var isEmpty: Bool { layerSlots.isEmpty }

    init(style: LoadedStyle) {
        for (k, layer) in style.style.layers.enumerated() {
            guard let s = layer.sourceIndex, style.tileSets[s] != nil else { continue }
            let key = SlotKey(source: s, sourceLayer: layer.sourceLayer ?? "")
            layerSlots[k] = key
            if slotNumbers[key] == nil { slotNumbers[key] = slotNumbers.count }
        }
    }

    /// The frame's source for layer `k`, when that layer draws tiles.
    func source(forLayer k: Int) -> LoadedSource? {
        guard let key = layerSlots[k] else { return nil }
        return slots[key]?.loaded
    }

    /// The geometry layer `k` places its labels on, when that layer draws tiles and some of its
    /// line parts were chained (``Slot/labels``).
    func labelLevel(forLayer k: Int) -> GeometryLevel? {
        guard let key = layerSlots[k] else { return nil }
        return slots[key]?.labels
    }

    /// The tiles of layer `k`'s slot in this frame (empty when the layer draws no tiles).
    func cover(forLayer k: Int) -> [TileID] {
        guard let key = layerSlots[k] else { return [] }
        return slots[key]?.cover ?? []
    }

    /// The number of layer `k`'s slot (nil when the layer draws no tiles).
    func slotNumber(ofLayer k: Int) -> Int? { layerSlots[k].flatMap { slotNumbers[$0] } }

    /// The generation of layer `k`'s slot (0 when it has none).
    func generation(ofLayer k: Int) -> Int {
        guard let key = layerSlots[k] else { return 0 }
        return slots[key]?.generation ?? 0
    }

    /// Makes every slot hold the tiles of the frame seen through `transform`.
    mutating func prepare(style: LoadedStyle, transform: MapTransform) {
        guard !layerSlots.isEmpty else { return }
        var covers: [Int: [TileID]] = [:]
        for key in Set(layerSlots.values).sorted(by: { ($0.source, $0.sourceLayer) < ($1.source, $1.sourceLayer) }) {
            guard let set = style.tileSets[key.source] else { continue }
            let cover: [TileID]
            if let known = covers[key.source] { cover = known } else {
                let tiles = TileCover.tiles(for: transform, minZoom: set.minZoom, maxZoom: set.maxZoom)
                cover = Array(Set(tiles.map { TileID(z: $0.z, x: $0.x, y: $0.y) })).sorted()
                covers[key.source] = cover
            }
            if let slot = slots[key], slot.cover == cover { continue }
            var pieces: [TilePiece] = [], pieceTiles: [TileID] = []
            pieces.reserveCapacity(cover.count)
            for t in cover {
                do throws(InputError) {
                    if let p = try set.tile(t).layers[key.sourceLayer] { pieces.append(p); pieceTiles.append(t) }
                } catch {
                    if firstError == nil { firstError = error }
                }
            }
            let promote = set.promoteId?.key(forLayer: key.sourceLayer)
            let joined = TiledSourceFrame.join(pieces, tiles: pieceTiles, promoteId: promote)
            let generation = (slots[key]?.generation ?? 0) &+ 1
            slots[key] = Slot(cover: cover, loaded: LoadedSource(id: set.sourceID, data: joined.data, promoteId: promote, generateId: false),
                              labels: joined.labels, generation: generation)
        }
    }

    /// One source from the pieces of several tiles (`tiles[p]` the tile of `pieces[p]`), pieces
    /// of the same feature joined (in the order they first appear; properties of the first piece),
    /// and the geometry to place its labels on when some joined line parts chain
    /// (``TileStitching/labelLevel(_:multiPiece:tolerance:)``).
    static func join(_ pieces: [TilePiece], tiles: [TileID], promoteId: String?) -> (data: ProjectedSource, labels: GeometryLevel?) {
        // Group the pieces' features by id: the tile's feature id, else the promoted property.
        // Two features of one tile are always two features (a tile holds each feature once), so
        // a group takes at most one piece per tile. Features without either are grouped by
        // where they continue across a tile edge (TileStitching).
        func key(_ feature: Feature) -> PropertyValue? {
            if let id = feature.id { return id }
            if let promoteId, let v = feature.properties[promoteId], !v.isNull { return v }
            return nil
        }
        var offsets = [0]
        for piece in pieces { offsets.append(offsets[offsets.count - 1] + piece.features.count) }
        let roots = TileStitching.idlessRoots(pieces, tiles: tiles, offsets: offsets) { key(pieces[$0].features[$1]) != nil }
        var groups: [[(piece: Int, feature: Int)]] = []
        var groupOf: [PropertyValue: Int] = [:]
        var groupOfRoot: [Int: Int] = [:]
        for (p, piece) in pieces.enumerated() {
            for f in 0..<piece.features.count {
                if let key = key(piece.features[f]) {
                    if let g = groupOf[key], groups[g][groups[g].count - 1].piece != p { groups[g].append((p, f)); continue }
                    groupOf[key] = groups.count
                } else {
                    let root = roots[offsets[p] + f]
                    if let g = groupOfRoot[root] { groups[g].append((p, f)); continue }
                    groupOfRoot[root] = groups.count
                }
                groups.append([(p, f)])
            }
        }
        var features: [Feature] = [], kinds: [ProjectedSource.Kind] = []
        var xy: [Double] = [], ringStart: [Int32] = [0], ringFlags: [UInt8] = [], featureRingStart: [Int32] = [0]
        features.reserveCapacity(groups.count)
        kinds.reserveCapacity(groups.count)
        xy.reserveCapacity(pieces.reduce(0) { $0 + $1.xy.count })
        for group in groups {
            var kind = ProjectedSource.Kind.point
            for (p, f) in group {
                let piece = pieces[p]
                if piece.kinds[f].rawValue > kind.rawValue { kind = piece.kinds[f] }
                for r in Int(piece.featureRingStart[f])..<Int(piece.featureRingStart[f + 1]) {
                    let s = Int(piece.ringStart[r]), e = Int(piece.ringStart[r + 1])
                    xy.append(contentsOf: piece.xy[(2 * s)..<(2 * e)])
                    ringStart.append(Int32(xy.count / 2))
                    ringFlags.append(piece.ringFlags[r])
                }
            }
            featureRingStart.append(Int32(ringFlags.count))
            features.append(pieces[group[0].piece].features[group[0].feature])
            kinds.append(kind)
        }
        let data = ProjectedSource(projected: features, kinds: kinds, xy: xy, ringStart: ringStart, ringFlags: ringFlags,
                                   featureRingStart: featureRingStart)
        // Only id-less groups: chaining the parts of features joined by id too would move the line
        // labels of the shipped archives (all made with ids), whose pixels the goldens hold.
        let multiPiece = groups.map { $0.count > 1 && key(pieces[$0[0].piece].features[$0[0].feature]) == nil }
        guard multiPiece.contains(true), let coarsest = tiles.map(\.z).min() else { return (data, nil) }
        return (data, TileStitching.labelLevel(data, multiPiece: multiPiece, tolerance: TileStitching.tolerance(zoom: coarsest)))
    }
}
