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

/// Writes a decoded tile as one GeoJSON FeatureCollection (docs/formats.md §1, `flyby tiles
/// decode`): every feature of every layer in tile order, one feature per line, each with
/// `"type"`, `"id"` when the tile gives one, the foreign member `"layer"` (its layer's name),
/// `"properties"` in tag order and `"geometry"` in longitude/latitude (null for UNKNOWN).
/// Numbers use Swift's shortest round-trip form; integer ids are written exactly.
public enum TileGeoJSON {
    public static func featureCollection(_ tile: VectorTile, id: TileID) -> [UInt8] {
        var out: [UInt8] = []
        // Room for about what the text will take (up to 52 bytes a vertex, `[lng,lat],`, and the
        // feature's head and properties), so the buffer is not grown and copied several times.
        var estimate = 4096
        for layer in tile.layers {
            for feature in layer.features { estimate += 160 + 8 * feature.tags.count + 56 * feature.geometry.points.count }
        }
        out.reserveCapacity(estimate)
        out.append(contentsOf: Array(#"{"type":"FeatureCollection","features":["#.utf8))
        var first = true
        var numbers = CoordinateText(TileProjection(tile: id, extent: tile.layers.first?.extent ?? 4096))
        for layer in tile.layers {
            if numbers.projection.extent != layer.extent { numbers = CoordinateText(TileProjection(tile: id, extent: layer.extent)) }
            for feature in layer.features {
                out.append(contentsOf: first ? [0x0A] : [0x2C, 0x0A])
                first = false
                appendFeature(feature, layer: layer, numbers: &numbers, to: &out)
            }
        }
        out.append(contentsOf: Array("\n]}\n".utf8))
        return out
    }

    static let featureHead = Array(#"{"type":"Feature""#.utf8)
    static let idKey = Array(#","id":"#.utf8)
    static let layerKey = Array(#","layer":"#.utf8)
    static let propertiesKey = Array(#","properties":{"#.utf8)
    static let geometryKey = Array(#"},"geometry":"#.utf8)

    /// A JSON string literal: the bytes as they are when nothing needs escaping (the common
    /// case for tile keys and values), else `JSONWriter`'s escaping.
    @inline(__always)
    static func appendString(_ s: String, to out: inout [UInt8]) {
        var plain = true
        for c in s.utf8 where c < 0x20 || c == 0x22 || c == 0x5C { plain = false; break }
        if plain {
            out.append(0x22); out.append(contentsOf: s.utf8); out.append(0x22)
        } else {
            JSONWriter.appendString(s, to: &out)
        }
    }

    static func appendFeature(_ feature: VectorTileFeature, layer: VectorTileLayer, numbers: inout CoordinateText, to out: inout [UInt8]) {
        out.append(contentsOf: featureHead)
        if let id = feature.id { out.append(contentsOf: idKey); out.append(contentsOf: String(id).utf8) }
        out.append(contentsOf: layerKey)
        appendString(layer.name, to: &out)
        out.append(contentsOf: propertiesKey)
        var i = 0
        while i + 1 < feature.tags.count {
            if i > 0 { out.append(0x2C) }
            appendString(layer.keys[Int(feature.tags[i])], to: &out)
            out.append(0x3A)
            appendProperty(layer.values[Int(feature.tags[i + 1])].propertyValue, to: &out)
            i += 2
        }
        out.append(contentsOf: geometryKey)
        appendGeometry(feature, numbers: &numbers, to: &out)
        out.append(0x7D)
    }

    static let typeKey = Array(#"{"type":""#.utf8)
    static let coordinatesKey = Array(#"","coordinates":"#.utf8)

    /// The same GeoJSON geometry as `geoJSONFeature` gives, written straight from the tile
    /// geometry (no intermediate coordinate arrays).
    static func appendGeometry(_ feature: VectorTileFeature, numbers: inout CoordinateText, to out: inout [UInt8]) {
        let g = feature.geometry
        func coordinate(_ p: TilePoint) { numbers.append(p, to: &out) }
        func ring(_ part: Int, closed: Bool) {
            out.append(0x5B)
            let points = g.part(part)
            for (i, p) in points.enumerated() { if i > 0 { out.append(0x2C) }; coordinate(p) }
            if closed, let first = points.first { out.append(0x2C); coordinate(first) }
            out.append(0x5D)
        }
        func polygon(_ j: Int) {
            out.append(0x5B)
            for r in Int(g.polygonStarts[j])..<Int(g.polygonStarts[j + 1]) {
                if r > Int(g.polygonStarts[j]) { out.append(0x2C) }
                ring(r, closed: true)
            }
            out.append(0x5D)
        }
        func head(_ type: StaticString) {
            out.append(contentsOf: typeKey)
            type.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: coordinatesKey)
        }
        switch feature.type {
        case .unknown:
            out.append(contentsOf: Array("null".utf8)); return
        case .point:
            if g.points.count == 1 { head("Point"); coordinate(g.points[0]) } else {
                head("MultiPoint"); out.append(0x5B)
                for (i, p) in g.points.enumerated() { if i > 0 { out.append(0x2C) }; coordinate(p) }
                out.append(0x5D)
            }
        case .lineString:
            if g.partCount == 1 { head("LineString"); ring(0, closed: false) } else {
                head("MultiLineString"); out.append(0x5B)
                for i in 0..<g.partCount { if i > 0 { out.append(0x2C) }; ring(i, closed: false) }
                out.append(0x5D)
            }
        case .polygon:
            if g.polygonCount == 1 { head("Polygon"); polygon(0) } else {
                head("MultiPolygon"); out.append(0x5B)
                for j in 0..<g.polygonCount { if j > 0 { out.append(0x2C) }; polygon(j) }
                out.append(0x5D)
            }
        }
        out.append(0x7D)
    }

    static func appendProperty(_ v: PropertyValue, to out: inout [UInt8]) {
        switch v {
        case .string(let s): appendString(s, to: &out)
        case .number(let d): JSONWriter.appendNumber(d, to: &out)
        case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
        default: out.append(contentsOf: Array("null".utf8))
        }
    }
}
