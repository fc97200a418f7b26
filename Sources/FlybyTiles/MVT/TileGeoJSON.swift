import FlybyCore
import FlybyData

extension VectorTileLayer {
    /// A feature as GeoJSON (RFC 7946) in longitude/latitude degrees: the geometry projected from
    /// tile coordinates of `tile` (``TileProjection``), rings closed by repeating their first
    /// vertex, a single part as Point/LineString/Polygon and several as the Multi* type. Nil for a
    /// feature of type UNKNOWN (it has no geometry GeoJSON can carry).
    public func geoJSONFeature(_ feature: VectorTileFeature, tile: TileID) -> Feature? {
        let projection = TileProjection(tile: tile, extent: extent)
        let g = feature.geometry
        let geometry: Geometry
        switch feature.type {
        case .unknown: return nil
        case .point:
            let points = g.points.map(projection.coordinate)
            geometry = points.count == 1 ? .point(points[0]) : .multiPoint(points)
        case .lineString:
            let lines = (0..<g.partCount).map { g.part($0).map(projection.coordinate) }
            geometry = lines.count == 1 ? .lineString(lines[0]) : .multiLineString(lines)
        case .polygon:
            var polygons: [[[LocationCoordinate2D]]] = []
            for j in 0..<g.polygonCount {
                polygons.append((Int(g.polygonStarts[j])..<Int(g.polygonStarts[j + 1])).map { ring in
                    var r = g.part(ring).map(projection.coordinate)
                    if let first = r.first { r.append(first) }
                    return r
                })
            }
            geometry = polygons.count == 1 ? .polygon(polygons[0]) : .multiPolygon(polygons)
        }
        return Feature(id: feature.id.map { .number(Double($0)) }, geometry: geometry, properties: properties(of: feature))
    }
}

/// Writes a decoded tile as one GeoJSON FeatureCollection (CONTRACTS.md §1, `flyby tiles
/// decode`): every feature of every layer in tile order, one feature per line, each with
/// `"type"`, `"id"` when the tile gives one, the foreign member `"layer"` (its layer's name),
/// `"properties"` in tag order and `"geometry"` in longitude/latitude (null for UNKNOWN).
/// Numbers use Swift's shortest round-trip form; integer ids are written exactly.
public enum TileGeoJSON {
    public static func featureCollection(_ tile: VectorTile, id: TileID) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        out.append(contentsOf: Array(#"{"type":"FeatureCollection","features":["#.utf8))
        var first = true
        for layer in tile.layers {
            for feature in layer.features {
                out.append(contentsOf: first ? [0x0A] : [0x2C, 0x0A])
                first = false
                appendFeature(feature, layer: layer, tile: id, to: &out)
            }
        }
        out.append(contentsOf: Array("\n]}\n".utf8))
        return out
    }

    static func appendFeature(_ feature: VectorTileFeature, layer: VectorTileLayer, tile: TileID, to out: inout [UInt8]) {
        out.append(contentsOf: Array(#"{"type":"Feature""#.utf8))
        if let id = feature.id { out.append(contentsOf: Array(#","id":\#(id)"#.utf8)) }
        out.append(contentsOf: Array(#","layer":"#.utf8))
        JSONWriter.appendString(layer.name, to: &out)
        out.append(contentsOf: Array(#","properties":{"#.utf8))
        var i = 0
        while i + 1 < feature.tags.count {
            if i > 0 { out.append(0x2C) }
            JSONWriter.appendString(layer.keys[Int(feature.tags[i])], to: &out)
            out.append(0x3A)
            appendProperty(layer.values[Int(feature.tags[i + 1])].propertyValue, to: &out)
            i += 2
        }
        out.append(contentsOf: Array(#"},"geometry":"#.utf8))
        if let f = layer.geoJSONFeature(feature, tile: tile) { appendGeometry(f.geometry, to: &out) } else { out.append(contentsOf: Array("null".utf8)) }
        out.append(0x7D)
    }

    static func appendProperty(_ v: PropertyValue, to out: inout [UInt8]) {
        switch v {
        case .string(let s): JSONWriter.appendString(s, to: &out)
        case .number(let d): JSONWriter.appendNumber(d, to: &out)
        case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
        default: out.append(contentsOf: Array("null".utf8))
        }
    }

    static func appendGeometry(_ g: Geometry, to out: inout [UInt8]) {
        func coordinate(_ c: LocationCoordinate2D) {
            out.append(0x5B); JSONWriter.appendNumber(c.longitude, to: &out)
            out.append(0x2C); JSONWriter.appendNumber(c.latitude, to: &out); out.append(0x5D)
        }
        func list(_ cs: [LocationCoordinate2D]) {
            out.append(0x5B)
            for (i, c) in cs.enumerated() { if i > 0 { out.append(0x2C) }; coordinate(c) }
            out.append(0x5D)
        }
        func lists(_ ls: [[LocationCoordinate2D]]) {
            out.append(0x5B)
            for (i, l) in ls.enumerated() { if i > 0 { out.append(0x2C) }; list(l) }
            out.append(0x5D)
        }
        func head(_ type: String) { out.append(contentsOf: Array(#"{"type":"\#(type)","coordinates":"#.utf8)) }
        switch g {
        case .point(let c): head("Point"); coordinate(c)
        case .multiPoint(let cs): head("MultiPoint"); list(cs)
        case .lineString(let cs): head("LineString"); list(cs)
        case .multiLineString(let ls): head("MultiLineString"); lists(ls)
        case .polygon(let rs): head("Polygon"); lists(rs)
        case .multiPolygon(let ps):
            head("MultiPolygon"); out.append(0x5B)
            for (i, p) in ps.enumerated() { if i > 0 { out.append(0x2C) }; lists(p) }
            out.append(0x5D)
        case .geometryCollection: out.append(contentsOf: Array(#"{"type":"GeometryCollection","geometries":[]"#.utf8))
        }
        out.append(0x7D)
    }
}
