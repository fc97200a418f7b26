import FlybyCLI
import FlybyData
import FlybyTestSupport
import Foundation
import Testing

/// `flyby tiles info` and `flyby tiles decode` (docs/formats.md §1), run in-process.
@Suite struct TilesCommandTests {
    static func run(_ args: [String]) -> (code: Int32, out: String, err: String) {
        let output = CommandOutput(captures: true)
        let code = FlybyCommandLine.run(arguments: args, output: output)
        return (code, output.stdoutText, output.stderrText)
    }

    static let fixture1 = TileFixtures.root + "/pmtiles/test_fixture_1.pmtiles"

    @Test func infoPrintsOneObjectWithTheContractKeys() throws {
        let r = Self.run(["tiles", "info", Self.fixture1])
        #expect(r.code == 0)
        let node = try JSONParser.parse(r.out)
        let keys = node.objectValue?.map(\.key) ?? []
        #expect(keys == ["format", "tileType", "tileCompression", "minZoom", "maxZoom", "bounds", "center", "tiles",
                         "addressedTiles", "tileEntries", "tileContents", "vectorLayers", "metadata"])
        #expect(node["format"]?.stringValue == "pmtiles")
        #expect(node["bounds"]?.arrayValue?.compactMap(\.doubleValue) == [0, 0, 0.9999999, 1])
        #expect(r.out.hasSuffix("}\n") && r.out.split(separator: "\n").count == 1)
    }

    @Test func infoWorksOnARasterArchive() throws {
        let r = Self.run(["tiles", "info", TileFixtures.root + "/pmtiles/stamen-toner-z3.pmtiles"])
        #expect(r.code == 0)
        #expect(try JSONParser.parse(r.out)["tileType"]?.stringValue == "png")
    }

    @Test func decodePrintsAFeatureCollectionWithLayerAndId() throws {
        let dir = TileFixtures.temporaryFolder("cli-decode")
        try FileManager.default.createDirectory(atPath: dir + "/14/8801", withIntermediateDirectories: true)
        TileFixtures.write(try TileFixtures.bytes("vector-tile-js/14-8801-5371.vector.pbf"), to: dir + "/14/8801/5371.pbf")
        let r = Self.run(["tiles", "decode", dir, "14", "8801", "5371"])
        #expect(r.code == 0, "\(r.err)")
        let fc = try JSONParser.parse(r.out)
        #expect(fc["type"]?.stringValue == "FeatureCollection")
        let features = try #require(fc["features"]?.arrayValue)
        let park = try #require(features.first { $0["properties"]?["name"]?.stringValue == "Mauerpark" && $0["layer"]?.stringValue == "poi_label" })
        #expect(park["id"]?.doubleValue == 3000003150561)
        let c = park["geometry"]?["coordinates"]?.arrayValue?.compactMap(\.doubleValue) ?? []
        #expect(c.count == 2 && abs(c[0] - 13.402258157730103) < 1e-12 && abs(c[1] - 52.54398925380624) < 1e-12)
        // Layers appear in tile order: the first feature is from the first layer.
        #expect(features.first?["layer"]?.stringValue == "landuse")
    }

    @Test func decodedPolygonsHaveClosedRingsHolesAndMultiParts() throws {
        let dir = TileFixtures.temporaryFolder("cli-polygons")
        try FileManager.default.createDirectory(atPath: dir + "/0/0", withIntermediateDirectories: true)
        func decode(_ name: String) throws -> JSONNode {
            TileFixtures.write(try TileFixtures.bytes("vector-tile-js/\(name)"), to: dir + "/0/0/0.pbf")
            let r = Self.run(["tiles", "decode", dir, "0", "0", "0"])
            #expect(r.code == 0, "\(r.err)")
            return try #require(try JSONParser.parse(r.out)["features"]?.arrayValue?.first?["geometry"])
        }
        let inner = try decode("polygon-with-inner.pbf")
        #expect(inner["type"]?.stringValue == "Polygon")
        let rings = inner["coordinates"]?.arrayValue ?? []
        #expect(rings.count == 2)
        for ring in rings {
            let points = ring.arrayValue?.map { $0.arrayValue?.compactMap(\.doubleValue) ?? [] } ?? []
            #expect(points.count == 5 && points.first == points.last)
        }
        let multi = try decode("multi-polygon.pbf")
        #expect(multi["type"]?.stringValue == "MultiPolygon" && multi["coordinates"]?.arrayValue?.count == 2)
        #expect(try decode("multi-line.pbf")["type"]?.stringValue == "MultiLineString")
        #expect(try decode("singleton-multi-point.pbf")["type"]?.stringValue == "Point")
    }

    @Test func decodeWritesOutAtomicallyAndTheBytesMatchStdout() throws {
        let dir = TileFixtures.temporaryFolder("cli-out")
        let out = dir + "/t.geojson"
        let a = Self.run(["tiles", "decode", Self.fixture1, "0", "0", "0", "--out", out])
        #expect(a.code == 0 && a.out.isEmpty)
        let b = Self.run(["tiles", "decode", Self.fixture1, "0", "0", "0"])
        #expect(String(decoding: try #require(FileManager.default.contents(atPath: out)), as: UTF8.self) == b.out)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["t.geojson"])
    }

    @Test func aMissingTileIsExitTwoNamingIt() {
        let r = Self.run(["tiles", "decode", Self.fixture1, "3", "1", "2"])
        #expect(r.code == 2)
        #expect(r.err.hasPrefix("flyby: error: \(Self.fixture1): tile 3/1/2"))
    }

    @Test(arguments: ["invalid.pmtiles", "invalid_v4.pmtiles", "empty.pmtiles"])
    func badArchivesAreExitTwoNamingTheFile(_ name: String) {
        let path = TileFixtures.root + "/pmtiles/" + name
        let r = Self.run(["tiles", "info", path])
        #expect(r.code == 2)
        #expect(r.err.hasPrefix("flyby: error: \(path): "))
        #expect(r.err.split(separator: "\n").count == 1)
    }

    @Test func aBadVectorTileIsExitTwoNamingTheTile() throws {
        let dir = TileFixtures.temporaryFolder("cli-bad")
        try FileManager.default.createDirectory(atPath: dir + "/0/0", withIntermediateDirectories: true)
        TileFixtures.write(try TileFixtures.bytes("mvt-fixtures/fixtures/051/tile.mvt"), to: dir + "/0/0/0.mvt")
        let r = Self.run(["tiles", "decode", dir, "0", "0", "0"])
        #expect(r.code == 2)
        #expect(r.err.contains("tile 0/0/0") && r.err.contains("count"))
    }

    @Test func usageErrorsAreExitTwo() {
        #expect(Self.run(["tiles"]).code == 2)
        #expect(Self.run(["tiles", "decode", Self.fixture1, "0", "x", "0"]).code == 2)
        #expect(Self.run(["tiles", "frobnicate"]).code == 2)
        #expect(Self.run(["tiles", "decode", Self.fixture1, "-1", "0", "0"]).code == 2)
        #expect(Self.run(["help", "tiles"]).out.contains("flyby tiles decode"))
        let help = Self.run(["tiles", "decode", "--help"])
        #expect(help.code == 0 && help.out.contains("usage: flyby tiles info"))
        #expect(Self.run(["--help"]).out.contains("tiles"))
    }
}
