import FlybyCore
import FlybyData
@testable import FlybyRender
import FlybyTiles
import Testing

/// Features without an id cut by tile edges are labelled once (issue 16, item 6): their pieces
/// in neighbouring tiles are joined by equal properties and a shared cut (``TileStitching``), and
/// their labels are placed on the whole line, so a zoom flight that swaps tiles moves them smoothly.
@Suite struct IdlessLabelTests {
    static let extent: Int32 = 4096

    /// Two zoom-4 tiles side by side (8/5 west, 9/5 east) whose id-less features cross their
    /// shared edge, each written into both tiles with a 256-unit buffer as tile makers do: a street
    /// (line), a park (polygon) and a town (point just west of the edge, so also in the east
    /// tile's buffer). Coordinates are given in the west tile's frame (x ≥ 4096 is the east tile).
    static func twoTiles() -> VectorTileSet {
        let street = [(3000, 2048), (4096 + 1200, 2048)]
        let park = [(3500, 1000), (4096 + 600, 1000), (4096 + 600, 1400), (3500, 1400), (3500, 1000)]
        let town = (4000, 3000)
        func tile(shift: Int32) -> VectorTile {
            func pts(_ list: [(Int, Int)]) -> [TilePoint] {
                list.map { TilePoint(x: min(max(Int32($0.0) - shift, -256), extent + 256), y: Int32($0.1)) }
            }
            let line = VectorTileFeature(type: .lineString, tags: [0, 0],
                                         geometry: TileGeometry(points: pts(street), partStarts: [0, 2]))
            let polygon = VectorTileFeature(type: .polygon, tags: [0, 1],
                                            geometry: TileGeometry(points: pts(park), partStarts: [0, 5], polygonStarts: [0, 1]))
            let point = VectorTileFeature(type: .point, tags: [0, 2],
                                          geometry: TileGeometry(points: pts([town]), partStarts: [0, 1]))
            return VectorTile(layers: [VectorTileLayer(name: "things", version: 2, extent: Int(extent), keys: ["name"],
                                                       values: [.string("Long Street"), .string("Park"), .string("Town")],
                                                       features: [line, polygon, point])])
        }
        return VectorTileSet(sourceID: "t", tiles: [TileID(z: 4, x: 8, y: 5): tile(shift: 0), TileID(z: 4, x: 9, y: 5): tile(shift: extent)],
                             minZoom: 4, maxZoom: 4)
    }

    static func style(_ layers: String) throws -> Style {
        try Style.parse(Array("""
        {"version": 8, "sources": {"t": {"type": "vector", "url": "pmtiles://memory.pmtiles"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}, \(layers)]}
        """.utf8), file: "idless.json")
    }

    static func renderer(_ style: Style, _ set: VectorTileSet, size: Int) throws -> MapRenderer {
        let empty = LoadedSource(id: "t", data: ProjectedSource(FeatureCollection(features: [], name: "t")), promoteId: nil, generateId: false)
        var renderer = try MapRenderer(style: LoadedStyle(style: style, sources: [empty], tileSets: [set]), width: size, height: size)
        renderer.showsOrnaments = false
        renderer.attribution = ""
        return renderer
    }

    /// The labels of each text placed when the shared edge of the two tiles is in the middle of the frame.
    static func labelCounts(_ layers: String) throws -> [String: Int] {
        var renderer = try renderer(try style(layers), twoTiles(), size: 512)
        var frame = PixelBuffer(width: 512, height: 512)
        // lon 22.5 is the tiles' shared edge; zoom 4.4 draws the zoom-4 tiles.
        renderer.render(camera: CameraState(center: LocationCoordinate2D(latitude: 49, longitude: 22.5), zoom: 4.4), into: &frame)
        return renderer.placedSymbolBoxes.reduce(into: [:]) { $0[$1.text, default: 0] += 1 }
    }

    @Test func anIdlessLineCutByATileEdgeHasOneCentredLabel() throws {
        let counts = try Self.labelCounts("""
        {"id": "l", "type": "symbol", "source": "t", "source-layer": "things", "filter": ["==", ["geometry-type"], "LineString"],
         "layout": {"text-field": ["get", "name"], "text-size": 14, "symbol-placement": "line-center"}}
        """)
        #expect(counts == ["Long Street": 1])
    }

    @Test func anIdlessLineCutByATileEdgeHasOnePointLabel() throws {
        let counts = try Self.labelCounts("""
        {"id": "l", "type": "symbol", "source": "t", "source-layer": "things", "filter": ["==", ["geometry-type"], "LineString"],
         "layout": {"text-field": ["get", "name"], "text-size": 14}}
        """)
        #expect(counts == ["Long Street": 1])
    }

    @Test func anIdlessPolygonCutByATileEdgeAndAPointInABufferHaveOneLabelEach() throws {
        let counts = try Self.labelCounts("""
        {"id": "p", "type": "symbol", "source": "t", "source-layer": "things", "filter": ["!=", ["geometry-type"], "LineString"],
         "layout": {"text-field": ["get", "name"], "text-size": 14}}
        """)
        #expect(counts == ["Park": 1, "Town": 1])
    }

    /// Only pieces that meet at the edge with equal properties are one feature: a street of the
    /// same name elsewhere, and a street of another name that meets it at the edge, stay apart.
    @Test func idlessPiecesAreJoinedOnlyWhereTheyMeetWithEqualProperties() throws {
        func line(_ a: (Int32, Int32), _ b: (Int32, Int32), name: UInt32) -> VectorTileFeature {
            VectorTileFeature(type: .lineString, tags: [0, name],
                              geometry: TileGeometry(points: [TilePoint(x: a.0, y: a.1), TilePoint(x: b.0, y: b.1)], partStarts: [0, 2]))
        }
        func layer(_ features: [VectorTileFeature]) -> VectorTileLayer {
            VectorTileLayer(name: "roads", version: 2, extent: 4096, keys: ["name"], values: [.string("A"), .string("B")], features: features)
        }
        // West tile: A ends on the east edge at y 1000, A again at y 3000. East tile: A starts at
        // y 1000 (the same street), B starts at y 3000 (another street meeting the second A).
        let west = TilePiece(layer: layer([line((3000, 1000), (4300, 1000), name: 0), line((3000, 3000), (4300, 3000), name: 0)]),
                             tile: TileID(z: 4, x: 8, y: 5))
        let east = TilePiece(layer: layer([line((-200, 1000), (1000, 1000), name: 0), line((-200, 3000), (1000, 3000), name: 1)]),
                             tile: TileID(z: 4, x: 9, y: 5))
        let joined = TiledSourceFrame.join([west, east], tiles: [TileID(z: 4, x: 8, y: 5), TileID(z: 4, x: 9, y: 5)], promoteId: nil)
        #expect(joined.data.features.count == 3, "A at y 1000 joined; A at y 3000 and B apart")
        let labels = try #require(joined.labels)
        let level = joined.data.level(forZoom: 4)
        #expect(level.rings(ofFeature: 0).count == 2 && labels.rings(ofFeature: 0).count == 1, "the joined street chains into one part")
        #expect(labels.points(ofRing: labels.rings(ofFeature: 0).lowerBound).count == 3, "start, the cut, end")
        #expect(labels.rings(ofFeature: 1).count == 1 && labels.rings(ofFeature: 2).count == 1)
    }

    /// Zoom 2.6 → 4.4 over an id-less street from 6° W to 12° E along 45° N, written into every
    /// tile of zooms 2…5 it crosses: the street is cut at 0° at every zoom and at more edges as the
    /// tiles get finer. Its `line-center` label is placed once in every frame, at the street's middle.
    @Test func anIdlessLineLabelStaysAtTheLinesMiddleWhileTileZoomsChange() throws {
        let lat = 45.0, west = -6.0, east = 12.0
        var tiles: [TileID: VectorTile] = [:]
        for z in 2...5 {
            let n = Double(1 << z)
            let uy = WebMercator.unitY(latitude: lat) * n, ty = Int(uy)
            let x0 = WebMercator.unitX(longitude: west) * n, x1 = WebMercator.unitX(longitude: east) * n
            for tx in Int(x0)...Int(x1) {
                func p(_ u: Double) -> TilePoint {
                    TilePoint(x: Int32(((u - Double(tx)) * 4096).rounded()), y: Int32(((uy - Double(ty)) * 4096).rounded()))
                }
                let f = VectorTileFeature(type: .lineString, tags: [0, 0], geometry: TileGeometry(points: [p(x0), p(x1)], partStarts: [0, 2]))
                tiles[TileID(z: z, x: tx, y: ty)] = VectorTile(layers: [VectorTileLayer(name: "roads", version: 2, extent: 4096, keys: ["name"],
                                                                                        values: [.string("Main")], features: [f])])
            }
        }
        let style = try Self.style("""
        {"id": "l", "type": "symbol", "source": "t", "source-layer": "roads",
         "layout": {"text-field": ["get", "name"], "text-size": 14, "symbol-placement": "line-center"}}
        """)
        let size = 512
        var renderer = try Self.renderer(style, VectorTileSet(sourceID: "t", tiles: tiles, minZoom: 2, maxZoom: 5), size: size)
        var frame = PixelBuffer(width: size, height: size)
        var tileZooms = Set<Int>()
        let middle = LocationCoordinate2D(latitude: lat, longitude: (west + east) / 2)
        for step in 0...36 {
            let camera = CameraState(center: middle, zoom: 2.6 + 0.05 * Double(step))
            renderer.render(camera: camera, into: &frame)
            let transform = MapTransform(size: ScreenSize(width: Double(size), height: Double(size)), state: camera)
            tileZooms.formUnion(TileCover.tiles(for: transform, minZoom: 2, maxZoom: 5).map(\.z))
            let placed = renderer.placedSymbolBoxes.filter { $0.text == "Main" }
            try #require(placed.count == 1, "zoom \(camera.zoom): placed \(placed.count) times")
            let anchor = try #require(transform.point(for: middle))
            let (cx, cy) = ((placed[0].minX + placed[0].maxX) / 2, (placed[0].minY + placed[0].maxY) / 2)
            // The glyph chain's box is centred on the anchor up to the rounding of glyph advances.
            #expect(abs(cx - anchor.x) <= 2 && abs(cy - anchor.y) <= 2,
                    "zoom \(camera.zoom): label at (\(cx), \(cy)), the street's middle at (\(anchor.x), \(anchor.y))")
        }
        #expect(tileZooms.isSuperset(of: [2, 3, 4]), "the flight crosses tile zooms: \(tileZooms.sorted())")
    }
}
