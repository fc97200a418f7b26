import FlybyCore
import FlybyData

/// The image tiles each `raster` and `hillshade` layer draws in a frame.
///
/// For each such layer: the source's tile cover for the camera (``TileCover`` with the source's
/// `tileSize`, the camera's level rounded as MapLibre does for raster sources), each tile's image
/// — decoded pixels for `raster`, the shading of its slope for `hillshade` — and, for a tile the
/// archive lacks, its nearest ancestor that it has, drawn enlarged (overzoom). Shaded tiles are
/// kept while their paint stays the same (``HillshadePaint``) and they stay in the cover.
/// The images depend only on the camera and the data, never on what was cached.
///
/// In a sequence of frames (``prepare(style:transform:time:drawing:)`` with a time) a `raster`
/// layer's new tiles fade in over the tiles they replace (`raster-fade-duration`, ``TileFade``):
/// ``LayerTiles/fading`` gives their weights and ``retained`` the images they are mixed with.
struct RasterFrame {
    struct LayerTiles {
        /// The tiles to draw and the ancestors standing in for missing ones, by tile (wrap 0).
        var images: [TileID: RasterImage] = [:]
        /// The finest level in the frame and the source's coarsest.
        var finest = 0, coarsest = 0
        /// The hillshade paint the images were shaded with.
        var paint: HillshadePaint?
        /// The tiles with a finer image under them in ``images`` (``withAncestors()``): a point
        /// inside any other tile of ``images`` is drawn from that tile.
        var ancestors: Set<TileID> = []
        /// The images fading in (``TileFade``): each one's weight in 1/256 over the layer's
        /// ``RasterFrame/retained`` tiles under it; an image not here is drawn fully.
        var fading: [TileID: UInt32] = [:]

        /// These tiles with ``ancestors`` filled in from ``images``.
        func withAncestors() -> LayerTiles {
            var tiles = self
            for id in images.keys where id.z > coarsest {
                var a = id
                repeat {
                    a = a.ancestor(atZoom: a.z - 1)
                } while tiles.ancestors.insert(a).inserted && a.z > coarsest
            }
            return tiles
        }
    }

    /// The style layers (by index) that draw raster tiles, and their sources' sets.
    private(set) var layerSets: [Int: RasterTileSet] = [:]
    private(set) var layers: [Int: LayerTiles] = [:]
    /// The first tile that could not be read or decoded in the frames drawn so far.
    private(set) var firstError: InputError?
    /// The fade history of each `raster` layer with a `raster-fade-duration` in the current
    /// sequence (empty for a snapshot).
    private(set) var fades: [Int: TileFade] = [:]
    /// For each layer with fading tiles, the images of the tiles that left it within its fade
    /// and lie under a fading tile: what those are mixed with.
    private(set) var retained: [Int: LayerTiles] = [:]
    /// The longest `raster-fade-duration` of the style's `raster` layers at any zoom 0…24 (in
    /// steps of ¼), seconds (0: no layer fades). Playback replays this much of a sequence before
    /// a frame it draws (`FadeSequence`).
    let longestFade: Double

    var isEmpty: Bool { layerSets.isEmpty }

    init(style: LoadedStyle) {
        var longest = 0.0
        for (k, layer) in style.style.layers.enumerated() where layer.type == .raster || layer.type == .hillshade {
            guard let s = layer.sourceIndex, let set = style.rasterSets[s] else { continue }
            layerSets[k] = set
            if layer.type == .raster {
                for q in 0...96 { longest = max(longest, RasterFrame.fadeDuration(layer, zoom: Double(q) / 4)) }
            }
        }
        longestFade = longest
    }

    /// `raster-fade-duration` of `layer` at `zoom`, in seconds (at most ``TileFade/longestDuration``).
    static func fadeDuration(_ layer: StyleLayer, zoom: Double) -> Double {
        let seconds = layer.number(.rasterFadeDuration, zoom: zoom) / 1000
        return seconds.isFinite ? min(max(seconds, 0), TileFade.longestDuration) : 0
    }

    /// Makes every visible raster and hillshade layer hold the tiles of the frame.
    /// - Parameters:
    ///   - time: the frame's simulation time in a sequence of frames, seconds; nil for a frame
    ///     drawn alone (nothing fades, the sequence is forgotten).
    ///   - drawing: false to only advance the fades of a frame that is not drawn (playback's
    ///     replay of the frames before the one it draws): hillshade layers are left as they are
    ///     and no retained image is read.
    mutating func prepare(style: LoadedStyle, transform: MapTransform, time: Double? = nil, drawing: Bool = true) {
        if time == nil { forgetFades() }
        retained.removeAll()
        for k in layerSets.keys.sorted() {
            let layer = style.style.layers[k]
            guard drawing || layer.type == .raster else { continue }
            guard let set = layerSets[k], layer.isVisible(atZoom: transform.state.zoom) else { fades[k] = nil; continue }
            let cover = TileCover.tiles(for: transform, minZoom: set.minZoom, maxZoom: set.maxZoom,
                                        tileSize: Double(set.tileSize), roundZoom: true)
            var paint: HillshadePaint?
            if layer.type == .hillshade { paint = RasterFrame.hillshadePaint(layer, transform) }
            let old = layers[k]
            var next = LayerTiles(coarsest: set.minZoom, paint: paint)
            next.finest = cover.map(\.z).max() ?? set.minZoom
            for t in cover {
                var id = TileID(z: t.z, x: t.x, y: t.y)
                while true {
                    if next.images[id] != nil { break }
                    if let reuse = old?.images[id], old?.paint == paint { next.images[id] = reuse; break }
                    if let image = load(set, id, paint) { next.images[id] = image; break }
                    guard id.z > set.minZoom else { break }
                    id = id.ancestor(atZoom: id.z - 1)
                }
            }
            layers[k] = next.withAncestors()
            if layer.type == .raster, let time {
                advanceFade(k, set, time: time, duration: RasterFrame.fadeDuration(layer, zoom: transform.state.zoom), drawing: drawing)
            }
        }
    }

    /// Forgets the sequence: the next frame with a time starts one.
    mutating func forgetFades() {
        fades.removeAll()
        retained.removeAll()
    }

    /// Advances layer `k`'s fade to the frame at `time` (seconds) whose images ``layers`` holds;
    /// when drawing, marks its fading images and reads the retained tiles under them.
    private mutating func advanceFade(_ k: Int, _ set: RasterTileSet, time: Double, duration: Double, drawing: Bool) {
        guard let tiles = layers[k] else { return }
        guard duration > 0 else { fades[k] = nil; return }
        if var fade = fades[k], fade.continues(at: time) {
            fade.advance(to: time, drawing: tiles.images.keys, duration: duration)
            fades[k] = fade
        } else {
            fades[k] = TileFade(time: time, drawing: tiles.images.keys)
        }
        guard drawing, let fade = fades[k], !fade.left.isEmpty else { return }
        var fading: [TileID: UInt32] = [:]
        for id in tiles.images.keys { if let w = fade.weight(id, duration: duration) { fading[id] = w } }
        guard !fading.isEmpty else { return }
        // A left tile overlaps a fading one when one of the two is the other or its ancestor.
        var fadingAndAbove = Set<TileID>()
        for id in fading.keys {
            var a = id
            while fadingAndAbove.insert(a).inserted && a.z > 0 { a = a.ancestor(atZoom: a.z - 1) }
        }
        var under = LayerTiles(coarsest: tiles.coarsest)
        for id in fade.left.keys {
            var overlaps = fadingAndAbove.contains(id), a = id
            while !overlaps && a.z > 0 {
                a = a.ancestor(atZoom: a.z - 1)
                overlaps = fading[a] != nil
            }
            guard overlaps, let image = load(set, id, nil) else { continue }
            under.images[id] = image
            under.finest = max(under.finest, id.z)
        }
        guard !under.images.isEmpty else { return }
        layers[k]?.fading = fading
        retained[k] = under.withAncestors()
    }

    /// Tile `id`'s image for this layer, nil when missing (an error is remembered).
    private mutating func load(_ set: RasterTileSet, _ id: TileID, _ paint: HillshadePaint?) -> RasterImage? {
        do throws(InputError) {
            guard let paint else { return try set.image(id) }
            return try set.slope(id).map { paint.shade($0) }
        } catch {
            if firstError == nil { firstError = error }
            return nil
        }
    }

    /// The hillshade paint of `layer` for this camera. A `viewport` anchor (the default) keeps the
    /// light's direction on the screen, so on the map it turns with the bearing.
    static func hillshadePaint(_ layer: StyleLayer, _ transform: MapTransform) -> HillshadePaint {
        let z = transform.state.zoom
        var azimuth = layer.number(.hillshadeIlluminationDirection, zoom: z)
        if layer.string(.hillshadeIlluminationAnchor, zoom: z) == "viewport" { azimuth += transform.state.bearing }
        return HillshadePaint(azimuth: azimuth, exaggeration: layer.number(.hillshadeExaggeration, zoom: z),
                              shadow: pixelColor(layer.color(.hillshadeShadowColor, zoom: z), 1).premultipliedARGB,
                              highlight: pixelColor(layer.color(.hillshadeHighlightColor, zoom: z), 1).premultipliedARGB,
                              accent: pixelColor(layer.color(.hillshadeAccentColor, zoom: z), 1).premultipliedARGB)
    }
}
