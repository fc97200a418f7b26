import FlybyData
import FlybyTiles
import Testing

/// Archives written by other programs (tippecanoe 2.72.0 and GDAL 3.6.2 `ogr2ogr -f MBTiles`)
/// against the decodes of other decoders (python `mapbox-vector-tile` 2.2.0 and
/// `tippecanoe-decode`), recorded once in Fixtures/archives/references.json (its README gives
/// the shape and how it was made). Every tile of every archive holds the features the reference
/// decoders counted, and the two fully recorded tiles decode to the same ids, properties, value
/// types and vertices.
@Suite struct ArchiveReferenceTests {
    static let folder = TileFixtures.root + "/archives/"
    static let names = ["gdal.mbtiles", "tippecanoe.mbtiles", "tippecanoe.pmtiles"]

    static func reference(_ name: String) throws -> JSONNode {
        let root = try JSONParser.parse(try TileFixtures.bytes("archives/references.json"))
        guard let archive = root["archives"]?[name] else { throw TileError(file: name, message: "no reference entry") }
        return archive
    }

    /// The value type a tag's value was stored as (spec 4.1 `Value`), named as the reference names it.
    static func typeName(_ v: VectorTileValue) -> String {
        switch v {
        case .string: "string"
        case .float: "float"
        case .double: "double"
        case .int: "int"
        case .uint: "uint"
        case .sint: "sint"
        case .bool: "bool"
        }
    }

    @Test(arguments: names)
    func infoHasTheReferenceZoomsAndTileCount(_ name: String) throws {
        let ref = try Self.reference(name)
        let info = try TileArchives.open(Self.folder + name).info()
        let zooms = ref["zooms"]?.arrayValue?.compactMap { $0.doubleValue.map(Int.init) } ?? []
        #expect(info.minZoom == zooms.first && info.maxZoom == zooms.last)
        #expect(info.tiles == ref["tile_count"]?.doubleValue.map(Int.init), "\(name)")
    }

    @Test(arguments: names)
    func everyTileHoldsTheFeaturesTheReferenceDecodersCounted(_ name: String) throws {
        let ref = try Self.reference(name)
        let archive = try TileArchives.open(Self.folder + name)
        let tiles = ref["tiles"]?.arrayValue ?? []
        #expect(tiles.count == 9)
        for t in tiles {
            let (z, x, y) = (Int(t["z"]?.doubleValue ?? -1), Int(t["x"]?.doubleValue ?? -1), Int(t["y"]?.doubleValue ?? -1))
            let raw = try archive.tile(z: z, x: x, y: y)
            #expect(raw?.count == t["mvt_bytes"]?.doubleValue.map(Int.init), "\(name) \(z)/\(x)/\(y): decompressed size")
            let tile = try #require(try archive.vectorTile(z: z, x: x, y: y), "\(name) \(z)/\(x)/\(y) missing")
            for (layer, count) in t["layers"]?.objectValue ?? [] {
                #expect(tile.layer(named: layer)?.features.count == count.doubleValue.map(Int.init), "\(name) \(z)/\(x)/\(y) \(layer)")
            }
            #expect(tile.layers.count == t["layers"]?.objectValue?.count, "\(name) \(z)/\(x)/\(y): layer count")
        }
    }

    @Test(arguments: names)
    func recordedTilesDecodeToTheSameFeatures(_ name: String) throws {
        let ref = try Self.reference(name)
        let archive = try TileArchives.open(Self.folder + name)
        let decoded = ref["decoded"]?.arrayValue ?? []
        #expect(decoded.count == 2)
        for d in decoded {
            let (z, x, y) = (Int(d["z"]?.doubleValue ?? -1), Int(d["x"]?.doubleValue ?? -1), Int(d["y"]?.doubleValue ?? -1))
            let tile = try #require(try archive.vectorTile(z: z, x: x, y: y))
            let layers = d["layers"]?.arrayValue ?? []
            #expect(tile.layers.map(\.name) == layers.compactMap { $0["name"]?.stringValue }, "layers in file order")
            for (layer, refLayer) in zip(tile.layers, layers) {
                let at = "\(name) \(z)/\(x)/\(y) \(layer.name)"
                #expect(layer.extent == Int(refLayer["extent"]?.doubleValue ?? 0) && layer.version == Int(refLayer["version"]?.doubleValue ?? 0), "\(at)")
                let features = refLayer["features"]?.arrayValue ?? []
                try #require(layer.features.count == features.count, "\(at): feature count")
                for (i, (f, r)) in zip(layer.features, features).enumerated() {
                    try Self.compare(f, in: layer, with: r, at: "\(at) feature \(i)")
                }
            }
        }
    }

    /// `flyby tiles decode` prints what `tippecanoe-decode` printed for the same tile: the same
    /// features in the same order, with the same layer, id, properties and GeoJSON geometry type,
    /// and every coordinate within its 6-decimal rounding (5e-7°, plus 1e-9 for the binary
    /// representation of the rounded decimal).
    @Test(arguments: ["tippecanoe.mbtiles", "tippecanoe.pmtiles", "gdal.mbtiles"])
    func tilesDecodePrintsWhatTippecanoeDecodePrinted(_ name: String) throws {
        let ref = try Self.reference(name)
        var compared = 0
        for d in ref["decoded"]?.arrayValue ?? [] {
            guard let expected = d["tippecanoe_decode_features"]?.arrayValue else { continue }  // the GDAL z10 tile it refuses
            let (z, x, y) = (Int(d["z"]?.doubleValue ?? -1), Int(d["x"]?.doubleValue ?? -1), Int(d["y"]?.doubleValue ?? -1))
            let features = try JSONParser.parse(try TileFixtures.geoJSON(Self.folder + name, z: z, x: x, y: y))["features"]?.arrayValue ?? []
            try #require(features.count == expected.count, "\(name) \(z)/\(x)/\(y): feature count")
            for (i, (f, e)) in zip(features, expected).enumerated() {
                let at = "\(name) \(z)/\(x)/\(y) feature \(i)"
                #expect(f["layer"]?.stringValue == e["layer"]?.stringValue, "\(at): layer")
                #expect(f["id"]?.doubleValue == e["id"]?.doubleValue, "\(at): id")
                #expect(f["geometry"]?["type"]?.stringValue == e["geometry"]?["type"]?.stringValue, "\(at): geometry type")
                let props = f["properties"]?.objectValue ?? [], refProps = e["properties"]?.objectValue ?? []
                #expect(props.count == refProps.count, "\(at): property count")
                for (key, value) in refProps {
                    #expect(f["properties"]?[key].map { "\($0.value)" } == "\(value.value)", "\(at): \(key)")
                }
                let ours = Self.flatten(f["geometry"]?["coordinates"]), theirs = Self.flatten(e["geometry"]?["coordinates"])
                try #require(ours.count == theirs.count, "\(at): coordinate count")
                let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? 0
                #expect(worst <= 5e-7 + 1e-9, "\(at): off by \(worst)°")
                compared += 1
            }
        }
        #expect(compared >= 38, "\(name): \(compared) features compared")
    }

    /// Every number of a nested coordinate array, in order.
    static func flatten(_ node: JSONNode?) -> [Double] {
        guard let node else { return [] }
        if let d = node.doubleValue { return [d] }
        return (node.arrayValue ?? []).flatMap { flatten($0) }
    }

    /// One feature against its reference: type, id, properties with their stored value types, and
    /// every vertex of every part (polygon rings of zero area, which the decoder drops by spec
    /// 4.3.4.4, left out of the reference's list first).
    static func compare(_ f: VectorTileFeature, in layer: VectorTileLayer, with r: JSONNode, at: String) throws {
        let types: [VectorTileGeometryType: String] = [.point: "point", .lineString: "linestring", .polygon: "polygon"]
        #expect(types[f.type] == r["type"]?.stringValue, "\(at): type")
        #expect(f.id.map { Double($0) } == r["id"]?.doubleValue, "\(at): id")

        let properties = layer.properties(of: f)
        let refProperties = r["properties"]?.objectValue ?? []
        #expect(properties.count == refProperties.count, "\(at): property count")
        for (key, value) in refProperties {
            switch value.value {
            case .string(let s): #expect(properties[key] == .string(s), "\(at): \(key)")
            case .number(let n): #expect(properties[key] == .number(n), "\(at): \(key)")
            case .bool(let b): #expect(properties[key] == .bool(b), "\(at): \(key)")
            default: Issue.record("\(at): unexpected reference value for \(key)")
            }
        }
        var storedTypes: [String: String] = [:]
        var i = 0
        while i + 1 < f.tags.count {
            storedTypes[layer.keys[Int(f.tags[i])]] = typeName(layer.values[Int(f.tags[i + 1])])
            i += 2
        }
        for (key, type) in r["property_types"]?.objectValue ?? [] {
            #expect(storedTypes[key] == type.stringValue, "\(at): value type of \(key)")
        }

        var refParts = (r["parts"]?.arrayValue ?? []).map { part in
            (part.arrayValue ?? []).map { p in
                TilePoint(x: Int32(p.arrayValue?[0].doubleValue ?? .nan), y: Int32(p.arrayValue?[1].doubleValue ?? .nan))
            }
        }
        if f.type == .polygon, let areas = r["ring_areas"]?.arrayValue {
            refParts = zip(refParts, areas).filter { $0.1.doubleValue != 0 }.map(\.0)
        }
        if f.type == .point {
            #expect(f.geometry.points == refParts.flatMap { $0 }, "\(at): points")
        } else {
            let parts = (0..<f.geometry.partCount).map { Array(f.geometry.part($0)) }
            #expect(parts == refParts, "\(at): vertices")
        }
    }
}
