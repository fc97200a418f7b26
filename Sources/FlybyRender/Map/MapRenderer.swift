import FlybyCore
import FlybyData

/// Draws a loaded style for a camera into a ``PixelBuffer``: the map renderer of every window
/// frame, snapshot and video frame.
///
/// A frame is: the background layers; the fill, line and circle layers in style order, each
/// feature's geometry taken from the simplification level for the zoom, culled with the source's
/// R-tree against the visible ground box, clipped to the depth strip in front of the camera and
/// projected through the camera's ground homography (true perspective for pitch and bearing;
/// padding moves the principal point); world copies either side of the antimeridian at low zoom;
/// the sky gradient above the horizon when pitched; labels and icons with collision detection
/// (``SymbolPlacer``); then the puck and the ornaments (scale bar, compass, attribution).
///
/// Polygons are filled with the non-zero rule: GeoJSON rings are oriented (holes run the other
/// way, RFC 7946), and non-zero stays solid where simplification made a ring cross itself.
///
/// Paint properties are evaluated once per layer when they do not depend on the feature, else per
/// feature with its feature-state (``featureStates``, e.g. `select`). Rendering is deterministic:
/// the same style, camera and state always give the same pixels. Scratch storage (paths, query
/// lists, clip buffers, the rasterizer's cells) is reused from frame to frame; feature-dependent
/// filter verdicts, sort keys and paint are memoised per layer until the zoom or the feature
/// state changes (``FeatureMemo``), and label layouts are cached by text and settings.
///
/// Usage:
/// ```swift
/// var loader = StyleLoader()
/// var renderer = try MapRenderer(style: try loader.load("world:night"), width: 1280, height: 720)
/// var frame = PixelBuffer(width: 1280, height: 720)
/// renderer.render(camera: camera, puck: puck, into: &frame)
/// ```
public struct MapRenderer {
    /// The style being drawn.
    public let style: LoadedStyle
    /// Frame size in pixels.
    public let width: Int
    public let height: Int
    /// Device pixels per point (MapLibre's `pixelRatio`, 1…4): the frame shows the map of a
    /// `width / pixelRatio × height / pixelRatio` point screen with every length (line widths,
    /// text, icons, offsets) `pixelRatio` times as many pixels. Cameras and screen points given to
    /// the renderer are in frame pixels for queries, and the camera's padding is in points.
    public let pixelRatio: Double
    /// Feature state read by `feature-state` expressions (e.g. `select` on a tapped country).
    public var featureStates = FeatureStateStore() { didSet { stateGeneration &+= 1 } }
    /// Counts changes of ``featureStates``, so memos of state-dependent values know when to forget.
    var stateGeneration = 0
    /// Per-feature expression results of each style layer, by layer index (see ``FeatureMemo``).
    var memos: [LayerMemo]
    /// Draw the scale bar and the compass (the attribution is always drawn: it is a licence requirement).
    public var showsOrnaments = true
    /// With ``showsOrnaments``: draw the scale bar (Mapbox's `ornaments.options.scaleBar.visibility`).
    public var showsScaleBar = true
    /// With ``showsOrnaments``: draw the compass when the map is rotated (Mapbox's adaptive compass).
    public var showsCompass = true
    /// Draw labels and icons.
    public var showsSymbols = true
    /// Draw the `raster` and `hillshade` layers (off in a terrain texture whose relief samples
    /// them itself: ``TerrainDrape``).
    var drawsRasterLayers = true
    /// Draw the `fill-extrusion` layers (off in a terrain texture: the buildings stand on the
    /// relief, drawn after it, ``MapRenderer/renderDraped``).
    var drawsExtrusions = true
    /// Drape the map on the style's `terrain` when it has one (docs/terrain.md); off, the map is
    /// drawn flat (the camera still keeps above the relief). For comparisons and benchmarks.
    public var drawsTerrain = true
    /// Reuse the terrain's texture and mesh when the camera repeats (same pixels either way);
    /// benchmarks turn it off so a repeated camera costs what a moving one does.
    public var reusesTerrainFrame = true
    /// The style as given (before pixel-ratio scaling), kept only when it has terrain: what the
    /// terrain's texture renderer is made from.
    let terrainStyle: LoadedStyle?
    /// The terrain drape (at most one; an array so that the renderer stays a value), made on the
    /// first terrain frame.
    var drapes: [TerrainDrape] = []
    /// The pixel height the field of view spans (nil: ``height``); set on the terrain's texture
    /// renderer (see ``TerrainDrape``).
    var focalHeight: Double?
    /// The part of the frame to draw (nil: all of it): set on the terrain's texture renderer, whose
    /// pixels outside the region are never sampled (``TerrainDrape``).
    var textureRegion: TextureRegion?
    /// The credit line drawn bottom-right on every frame. Set it to "" only when the host draws
    /// the same credits itself.
    public var attribution = MapRenderer.defaultAttribution
    /// Host drawing between style layers (see ``CustomLayerDrawing``), in the order given.
    public var customLayers: [CustomLayerDrawing] = []

    /// The data credits of the built-in data (OpenStreetMap, TrafficSense, Natural Earth).
    public static let defaultAttribution =
        "© OpenStreetMap contributors · TrafficSense / Aalto University (CC BY 4.0) · Natural Earth"

    /// The credit line of a style: the built-in data's credits, then each source's own
    /// `attribution` and each tile archive's (its metadata), HTML tags removed, each credit once.
    public static func attribution(for style: LoadedStyle) -> String {
        var credits = [defaultAttribution]
        var seen: Set<String> = []
        func add(_ text: String?) {
            guard let text else { return }
            var plain = "", inTag = false
            for ch in text {
                if ch == "<" { inTag = true } else if ch == ">" { inTag = false } else if !inTag { plain.append(ch) }
            }
            let credit = plain.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !credit.isEmpty, !seen.contains(credit), !defaultAttribution.contains(credit) else { return }
            seen.insert(credit)
            credits.append(credit)
        }
        for (k, source) in style.style.sources.enumerated() {
            add(source.attribution)
            add(style.tileSets[k]?.attribution)
            add(style.rasterSets[k]?.attribution)
        }
        return credits.joined(separator: " · ")
    }

    var painter: Painter
    var path = Path()
    var strokePath = Path()
    var offsetter = PathOffsetter()
    var hits: [Int32] = []
    var order: [(key: Double, feature: Int32)] = []
    var sortScratch: [(key: Double, feature: Int32)] = []
    /// What ``hits`` holds: the R-tree hits of this source, box and zoom (see ``collectFeatures``).
    var lastQuery: QueryKey?
    var lineItems: [LineItem] = []
    var lineItemScratch: [LineItem] = []
    var clipper = DepthClipper()
    var text: TextRenderer
    /// True once the first frame has started the attribution's glyph fields (``TextRenderer/prewarm(_:)``).
    var startedPrewarm = false
    var placer = SymbolPlacer()
    /// Fading and kept anchors of labels through a frame sequence (nil: snapshots; see
    /// ``render(camera:puck:time:into:)``).
    var symbolHistory: SymbolHistory?
    /// MapLibre's `fadeDuration`: seconds of simulation time over which a label or icon that
    /// appears or disappears through collision fades in or out in a frame sequence (0: at once).
    public var fadeDuration = 0.3 { didSet { fadeDuration = fadeDuration.isFinite ? min(max(fadeDuration, 0), 60) : 0 } }
    /// Scratch of line-label placement, kept so that a frame allocates nothing for it.
    var lineAnchorScratch: [LineLabelAnchor] = []
    var linePathScratch = LineLabelPath()
    /// The same on the ground, for labels and icons lying on it (pitch alignment `map`).
    var groundPathScratch = LineLabelPath()
    /// `text-pitch-alignment` / `icon-pitch-alignment` `auto` along lines: true (the default)
    /// follows the specification (it matches the rotation alignment, which is `map` along lines
    /// by default, so line labels lie on a pitched map, as in MapLibre GL JS); false keeps them
    /// facing the viewer, as Flyby drew them before (kept for comparisons). Point symbols follow
    /// the specification either way.
    var autoPitchFollowsRotationAlongLines = true
    /// The labels and icons placed for the current frame, in drawing order.
    var symbolDraws: [SymbolDraw] = []
    var images: [String: PixelBuffer] = [:]
    /// How each image in ``images`` is drawn (its pixel ratio, SDF, stretch zones); absent: a
    /// plain 1× image.
    var imageInfo: [String: SpriteImageInfo] = [:]
    /// Images that symbol layers name but nobody provides, warned about once per name.
    public var missingImages = MissingImageReport()
    /// The distance fields of the SDF images drawn so far, by name (see ``GlyphDistanceField/init(sdfIcon:)``).
    var iconFields: [String: GlyphDistanceField] = [:]
    /// Draw only the style layers whose index is in this range (nil: all), for per-layer timing
    /// and debugging; background layers, the sky and the ornaments are always drawn.
    public var layerRange: Range<Int>?
    /// Lines thin out with distance when pitched (see ``drawLine(_:_:_:_:)``).
    var mapPlaneLineWidths = true
    /// Threads that rasterize the style layers, each into its own band of rows (1: this thread
    /// only). The pixels are the same for every count (see ``drawFrameInBands(_:_:puck:_:)``); frames
    /// with custom layers are drawn on one thread.
    public var threads = 1 {
        didSet { threads = max(1, min(threads, 64)) }
    }
    /// One renderer per row band when ``threads`` > 1, built on first use.
    var bandRenderers: [MapRenderer] = []
    /// The frame's tiles of the style's tiled sources (see ``TiledSourceFrame``).
    var tiles: TiledSourceFrame
    /// The frame's image tiles of the style's raster and hillshade layers (see ``RasterFrame``).
    var rasters: RasterFrame
    /// The tile-slot generation each layer's memo was made for (tiled layers only).
    var memoTileGenerations: [Int]
    /// Where the bands split the frame (row indices, 0 … height), moved after each frame to
    /// balance the work (see ``balancedBands(_:costs:height:)``).
    var bandBounds: [Int] = []
    /// The scratch frame of translucent `fill-extrusion` layers (ExtrusionDrawing.swift), reused.
    var extrusionScratch: PixelBuffer?
    /// The buildings' depth buffer (ExtrusionDrawing.swift, ``BuildingDepth``): shared by the
    /// `fill-extrusion` layers of a frame, allocated on first use.
    var buildingDepth = BuildingDepth()
    /// The coverage scratch of pattern fills and pattern/gradient lines (WorldPattern.swift,
    /// LineShading.swift): all zero between draws; allocated on first use.
    var patternMask: PixelBuffer?
    /// Per-pixel scratch of lines drawn with `line-pattern` or `line-gradient` (LineShading.swift).
    var lineShading = LineShadingScratch()
    /// Draw the puck as this 3D model instead of the 2D puck (Mapbox's `Puck3DConfiguration`;
    /// Puck3DDrawing.swift). Nil: the 2D puck.
    public var puck3D: Puck3D?
    /// The 3D puck's samples and depth buffer, and its projected corners, reused frame to frame.
    var modelRaster = ModelRaster()
    var puckCorners: [(x: Double, y: Double, inverseDepth: Double)] = []

    /// A renderer for frames of `width × height` pixels.
    /// - Throws: ``FontError`` when the built-in font cannot be read.
    /// - Precondition: `width, height > 0`.
    /// - Parameter pixelRatio: device pixels per point (``pixelRatio``); the style is scaled
    ///   for it once here (``LoadedStyle/scaled(byPixelRatio:)``). Load the sprite's `@2x` sheet
    ///   (``StyleLoader/spritePixelRatio``) for ratios ≥ 2.
    public init(style: LoadedStyle, width: Int, height: Int, pixelRatio: Double = 1) throws(FontError) {
        precondition(width > 0 && height > 0, "MapRenderer size must be positive")
        precondition(pixelRatio >= 1 && pixelRatio <= 4, "MapRenderer pixel ratio must be in 1…4")
        self.style = style.scaled(byPixelRatio: pixelRatio)
        self.pixelRatio = pixelRatio
        terrainStyle = style.terrainElevation == nil ? nil : style
        self.width = width
        self.height = height
        painter = Painter(width: width, height: height)
        memos = Array(repeating: LayerMemo(), count: style.style.layers.count)
        memoTileGenerations = Array(repeating: 0, count: style.style.layers.count)
        tiles = TiledSourceFrame(style: style)
        rasters = RasterFrame(style: style)
        images = style.sprite?.images ?? [:]
        imageInfo = style.sprite?.info ?? [:]
        attribution = MapRenderer.attribution(for: style)
        text = try TextRenderer(glyphs: nil)
        if let template = style.style.glyphs {
            if template.contains("://") {
                text.warnings.append("\(style.style.file): glyphs '\(template)' is a URL, which Flyby does not read; labels use the built-in font")
            } else {
                do throws(InputError) { text.glyphSource = try GlyphSource.load(template: template) } catch {
                    text.glyphSource = GlyphSource(template: StyleLoader.localPath(template))
                    text.warnings.append("\(error); font names are not mapped to other folders")
                }
            }
        }
    }

    /// Problems met with the style's glyph PBFs so far (a missing range for a whole stack, a
    /// corrupt file, a network `glyphs` URL), each once, in the order met; those labels use the
    /// built-in font (docs/text.md). Hosts print them as warnings.
    public var textWarnings: [String] { text.warnings + text.stacks.flatMap(\.warnings) }

    /// Adds (or replaces) an image that symbol layers name in `icon-image`.
    /// - Parameter image: premultiplied pixels; drawn at 1 image pixel per screen pixel × `icon-size`.
    public mutating func addImage(name: String, image: PixelBuffer) {
        images[name] = image
        imageInfo[name] = nil
        iconFields[name] = nil
        drapes = []
    }

    /// Adds (or replaces) an image drawn as described by `info` (its pixel ratio: image pixels
    /// per screen pixel at `icon-size` 1; `sdf`: a distance field tinted by `icon-color`).
    public mutating func addImage(name: String, image: PixelBuffer, info: SpriteImageInfo) {
        images[name] = image
        imageInfo[name] = info
        iconFields[name] = nil
        drapes = []
    }

    /// Removes an image added with ``addImage(name:image:)``.
    public mutating func removeImage(name: String) { images[name] = nil; imageInfo[name] = nil; iconFields[name] = nil; drapes = [] }

    /// The label and icon boxes placed in the last frame (screen pixels), for tests and debugging.
    public var placedSymbolBoxes: [SymbolBox] { placer.placed }

    /// Renders one frame.
    /// - Parameters:
    ///   - camera: the camera (zoom, centre, bearing, pitch, padding).
    ///   - puck: the location puck to draw, if any.
    ///   - buffer: the frame; it must be `width × height` (it is replaced when it is not).
    public mutating func render(camera: CameraState, puck: PuckState? = nil, into buffer: inout PixelBuffer) {
        symbolHistory = nil
        renderFrame(camera: camera, puck: puck, into: &buffer)
    }

    /// Renders one frame with the current ``symbolHistory`` (nil: as a snapshot).
    mutating func renderFrame(camera: CameraState, puck: PuckState?, into buffer: inout PixelBuffer) {
        if buffer.width != width || buffer.height != height { buffer = PixelBuffer(width: width, height: height) }
        let g = FrameGeometry(camera: camera, width: width, height: height, pixelRatio: pixelRatio, focalHeight: focalHeight)
        if !startedPrewarm {
            // The attribution's glyph fields are made on other threads while this thread joins
            // the tiles and draws the map (same pixels: a field depends only on its glyph).
            startedPrewarm = true
            if showsOrnaments && text.regular.count == 0 { text.prewarm(attribution) }
        }
        if !tiles.isEmpty { tiles.prepare(style: style, transform: g.tileTransform) }
        if drapesOnTerrain, prepareDrape() {
            renderDraped(camera, g, puck: puck, into: &buffer)
            return
        }
        if !rasters.isEmpty { rasters.prepare(style: style, transform: g.tileTransform, time: rasterFadeTime) }
        buffer.withView { view in
            if threads > 1 && customLayers.isEmpty && height >= 2 * threads {
                drawFrameInBands(camera, g, puck: puck, view)
            } else {
                if let textureRegion { painter.setRows(textureRegion.rows) }
                placeSymbols(g)
                drawMap(g, view)
                drawSymbolsAndOverlays(camera, g, puck: puck, symbols: symbolDraws, view)
            }
        }
    }

    /// Renders frame of a sequence at simulation time `time` (seconds): labels and icons that
    /// appear or disappear through collision fade over ``fadeDuration``, and a label placed at
    /// one of its variable anchors keeps it while it fits (see ``SymbolHistory``). The frames of
    /// a sequence must come in order; a time that goes backwards or jumps more than a second
    /// starts a new sequence, whose first frame is drawn as ``render(camera:puck:into:)`` draws it
    /// (which itself forgets the sequence).
    public mutating func render(camera: CameraState, puck: PuckState? = nil, time: Double, into buffer: inout PixelBuffer) {
        advanceSymbolHistory(to: time)
        renderFrame(camera: camera, puck: puck, into: &buffer)
    }

    /// Places the symbols of a frame of a sequence at simulation time `time` without drawing
    /// it: the sequence's history advances exactly as ``render(camera:puck:time:into:)`` would
    /// advance it (placement reads only the camera, the tiles and the history). Playback uses it
    /// to replay the frames before the one it draws (`MapFrameRenderer`).
    public mutating func placeSymbols(camera: CameraState, time: Double) {
        advanceSymbolHistory(to: time)
        let g = FrameGeometry(camera: camera, width: width, height: height, pixelRatio: pixelRatio, focalHeight: focalHeight)
        if !tiles.isEmpty { tiles.prepare(style: style, transform: g.tileTransform) }
        if !rasters.isEmpty, let t = rasterFadeTime { rasters.prepare(style: style, transform: g.tileTransform, time: t, drawing: false) }
        placeSymbols(g)
    }

    /// Whether frames are draped on the style's terrain (when its DEM can be read).
    var drapesOnTerrain: Bool { drawsTerrain && customLayers.isEmpty && terrainStyle != nil }

    /// The simulation time raster tiles fade at (`raster-fade-duration`, ``TileFade``): the
    /// sequence's; nil for a frame drawn alone, and on terrain, where raster tiles do not fade
    /// (as in MapLibre).
    var rasterFadeTime: Double? { drapesOnTerrain ? nil : symbolHistory?.time }

    /// The seconds of a sequence a frame's fading depends on: the longer of ``fadeDuration``
    /// (labels and icons) and the style's longest `raster-fade-duration` (0: nothing fades).
    /// Playback replays the frames before the one it draws over this span (`FadeSequence`).
    public var sequenceFadeDuration: Double { max(fadeDuration, drapesOnTerrain ? 0 : rasters.longestFade) }

    /// Forgets the sequence (labels' and raster tiles' fading): the next frame of a sequence is
    /// its first (drawn as a snapshot).
    public mutating func forgetSymbolHistory() {
        symbolHistory = nil
        rasters.forgetFades()
    }

    private mutating func advanceSymbolHistory(to time: Double) {
        if symbolHistory == nil { symbolHistory = SymbolHistory(time: -Double.infinity, duration: fadeDuration) }
        symbolHistory?.duration = fadeDuration
        symbolHistory?.advance(to: time)
    }

    /// The source layer `k` draws in this frame: the frame's tiles for a tiled source, else the
    /// style's loaded source (nil for `background`).
    func layerSource(_ k: Int) -> LoadedSource? {
        tiles.source(forLayer: k) ?? style.source(for: style.style.layers[k])
    }

    /// The first tile that could not be read or decoded in the frames drawn so far (the frame is
    /// drawn without it). Hosts that must not show an incomplete map (videos) check it.
    public var tileError: InputError? { tiles.firstError ?? rasters.firstError }

    /// What the R-tree query cache keys layer `k`'s source by: the style's source index, or for a
    /// tiled layer a number of its own per source layer.
    func querySourceKey(_ k: Int, _ layer: StyleLayer) -> Int {
        guard let slot = tiles.slotNumber(ofLayer: k) else { return layer.sourceIndex ?? -1 }
        return style.sources.count + slot
    }

    /// Forgets the memos of tiled layers whose tiles changed since they were made.
    mutating func syncTiledMemos() {
        guard !tiles.isEmpty else { return }
        for (k, _) in tiles.layerSlots {
            let generation = tiles.generation(ofLayer: k)
            if memoTileGenerations[k] != generation {
                memos[k] = LayerMemo()
                memoTileGenerations[k] = generation
                lastQuery = nil
            }
        }
    }

    /// Places the frame's labels and icons into ``symbolDraws`` (none when ``showsSymbols`` is off).
    mutating func placeSymbols(_ g: FrameGeometry) {
        if showsSymbols { placeAllSymbols(g) } else { placer.reset(); symbolDraws.removeAll() }
    }

    /// The map under the symbols, into this renderer's rows (its painter's band): the
    /// background, the layers and the sky.
    mutating func drawMap(_ g: FrameGeometry, _ view: PixelBufferView) {
        syncTiledMemos()
        drawBackground(g, view)
        drawLayers(g, view)
        if g.pitched { drawSky(g, view) }
    }

    /// The background when it is one colour (no visible background layer has a
    /// `background-pattern`): the visible background layers' colours over white, premultiplied,
    /// blended as ``PixelBufferView/fill(_:premultiplied:)`` blends them, so filling with it gives
    /// the pixels of filling layer by layer.
    func uniformBackground(zoom: Double) -> UInt32? {
        var c = Color.white.premultipliedARGB
        for layer in style.style.layers where layer.type == .background && layer.isVisible(atZoom: zoom) {
            guard layer.expression(.backgroundPattern) == nil else { return nil }
            let p = pixelColor(layer.color(.backgroundColor, zoom: zoom), layer.number(.backgroundOpacity, zoom: zoom)).premultipliedARGB
            let alpha = p >> 24
            if alpha == 255 { c = p } else if alpha != 0 || p != 0 { c = p &+ PixelBlend.scale(c, by: 255 &- alpha) }
        }
        return c
    }

    /// What goes over the map, into this renderer's rows: the placed `symbols`, the puck, the ornaments.
    mutating func drawSymbolsAndOverlays(_ camera: CameraState, _ g: FrameGeometry, puck: PuckState?, symbols: [SymbolDraw],
                                         drape: TerrainDrape? = nil, _ view: PixelBufferView) {
        drawSymbols(symbols, view)
        if let puck {
            if let puck3D { drawPuck3D(puck3D, puck, g, drape: drape, view) } else { drawPuck(puck, g, drape: drape, view) }
        }
        drawOrnaments(camera, g, view)
    }

    /// The background layers over this renderer's rows: the first opaque one is the clear colour
    /// (one pass, no blending), later ones blend; white when there is none. A layer with
    /// `background-pattern` draws the image tiled on the ground over the whole frame
    /// (``WorldPattern``) × `background-opacity` instead of `background-color`; a missing image
    /// falls back to the colour (reported once).
    mutating func drawBackground(_ g: FrameGeometry, _ view: PixelBufferView) {
        let zoom = g.zoom
        let rows = painter.rowRect
        if let c = uniformBackground(zoom: zoom) { view.fill(rows, premultiplied: c); return }
        var cleared = false
        for layer in style.style.layers where layer.type == .background && layer.isVisible(atZoom: zoom) {
            let opacity = layer.number(.backgroundOpacity, zoom: zoom)
            if layer.expression(.backgroundPattern) != nil {
                let name = layer.string(.backgroundPattern, zoom: zoom)
                if let pattern = worldPattern(name, g, g.unitHomography(copy: 0)) {
                    if !cleared { cleared = true; view.fill(rows, premultiplied: Color.white.premultipliedARGB) }
                    fillPattern(pattern, opacity: opacity, rect: rows, view)
                    continue
                }
                reportMissingPattern(name)
            }
            let c = pixelColor(layer.color(.backgroundColor, zoom: zoom), opacity)
            if !cleared {
                cleared = true
                if c.alpha == 255 { view.fill(rows, premultiplied: c.premultipliedARGB); continue }
                view.fill(rows, premultiplied: Color.white.premultipliedARGB)
            }
            view.fill(rows, premultiplied: c.premultipliedARGB)
        }
        if !cleared { view.fill(rows, premultiplied: Color.white.premultipliedARGB) }
    }

    /// Reports a pattern image that no one provides, once per name (from the renderer that draws
    /// the frame's first row, so band renderers do not repeat it).
    mutating func reportMissingPattern(_ name: String) {
        guard !name.isEmpty, painter.rows.lowerBound == 0 else { return }
        missingImages.report(name)
    }

    // MARK: Layers

    /// Draws the fill, line and circle layers (and the custom layers between them) in style order,
    /// into the rows of ``painter``.
    mutating func drawLayers(_ g: FrameGeometry, _ view: PixelBufferView) {
        buildingDepth.isCleared = false
        for (k, layer) in style.style.layers.enumerated() {
            if !customLayers.isEmpty { drawCustomLayers(before: k, g, view) }
            guard layer.isVisible(atZoom: g.zoom) else { continue }
            if let layerRange, !layerRange.contains(k) { continue }
            switch layer.type {
            case .fill: drawFill(k, layer, g, view)
            case .line: drawLine(k, layer, g, view)
            case .circle: drawCircles(k, layer, g, view)
            case .fillExtrusion: if drawsExtrusions { drawFillExtrusions(k, layer, g, view) }
            case .raster, .hillshade: if drawsRasterLayers { drawRasterLayer(k, layer, g, view) }
            case .background, .symbol: break
            }
        }
        if !customLayers.isEmpty { drawCustomLayers(before: style.style.layers.count, g, view) }
    }

    /// The features of layer `index`'s source to draw in world copy `copy`, in order (sort key,
    /// then document order), into ``order``. Filter verdicts and sort keys come from the layer's
    /// memo when still valid.
    mutating func collectFeatures(_ index: Int, _ layer: StyleLayer, _ source: LoadedSource, _ g: FrameGeometry, copy: Int,
                                  sortKey: StyleProperty?) {
        order.removeAll(keepingCapacity: true)
        // Layers sharing a source (roads: paths, casing, road, labels) ask the same question in a
        // frame: the R-tree is searched once per source, box and zoom.
        // Hits are kept in feature (document) order, the order features are drawn in.
        let query = QueryKey(source: querySourceKey(index, layer), box: g.queryBox(copy: copy), zoom: g.zoom)
        if lastQuery != query || query.source < 0 {
            hits.removeAll(keepingCapacity: true)
            source.data.query(query.box, zoom: g.zoom, into: &hits)
            hits.sort()
            lastQuery = query
        }
        let keyExpression = sortKey.flatMap { layer.isFeatureDependent($0) ? layer.expression($0) : nil }
        let constantKey = sortKey.map { layer.number($0, zoom: g.zoom) } ?? 0
        let count = source.data.features.count
        if let filter = layer.filter {
            memos[index].accepted.prepare(count: count, zoom: g.zoom, readsZoom: filter.dependsOnZoom,
                                          generation: stateGeneration, readsState: filter.dependsOnFeatureState)
            memos[index].accepted.fillConcurrently(hits) { [layer, source, featureStates, zoom = g.zoom] i in
                layer.accepts(zoom: zoom, feature: source.context(feature: i, states: featureStates))
            }
        }
        if let keyExpression {
            memos[index].sortKey.prepare(count: count, zoom: g.zoom, readsZoom: keyExpression.dependsOnZoom,
                                         generation: stateGeneration, readsState: keyExpression.dependsOnFeatureState)
        }
        for f in hits {
            let i = Int(f)
            if layer.filter != nil {
                let accepted: Bool
                if let known = memos[index].accepted[i] { accepted = known } else {
                    accepted = layer.accepts(zoom: g.zoom, feature: source.context(feature: i, states: featureStates))
                    memos[index].accepted[i] = accepted
                }
                guard accepted else { continue }
            }
            var key = constantKey
            if let sortKey, keyExpression != nil {
                if let known = memos[index].sortKey[i] { key = known } else {
                    key = layer.number(sortKey, zoom: g.zoom, feature: source.context(feature: i, states: featureStates))
                    memos[index].sortKey[i] = key
                }
            }
            order.append((key, f))
        }
        if let sortKey, layer.expression(sortKey) != nil { MapRenderer.sortByKey(&order, scratch: &sortScratch) }
    }

    /// Sorts features (given in feature order) by key, equal keys in feature order (the order
    /// Mapbox draws a tile's features in). Sort keys take few distinct values (a road class, a
    /// rank), so they are counted into place (``FewKeySort``); a comparison sort only past
    /// ``FewKeySort/keyLimit`` distinct keys.
    static func sortByKey(_ order: inout [(key: Double, feature: Int32)], scratch: inout [(key: Double, feature: Int32)]) {
        if FewKeySort.sort(&order, scratch: &scratch, key: { $0.key }) { return }
        order.sort { $0.key != $1.key ? $0.key < $1.key : $0.feature < $1.feature }
    }

    /// Appends feature `f`'s rings of the given kind (polygon rings, or lines and polygon outlines)
    /// projected for world copy `copy`. Returns false when the feature is entirely outside the depth strip.
    /// With `orientRings`, polygon rings are turned to run clockwise on screen (holes the other
    /// way), as MapLibre's tiles have them, so that a `line-offset` to the right is an inset.
    mutating func appendGeometry(_ level: GeometryLevel, _ source: LoadedSource, feature f: Int, copy: Int,
                                 _ g: FrameGeometry, _ h: Homography, polygonsOnly: Bool, asLines: Bool, orientRings: Bool = false) {
        var clip = false
        var level = level
        if g.pitched {
            let b = source.data.bounds[f]
            let w00 = h.depth(x: b.minX, y: b.minY), w10 = h.depth(x: b.maxX, y: b.minY)
            let w01 = h.depth(x: b.minX, y: b.maxY), w11 = h.depth(x: b.maxX, y: b.maxY)
            let lo = min(min(w00, w10), min(w01, w11)), hi = max(max(w00, w10), max(w01, w11))
            if hi < g.near || lo > g.far { return }
            clip = lo < g.near || hi > g.far
            // Level of detail by distance: a feature at depth W is drawn at scale d / W, i.e. at
            // zoom z − log2(W / d); its nearest point decides (so the error stays ≤ ½ px).
            let ratio = lo / g.transform.cameraDistance
            if ratio > 1.5 {
                let k = source.data.levelIndex(forZoom: g.zoom - mapLog2(ratio))
                let levels = source.data.levels
                if levels[k].featureRingStart[f + 1] == levels[k].featureRingStart[f] { return }  // dropped at that scale
                level = levels[k]
            }
        }
        level.xy.withUnsafeBufferPointer { xy in
            for r in level.rings(ofFeature: f) {
                let flags = level.ringFlags[r]
                if flags & RingFlags.points != 0 { continue }
                // Cut polygons (tiles) draw their outline from its own pieces, without the cut.
                if flags & (asLines ? RingFlags.outlinedApart : RingFlags.outline) != 0 { continue }
                let isPolygon = flags & RingFlags.polygon != 0
                if polygonsOnly && !isPolygon { continue }
                let s = Int(level.ringStart[r]), e = Int(level.ringStart[r + 1])
                let firstContour = path.contours.count
                defer {
                    if orientRings && isPolygon { path.orientContours(from: firstContour, clockwise: flags & RingFlags.exterior != 0) }
                }
                if clip {
                    if isPolygon {
                        clipper.appendPolygon(xy, s, e, h: h, near: g.near, far: g.far, into: &path)
                    } else {
                        clipper.appendPolyline(xy, s, e, h: h, near: g.near, far: g.far, into: &path)
                    }
                    continue
                }
                path.beginContour()
                // Projected points closer than 1/8 px to the previous one add nothing visible.
                var lx = Double.infinity, ly = Double.infinity
                for k in s..<e {
                    let p = h.project(xy[2 * k], xy[2 * k + 1])
                    let dx = p.x - lx, dy = p.y - ly
                    if dx * dx + dy * dy < 0.015625 && k != e - 1 { continue }
                    path.appendPoint(p)
                    lx = p.x; ly = p.y
                }
                path.endContour(closed: isPolygon, minimumCount: isPolygon ? 3 : 2)
            }
        }
    }

    /// True for a band renderer (``drawFrameInBands(_:_:puck:_:)``), whose painter draws only some rows.
    var paintsOnlyPartOfTheFrame: Bool { painter.rows.count != height }

    /// True when a feature with unit-Mercator bounds `b` (world copy of `h`), drawn with `reach`
    /// pixels of stroke or anti-aliasing around it, cannot touch the painter's rows. A ground
    /// rectangle in front of the camera projects to the quadrilateral of its projected corners,
    /// so their rows bound it; features reaching behind the near plane are never left out.
    /// Leaving such a feature out changes no pixel of the band: the filler builds each row only
    /// from the edges crossing it.
    func missesBand(_ b: MercatorBox, _ h: Homography, _ g: FrameGeometry, reach: Double) -> Bool {
        guard h.depth(x: b.minX, y: b.minY) >= g.near, h.depth(x: b.maxX, y: b.minY) >= g.near,
              h.depth(x: b.minX, y: b.maxY) >= g.near, h.depth(x: b.maxX, y: b.maxY) >= g.near else { return false }
        let y0 = h.project(b.minX, b.minY).y, y1 = h.project(b.maxX, b.minY).y
        let y2 = h.project(b.minX, b.maxY).y, y3 = h.project(b.maxX, b.maxY).y
        let top = min(min(y0, y1), min(y2, y3)), bottom = max(max(y0, y1), max(y2, y3))
        guard top.isFinite && bottom.isFinite else { return false }
        return bottom + reach < Double(painter.rows.lowerBound) || top - reach > Double(painter.rows.upperBound)
    }

    mutating func drawFill(_ index: Int, _ layer: StyleLayer, _ g: FrameGeometry, _ view: PixelBufferView) {
        guard let source = layerSource(index) else { return }
        let level = source.data.level(forZoom: g.zoom)
        let z = g.zoom
        let colorDep = layer.isFeatureDependent(.fillColor) || layer.isFeatureDependent(.fillOpacity)
        let outlineSet = layer.expression(.fillOutlineColor) != nil && layer.bool(.fillAntialias, zoom: z)
        let outlineDep = outlineSet && layer.isFeatureDependent(.fillOutlineColor)
        // `fill-pattern` (WorldPattern.swift): the image tiled on the ground replaces
        // `fill-color`; a missing image falls back to `fill-color` (reported once).
        let patternSet = layer.expression(.fillPattern) != nil
        let patternDep = patternSet && layer.isFeatureDependent(.fillPattern)
        let constPatternName = patternSet && !patternDep ? layer.string(.fillPattern, zoom: z) : ""
        let constColor = pixelColor(layer.color(.fillColor, zoom: z), layer.number(.fillOpacity, zoom: z))
        let constOutline = outlineSet ? pixelColor(layer.color(.fillOutlineColor, zoom: z), layer.number(.fillOpacity, zoom: z)) : .transparent
        if colorDep || outlineDep {
            let reads = layer.inputs(of: [.fillColor, .fillOpacity, .fillOutlineColor])
            memos[index].fillPaint.prepare(count: source.data.features.count, zoom: z, readsZoom: reads.zoom,
                                           generation: stateGeneration, readsState: reads.featureState)
        }
        let translation = screenTranslation(layer, .fillTranslate, .fillTranslateAnchor, g)
        var patternH = g.unitHomography(copy: 0)
        patternH.originX += translation.x; patternH.originY += translation.y
        let constPattern = constPatternName.isEmpty ? nil : worldPattern(constPatternName, g, patternH)
        if patternSet && !patternDep && constPattern == nil { reportMissingPattern(constPatternName) }
        for copy in g.firstCopy...g.lastCopy {
            var h = g.unitHomography(copy: copy)
            h.originX += translation.x; h.originY += translation.y
            collectFeatures(index, layer, source, g, copy: copy, sortKey: .fillSortKey)
            var k = 0
            while k < order.count {
                let f = Int(order[k].feature)
                k += 1
                var color = constColor, outline = constOutline
                if colorDep || outlineDep {
                    if let known = memos[index].fillPaint[f] { (color, outline) = known } else {
                        let ctx = source.context(feature: f, states: featureStates)
                        let opacity = layer.number(.fillOpacity, zoom: z, feature: ctx)
                        if colorDep { color = pixelColor(layer.color(.fillColor, zoom: z, feature: ctx), opacity) }
                        if outlineDep { outline = pixelColor(layer.color(.fillOutlineColor, zoom: z, feature: ctx), opacity) }
                        memos[index].fillPaint[f] = (color, outline)
                    }
                }
                var pattern = constPattern
                if patternDep {
                    let ctx = source.context(feature: f, states: featureStates)
                    let name = layer.string(.fillPattern, zoom: z, feature: ctx)
                    pattern = worldPattern(name, g, patternH)
                    if pattern == nil { reportMissingPattern(name) }
                }
                if color.alpha == 0 && outline.alpha == 0 && pattern == nil { continue }
                // 2 px: the anti-aliased edge and the 1 px outline.
                if paintsOnlyPartOfTheFrame && missesBand(source.data.bounds[f], h, g, reach: 2) { continue }
                path.removeAll()
                appendGeometry(level, source, feature: f, copy: copy, g, h, polygonsOnly: true, asLines: false)
                if path.isEmpty { continue }
                if let pattern {
                    let opacity = patternDep || layer.isFeatureDependent(.fillOpacity)
                        ? layer.number(.fillOpacity, zoom: z, feature: source.context(feature: f, states: featureStates))
                        : layer.number(.fillOpacity, zoom: z)
                    fillPath(path, pattern: pattern, opacity: opacity, view)
                } else {
                    painter.fill(path, color: color, rule: .nonZero, into: view)
                }
                if outlineSet && outline.alpha != 0 {
                    if level.hasOutlinePieces(feature: f) {
                        path.removeAll()
                        appendGeometry(level, source, feature: f, copy: copy, g, h, polygonsOnly: false, asLines: true)
                    }
                    Hairline.stroke(path, width: 1, color: outline, clip: painter.rowRect, into: view)
                }
            }
        }
    }

    /// A `*-translate` property as a screen offset in pixels: as given for the `viewport` anchor,
    /// turned with the map (by −bearing) for the `map` anchor (Style Specification, e.g.
    /// `fill-translate-anchor`).
    func screenTranslation(_ layer: StyleLayer, _ translate: StyleProperty, _ anchor: StyleProperty, _ g: FrameGeometry)
        -> (x: Double, y: Double) {
        var t = layer.numbers(translate, zoom: g.zoom) ?? []
        guard t.count == 2, t[0] != 0 || t[1] != 0 else { return (0, 0) }
        t[0] *= pixelRatio; t[1] *= pixelRatio  // points → pixels
        if layer.string(anchor, zoom: g.zoom) == "viewport" { return (t[0], t[1]) }
        let b = -g.transform.state.bearing * Double.pi / 180
        let c = mapCos(b), s = mapSin(b)
        return (t[0] * c - t[1] * s, t[0] * s + t[1] * c)
    }

    /// The width factor of a line feature in a pitched frame: lines lie in the map plane
    /// (Mapbox's line pitch alignment) and get thinner with distance. One scale per feature,
    /// from its bounding-box centre's depth, quantised to quarter octaves so features still
    /// batch together; 1/8…2.
    static func lineWidthScale(_ b: MercatorBox, _ h: Homography, _ g: FrameGeometry) -> Double {
        let depth = h.depth(x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2)
        let scale = min(2, max(0.125, g.transform.cameraDistance / max(depth, g.near)))
        return mapExp2((mapLog2(scale) * 4).rounded() / 4)
    }

    /// Draws a line layer: each feature's lines stroked with `line-width`, `line-cap`,
    /// `line-join` (round joins of shallow turns drawn as miters, `line-round-limit`),
    /// `line-dasharray`; moved sideways by `line-offset` (positive: right of the direction of
    /// travel); as two casings `line-width` wide either side of a gap of `line-gap-width`;
    /// with an edge blurred over `line-blur` px; shifted on screen by `line-translate`
    /// (Style Specification, "Layers: line"). Lengths are screen pixels, scaled with distance
    /// when pitched (see ``lineWidthScale(_:_:_:)``).
    mutating func drawLine(_ index: Int, _ layer: StyleLayer, _ g: FrameGeometry, _ view: PixelBufferView) {
        guard let source = layerSource(index) else { return }
        let level = source.data.level(forZoom: g.zoom)
        let z = g.zoom
        let paintProperties: [StyleProperty] = [.lineColor, .lineOpacity, .lineWidth, .lineGapWidth, .lineOffset, .lineBlur]
        let dep = paintProperties.contains { layer.isFeatureDependent($0) } || layer.isFeatureDependent(.lineDasharray)
        var style0 = StrokeStyle(width: layer.number(.lineWidth, zoom: z))
        style0.cap = { switch layer.string(.lineCap, zoom: z) { case "round": return .round; case "square": return .square; default: return .butt } }()
        style0.join = { switch layer.string(.lineJoin, zoom: z) { case "round": return .round; case "bevel": return .bevel; default: return .miter } }()
        style0.miterLimit = layer.number(.lineMiterLimit, zoom: z)
        style0.roundLimit = layer.number(.lineRoundLimit, zoom: z)
        style0.tolerance = 0.25
        if layer.expression(.linePattern) != nil || layer.expression(.lineGradient) != nil {
            drawShadedLines(index, layer, g, style0: style0, view)
            return
        }
        let constPaint = LinePaint(layer, zoom: z, feature: .empty)
        let constDashes = layer.numbers(.lineDasharray, zoom: z)
        // Consecutive features with the same paint are stroked as one path: fewer calls, and
        // crossings within a layer never double-blend translucent colour.
        var batchPaint = constPaint, batchDashes = constDashes
        let dashDep = layer.isFeatureDependent(.lineDasharray)
        if dep {
            let reads = layer.inputs(of: paintProperties)
            memos[index].linePaint.prepare(count: source.data.features.count, zoom: z, readsZoom: reads.zoom,
                                           generation: stateGeneration, readsState: reads.featureState)
        }
        let translation = screenTranslation(layer, .lineTranslate, .lineTranslateAnchor, g)
        for copy in g.firstCopy...g.lastCopy {
            var h = g.unitHomography(copy: copy)
            collectFeatures(index, layer, source, g, copy: copy, sortKey: .lineSortKey)
            h.originX += translation.x; h.originY += translation.y
            // Pass 1: each feature's paint.
            lineItems.removeAll(keepingCapacity: true)
            for (position, item) in order.enumerated() {
                let f = Int(item.feature)
                var paint = constPaint
                if dep {
                    if let known = memos[index].linePaint[f] { paint = known } else {
                        paint = LinePaint(layer, zoom: z, feature: source.context(feature: f, states: featureStates))
                        memos[index].linePaint[f] = paint
                    }
                }
                if g.pitched && mapPlaneLineWidths {
                    paint.scale(by: MapRenderer.lineWidthScale(source.data.bounds[f], h, g))
                }
                if paint.color.alpha == 0 || paint.width <= 0 { continue }
                // Not with feature-dependent dashes: those are not sorted by paint, so leaving a
                // feature out could merge the strokes before and after it into one batch.
                if paintsOnlyPartOfTheFrame && !dashDep
                    && missesBand(source.data.bounds[f], h, g, reach: paint.reach * max(style0.miterLimit, 1.5) + 2) { continue }
                lineItems.append(LineItem(key: item.key, paint: paint, color: paint.color.premultipliedARGB,
                                          position: Int32(position), feature: item.feature))
            }
            // Within one sort key the order of a layer's lines is not defined (Mapbox draws tile
            // by tile), so group equal paint together: one stroke call per group instead of one
            // per change of paint. Stable: ties keep document order.
            if !dashDep && !FewKeySort.sort(&lineItems, scratch: &lineItemScratch, key: \.paintOrder) {
                lineItems.sort { a, b in a.paintOrder != b.paintOrder ? a.paintOrder < b.paintOrder : a.position < b.position }
            }
            // Pass 2: stroke the groups.
            path.removeAll()
            var k = 0
            while k < lineItems.count {
                let item = lineItems[k]
                k += 1
                let f = Int(item.feature)
                var dashes = constDashes
                if dashDep { dashes = layer.numbers(.lineDasharray, zoom: z, feature: source.context(feature: f, states: featureStates)) }
                if item.paint != batchPaint || dashes != batchDashes {
                    flushLines(&style0, batchPaint, batchDashes, view)
                    batchPaint = item.paint; batchDashes = dashes
                }
                appendGeometry(level, source, feature: f, copy: copy, g, h, polygonsOnly: false, asLines: true,
                               orientRings: item.paint.offset != 0)
            }
            flushLines(&style0, batchPaint, batchDashes, view)
        }
    }

    /// Strokes ``path`` (then empties it) with one batch's paint.
    private mutating func flushLines(_ s: inout StrokeStyle, _ paint: LinePaint, _ dashes: [Double]?, _ view: PixelBufferView) {
        defer { path.removeAll() }
        let color = paint.color, width = paint.width
        guard !path.isEmpty, color.alpha != 0, width > 0 else { return }
        s.width = width
        s.dashes.removeAll(keepingCapacity: true)
        if let dashes {
            // Mapbox dash lengths are in line widths.
            let unit = max(width, 1)
            for d in dashes { s.dashes.append(d * unit) }
        }
        if paint.gap > 0 || paint.offset != 0 {
            // `line-gap-width`: two lines `width` wide whose inner edges are the gap apart, i.e.
            // centre lines gap/2 + width/2 either side of the (offset) line.
            strokePath.removeAll()
            let side = paint.gap > 0 ? paint.gap / 2 + width / 2 : 0
            offsetter.offset(path, by: paint.offset + side, join: s.join, miterLimit: s.miterLimit, tolerance: s.tolerance,
                             into: &strokePath)
            if paint.gap > 0 {
                offsetter.offset(path, by: paint.offset - side, join: s.join, miterLimit: s.miterLimit, tolerance: s.tolerance,
                                 into: &strokePath)
            }
            swap(&path, &strokePath)
        }
        if width <= 1 {
            // A hairline cannot ramp: its blur spreads the same ink over width + blur pixels.
            let ink = paint.blur > 0 ? color.withAlphaScaled(by: width / (width + paint.blur)) : color
            painter.strokeHairline(path, width: width, dashes: s.dashes, color: ink, into: view)
        } else if paint.blur > 0 {
            // `line-blur`: opacity ramps from 0 at the edge to full `blur` px inside it (nested
            // strokes, see BlurRamp); a blur wider than half the line leaves its centre translucent.
            let half = width / 2, alpha = Double(color.alpha) / 255
            var style = s
            BlurRamp.forEachStep(count: BlurRamp.stepCount(ramp: paint.blur), level: BlurRamp.linear) { inset, level, previous in
                let h = half - inset * paint.blur
                guard h > 0 else { return }
                style.width = 2 * h
                let ink = color.withAlphaScaled(by: BlurRamp.stepAlpha(alpha, level: level, previous: previous))
                if ink.alpha != 0 { painter.stroke(path, style: style, color: ink, into: view) }
            }
        } else {
            painter.stroke(path, style: s, color: color, into: view)
        }
    }

    /// Draws a circle layer: a disc of `circle-radius` px around each point with a ring of
    /// `circle-stroke-width` px outside it, the whole circle's opacity ramping from its edge
    /// inwards over `circle-blur` × its outer radius (smoothstep; 1: only the centre is opaque,
    /// as the Style Specification says), shifted on screen by `circle-translate`. In a pitched
    /// frame `circle-pitch-scale` `map` (the default) scales each circle by its apparent distance
    /// (camera distance / depth), `viewport` keeps its pixel size; `circle-pitch-alignment` `map`
    /// lays it flat on the ground (an ellipse on screen), `viewport` (the default) faces the viewer.
    /// A blurred circle always faces the viewer (its size still follows `circle-pitch-scale`).
    mutating func drawCircles(_ index: Int, _ layer: StyleLayer, _ g: FrameGeometry, _ view: PixelBufferView) {
        guard let source = layerSource(index) else { return }
        let level = source.data.level(forZoom: g.zoom)
        let z = g.zoom
        let props: [StyleProperty] = [.circleRadius, .circleColor, .circleOpacity, .circleStrokeWidth, .circleStrokeColor,
                                      .circleStrokeOpacity, .circleBlur]
        let dep = props.contains { layer.isFeatureDependent($0) }
        var ctx = FeatureContext.empty
        let translation = screenTranslation(layer, .circleTranslate, .circleTranslateAnchor, g)
        let scalesWithMap = layer.string(.circlePitchScale, zoom: z) != "viewport"
        let liesOnMap = g.pitched && layer.string(.circlePitchAlignment, zoom: z) == "map"
        for copy in g.firstCopy...g.lastCopy {
            var h = g.unitHomography(copy: copy)
            h.originX += translation.x; h.originY += translation.y
            collectFeatures(index, layer, source, g, copy: copy, sortKey: .circleSortKey)
            var k = 0
            while k < order.count {
                let f = Int(order[k].feature)
                k += 1
                if dep { ctx = source.context(feature: f, states: featureStates) }
                let radius = layer.number(.circleRadius, zoom: z, feature: ctx)
                let fill = pixelColor(layer.color(.circleColor, zoom: z, feature: ctx), layer.number(.circleOpacity, zoom: z, feature: ctx))
                let sw = layer.number(.circleStrokeWidth, zoom: z, feature: ctx)
                let stroke = pixelColor(layer.color(.circleStrokeColor, zoom: z, feature: ctx), layer.number(.circleStrokeOpacity, zoom: z, feature: ctx))
                let blur = layer.number(.circleBlur, zoom: z, feature: ctx)
                for r in level.rings(ofFeature: f) where level.ringFlags[r] & RingFlags.points != 0 {
                    for p in level.points(ofRing: r) {
                        let x = level.xy[2 * p], y = level.xy[2 * p + 1]
                        let w = h.depth(x: x, y: y)
                        guard w >= g.near && w <= g.far else { continue }
                        let c = h.project(x, y)
                        // Flat frames: every depth is the camera distance, so nothing changes.
                        let distanceScale = g.pitched ? g.transform.cameraDistance / w : 1
                        var radius = radius, sw = sw
                        if g.pitched && scalesWithMap && !liesOnMap { radius *= distanceScale; sw *= distanceScale }
                        let reach = (radius + sw) * (liesOnMap ? max(1, distanceScale) * 4 : 1)
                        guard c.x > -reach && c.y > -reach && c.x < Double(width) + reach && c.y < Double(height) + reach else { continue }
                        if blur > 0 {
                            let k = liesOnMap && scalesWithMap ? distanceScale : 1
                            drawBlurredCircle(c, radius: radius * k, strokeWidth: sw * k, fill: fill, stroke: stroke, blur: blur, view)
                            continue
                        }
                        if liesOnMap {
                            // A circle on the ground: radius in unit Mercator (the frame's scale at
                            // the camera distance), shrunk back by depth for `viewport` scaling.
                            let unit = (scalesWithMap ? 1 : 1 / distanceScale) / g.transform.worldSize
                            if radius > 0 && fill.alpha != 0 {
                                path.removeAll()
                                appendGroundCircle(x, y, radius: radius * unit, h)
                                painter.fill(path, color: fill, into: view)
                            }
                            if sw > 0 && stroke.alpha != 0 {
                                path.removeAll()
                                appendGroundCircle(x, y, radius: (radius + sw) * unit, h)
                                if radius > 0 { appendGroundCircle(x, y, radius: radius * unit, h) }
                                painter.fill(path, color: stroke, rule: .evenOdd, into: view)
                            }
                            continue
                        }
                        if radius > 0 && fill.alpha != 0 {
                            path.removeAll()
                            path.addCircle(center: c, radius: radius, tolerance: 0.2)
                            painter.fill(path, color: fill, into: view)
                        }
                        if sw > 0 && stroke.alpha != 0 {
                            path.removeAll()
                            path.addCircle(center: c, radius: radius + sw / 2, tolerance: 0.2)
                            painter.stroke(path, style: StrokeStyle(width: sw), color: stroke, into: view)
                        }
                    }
                }
            }
        }
    }

    /// Appends a circle of `radius` (unit Mercator) around ground point (`x`, `y`), projected by `h`.
    mutating func appendGroundCircle(_ x: Double, _ y: Double, radius: Double, _ h: Homography) {
        path.beginContour()
        let n = 64
        for i in 0..<n {
            let a = Double(i) * 2 * Double.pi / Double(n)
            path.appendPoint(h.project(x + radius * mapCos(a), y + radius * mapSin(a)))
        }
        path.endContour(closed: true, minimumCount: 3)
    }

    /// A circle whose opacity ramps over `blur` × (radius + stroke width) from its outer edge
    /// inwards (`circle-blur`), as nested discs (fill) and rings (stroke) (see ``BlurRamp``).
    mutating func drawBlurredCircle(_ c: ScreenPoint, radius: Double, strokeWidth sw: Double, fill: Color, stroke: Color,
                                    blur: Double, _ view: PixelBufferView) {
        let outer = max(0, radius) + max(0, sw)
        guard outer > 0 else { return }
        let ramp = blur * outer
        let fillAlpha = Double(fill.alpha) / 255, strokeAlpha = Double(stroke.alpha) / 255
        BlurRamp.forEachStep(count: BlurRamp.stepCount(ramp: ramp), level: BlurRamp.smooth) { inset, level, previous in
            let r = outer - inset * ramp
            guard r > 0 else { return }
            if radius > 0 && fill.alpha != 0 {
                let ink = fill.withAlphaScaled(by: BlurRamp.stepAlpha(fillAlpha, level: level, previous: previous))
                path.removeAll()
                path.addCircle(center: c, radius: min(r, radius), tolerance: 0.2)
                if ink.alpha != 0 { painter.fill(path, color: ink, into: view) }
            }
            if sw > 0 && r > radius && stroke.alpha != 0 {
                let ink = stroke.withAlphaScaled(by: BlurRamp.stepAlpha(strokeAlpha, level: level, previous: previous))
                path.removeAll()
                path.addCircle(center: c, radius: r, tolerance: 0.2)
                if radius > 0 { path.addCircle(center: c, radius: radius, tolerance: 0.2) }
                if ink.alpha != 0 { painter.fill(path, color: ink, rule: .evenOdd, into: view) }
            }
        }
    }

    // MARK: Sky

    /// The sky above the horizon: `horizon-color` at the horizon blending to `sky-color` over the
    /// top `sky-horizon-blend` of the sky; and the fog, `fog-color` fading out below the horizon
    /// over `horizon-fog-blend` × 15 % of the ground. Rows are filled whole, with the horizon row
    /// anti-aliased by its covered fraction.
    mutating func drawSky(_ g: FrameGeometry, _ view: PixelBufferView) {
        let z = g.zoom
        let sky = style.style.sky
        let skyColor = sky?.color(.skyColor, zoom: z) ?? StyleColor(r8: 0x9F, g8: 0xC6, b8: 0xEE)
        let horizon = sky?.color(.horizonColor, zoom: z) ?? StyleColor(r8: 0xE8, g8: 0xF1, b8: 0xFA)
        let fog = sky?.color(.fogColor, zoom: z) ?? StyleColor(r8: 0xF4, g8: 0xF7, b8: 0xFB)
        let blend = max(0.05, sky?.number(.skyHorizonBlend, zoom: z) ?? 0.6)
        let fogBlend = sky?.number(.horizonFogBlend, zoom: z) ?? 0.7
        let hy = g.horizonY
        guard hy > 0 else { return }
        let skyHeight = hy
        let rows = painter.rows   // a band renderer draws only its rows
        let last = min(rows.upperBound, Int(hy.rounded(.up)))
        for y in rows.lowerBound..<max(rows.lowerBound, last) {
            let dist = hy - (Double(y) + 0.5)
            let t = min(1, max(0, dist / (skyHeight * blend)))
            let c = StyleColor.interpolate(horizon, skyColor, t * t * (3 - 2 * t))
            let coverage = min(1, hy - Double(y))
            view.fill(PixelRect(minX: 0, minY: y, maxX: width, maxY: y + 1), premultiplied: pixelColor(c, coverage).premultipliedARGB)
        }
        // Fog below the horizon.
        let fogRows = Double(height) * 0.15 * fogBlend
        guard fogRows >= 1 else { return }
        let first = max(rows.lowerBound, Int(hy.rounded(.down)))
        let end = min(rows.upperBound, Int((hy + fogRows).rounded(.up)))
        guard first < end else { return }
        for y in first..<end {
            let d = (Double(y) + 0.5 - hy) / fogRows
            guard d > 0 else { continue }
            let a = (1 - min(1, d)) * (1 - min(1, d)) * 0.85
            view.fill(PixelRect(minX: 0, minY: y, maxX: width, maxY: y + 1), premultiplied: pixelColor(fog, a).premultipliedARGB)
        }
    }
}

/// A source's R-tree query in a frame (unit-Mercator box, zoom).
struct QueryKey: Equatable {
    var source: Int
    var box: MercatorBox
    var zoom: Double
}

/// One line feature's paint in a frame (see ``MapRenderer/drawLine(_:_:_:_:)``): lengths in
/// screen pixels.
struct LinePaint: Equatable {
    var color: Color
    var width: Double
    /// `line-gap-width`: when > 0 the line is two casings `width` wide either side of this gap.
    var gap: Double
    /// `line-offset`: sideways, positive to the right of the direction of travel.
    var offset: Double
    /// `line-blur`: the width of the edge's opacity ramp.
    var blur: Double

    init(color: Color, width: Double, gap: Double = 0, offset: Double = 0, blur: Double = 0) {
        self.color = color; self.width = width; self.gap = gap; self.offset = offset; self.blur = blur
    }

    /// The paint of a layer's line at `zoom` for `feature`.
    init(_ layer: StyleLayer, zoom z: Double, feature ctx: FeatureContext) {
        color = pixelColor(layer.color(.lineColor, zoom: z, feature: ctx), layer.number(.lineOpacity, zoom: z, feature: ctx))
        width = layer.number(.lineWidth, zoom: z, feature: ctx)
        gap = layer.number(.lineGapWidth, zoom: z, feature: ctx)
        offset = layer.number(.lineOffset, zoom: z, feature: ctx)
        blur = layer.number(.lineBlur, zoom: z, feature: ctx)
    }

    /// Scales every length (lines in the map plane of a pitched frame).
    mutating func scale(by k: Double) {
        width *= k; gap *= k; offset *= k; blur *= k
    }

    /// How far the paint reaches from the line's centre line, in pixels.
    var reach: Double { abs(offset) + (gap > 0 ? gap / 2 + width : width / 2) }
}

/// One line feature's paint in a frame, with its place in the order of drawing.
struct LineItem {
    var key: Double
    var paint: LinePaint
    /// Premultiplied colour, for sorting.
    var color: UInt32
    var position: Int32
    var feature: Int32

    /// What a layer's lines are grouped by: sort key, then width, then colour, then the rest.
    var paintOrder: PaintOrder {
        PaintOrder(key: key, width: paint.width, color: color, gap: paint.gap, offset: paint.offset, blur: paint.blur)
    }

    struct PaintOrder: Comparable {
        var key: Double, width: Double, color: UInt32, gap: Double, offset: Double, blur: Double
        static func < (a: PaintOrder, b: PaintOrder) -> Bool {
            if a.key != b.key { return a.key < b.key }
            if a.width != b.width { return a.width < b.width }
            if a.color != b.color { return a.color < b.color }
            if a.gap != b.gap { return a.gap < b.gap }
            if a.offset != b.offset { return a.offset < b.offset }
            return a.blur < b.blur
        }
    }
}

/// A style colour with an opacity, as a raster colour.
@inline(__always)
func pixelColor(_ c: StyleColor?, _ opacity: Double) -> Color {
    guard let c else { return .transparent }
    let v = c.withOpacity(opacity).rgba8
    return Color(red: v.r, green: v.g, blue: v.b, alpha: v.a)
}
