import FlybyCore
import FlybyData
@testable import FlybyRender
import FlybyTiles
import Testing

/// Labels of tiled sources through a zoom flight (issue 16, item 6): while tiles of one zoom
/// replace those of another, every label stays placed and moves with its anchor, with no frame
/// where it is missing or jumps; a point that sits in two tiles (one of them in its buffer) is
/// labelled once.
@Suite struct TiledLabelTests {
    /// The labelled places: name, longitude, latitude (far enough apart that no label collides).
    /// C, just west of the meridian, lies within 400 units of its tile's east edge at every zoom
    /// (4073, 4028, 4005, 3914 of 4096 at zooms 2…5), so it is in two tiles at each.
    static let places: [(String, Double, Double)] = [("A", 5, 45), ("B", 11, 45), ("C", -0.5, 45), ("D", 5, 49.5), ("E", 4, 40.5)]

    /// Every tile of zooms 2…5 that holds a place, the place in its tile coordinates (extent
    /// 4096); a place within 400 units of its tile's east edge is also written into the
    /// eastern neighbour's buffer (x < 0), as tile makers do.
    static func tiles() -> [TileID: VectorTile] {
        var features: [TileID: [VectorTileFeature]] = [:]
        for z in 2...5 {
            let n = Double(1 << z)
            for (i, (_, lng, lat)) in places.enumerated() {
                let ux = WebMercator.unitX(longitude: lng) * n, uy = WebMercator.unitY(latitude: lat) * n
                let (x, y) = (Int(ux), Int(uy))
                let px = Int32(((ux - Double(x)) * 4096).rounded()), py = Int32(((uy - Double(y)) * 4096).rounded())
                func feature(_ px: Int32) -> VectorTileFeature {
                    VectorTileFeature(id: UInt64(i + 1), type: .point, tags: [0, UInt32(i)],
                                      geometry: TileGeometry(points: [TilePoint(x: px, y: py)], partStarts: [0, 1]))
                }
                features[TileID(z: z, x: x, y: y), default: []].append(feature(px))
                if px > 4096 - 400 { features[TileID(z: z, x: x + 1, y: y), default: []].append(feature(px - 4096)) }
            }
        }
        let values = places.map { VectorTileValue.string($0.0) }
        return features.mapValues { VectorTile(layers: [VectorTileLayer(name: "places", version: 2, extent: 4096, keys: ["name"], values: values, features: $0)]) }
    }

    static let styleJSON = """
    {"version": 8, "sources": {"t": {"type": "vector", "url": "pmtiles://memory.pmtiles"}},
     "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                {"id": "names", "type": "symbol", "source": "t", "source-layer": "places",
                 "layout": {"text-field": ["get", "name"], "text-size": 14, "text-anchor": "center"},
                 "paint": {"text-color": "#000000"}}]}
    """

    @Test func labelsStayPlacedAndFollowTheirAnchorsWhileTileZoomsChange() throws {
        let style = try Style.parse(Array(Self.styleJSON.utf8), file: "labels.json")
        let set = VectorTileSet(sourceID: "t", tiles: Self.tiles(), minZoom: 2, maxZoom: 5)
        let loaded = LoadedStyle(style: style, sources: [LoadedSource(id: "t", data: ProjectedSource(FeatureCollection(features: [], name: "t")),
                                                                      promoteId: nil, generateId: false)], tileSets: [set])
        let size = 512
        var renderer = try MapRenderer(style: loaded, width: size, height: size)
        renderer.showsOrnaments = false
        renderer.attribution = ""
        var frame = PixelBuffer(width: size, height: size)
        var tileZooms = Set<Int>()
        // Zoom 2.6 → 4.4 in steps of 0.05, centred on A: tiles of zoom 2, 3 and 4 in turn.
        for step in 0...36 {
            let camera = CameraState(center: LocationCoordinate2D(latitude: 45, longitude: 5), zoom: 2.6 + 0.05 * Double(step), bearing: 7)
            renderer.render(camera: camera, into: &frame)
            tileZooms.formUnion(TileCover.tiles(for: MapTransform(size: ScreenSize(width: Double(size), height: Double(size)), state: camera),
                                                minZoom: 2, maxZoom: 5).map(\.z))
            let boxes = renderer.placedSymbolBoxes
            let transform = MapTransform(size: ScreenSize(width: Double(size), height: Double(size)), state: camera)
            for (name, lng, lat) in Self.places {
                let placed = boxes.filter { $0.text == name }
                try #require(placed.count == 1, "zoom \(camera.zoom): \(name) placed \(placed.count) times")
                let anchor = try #require(transform.point(for: LocationCoordinate2D(latitude: lat, longitude: lng)))
                let box = placed[0]
                let (cx, cy) = ((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2)
                // The box is centred on its anchor (text-anchor center); 1.5 px for the rounding of
                // the glyph advances and the box to whole pixels.
                #expect(abs(cx - anchor.x) <= 1.5 && abs(cy - anchor.y) <= 1.5,
                        "zoom \(camera.zoom): \(name) at (\(cx), \(cy)), anchor (\(anchor.x), \(anchor.y))")
            }
        }
        let inBuffer = Self.tiles().values.flatMap { $0.layers[0].features }.filter { $0.geometry.points[0].x < 0 }.count
        #expect(inBuffer == 5, "C in a neighbour's buffer at zooms 2…5, B at zoom 5 (4005 of 4096)")
        #expect(tileZooms.isSuperset(of: [2, 3, 4]), "the flight crosses tile zooms: \(tileZooms.sorted())")
    }
}
