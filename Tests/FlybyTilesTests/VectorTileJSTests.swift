import FlybyCore
import FlybyData
import FlybyTiles
import Testing

/// The test tiles of mapbox/vector-tile-js: geometry assembly (winding, holes, stacked rings)
/// and two real Mapbox Streets tiles.
@Suite struct VectorTileJSTests {
    static func decode(_ name: String) throws -> VectorTile {
        try VectorTileDecoder.decode(try TileFixtures.bytes("vector-tile-js/\(name)"))
    }

    static let all = ["12-1143-1497.vector.pbf", "14-8801-5371.vector.pbf", "lots-of-tags.vector.pbf", "multi-line.pbf", "multi-point.pbf",
                      "multi-polygon.pbf", "multipolygon-with-closepath.pbf", "multipolygon.pbf", "polygon-with-inner.pbf",
                      "singleton-multi-line.pbf", "singleton-multi-point.pbf", "singleton-multi-polygon.pbf", "stacked-multipolygon.pbf",
                      "zero-line.pbf", "zero-point.pbf", "zero-polygon.pbf"]

    /// Tiles whose encoder broke §4.3.3.3 (ClosePath count ≠ 1, rings without LineTo): they
    /// decode, and the repairs are reported.
    static let repaired: Set<String> = ["12-1143-1497.vector.pbf", "14-8801-5371.vector.pbf", "multipolygon-with-closepath.pbf"]

    @Test(arguments: all)
    func everyTileDecodesAndOnlyTheSloppyOnesNeedRepairs(_ name: String) throws {
        let tile = try Self.decode(name)
        #expect(tile.issues.isEmpty == !Self.repaired.contains(name), "\(tile.issues)")
        for layer in tile.layers { for f in layer.features { _ = layer.geoJSONFeature(f, tile: TileID(z: 0, x: 0, y: 0)) } }
    }

    func geometry(_ name: String) throws -> Geometry {
        let tile = try Self.decode(name)
        let layer = try #require(tile.layer(named: "geojson"))
        return try #require(layer.geoJSONFeature(layer.features[0], tile: TileID(z: 0, x: 0, y: 0))).geometry
    }

    func rounded(_ g: Geometry) -> [[[[Double]]]] {
        func r(_ c: LocationCoordinate2D) -> [Double] { [(c.longitude * 10).rounded() / 10, (c.latitude * 10).rounded() / 10] }
        switch g {
        case .point(let c): return [[[r(c)]]]
        case .multiPoint(let cs), .lineString(let cs): return [[cs.map(r)]]
        case .multiLineString(let ls), .polygon(let ls): return [ls.map { $0.map(r) }]
        case .multiPolygon(let ps): return ps.map { $0.map { $0.map(r) } }
        case .geometryCollection: return []
        }
    }

    @Test func singletonsAreSinglePartGeometries() throws {
        #expect(rounded(try geometry("singleton-multi-point.pbf")) == [[[[1, 2]]]])
        #expect(rounded(try geometry("singleton-multi-line.pbf")) == [[[[1, 2], [3, 4]]]])
        guard case .polygon = try geometry("singleton-multi-polygon.pbf") else { Issue.record("not a Polygon"); return }
        #expect(rounded(try geometry("singleton-multi-polygon.pbf")) == [[[[1, 0], [0, 0], [1, 1], [1, 0]]]])
    }

    @Test func multiPartsStayMulti() throws {
        guard case .multiPoint = try geometry("multi-point.pbf") else { Issue.record("not a MultiPoint"); return }
        guard case .multiLineString = try geometry("multi-line.pbf") else { Issue.record("not a MultiLineString"); return }
        #expect(rounded(try geometry("multi-line.pbf")) == [[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]])
        #expect(rounded(try geometry("multi-polygon.pbf")) == [[[[1, 0], [0, 0], [1, 1], [1, 0]]], [[[-1, -1], [-1, 0], [0, 0], [-1, -1]]]])
    }

    @Test func aNegativeRingIsAHoleOfThePolygonBeforeIt() throws {
        guard case .polygon(let rings) = try geometry("polygon-with-inner.pbf") else { Issue.record("not a Polygon"); return }
        #expect(rings.count == 2)
        #expect(rounded(try geometry("polygon-with-inner.pbf")) == [[[[2, -2], [-2, -2], [-2, 2], [2, 2], [2, -2]], [[-1, 1], [-1, -1], [1, -1], [1, 1], [-1, 1]]]])
    }

    @Test func twoPositiveRingsAreTwoPolygonsEvenWhenNested() throws {
        #expect(rounded(try geometry("stacked-multipolygon.pbf")) == [[[[2, -2], [-2, -2], [-2, 2], [2, 2], [2, -2]]], [[[1, -1], [-1, -1], [-1, 1], [1, 1], [1, -1]]]])
    }

    @Test func theBerlinTileHasItsLayersFeaturesAndCoordinates() throws {
        let tile = try Self.decode("14-8801-5371.vector.pbf")
        #expect(tile.layers.map(\.name) == ["landuse", "waterway", "water", "aeroway", "barrier_line", "building", "landuse_overlay", "tunnel",
                                            "road", "bridge", "admin", "country_label_line", "country_label", "marine_label", "state_label",
                                            "place_label", "water_label", "poi_label", "road_label", "waterway_label"])
        let poi = try #require(tile.layer(named: "poi_label"))
        #expect(poi.features.count == 558)
        let park = poi.features[11]
        #expect(park.id == 3000003150561)
        #expect(poi.properties(of: park)["name"] == .string("Mauerpark"))
        #expect(poi.properties(of: park)["type"] == .string("Park"))
        #expect(park.geometry.points == [TilePoint(x: 3898, y: 1731)])
        let f = try #require(poi.geoJSONFeature(park, tile: TileID(z: 14, x: 8801, y: 5371)))
        guard case .point(let c) = f.geometry else { Issue.record("not a point"); return }
        #expect(abs(c.longitude - 13.402258157730103) < 1e-12)
        #expect(abs(c.latitude - 52.54398925380624) < 1e-12)
        let road = try #require(tile.layer(named: "road"))
        #expect(road.features[656].geometry.points == [TilePoint(x: 1988, y: 306), TilePoint(x: 1808, y: 321), TilePoint(x: 1506, y: 347)])
        let building = try #require(tile.layer(named: "building"))
        #expect(building.features[0].geometry.points == [TilePoint(x: 2039, y: -32), TilePoint(x: 2035, y: -31), TilePoint(x: 2032, y: -31), TilePoint(x: 2032, y: -32)])
    }

    @Test func theZ12WaterFeatureDecodes() throws {
        let water = try #require(try Self.decode("12-1143-1497.vector.pbf").layer(named: "water"))
        #expect(water.features.count > 1)
        #expect(water.features[1].type == .polygon)
        #expect(water.features[1].geometry.polygonCount >= 1)
    }

    @Test func aFeatureWithManyTagsKeepsThemAll() throws {
        let layer = try #require(try Self.decode("lots-of-tags.vector.pbf").layer(named: "stuttgart-rails"))
        #expect(layer.features[0].tags.count > 50)
        #expect(layer.properties(of: layer.features[0]).count == layer.features[0].tags.count / 2)
    }

    @Test func anEmptyBufferIsATileWithoutLayers() throws {
        #expect(try Self.decode("zero-point.pbf").layers.isEmpty)
    }
}
