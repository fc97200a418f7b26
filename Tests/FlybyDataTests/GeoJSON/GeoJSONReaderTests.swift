import FlybyCore
import FlybyData
import Foundation
import Testing

struct BuiltinFileCase: Sendable, CustomTestStringConvertible {
    var name: String
    var count: Int
    var testDescription: String { name }

    static let all: [BuiltinFileCase] = [
        .init(name: "world/ne_110m_admin0_countries.geojson", count: 177),
        .init(name: "world/ne_50m_admin0_countries.geojson", count: 241),
        .init(name: "world/ne_110m_populated_places.geojson", count: 243),
        .init(name: "world/ne_50m_populated_places.geojson", count: 1249),
        .init(name: "world/ne_110m_lakes.geojson", count: 25),
        .init(name: "world/ne_50m_lakes.geojson", count: 405),
        .init(name: "world/ne_110m_rivers.geojson", count: 13),
        .init(name: "world/ne_50m_rivers.geojson", count: 461),
        .init(name: "world/ne_110m_coastline.geojson", count: 134),
        .init(name: "city/helsinki_roads.geojson", count: 2406),
        .init(name: "city/helsinki_buildings.geojson", count: 446),
        .init(name: "city/helsinki_landuse.geojson", count: 259),
        .init(name: "city/helsinki_water.geojson", count: 20),
        .init(name: "city/helsinki_rail.geojson", count: 297),
    ]
}

@Suite struct GeoJSONReaderTests {
    @Test(arguments: BuiltinFileCase.all)
    func builtinFileParsesWithDocumentedCount(_ c: BuiltinFileCase) throws {
        let fc = try BuiltinData.geoJSON(c.name)
        #expect(fc.features.count == c.count)
    }

    @Test func countryGeometryKindsMatchTheREADME() throws {
        let fc = try BuiltinData.geoJSON("world/ne_50m_admin0_countries.geojson")
        var polygons = 0, multi = 0
        for f in fc.features {
            switch f.geometry {
            case .polygon: polygons += 1
            case .multiPolygon: multi += 1
            default: Issue.record("unexpected geometry")
            }
        }
        #expect(polygons == 122 && multi == 119)
        let finland = try #require(fc.features.first { $0.properties["iso_a3"] == .string("FIN") })
        #expect(finland.properties["name"] == .string("Finland"))
        #expect(finland.properties["mapcolor7"]?.doubleValue != nil)
    }

    @Test func tracksParse() throws {
        let drive = try BuiltinData.geoJSON("tracks/helsinki_drive_1hz.geojson")
        #expect(!drive.features.isEmpty)
    }

    @Test func bareGeometryAndFeature() throws {
        let g = try GeoJSON.parse(Array(#"{"type":"LineString","coordinates":[[1,2],[3,4,5]]}"#.utf8), file: "g.json")
        #expect(g.features.count == 1)
        #expect(g.features[0].geometry == .lineString([.init(latitude: 2, longitude: 1), .init(latitude: 4, longitude: 3)]))
        let f = try GeoJSON.parse(Array(#"{"coordinates":[10,20],"type":"Point","id":"a"}"#.utf8), file: "p.json")
        #expect(f.features[0].geometry == .point(.init(latitude: 20, longitude: 10)))
        let feature = try GeoJSON.parse(Array(#"{"type":"Feature","id":7,"properties":{"a":[1,{"b":null}]},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,1]}]}}"#.utf8), file: "f.json")
        #expect(feature.features[0].id == .number(7))
        #expect(feature.features[0].properties["a"] == .array([.number(1), .object(PropertyMap([("b", .null)]))]))
    }

    @Test func antimeridianLongitudesAreAllowed() throws {
        let g = try GeoJSON.parse(Array(#"{"type":"LineString","coordinates":[[179,0],[181,1]]}"#.utf8), file: "g.json")
        #expect(g.features[0].geometry.allCoordinates[1].longitude == 181)
    }
}

struct BrokenCase: Sendable, CustomTestStringConvertible {
    var json: String
    var path: String
    var message: String
    var testDescription: String { path.isEmpty ? message : path }

    static let all: [BrokenCase] = [
        .init(json: #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,"x"],[0,0]]]}}]}"#,
              path: "features[0].geometry.coordinates[0][2]", message: "expected [lng, lat]"),
        .init(json: #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","geometry":{"type":"Point","coordinates":[0,91]}}]}"#,
              path: "features[1].geometry.coordinates", message: "latitude 91.0 is out of range"),
        .init(json: #"{"type":"LineString","coordinates":[[0,0],[541,0]]}"#, path: "coordinates[1]", message: "longitude 541.0"),
        .init(json: #"{"type":"LineString","coordinates":[[0,0],[1]]}"#, path: "coordinates[1]", message: "expected [lng, lat]"),
        .init(json: #"{"type":"LineString","coordinates":[[0,0]]}"#, path: "coordinates", message: "at least 2 positions"),
        .init(json: #"{"type":"Polygon","coordinates":[[0,0],[1,1]]}"#, path: "coordinates", message: "expected an array of arrays"),
        .init(json: #"{"type":"Hexagon","coordinates":[0,0]}"#, path: "type", message: "unknown geometry type 'Hexagon'"),
        .init(json: #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":3,"geometry":null}]}"#,
              path: "features[0].properties", message: "expected an object or null"),
        .init(json: #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1e999,0]}}]}"#,
              path: "features[0].geometry.coordinates", message: "too large"),
        .init(json: #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,0]},}]}"#,
              path: "features[0]", message: "expected a member name"),
        .init(json: #"{"type":"FeatureCollection"}"#, path: "", message: "missing required field 'features'"),
    ]
}

@Suite struct GeoJSONErrorTests {
    @Test(arguments: BrokenCase.all)
    func brokenGeoJSONNamesThePath(_ c: BrokenCase) {
        do {
            _ = try GeoJSON.parse(Array(c.json.utf8), file: "bad.geojson")
            Issue.record("expected an error")
        } catch {
            let text = error.description
            #expect(text.hasPrefix("bad.geojson:1:"), "\(text)")
            if !c.path.isEmpty { #expect(error.path == c.path, "\(text)") }
            #expect(text.contains(c.message), "\(text)")
        }
    }

    @Test func errorNamesLineAndColumn() {
        let json = "{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[0,\"a\"]}}]}"
        do {
            _ = try GeoJSON.parse(Array(json.utf8), file: "x.geojson")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 60)
        }
    }
}
