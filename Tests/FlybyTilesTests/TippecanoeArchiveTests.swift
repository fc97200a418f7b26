import FlybyData
import FlybyTiles
import Testing

/// Archives made by another tool (tippecanoe v2.72.0, see Fixtures/README.md): every tile decodes
/// to the features and vertices `tippecanoe-decode` printed for it, from the MBTiles and the
/// PMTiles alike.
@Suite struct TippecanoeArchiveTests {
    /// z, x, y (XYZ), features, GeoJSON positions (rings closed) — from `tippecanoe-decode`.
    static let expected: [(Int, Int, Int, Int, Int)] = [
        (10, 582, 296, 315, 752), (11, 1165, 592, 325, 851), (12, 2331, 1185, 342, 974),
        (13, 4663, 2371, 242, 770), (13, 4663, 2370, 169, 538),
    ]

    static func positions(_ node: JSONNode) -> Int {
        guard let items = node.arrayValue else { return 0 }
        if items.first?.doubleValue != nil { return 1 }
        return items.reduce(0) { $0 + positions($1) }
    }

    @Test(arguments: ["helsinki.mbtiles", "helsinki.pmtiles"])
    func everyTileMatchesTippecanoeDecode(_ name: String) throws {
        let path = TileFixtures.root + "/tippecanoe/" + name
        for (z, x, y, features, vertices) in Self.expected {
            let fc = try JSONParser.parse(try TileFixtures.geoJSON(path, z: z, x: x, y: y))
            let list = fc["features"]?.arrayValue ?? []
            #expect(list.count == features, "\(name) \(z)/\(x)/\(y)")
            #expect(list.reduce(0) { $0 + Self.positions($1["geometry"]?["coordinates"] ?? JSONNode(.null)) } == vertices, "\(name) \(z)/\(x)/\(y)")
        }
    }

    @Test(arguments: ["helsinki.mbtiles", "helsinki.pmtiles"])
    func infoAgreesAcrossTheTwoFormats(_ name: String) throws {
        let info = try JSONParser.parse(String(decoding: try TileArchives.open(TileFixtures.root + "/tippecanoe/" + name).info().json(), as: UTF8.self))
        #expect(info["tiles"]?.doubleValue == 5)
        #expect(info["minZoom"]?.doubleValue == 10 && info["maxZoom"]?.doubleValue == 13)
        #expect(info["bounds"]?.arrayValue?.compactMap(\.doubleValue) == [24.935224, 60.164162, 24.953415, 60.179113])
        #expect((info["vectorLayers"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }.sorted() == ["places", "pois", "rail", "water"])
    }
}
