import Dispatch
import FlybyCore
import FlybyData

/// The map draped on the style's 3D terrain (Style Specification, `terrain`): the design is in
/// docs/terrain.md.
///
/// 1. The *texture*: the map layers without labels, drawn flat by a second ``MapRenderer`` on a
///    frame larger than the screen (``marginX`` more columns either side, ``marginTop`` more rows
///    above and ``marginBottom`` below) with the screen's focal height, so its projection is the
///    screen's own shifted by the margins (``MapTransform/init(size:state:focalHeight:)``):
///    texture pixel (x + marginX, y + marginTop)
///    sees the ground point that screen pixel (x, y) sees on the flat map. The margins hold the
///    ground that relief moves into view (a ridge near the bottom of the screen shows ground that
///    the flat map has below it). The ground plane is the terrain's height under the camera
///    centre (the centre sits on the terrain surface, as in `FlybyCore.Terrain`).
/// 2. The *mesh*: a grid of vertices every ``step`` texture pixels over the texture's ground, so
///    the mesh is finer near the camera and coarser with distance; each vertex is the ground
///    point its texture pixel sees, raised by the DEM's height there (``TerrainElevation``,
///    exaggeration applied) minus the centre's, and projected with the camera's full perspective
///    (``MapTransform/screenPoint(worldX:worldY:height:)``). One shared grid: no cracks.
/// 3. The *raster*: the grid's triangles are rasterised with a depth buffer (``DepthBuffer``,
///    depth along the view axis, nearest kept), interpolating the vertices' texture coordinates
///    perspective-correctly (u/W, v/W and 1/W are affine in screen space), then each covered
///    pixel samples the texture bilinearly once (deferred) and blends towards the sky's
///    `fog-color` with distance (`fog-ground-blend`: 0 starts the fog at the map centre, 1 at the
///    horizon, MapLibre's sky). Pixels the mesh does not cover show the texture's own pixel: the
///    sky above the horizon (`sky-color`, `horizon-color`, `sky-horizon-blend`,
///    `horizon-fog-blend`).
///
/// Threads: the mesh rows, then the screen rows, are split into bands; every band walks all the
/// triangles in the same order and writes only its own rows, so the pixels equal one thread's.
struct TerrainDrape {
    /// Draws the texture: the style without labels or ornaments.
    var texture: MapRenderer
    var image: PixelBuffer
    let marginX: Int
    let marginTop: Int
    let marginBottom: Int
    /// Texture pixels between mesh vertices.
    let step: Int
    /// Rows of ground below the texture that a pitched grid of ground points also covers
    /// (``buildMesh(_:threads:)``): the frame's height.
    var nearRows: Int { depth.height }
    /// Texture rows between the vertex rows of the grid below the texture.
    var nearStep: Int { 4 * step }
    let elevation: TerrainElevation
    /// The frame's depth buffer (points along the view axis; infinity: no relief, sky).
    var depth: DepthBuffer
    /// Per screen pixel, where ``depth`` is finite: the relief's attributes seen there
    /// (``DrapeMesh/Attributes``: texture coordinates, or the ground point from the camera centre),
    /// both in one element, so the raster's stores and the shading's loads meet one cache line.
    var pixelAttributes: [SIMD2<Float>]
    /// The relief's triangles.
    var mesh: DrapeMesh
    /// What the texture and mesh were last made for: a repeated camera reuses them (the pixels are
    /// the same either way; tested).
    var key: DrapeKey?
    /// Draw only the texture pixels the relief samples (off: the whole texture, for tests).
    var limitsTexture = true
    /// Sample raster and hillshade layers per screen pixel when they are all the texture holds
    /// (``directLayers(zoom:)``; off: through the texture, for tests).
    var samplesRastersDirectly = true
    /// With the layers sampled directly over a one-colour background, interpolate each pixel's
    /// ground point rather than its texture coordinates (``DrapeMesh/Attributes``; off: texture
    /// coordinates, for tests).
    var interpolatesGround = true

    struct DrapeKey: Equatable {
        var camera: CameraState
        var stateGeneration: Int
        var layerRange: Range<Int>?
        var mapPlaneLineWidths: Bool
    }

    init(style: LoadedStyle, elevation: TerrainElevation, width: Int, height: Int, pixelRatio: Double) throws(FontError) {
        marginX = max(8, height * 15 / 100)
        marginTop = max(8, height * 10 / 100)
        marginBottom = max(8, height * 20 / 100)
        step = 8
        self.elevation = elevation
        texture = try MapRenderer(style: style, width: width + 2 * marginX, height: height + marginTop + marginBottom,
                                  pixelRatio: pixelRatio)
        texture.drawsTerrain = false
        texture.showsSymbols = false
        texture.drawsExtrusions = false
        texture.showsOrnaments = false
        texture.attribution = ""
        texture.focalHeight = Double(height)
        image = PixelBuffer(width: width + 2 * marginX, height: height + marginTop + marginBottom)
        depth = DepthBuffer(width: width, height: height)
        pixelAttributes = Array(repeating: .zero, count: width * height)
        mesh = DrapeMesh(step: step, width: width, textureWidth: image.width, textureHeight: image.height, marginX: marginX,
                         marginTop: marginTop)
    }

    /// The texture's camera: the screen's, padded by the margins (points).
    func textureCamera(_ camera: CameraState, pixelRatio r: Double) -> CameraState {
        var c = camera
        let mx = Double(marginX) / r, mt = Double(marginTop) / r, mb = Double(marginBottom) / r
        c.padding = EdgeInsets(top: camera.padding.top + mt, left: camera.padding.left + mx,
                               bottom: camera.padding.bottom + mb, right: camera.padding.right + mx)
        return c
    }

    /// Draws the relief into `view`: unless ``key`` matches, first the mesh, its depths and texture
    /// coordinates, then the part of the texture they sample (``TextureRegion``); then the shading.
    mutating func draw(_ camera: CameraState, key newKey: DrapeKey, _ g: FrameGeometry, fog: Fog, threads: Int,
                       pixelRatio: Double, into view: PixelBufferView) {
        let h = depth.height
        let bands = max(1, min(threads, h / 16))
        let bounds = (0...bands).map { $0 * h / bands }
        let direct = samplesRastersDirectly ? directLayers(zoom: g.zoom) : nil
        // With the layers sampled directly over a one-colour background, the texture is never
        // read under the relief: the raster carries each pixel's ground point instead.
        var attributes = DrapeMesh.Attributes.texture
        if direct != nil && interpolatesGround, let background = texture.uniformBackground(zoom: g.zoom) {
            attributes = .ground(background: background)
        }
        if key != newKey || mesh.attributes != attributes {
            mesh.attributes = attributes
            buildMesh(g, threads: threads)
            let region = rasterize(bands: bounds)
            texture.textureRegion = limitsTexture ? region : nil
            texture.threads = threads
            texture.drawsRasterLayers = direct == nil
            texture.render(camera: textureCamera(camera, pixelRatio: pixelRatio), into: &image)
            key = newKey
        }
        let rasters = direct.flatMap { reliefRasters($0, camera, g, pixelRatio: pixelRatio) }
        let mesh = mesh
        withOutput(view) { out in
            if bands == 1 {
                mesh.shade(rows: 0..<h, out, fog: fog, rasters: rasters)
            } else {
                DispatchQueue.concurrentPerform(iterations: bands) { k in
                    mesh.shade(rows: bounds[k]..<bounds[k + 1], out, fog: fog, rasters: rasters)
                }
            }
        }
    }

    /// The `raster` and `hillshade` layers the relief samples itself, when every layer the
    /// texture would draw at zoom `z` (visible, in the layer range, not a label layer) is one of
    /// them or the background: then each covered screen pixel samples their tiles once at its own
    /// ground point, instead of the texture drawing them and the relief resampling the texture
    /// (one bilinear resampling instead of two, and no texture pixels drawn for them). Nil when
    /// some other layer is drawn (a line over hillshade must lie over it: the texture draws all).
    func directLayers(zoom z: Double) -> [Int]? {
        var direct: [Int] = []
        for (k, layer) in texture.style.style.layers.enumerated() {
            guard layer.isVisible(atZoom: z), texture.layerRange?.contains(k) ?? true else { continue }
            switch layer.type {
            case .raster, .hillshade: direct.append(k)
            case .background, .symbol, .fillExtrusion: continue   // drawn over the relief, not in the texture
            case .fill, .line, .circle: return nil
            }
        }
        return direct.isEmpty ? nil : direct
    }

    /// The tiles of the layers `direct` that the texture's renderer holds for its frame, with
    /// their paint and the texture's inverse homography (texture pixel → unit Web Mercator).
    func reliefRasters(_ direct: [Int], _ camera: CameraState, _ g: FrameGeometry, pixelRatio: Double) -> ReliefRasters? {
        let z = g.zoom
        let tg = FrameGeometry(camera: textureCamera(camera, pixelRatio: pixelRatio), width: image.width, height: image.height,
                               pixelRatio: pixelRatio, focalHeight: Double(depth.height))
        guard let inverse = InverseHomography(tg.unitHomography(copy: 0)) else { return nil }
        var layers: [ReliefRasters.Layer] = []
        for k in direct {
            let paint = RasterPaint(layer: texture.style.style.layers[k], zoom: z)
            guard paint.opacity > 0, let tiles = texture.rasters.layers[k], !tiles.images.isEmpty else { continue }
            layers.append(ReliefRasters.Layer(paint: paint, tiles: tiles))
        }
        let t = g.transform
        return layers.isEmpty ? nil
            : ReliefRasters(inverse: inverse, layers: layers, background: texture.uniformBackground(zoom: z),
                            groundOrigin: SIMD2(t.centerX, t.centerY), unitsPerWorldPoint: 1 / t.worldSize)
    }

    /// Calls `body` with pointers to the frame's per-pixel outputs and the texture.
    mutating func withOutput(_ view: PixelBufferView, _ body: (DrapeOutput) -> Void) {
        image.pixels.withUnsafeBufferPointer { tex in
            depth.depths.withUnsafeMutableBufferPointer { d in
                pixelAttributes.withUnsafeMutableBufferPointer { uv in
                    body(DrapeOutput(depth: d.baseAddress!, uv: uv.baseAddress!, view: view, texture: tex.baseAddress!))
                }
            }
        }
    }

    /// Rasterises the mesh into ``depth`` and ``pixelAttributes`` in the row bands `bounds`, and
    /// returns the texture pixels the shading will read: around the grid cells of the triangles
    /// that kept a pixel, and the texture's own pixel under every screen pixel the relief leaves
    /// uncovered (the sky).
    mutating func rasterize(bands bounds: [Int]) -> TextureRegion {
        let bands = bounds.count - 1, w = depth.width
        let cellCount = max(0, mesh.columns - 1) * max(0, mesh.rows - 1)
        var cells = [UInt8](repeating: 0, count: bands * cellCount)
        // Per screen row: the first and one past the last column the relief leaves uncovered.
        var sky = [SIMD2<Int32>](repeating: SIMD2(Int32(w), 0), count: depth.height)
        let mesh = mesh
        cells.withUnsafeMutableBufferPointer { c in
            sky.withUnsafeMutableBufferPointer { s in
                let marks = MarkOutput(cells: c.baseAddress!, sky: s.baseAddress!)
                withOutput(PixelBufferView(base: nil, width: 0, height: 0)) { out in
                    if bands == 1 {
                        mesh.rasterize(rows: bounds[0]..<bounds[1], out, marks: marks.cells, sky: marks.sky)
                    } else {
                        DispatchQueue.concurrentPerform(iterations: bands) { k in
                            mesh.rasterize(rows: bounds[k]..<bounds[k + 1], out, marks: marks.cells + k * cellCount, sky: marks.sky)
                        }
                    }
                }
            }
        }
        return mesh.region(cells: cells, bands: bands, sky: sky)
    }

    // MARK: Mesh

    /// The grid of vertices over the texture's ground (rows from the horizon down).
    ///
    /// When the raster carries ground points (``DrapeMesh/Attributes/ground(background:)``) the
    /// texture is never read under the relief, so on a pitched map the grid runs on below the
    /// texture, over ground nearer the camera (``nearRows`` more texture rows' worth, one vertex
    /// row every ``nearStep`` rows there; the columns stay the same, so the grids meet without
    /// a crack): relief higher than the ground plane near the camera (the camera over a ridge)
    /// rises into the bottom of the screen from there, where the texture's own ground ends too
    /// soon and the flat map would show instead. The ground points stay exact on every facet
    /// (the hillshade is sampled per pixel); only the near relief's shape is sampled coarser.
    mutating func buildMesh(_ g: FrameGeometry, threads: Int) {
        let tw = image.width, th = image.height
        let top = g.pitched ? max(0, Int((g.horizonY + Double(marginTop)).rounded(.up))) : 0
        guard top < th else { mesh.columns = 0; mesh.rows = 0; return }
        let near = g.pitched && mesh.attributes != .texture ? (nearRows + nearStep - 1) / nearStep : 0
        let textureRows = (th - top + step - 1) / step + 1
        mesh.columns = (tw + step - 1) / step + 1
        mesh.rows = textureRows + near
        let columns = mesh.columns, rows = mesh.rows, step = step, nearStep = nearStep
        let mx = Double(marginX), mt = Double(marginTop)
        // The last frame's arrays, refilled (their storage kept); ground points only when the
        // raster carries them.
        var vertices = mesh.vertices, ground = mesh.ground
        mesh.vertices = []; mesh.ground = []
        vertices.removeAll(keepingCapacity: true)
        vertices.append(contentsOf: repeatElement(SIMD4(repeating: .nan), count: columns * rows))
        ground.removeAll(keepingCapacity: true)
        if mesh.attributes != .texture { ground.append(contentsOf: repeatElement(.zero, count: columns * rows)) }
        let t = g.transform
        let relief = relief(g)
        let elevation = elevation
        vertices.withUnsafeMutableBufferPointer { buffer in
            ground.withUnsafeMutableBufferPointer { groundBuffer in
                // (An empty array's buffer may still have an address: the count decides.)
                let out = VertexOutput(base: buffer.baseAddress!, ground: groundBuffer.isEmpty ? nil : groundBuffer.baseAddress)
                let bands = max(1, min(threads, rows))
                DispatchQueue.concurrentPerform(iterations: bands) { k in
                    var memo = TerrainElevation.TileMemo()
                    for j in (k * rows / bands)..<((k + 1) * rows / bands) {
                        let ty = Double(j < textureRows ? min(th, top + j * step) : th + (j - textureRows + 1) * nearStep)
                        for i in 0..<columns {
                            let tx = Double(min(tw, i * step))
                            let w = t.worldPoint(for: ScreenPoint(x: tx - mx, y: ty - mt))
                            let c = WebMercator.unproject(x: w.x, y: w.y, worldSize: t.worldSize)
                            guard let p = relief.screenPoint(worldX: w.x, worldY: w.y, latitude: c.latitude,
                                                             elevation: elevation.elevation(at: c, memo: &memo)),
                                  p.depth > g.near else { continue }
                            out.base[j * columns + i] = SIMD4(Float(p.point.x), Float(p.point.y), Float(p.depth), 0)
                            out.ground?[j * columns + i] = SIMD2(Float(w.x - t.centerX), Float(w.y - t.centerY))
                        }
                    }
                }
            }
        }
        mesh.vertices = vertices
        mesh.ground = ground
        mesh.top = top
    }

    // MARK: Symbols

    /// The relief this drape draws for the frame `g` (``ReliefSurface``: the one projection of
    /// the mesh, the symbols, the puck, `point(for:)` and the queries).
    func relief(_ g: FrameGeometry) -> ReliefSurface {
        ReliefSurface(transform: g.transform, elevation: elevation.terrain().elevation)
    }

    /// World point (`worldX`, `worldY`) of the frame `g` raised to `relief`: its screen point and
    /// depth, and whether the relief hides it there (its depth behind the depth buffer's by more
    /// than 1 %; a point off the frame is not hidden). Nil behind the camera.
    func place(worldX: Double, worldY: Double, _ relief: ReliefSurface) -> (point: ScreenPoint, depth: Double, hidden: Bool)? {
        guard let q = relief.screenPoint(worldX: worldX, worldY: worldY) else { return nil }
        let x = Int(q.point.x.rounded(.down)), y = Int(q.point.y.rounded(.down))
        guard x >= 0, y >= 0, x < depth.width, y < depth.height else { return (q.point, q.depth, false) }
        return (q.point, q.depth, !depth.isVisible(x: x, y: y, depth: Float(q.depth), bias: 0.01))
    }

    /// `p` (a flat-map screen point below the horizon) moved to its place on the relief, and
    /// whether the relief hides it there (its depth behind the depth buffer's by more than 1 %).
    func lift(_ p: ScreenPoint, _ g: FrameGeometry, _ relief: ReliefSurface) -> (point: ScreenPoint, hidden: Bool) {
        guard p.y > g.horizonY else { return (p, false) }
        let wp = g.transform.worldPoint(for: p)
        guard let q = place(worldX: wp.x, worldY: wp.y, relief) else { return (p, true) }
        return (q.point, q.hidden)
    }

    /// The placed symbols moved onto the relief; those the relief hides are left out.
    func lift(_ draws: [SymbolDraw], _ g: FrameGeometry) -> [SymbolDraw] {
        var lifted: [SymbolDraw] = []
        lifted.reserveCapacity(draws.count)
        let relief = relief(g)
        func lift(_ p: ScreenPoint, _ g: FrameGeometry) -> (point: ScreenPoint, hidden: Bool) { self.lift(p, g, relief) }
        for draw in draws {
            switch draw {
            case let .icon(image, center, scale, rotation, opacity):
                let l = lift(center, g)
                if !l.hidden { lifted.append(.icon(image, center: l.point, scale: scale, rotation: rotation, opacity: opacity)) }
            case let .groundIcon(image, center, linear, opacity):
                let l = lift(center, g)
                if !l.hidden { lifted.append(.groundIcon(image, center: l.point, linear: linear, opacity: opacity)) }
            case let .sdfIcon(field, size, center, scale, rotation, color, halo, blur, haloColor):
                let l = lift(center, g)
                if !l.hidden {
                    lifted.append(.sdfIcon(field, size: size, center: l.point, scale: scale, rotation: rotation, color: color, halo: halo,
                                           haloBlur: blur, haloColor: haloColor))
                }
            case let .glyphs(glyphs, color, halo, blur, haloColor):
                guard !glyphs.isEmpty, !lift(glyphs[glyphs.count / 2].origin, g).hidden else { continue }
                var moved = glyphs
                for k in moved.indices { moved[k].origin = lift(moved[k].origin, g).point }
                lifted.append(.glyphs(moved, color: color, halo: halo, haloBlur: blur, haloColor: haloColor))
            case let .text(block, font, pixelSize, origin, pivot, cos, sin, color, halo, blur, haloColor):
                let l = lift(origin, g)
                if !l.hidden {
                    lifted.append(.text(block, font: font, pixelSize: pixelSize, origin: l.point, pivot: pivot, cos: cos, sin: sin,
                                        color: color, halo: halo, haloBlur: blur, haloColor: haloColor))
                }
            }
        }
        return lifted
    }
}

/// The relief's triangles and how they are rasterised (``TerrainDrape``): a grid of
/// ``columns`` × ``rows`` vertices, one every ``step`` texture pixels from texture row ``top``.
struct DrapeMesh: Sendable {
    let step: Int
    /// Frame width in pixels.
    let width: Int
    let textureWidth: Int
    let textureHeight: Int
    let marginX: Int
    let marginTop: Int
    /// Vertices: screen x, y, depth (nan: behind the near limit), row by row (their texture
    /// coordinates are the grid's own, from the row and column).
    var vertices: [SIMD4<Float>] = []
    /// Per vertex, when ``attributes`` is `.ground`: its ground point in world points (at the
    /// frame's `worldSize`, x east, y south) from the camera centre; else empty.
    var ground: [SIMD2<Float>] = []
    /// What the raster interpolates across the triangles.
    var attributes = Attributes.texture
    /// Shade one bilinear layer over a one-colour background through ``OneLayerGround`` (off:
    /// ``GroundRasters``, for tests; the pixels are the same, tested).
    var specialisesOneLayer = true

    /// The per-pixel attributes of the raster (``DrapeOutput/uv``).
    enum Attributes: Equatable {
        /// Texture coordinates (texture pixels): the shading samples the texture.
        case texture
        /// The ground point (``ground``) of the facet seen (exact on the flat triangle, where
        /// texture coordinates interpolate the texture's projection linearly), over a texture
        /// that is `background` (premultiplied) wherever the relief samples it.
        case ground(background: UInt32)
    }
    var columns = 0
    var rows = 0
    /// The texture row of vertex row 0 (the horizon's).
    var top = 0

    init(step: Int, width: Int, textureWidth: Int, textureHeight: Int, marginX: Int, marginTop: Int) {
        self.step = step; self.width = width; self.textureWidth = textureWidth; self.textureHeight = textureHeight
        self.marginX = marginX; self.marginTop = marginTop
    }

    /// Rasterises every mesh triangle into rows `rows` of the depth buffer (and the texture
    /// coordinates), marking in `marks` (one byte per grid cell) the cells whose triangles kept a
    /// pixel, and in `sky` (per row) the span of the pixels left uncovered.
    func rasterize(rows: Range<Int>, _ out: DrapeOutput, marks: UnsafeMutablePointer<UInt8>, sky: UnsafeMutablePointer<SIMD2<Int32>>) {
        let w = width
        for k in (rows.lowerBound * w)..<(rows.upperBound * w) { out.depth[k] = .infinity }
        let columns = self.columns
        if self.rows >= 2 && columns >= 2 {
            let tw = Float(textureWidth), th = Float(textureHeight), s = Float(step), top = Float(top)
            let onGround = attributes != .texture
            for j in 0..<(self.rows - 1) {
                let v0 = min(th, top + Float(j) * s), v1 = min(th, top + Float(j + 1) * s)
                for i in 0..<(columns - 1) {
                    let a = vertices[j * columns + i], b = vertices[j * columns + i + 1]
                    let c = vertices[(j + 1) * columns + i], d = vertices[(j + 1) * columns + i + 1]
                    let u0 = min(tw, Float(i) * s), u1 = min(tw, Float(i + 1) * s)
                    var ta = SIMD2(u0, v0), tb = SIMD2(u1, v0), tc = SIMD2(u0, v1), td = SIMD2(u1, v1)
                    if onGround {
                        ta = ground[j * columns + i]; tb = ground[j * columns + i + 1]
                        tc = ground[(j + 1) * columns + i]; td = ground[(j + 1) * columns + i + 1]
                    }
                    var kept = false
                    if !a.z.isNaN && !b.z.isNaN && !c.z.isNaN {
                        kept = triangle(a, ta, b, tb, c, tc, rows: rows, out)
                    }
                    if !b.z.isNaN && !d.z.isNaN && !c.z.isNaN {
                        if triangle(b, tb, d, td, c, tc, rows: rows, out) { kept = true }
                    }
                    if kept { marks[j * (columns - 1) + i] = 1 }
                }
            }
        }
        for y in rows {
            var lo = w, hi = -1
            for x in 0..<w where !out.depth[y * w + x].isFinite {
                if lo == w { lo = x }
                hi = x
            }
            sky[y] = hi >= lo ? SIMD2(Int32(lo), Int32(hi + 1)) : SIMD2(Int32(w), 0)
        }
    }

    /// The texture pixels the shading reads (see ``TerrainDrape/rasterize(bands:)``): the bands'
    /// cell marks are merged; a marked cell needs its texels and 2 more on every side (bilinear
    /// neighbours, with room for rounding); a row of uncovered screen pixels needs its own texels.
    func region(cells: [UInt8], bands: Int, sky: [SIMD2<Int32>]) -> TextureRegion {
        let th = textureHeight, tw = textureWidth
        var spans = [SIMD2<Int32>](repeating: SIMD2(Int32(tw), 0), count: th)
        var lowRow = th, highRow = 0
        func include(rows r0: Int, _ r1: Int, columns c0: Int, _ c1: Int) {
            let r0 = max(0, r0), r1 = min(th, r1), c0 = Int32(max(0, c0)), c1 = Int32(min(tw, c1))
            guard r0 < r1, c0 < c1 else { return }
            lowRow = min(lowRow, r0); highRow = max(highRow, r1)
            for r in r0..<r1 { spans[r] = SIMD2(min(spans[r].x, c0), max(spans[r].y, c1)) }
        }
        let cellColumns = max(0, columns - 1), cellRows = max(0, rows - 1), count = cellColumns * cellRows
        for j in 0..<cellRows {
            for i in 0..<cellColumns {
                var marked = false
                for b in 0..<bands where cells[b * count + j * cellColumns + i] != 0 { marked = true; break }
                guard marked else { continue }
                include(rows: top + j * step - 2, top + (j + 1) * step + 2, columns: i * step - 2, (i + 1) * step + 2)
            }
        }
        for (y, s) in sky.enumerated() where s.x < s.y {
            include(rows: y + marginTop, y + marginTop + 1, columns: Int(s.x) + marginX, Int(s.y) + marginX)
        }
        for r in 0..<th where spans[r].x >= spans[r].y { spans[r] = SIMD2(0, 0) }
        return TextureRegion(rows: lowRow < highRow ? lowRow..<highRow : 0..<0, spans: spans)
    }

    /// One triangle (screen x, y, depth in `.x .y .z`; texture coordinates `ta`, `tb`, `tc`),
    /// pixel centres inside or on an edge, nearest depth kept.
    ///
    /// Coverage uses edge functions on vertices snapped to 1/256 pixel, in integers stepped
    /// exactly along each row: two triangles sharing an edge compute the same values there with
    /// opposite signs, so no pixel centre falls between them (and one on the edge is in both).
    /// The interpolated 1/W, u/W and v/W are affine in screen space: evaluated at the row's first
    /// pixel, then stepped. The depth test compares 1/W with the stored depth, so hidden pixels
    /// cost no division.
    @inline(__always)
    func triangle(_ a: SIMD4<Float>, _ ta: SIMD2<Float>, _ b: SIMD4<Float>, _ tb: SIMD2<Float>, _ c: SIMD4<Float>,
                  _ tc: SIMD2<Float>, rows: Range<Int>, _ out: DrapeOutput) -> Bool {
        let w = width
        // A quick rejection with a pixel to spare (the exact bounds come from the snapped vertices).
        guard min(a.y, b.y, c.y) < Float(rows.upperBound) + 1, max(a.y, b.y, c.y) > Float(rows.lowerBound) - 1,
              min(a.x, b.x, c.x) < Float(w) + 1, max(a.x, b.x, c.x) > -1 else { return false }
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        guard area != 0, area.isFinite else { return false }
        let limit: Float = 1_048_576   // 2^20 pixels
        guard max(abs(a.x), abs(a.y), abs(b.x), abs(b.y), abs(c.x), abs(c.y)) < limit else {
            return triangleInFloat(a, ta, b, tb, c, tc, rows: rows, out)
        }
        // Fixed point, 8 bits of sub-pixel.
        let ax = Int64((a.x * 256).rounded()), ay = Int64((a.y * 256).rounded())
        let bx = Int64((b.x * 256).rounded()), by = Int64((b.y * 256).rounded())
        let cx = Int64((c.x * 256).rounded()), cy = Int64((c.y * 256).rounded())
        let fixedArea = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        guard fixedArea != 0 else { return false }
        // The pixel centres the snapped triangle can cover (exact: the snapped coordinates are
        // multiples of 1/256 below 2^20, exact in a Double).
        func first(_ v: Int64) -> Int { Int((Double(v) / 256 - 0.5).rounded(.up)) }
        func last(_ v: Int64) -> Int { Int((Double(v) / 256 - 0.5).rounded(.down)) }
        let minY = max(rows.lowerBound, first(min(ay, by, cy))), maxY = min(rows.upperBound - 1, last(max(ay, by, cy)))
        let minX = max(0, first(min(ax, bx, cx))), maxX = min(w - 1, last(max(ax, bx, cx)))
        guard minY <= maxY, minX <= maxX else { return false }
        let sign: Int64 = fixedArea > 0 ? 1 : -1
        // Edge function opposite each vertex and its step per pixel along a row.
        let stepA = (by - cy) * 256 * sign, stepB = (cy - ay) * 256 * sign, stepC = (ay - by) * 256 * sign
        let inv = 1 / area
        let ia = 1 / a.z, ib = 1 / b.z, ic = 1 / c.z
        let ua = ta * ia, ub = tb * ib, uc = tc * ic
        let ga = (b.y - c.y) * inv, gb = (c.y - a.y) * inv, gc = (a.y - b.y) * inv
        let stepIZ = ga * ia + gb * ib + gc * ic
        let stepT = ua * ga + ub * gb + uc * gc
        // The edge functions at the first row's pixel minX, and their steps per row (exact).
        let py0 = Int64(minY) * 256 + 128, px = Int64(minX) * 256 + 128
        let a0 = ((bx - px) * (cy - py0) - (by - py0) * (cx - px)) * sign
        let b0 = ((cx - px) * (ay - py0) - (cy - py0) * (ax - px)) * sign
        let c0 = ((ax - px) * (by - py0) - (ay - py0) * (bx - px)) * sign
        let rowA = (cx - bx) * 256 * sign, rowB = (ax - cx) * 256 * sign, rowC = (bx - ax) * 256 * sign
        // The outputs in locals: the stores through them cannot change them (`out` itself may
        // live in memory the compiler would otherwise reload after every store).
        let depth = out.depth, uv = out.uv
        var kept = false
        rowLoop: for y in minY...maxY {
            let dy = Int64(y - minY)
            var ea = a0 + dy * rowA, eb = b0 + dy * rowB, ec = c0 + dy * rowC
            // The row's first pixel inside, exactly: an edge still negative at minX is crossed
            // after ⌈−e / step⌉ pixels if it rises along the row, never if it does not.
            var start = minX
            if ea < 0 { guard stepA > 0 else { continue rowLoop }; start = max(start, minX + Int((-ea + stepA - 1) / stepA)) }
            if eb < 0 { guard stepB > 0 else { continue rowLoop }; start = max(start, minX + Int((-eb + stepB - 1) / stepB)) }
            if ec < 0 { guard stepC > 0 else { continue rowLoop }; start = max(start, minX + Int((-ec + stepC - 1) / stepC)) }
            guard start <= maxX else { continue }
            let skipped = Int64(start - minX)
            ea &+= skipped * stepA; eb &+= skipped * stepB; ec &+= skipped * stepC
            // And its last pixel inside: an edge falling along the row stays ≥ 0 for ⌊e / −step⌋
            // more pixels (an edge already negative at `start` leaves the row empty). The span
            // between is exactly the pixels the edge tests would pass, the triangle being convex.
            var end = maxX
            if stepA < 0 { guard ea >= 0 else { continue rowLoop }; end = min(end, start + Int(ea / -stepA)) }
            if stepB < 0 { guard eb >= 0 else { continue rowLoop }; end = min(end, start + Int(eb / -stepB)) }
            if stepC < 0 { guard ec >= 0 else { continue rowLoop }; end = min(end, start + Int(ec / -stepC)) }
            let pyf = Float(y) + 0.5, pxf = Float(start) + 0.5
            let wa = ((b.x - pxf) * (c.y - pyf) - (b.y - pyf) * (c.x - pxf)) * inv
            let wb = ((c.x - pxf) * (a.y - pyf) - (c.y - pyf) * (a.x - pxf)) * inv
            let wc = 1 - wa - wb
            var iz = wa * ia + wb * ib + wc * ic
            var t = ua * wa + ub * wb + uc * wc
            var k = y * w + start
            for _ in start...end {
                if iz * depth[k] > 1 {
                    let z = 1 / iz
                    depth[k] = z
                    uv[k] = t * z
                    kept = true
                }
                iz += stepIZ; t += stepT; k &+= 1
            }
        }
        return kept
    }

    /// ``triangle(_:_:_:_:_:_:rows:_:)`` in floating point, for a triangle with a vertex too far
    /// off the frame for the fixed-point edges (more than 2^20 pixels).
    func triangleInFloat(_ a: SIMD4<Float>, _ ta: SIMD2<Float>, _ b: SIMD4<Float>, _ tb: SIMD2<Float>, _ c: SIMD4<Float>,
                  _ tc: SIMD2<Float>, rows: Range<Int>, _ out: DrapeOutput) -> Bool {
        let w = width
        let minY = max(rows.lowerBound, Int((min(a.y, b.y, c.y) - 0.5).rounded(.up)))
        let maxY = min(rows.upperBound - 1, Int((max(a.y, b.y, c.y) - 0.5).rounded(.down)))
        guard minY <= maxY else { return false }
        let minX = max(0, Int((min(a.x, b.x, c.x) - 0.5).rounded(.up)))
        let maxX = min(w - 1, Int((max(a.x, b.x, c.x) - 0.5).rounded(.down)))
        guard minX <= maxX else { return false }
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        guard area != 0, area.isFinite else { return false }
        let inv = 1 / area
        let ia = 1 / a.z, ib = 1 / b.z, ic = 1 / c.z
        let ua = ta * ia, ub = tb * ib, uc = tc * ic
        // Barycentric weights (signed areas over the whole) are affine in the pixel centre
        // (px, py): wa = (ka + px·(b.y − c.y) + py·(c.x − b.x)) / area, wb likewise with c, a;
        // this form bounds each row's span.
        let ka = b.x * c.y - b.y * c.x, kb = c.x * a.y - c.y * a.x
        let dxa = (b.y - c.y) * inv, dxb = (c.y - a.y) * inv
        var kept = false
        for y in minY...maxY {
            let py = Float(y) + 0.5
            let ra = (ka + py * (c.x - b.x)) * inv, rb = (kb + py * (a.x - c.x)) * inv
            // The row's span where the three weights are ≥ 0, widened by a pixel for rounding
            // (each pixel is still tested below).
            var lo = Float(minX) + 0.5, hi = Float(maxX) + 0.5
            Self.clip(ra, dxa, &lo, &hi)
            Self.clip(rb, dxb, &lo, &hi)
            Self.clip(1 - ra - rb, -dxa - dxb, &lo, &hi)
            // (A row whose span is empty only by rounding keeps it; the bounds are finite here.)
            guard lo <= hi + 2 else { continue }
            let x0 = Int(max(lo - 1.5, Float(minX)).rounded(.down)), x1 = Int(min(hi + 0.5, Float(maxX)).rounded(.up))
            guard x0 <= x1 else { continue }
            for x in x0...x1 {
                let px = Float(x) + 0.5
                // The weights as signed areas, so that two triangles sharing an edge compute the
                // same products with opposite signs there: no pixel falls between them.
                let wa = ((b.x - px) * (c.y - py) - (b.y - py) * (c.x - px)) * inv
                let wb = ((c.x - px) * (a.y - py) - (c.y - py) * (a.x - px)) * inv
                let wc = 1 - wa - wb
                guard wa >= 0, wb >= 0, wc >= 0 else { continue }
                let iz = wa * ia + wb * ib + wc * ic
                let k = y * w + x
                // z = 1/iz nearer than the stored depth, without dividing for hidden pixels.
                guard iz * out.depth[k] > 1 else { continue }
                let z = 1 / iz
                out.depth[k] = z
                kept = true
                let t = (ua * wa + ub * wb + uc * wc) * z
                out.uv[k] = t
            }
        }
        return kept
    }

    /// Narrows [`lo`, `hi`] (pixel-centre x) to where `r + d·x ≥ 0`.
    @inline(__always)
    static func clip(_ r: Float, _ d: Float, _ lo: inout Float, _ hi: inout Float) {
        if d > 0 { lo = max(lo, -r / d) } else if d < 0 { hi = min(hi, -r / d) } else if r < 0 { hi = -.infinity }
    }

    /// Colours rows `rows`: the texture sampled where the relief is, then `rasters` sampled at
    /// the pixel's ground point over it (the layers the texture left out), then the fog; else the
    /// texture's own pixel (the sky).
    func shade(rows: Range<Int>, _ out: DrapeOutput, fog: Fog, rasters: ReliefRasters?) {
        let texture = TextureSampler(out, width: textureWidth, height: textureHeight)
        guard let rasters else {
            var plain = PlainTexture(texture: texture)
            return shade(rows: rows, out, fog: fog, &plain)
        }
        if case .ground(let background) = attributes {
            var ground = GroundRasters(out: out, background: background, sampler: ReliefRasters.Sampler(rasters))
            if specialisesOneLayer && rasters.layers.count == 1 && !rasters.layers[0].paint.nearest {
                var one = OneLayerGround(ground)
                shade(rows: rows, out, fog: fog, &one)
            } else {
                shade(rows: rows, out, fog: fog, &ground)
            }
        } else {
            var over = TextureRasters(texture: texture, sampler: ReliefRasters.Sampler(rasters))
            shade(rows: rows, out, fog: fog, &over)
        }
    }

    /// ``shade(rows:_:fog:rasters:)`` with `pixels` giving the covered pixels' colours and the
    /// uncovered pixels over the flat ground (one loop, specialised for each kind).
    @inline(__always)
    private func shade<P: ReliefPixels>(rows: Range<Int>, _ out: DrapeOutput, fog: Fog, _ pixels: inout P) {
        let w = width
        for y in rows {
            let row = out.view.row(y)
            // Below the flat horizon, an uncovered pixel shows the flat map (the relief in front
            // of the camera nearer than the near limit, or the flat ground under a valley's skyline).
            let flatGround = y + marginTop >= top
            var x = 0
            while x < w {
                let k = y * w + x
                if x + 4 <= w, let four = pixels.four(k, out, fog: fog) {
                    UnsafeMutableRawPointer(row + x).storeBytes(of: four, as: SIMD4<UInt32>.self)
                    x += 4
                    continue
                }
                let z = out.depth[k]
                row[x] = z.isFinite ? fog.over(pixels.covered(k), depth: z)
                    : uncovered(x: x, y: y, flatGround: flatGround, out.texture, &pixels)
                x += 1
            }
        }
    }
}

extension DrapeMesh {
    /// Screen pixel (`x`, `y`), which the relief leaves uncovered: the texture's own pixel (the
    /// sky), or below the flat horizon (`flatGround`) the flat map there with the layers the
    /// texture left out.
    @inline(__always)
    private func uncovered<P: ReliefPixels>(x: Int, y: Int, flatGround: Bool, _ texture: UnsafePointer<UInt32>,
                                            _ pixels: inout P) -> UInt32 {
        let own = texture[(y + marginTop) * textureWidth + x + marginX]
        return flatGround ? pixels.flat(own, u: Double(x + marginX) + 0.5, v: Double(y + marginTop) + 0.5) : own
    }
}

/// The texture at a relief pixel's texture coordinates: bilinear between texel centres, clamped
/// at the texture's edges.
struct TextureSampler {
    let out: DrapeOutput
    let width: Int, height: Int

    init(_ out: DrapeOutput, width: Int, height: Int) { self.out = out; self.width = width; self.height = height }

    @inline(__always)
    func sample(_ k: Int) -> UInt32 {
        let tw = width, th = height, tex = out.texture
        let t = out.uv[k]
        let fx = min(max(t.x - 0.5, 0), Float(tw - 1)), fy = min(max(t.y - 0.5, 0), Float(th - 1))
        let x0 = Int(fx), y0 = Int(fy)
        let x1 = min(x0 + 1, tw - 1), y1 = min(y0 + 1, th - 1)
        let au = UInt32((fx - Float(x0)) * 256), av = UInt32((fy - Float(y0)) * 256)
        return bilinear(tex[y0 * tw + x0], tex[y0 * tw + x1], tex[y1 * tw + x0], tex[y1 * tw + x1], au, av)
    }
}

/// What the relief's shading draws at a pixel (``DrapeMesh/shade(rows:_:fog:rasters:)``).
protocol ReliefPixels {
    /// Covered pixel `k`, before the fog.
    mutating func covered(_ k: Int) -> UInt32
    /// An uncovered pixel below the flat horizon: the texture's own pixel `own` there, with the
    /// layers the texture left out at texture coordinates (`u`, `v`).
    mutating func flat(_ own: UInt32, u: Double, v: Double) -> UInt32
    /// Pixels `k ..< k + 4` of one row, fog included, when they can be computed together (all
    /// covered, and whatever else the kind needs): exactly the four pixels `covered` and
    /// ``Fog/over(_:depth:)`` give one by one. Nil: shade them one by one.
    mutating func four(_ k: Int, _ out: DrapeOutput, fog: Fog) -> SIMD4<UInt32>?
}

extension ReliefPixels {
    @inline(__always) func four(_ k: Int, _ out: DrapeOutput, fog: Fog) -> SIMD4<UInt32>? { nil }
}

/// The texture alone.
struct PlainTexture: ReliefPixels {
    let texture: TextureSampler
    @inline(__always) func covered(_ k: Int) -> UInt32 { texture.sample(k) }
    @inline(__always) func flat(_ own: UInt32, u: Double, v: Double) -> UInt32 { own }
}

/// Raster layers over the texture (or its one-colour background), at the ground point of each
/// pixel's texture coordinates.
struct TextureRasters: ReliefPixels {
    let texture: TextureSampler
    var sampler: ReliefRasters.Sampler
    @inline(__always) mutating func covered(_ k: Int) -> UInt32 {
        let t = texture.out.uv[k]
        return sampler.overlay(sampler.rasters.background ?? texture.sample(k), u: Double(t.x), v: Double(t.y))
    }
    @inline(__always) mutating func flat(_ own: UInt32, u: Double, v: Double) -> UInt32 { sampler.overlay(own, u: u, v: v) }
}

/// Raster layers over a one-colour background, at the ground points the raster interpolated.
struct GroundRasters: ReliefPixels {
    let out: DrapeOutput
    let background: UInt32
    var sampler: ReliefRasters.Sampler
    @inline(__always) mutating func covered(_ k: Int) -> UInt32 {
        let g = out.uv[k]
        return sampler.overlay(background, groundX: g.x, groundY: g.y)
    }
    @inline(__always) mutating func flat(_ own: UInt32, u: Double, v: Double) -> UInt32 { sampler.overlay(own, u: u, v: v) }
}

/// ``GroundRasters`` for the commonest terrain frame: one bilinear `raster` or `hillshade` layer
/// over a one-colour background. The same pixels, computed the same way (tested against
/// ``GroundRasters``), with the held tile's frame (``ReliefRasters/LayerSampler``) unpacked into
/// plain fields, so the shading loop keeps the per-pixel work in registers; a point outside the
/// held tile goes through the sampler's lookup.
struct OneLayerGround: ReliefPixels {
    let out: DrapeOutput
    let background: UInt32
    let paint: RasterPaint
    var sampler: ReliefRasters.Sampler
    /// The held tile: its pixels and side, its side as a Double, its corner (a ground point) and
    /// its pixels per world point.
    var tile: UnsafePointer<UInt32>?
    var side = 0
    var size = 0.0, cornerX = 0.0, cornerY = 0.0, perPoint = 0.0

    /// Whether four pixels inside the held tile are shaded together (``four(_:_:fog:)``): the
    /// paint changes no colour and no opacity (a hillshade's always), so a sample is blended
    /// as it is.
    let lanes: Bool

    init(_ ground: GroundRasters) {
        out = ground.out; background = ground.background; sampler = ground.sampler
        paint = sampler.first.paint
        lanes = paint.isIdentity && paint.opacity == 255
        hold()
    }

    private mutating func hold() {
        let layer = sampler.first
        tile = layer.held?.pixels; side = layer.held?.size ?? 0; size = layer.size
        cornerX = layer.cornerX; cornerY = layer.cornerY; perPoint = layer.pixelsPerPoint
    }

    @inline(__always) mutating func covered(_ k: Int) -> UInt32 {
        let g = out.uv[k]
        let sx = (Double(g.x) - cornerX) * perPoint, sy = (Double(g.y) - cornerY) * perPoint
        if let tile, sx >= 0 && sx < size && sy >= 0 && sy < size {
            return paint.blend(RasterSampling.bilinear(tile, side, sx, sy), over: background)
        }
        let p = sampler.first.find(background, g.x, g.y, sampler.rasters)
        hold()
        return p
    }

    @inline(__always) mutating func flat(_ own: UInt32, u: Double, v: Double) -> UInt32 { sampler.overlay(own, u: u, v: v) }

    /// Four covered pixels whose ground points all fall inside the held tile: ``covered(_:)``'s
    /// sample and blend (``RasterPaint/blend(_:over:)`` with no colour change: the sample where
    /// opaque, the background where clear, source-over between) in lanes, then the fog.
    @inline(__always) func four(_ k: Int, _ out: DrapeOutput, fog: Fog) -> SIMD4<UInt32>? {
        guard lanes, let tile else { return nil }
        let z = UnsafeRawPointer(out.depth + k).loadUnaligned(as: SIMD4<Float>.self)
        guard all(z .< .infinity) else { return nil }
        let uv = UnsafeRawPointer(out.uv + k)
        let g01 = uv.loadUnaligned(as: SIMD4<Float>.self), g23 = uv.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
        let gx = SIMD4<Double>(Double(g01[0]), Double(g01[2]), Double(g23[0]), Double(g23[2]))
        let gy = SIMD4<Double>(Double(g01[1]), Double(g01[3]), Double(g23[1]), Double(g23[3]))
        let sx = (gx - cornerX) * perPoint, sy = (gy - cornerY) * perPoint
        guard all((sx .>= 0) .& (sx .< size) .& (sy .>= 0) .& (sy .< size)) else { return nil }
        let p = RasterSampling.bilinear(tile, side, sx, sy)
        let bg = SIMD4<UInt32>(repeating: background)
        let blended = PixelLanes.sourceOver(p, bg).replacing(with: bg, where: p &>> 24 .== 0)
        return fog.over(blended, depth: z)
    }
}

/// Fog over the relief: `color` (premultiplied) blended in by depth, none nearer than `start`
/// points, fully (× the colour's alpha) at `end` (the horizon's depth), smoothstep between.
struct Fog {
    let color: UInt32
    let start: Float
    let opacity: Float
    /// 1 / (`end` − `start`), 0 when the range is empty: the ramp's rate, so a pixel's amount
    /// costs no division.
    private let rate: Float

    init(color: UInt32, start: Float, end: Float, opacity: Float) {
        self.color = color; self.start = start; self.opacity = opacity
        rate = end > start ? 1 / (end - start) : 0
    }

    /// `p` (premultiplied) with the fog at `depth` over it.
    @inline(__always)
    func over(_ p: UInt32, depth: Float) -> UInt32 {
        let f = amount(depth: depth)
        return f > 0 ? scaleAll(p, 256 - f) &+ scaleAll(color, f) : p
    }

    /// ``over(_:depth:)`` of four pixels, lane by lane the same arithmetic (``PixelLanes``).
    @inline(__always)
    func over(_ p: SIMD4<UInt32>, depth: SIMD4<Float>) -> SIMD4<UInt32> {
        guard rate > 0, opacity > 0 else { return p }
        let near = depth .<= start
        if all(near) { return p }
        let t = atMostOne((depth - start) * rate)
        let weight = t * t * (3 - 2 * t) * opacity * 256
        @inline(__always) func lane(_ i: Int) -> UInt32 { near[i] ? 0 : UInt32(weight[i]) }
        let f = SIMD4(lane(0), lane(1), lane(2), lane(3))
        return PixelLanes(p).scaledAll(by: PixelLanes.spread(256 &- f)).packed
            &+ PixelLanes(SIMD4(repeating: color)).scaledAll(by: PixelLanes.spread(f)).packed
    }

    /// The fog's weight at `depth`, 0…256.
    @inline(__always)
    func amount(depth: Float) -> UInt32 {
        guard depth > start, rate > 0, opacity > 0 else { return 0 }
        let t = min(1, (depth - start) * rate)
        return UInt32(t * t * (3 - 2 * t) * opacity * 256)
    }
}

/// Raster and hillshade layers the relief samples at each covered pixel's ground point
/// (``TerrainDrape/directLayers(zoom:)``): their paint and tiles, in drawing order, and the
/// texture's inverse homography, which takes a pixel's texture coordinates to its ground point.
struct ReliefRasters: @unchecked Sendable {
    struct Layer {
        var paint: RasterPaint
        var tiles: RasterFrame.LayerTiles
    }
    var inverse: InverseHomography
    var layers: [Layer]

    /// Samples the layers for one band of rows (its own tile lookups).
    struct Sampler {
        let rasters: ReliefRasters
        /// The first layer has its own lookup (most frames have one layer); the rest share a loop.
        var first: LayerSampler
        var others: [LayerSampler]

        init(_ rasters: ReliefRasters) {
            self.rasters = rasters
            first = LayerSampler(rasters.layers[0])
            others = rasters.layers.dropFirst().map { LayerSampler($0) }
        }

        /// `p` with the layers over it, sampled at the ground point of texture coordinates (`u`, `v`).
        @inline(__always)
        mutating func overlay(_ p: UInt32, u: Double, v: Double) -> UInt32 {
            let inv = rasters.inverse
            guard let at = RasterPoint(inv, u: u - inv.originX, v: v - inv.originY) else { return p }
            var p = first.overlay(p, at: at)
            for l in 0..<others.count { p = others[l].overlay(p, at: at) }
            return p
        }

        /// `p` with the layers over it, sampled at ground point (`gx`, `gy`) (world points from
        /// the camera centre, ``DrapeMesh/ground``).
        @inline(__always)
        mutating func overlay(_ p: UInt32, groundX gx: Float, groundY gy: Float) -> UInt32 {
            var p = first.overlay(p, gx, gy, rasters)
            for l in 0..<others.count { p = others[l].overlay(p, gx, gy, rasters) }
            return p
        }
    }

    /// One layer's sampling. Ground points are sampled in the frame of the last tile found: while
    /// they fall inside it, and no finer tile of the frame lies under it (so the lookup would find
    /// it again), a point's tile pixel position is two subtractions and two multiplications from
    /// the ground point, with no unit Mercator point and no lookup; the sample itself is the same
    /// ``RasterPaint/sample(_:_:_:)``.
    struct LayerSampler {
        let paint: RasterPaint
        var lookup: RasterLookup
        /// The tile held for ground points (nil: none), its corner as a ground point, and its
        /// pixels per world point.
        var held: RasterLookup.Hit?
        var cornerX = 0.0, cornerY = 0.0, pixelsPerPoint = 0.0, size = 0.0

        init(_ layer: Layer) {
            paint = layer.paint
            lookup = RasterLookup(layer.tiles)
        }

        /// `p` with the layer over it, sampled at map point `at`.
        @inline(__always)
        mutating func overlay(_ p: UInt32, at: RasterPoint) -> UInt32 {
            guard let hit = lookup.find(at.x, at.y) else { return p }
            return blend(hit, at, over: p)
        }

        /// `p` with tile `hit` over it, sampled at tile pixel (`sx`, `sy`).
        @inline(__always)
        func blend(_ hit: RasterLookup.Hit, _ sx: Double, _ sy: Double, over p: UInt32) -> UInt32 {
            paint.blend(paint.sample(hit, sx, sy), over: p)
        }

        /// `p` with tile `hit` over it, sampled at map point `at`.
        @inline(__always)
        func blend(_ hit: RasterLookup.Hit, _ at: RasterPoint, over p: UInt32) -> UInt32 {
            blend(hit, at.x * hit.scale - hit.originX, at.y * hit.scale - hit.originY, over: p)
        }

        /// `p` with the layer over it, sampled at ground point (`gx`, `gy`).
        @inline(__always)
        mutating func overlay(_ p: UInt32, _ gx: Float, _ gy: Float, _ rasters: ReliefRasters) -> UInt32 {
            if let hit = held {
                let sx = (Double(gx) - cornerX) * pixelsPerPoint, sy = (Double(gy) - cornerY) * pixelsPerPoint
                if sx >= 0 && sx < size && sy >= 0 && sy < size { return blend(hit, sx, sy, over: p) }
            }
            return find(p, gx, gy, rasters)
        }

        /// ``overlay(_:_:_:_:)`` through the unit Mercator point and the lookup, holding the tile
        /// found when nothing finer lies under it.
        @inline(never)
        mutating func find(_ p: UInt32, _ gx: Float, _ gy: Float, _ rasters: ReliefRasters) -> UInt32 {
            held = nil
            let unitX = (rasters.groundOrigin.x + Double(gx)) * rasters.unitsPerWorldPoint
            guard let at = RasterPoint(unitX: unitX, unitY: (rasters.groundOrigin.y + Double(gy)) * rasters.unitsPerWorldPoint, iw: 0),
                  let hit = lookup.find(at.x, at.y) else { return p }
            if lookup.lastIsLeaf {
                // The tile's corner in the world copy of the point (x was brought into the primary world).
                let upp = rasters.unitsPerWorldPoint
                held = hit
                cornerX = (hit.originX / hit.scale + (unitX - at.x)) / upp - rasters.groundOrigin.x
                cornerY = hit.originY / hit.scale / upp - rasters.groundOrigin.y
                pixelsPerPoint = hit.scale * upp
                size = Double(hit.size)
            }
            return blend(hit, at, over: p)
        }
    }
    /// The texture's background when it is one colour (``MapRenderer/uniformBackground(zoom:)``):
    /// the base of every covered pixel, read without sampling the texture. Nil: sample it.
    var background: UInt32?
    /// The camera centre in world points, and unit Web Mercator per world point (1 / `worldSize`):
    /// the frame of the ground points the raster interpolates (``DrapeMesh/Attributes/ground(background:)``).
    var groundOrigin: SIMD2<Double>
    var unitsPerWorldPoint: Double
}

/// The per-pixel outputs the raster bands share; each band writes only its rows.
struct DrapeOutput: @unchecked Sendable {
    let depth: UnsafeMutablePointer<Float>
    /// The raster's attributes (``DrapeMesh/Attributes``).
    let uv: UnsafeMutablePointer<SIMD2<Float>>
    let view: PixelBufferView
    /// The texture's pixels.
    let texture: UnsafePointer<UInt32>
}

/// What the texture's renderer draws (``MapRenderer/textureRegion``): rows ``rows``, and in each
/// row `y` its raster layers only in columns `spans[y].x ..< spans[y].y` (the background and the
/// sky fill the rows). The texture's other pixels are left as they were: the relief never reads them.
struct TextureRegion {
    var rows: Range<Int>
    var spans: [SIMD2<Int32>]
}

/// The raster bands' marks: cells (each band its own bytes) and sky spans (each band its rows).
struct MarkOutput: @unchecked Sendable {
    let cells: UnsafeMutablePointer<UInt8>
    let sky: UnsafeMutablePointer<SIMD2<Int32>>
}

/// The mesh vertices the mesh bands share; each band writes only its rows.
struct VertexOutput: @unchecked Sendable {
    let base: UnsafeMutablePointer<SIMD4<Float>>
    /// Nil: the raster carries texture coordinates (``DrapeMesh/ground`` is empty).
    let ground: UnsafeMutablePointer<SIMD2<Float>>?
}
