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

    var isEmpty: Bool { layerSets.isEmpty }

    init(style: LoadedStyle) {
        for (k, layer) in style.style.layers.enumerated() where layer.type == .raster || layer.type == .hillshade {
            if let s = layer.sourceIndex, let set = style.rasterSets[s] { layerSets[k] = set }
        }
    }

    /// Makes every visible raster and hillshade layer hold the tiles of the frame.
    mutating func prepare(style: LoadedStyle, transform: MapTransform) {
        for k in layerSets.keys.sorted() {
            let layer = style.style.layers[k]
            guard let set = layerSets[k], layer.isVisible(atZoom: transform.state.zoom) else { continue }
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
        }
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
