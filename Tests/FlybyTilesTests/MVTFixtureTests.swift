import FlybyData
import FlybyTiles
import Foundation
import Testing

/// The specification's own conformance set (mapbox/mvt-fixtures v4.0.0): every fixture valid
/// under spec 2.x decodes to exactly its `tile.json`; every `fatal` one is refused; every
/// `recoverable` one decodes with the broken part skipped and reported. Run with
/// `strictGeometry`, which refuses the polygon faults real tiles have (047, 048).
@Suite struct MVTFixtureTests {
    static let folder = TileFixtures.root + "/mvt-fixtures/fixtures"
    static var ids: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }

    /// Fixture 057 is marked valid upstream, but its point's MoveTo count (536,870,911) overruns
    /// the geometry exactly as the `fatal` fixture 051 does (the two differ only in their tags).
    /// Flyby refuses both: a count past the parameters is always an error (§4.3).
    static let validButRefused: Set<String> = ["057"]

    struct Validity { var v2: Bool; var error: String? }

    static func validity(_ id: String) throws -> Validity {
        let info = try JSONParser.parse(try TileFixtures.bytes("mvt-fixtures/fixtures/\(id)/info.json"))
        let v = try #require(info["validity"])
        return Validity(v2: v["v2"]?.boolValue ?? false, error: v["error"]?.stringValue)
    }

    @Test func allSeventyFourFixturesAreThere() {
        #expect(Self.ids.count == 74)
    }

    @Test(arguments: ids)
    func fixtureDecodesAsItsInfoSays(_ id: String) throws {
        let bytes = try TileFixtures.bytes("mvt-fixtures/fixtures/\(id)/tile.mvt")
        let validity = try Self.validity(id)
        let result = Result { () throws(VectorTileError) in try VectorTileDecoder.decode(bytes, options: .init(keepsRawGeometry: true, strictGeometry: true)) }
        if validity.v2 && !Self.validButRefused.contains(id) {
            let tile = try result.get()
            // 016 ("UNKNOWN type", valid) has the same bytes as 003 ("missing type",
            // recoverable): the missing type is reported for both.
            #expect(tile.issues.isEmpty == (id != "016"), "\(tile.issues)")
            let expected = try JSONParser.parse(try TileFixtures.bytes("mvt-fixtures/fixtures/\(id)/tile.json"))
            try expectTile(tile, equals: expected)
        } else if Self.validButRefused.contains(id) || validity.error == "fatal" {
            #expect(throws: VectorTileError.self) { try result.get() }
        } else if validity.error == "recoverable" {
            let tile = try result.get()
            #expect(!tile.issues.isEmpty)
        } else {
            // 045 (no recommendation): either outcome, but no crash; Flyby refuses it.
            #expect(throws: VectorTileError.self) { try result.get() }
        }
    }

    @Test func theDefaultDecoderRepairsClosePathCountsInsteadOfRefusing() throws {
        for id in ["047", "048"] {
            let tile = try VectorTileDecoder.decode(try TileFixtures.bytes("mvt-fixtures/fixtures/\(id)/tile.mvt"))
            #expect(tile.issues.contains { $0.message.contains("ClosePath") }, "\(id)")
            #expect(tile.layers[0].features.count <= 1)
        }
    }

    @Test func theCountsMatchTheFixtureIndex() throws {
        var valid = 0, fatal = 0, recoverable = 0, other = 0
        for id in Self.ids {
            let v = try Self.validity(id)
            if v.v2 { valid += 1 } else if v.error == "fatal" { fatal += 1 } else if v.error == "recoverable" { recoverable += 1 } else { other += 1 }
        }
        let counts: [Int] = [valid, fatal, recoverable, other]
        #expect(counts == [46, 20, 7, 1])
    }

    func expectTile(_ tile: VectorTile, equals json: JSONNode) throws {
        let layers = json["layers"]?.arrayValue ?? []
        try #require(tile.layers.count == layers.count)
        for (layer, l) in zip(tile.layers, layers) {
            #expect(layer.name == l["name"]?.stringValue)
            #expect(Double(layer.version) == l["version"]?.doubleValue)
            #expect(Double(layer.extent) == l["extent"]?.doubleValue ?? 4096)
            #expect(layer.keys == (l["keys"]?.arrayValue ?? []).compactMap(\.stringValue))
            let values = l["values"]?.arrayValue ?? []
            try #require(layer.values.count == values.count)
            for (v, j) in zip(layer.values, values) { #expect(matches(v, j), "\(v) vs \(j)") }
            let features = l["features"]?.arrayValue ?? []
            try #require(layer.features.count == features.count)
            for (f, j) in zip(layer.features, features) {
                #expect(f.id.map { Double($0) } == j["id"]?.doubleValue)
                #expect(f.tags.map { Double($0) } == (j["tags"]?.arrayValue ?? []).compactMap(\.doubleValue))
                #expect(Double(f.type.rawValue) == j["type"]?.doubleValue)
                #expect(f.rawGeometry.map { Double($0) } == (j["geometry"]?.arrayValue ?? []).compactMap(\.doubleValue))
            }
        }
    }

    func matches(_ v: VectorTileValue, _ j: JSONNode) -> Bool {
        guard let (key, value) = j.objectValue?.first else { return false }
        switch (v, key) {
        // Fixture 076's tile.json writes the string "613" as the number 613.
        case (.string(let s), "string_value"): return value.stringValue == s || value.doubleValue.map(PropertyValue.format) == s
        case (.float(let f), "float_value"): return value.doubleValue.map(Float.init) == f
        case (.double(let d), "double_value"): return value.doubleValue == d
        case (.int(let i), "int_value"): return value.doubleValue == Double(i)
        case (.uint(let u), "uint_value"): return value.doubleValue == Double(u)
        case (.sint(let i), "sint_value"): return value.doubleValue == Double(i)
        case (.bool(let b), "bool_value"): return value.boolValue == b
        default: return false
        }
    }
}
