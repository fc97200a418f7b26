import FlybyCore
import Foundation

/// Reads GeoJSON (RFC 7946) into ``Feature`` values.
///
/// Accepts a FeatureCollection, a single Feature or a bare geometry. Coordinates are degrees:
/// latitudes must lie in −90…90; longitudes may leave −180…180 (data that crosses the
/// antimeridian is written that way) but must stay within ±540. JSON cannot spell NaN or infinity
/// and the tokenizer refuses overflow, so every coordinate is finite. Members GeoJSON calls
/// "foreign members" (`name`, `bbox`, `attribution`, …) are skipped, as RFC 7946 §6.1 allows.
public enum GeoJSON {
    /// Largest accepted |longitude| in degrees: room for one wrap either side of ±180.
    public static let maxAbsoluteLongitude = 540.0

    /// Parses a GeoJSON document.
    /// - Parameters:
    ///   - bytes: UTF-8 JSON text.
    ///   - file: the name used in error messages (a path or a resource name).
    /// - Throws: ``InputError`` naming `file`, the line and column and the JSON path, e.g.
    ///   `features[12].geometry.coordinates[0][3]: expected [lng, lat]`.
    /// - Complexity: one pass over the bytes with no intermediate JSON tree for coordinates.
    public static func parse(_ bytes: [UInt8], file: String) throws(InputError) -> FeatureCollection {
        var reader = GeoJSONReader(bytes: bytes, file: file)
        return try reader.readDocument()
    }

    /// Reads and parses a GeoJSON file.
    public static func load(path: String) throws(InputError) -> FeatureCollection {
        try parse(try readFileBytes(path), file: path)
    }

    /// Converts an already parsed JSON value (for example inline `data` in a style) at `cursor`.
    /// Errors name the cursor's document and paths below the cursor's path.
    public static func parse(_ cursor: JSONCursor) throws(InputError) -> FeatureCollection {
        // Re-reading the value's own bytes keeps one code path; the offsets stay document offsets.
        var reader = GeoJSONReader(bytes: cursor.document.bytes, file: cursor.document.file)
        reader.p.i = cursor.node.offset
        if !cursor.path.isEmpty { reader.path = [.raw(cursor.path)] }
        return try reader.readValueAsDocument()
    }
}

/// The streaming reader behind ``GeoJSON``: it walks the bytes with ``JSONParser``'s tokenizer
/// (strings, numbers, whitespace) and builds geometries directly, without a `JSONNode` per number.
struct GeoJSONReader {
    enum PathComponent {
        case key(String)
        case index(Int)
        case raw(String)
    }

    var p: JSONParser
    let file: String
    /// The JSON path of the value being read, rendered only when an error is thrown.
    var path: [PathComponent] = []

    init(bytes: [UInt8], file: String) {
        p = JSONParser(bytes: bytes)
        self.file = file
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.i = 3 }
    }

    // MARK: errors

    func pathString() -> String {
        var s = ""
        for c in path {
            switch c {
            case .raw(let r): s += r
            case .key(let k): s += s.isEmpty ? k : ".\(k)"
            case .index(let n): s += "[\(n)]"
            }
        }
        return s
    }

    func fail(_ message: String, at offset: Int? = nil) -> InputError {
        let (line, column) = lineAndColumn(of: offset ?? p.i, in: p.bytes)
        let ps = pathString()
        return InputError(file: file, line: line, column: column, path: ps.isEmpty ? nil : ps, message: message)
    }

    func convert(_ e: JSONSyntaxError) -> InputError {
        let ps = pathString()
        return InputError(file: file, line: e.line, column: e.column, path: ps.isEmpty ? nil : ps, message: e.message)
    }

    // MARK: tokens

    @inline(__always) var peek: UInt8? { p.i < p.bytes.count ? p.bytes[p.i] : nil }

    func describePeek() -> String {
        guard let c = peek else { return "the end of the input" }
        switch c {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return "a number"
        }
    }

    mutating func beginObject() throws(InputError) {
        p.skipWhitespace()
        guard peek == UInt8(ascii: "{") else { throw fail("expected an object, found \(describePeek())") }
        do throws(JSONSyntaxError) { try p.enter() } catch { throw convert(error) }
        p.i += 1
    }

    /// The next member name (with its ':' consumed), or nil after the closing '}'.
    mutating func nextMember(_ first: inout Bool) throws(InputError) -> String? {
        p.skipWhitespace()
        guard let c = peek else { throw fail("unexpected end of input in an object") }
        if c == UInt8(ascii: "}") { p.i += 1; p.depth -= 1; return nil }
        if !first {
            guard c == UInt8(ascii: ",") else { throw fail("expected ',' or '}' in an object") }
            p.i += 1
            p.skipWhitespace()
        }
        first = false
        guard peek == UInt8(ascii: "\"") else { throw fail("expected a member name in double quotes") }
        let key: String
        do throws(JSONSyntaxError) { key = try p.parseString() } catch { throw convert(error) }
        p.skipWhitespace()
        guard peek == UInt8(ascii: ":") else { throw fail("expected ':' after the member name \"\(key)\"") }
        p.i += 1
        p.skipWhitespace()
        return key
    }

    mutating func beginArray() throws(InputError) {
        p.skipWhitespace()
        guard peek == UInt8(ascii: "[") else { throw fail("expected an array, found \(describePeek())") }
        do throws(JSONSyntaxError) { try p.enter() } catch { throw convert(error) }
        p.i += 1
    }

    /// True when another element follows (positioned at it), false after the closing ']'.
    mutating func nextElement(_ first: inout Bool) throws(InputError) -> Bool {
        p.skipWhitespace()
        guard let c = peek else { throw fail("unexpected end of input in an array") }
        if c == UInt8(ascii: "]") { p.i += 1; p.depth -= 1; return false }
        if !first {
            guard c == UInt8(ascii: ",") else { throw fail("expected ',' or ']' in an array") }
            p.i += 1
            p.skipWhitespace()
        }
        first = false
        return true
    }

    mutating func anyValue() throws(InputError) -> JSONNode {
        p.skipWhitespace()
        do throws(JSONSyntaxError) { return try p.parseValue() } catch { throw convert(error) }
    }

    mutating func string() throws(InputError) -> String {
        p.skipWhitespace()
        guard peek == UInt8(ascii: "\"") else { throw fail("expected a string, found \(describePeek())") }
        do throws(JSONSyntaxError) { return try p.parseString() } catch { throw convert(error) }
    }

    // MARK: documents

    mutating func readDocument() throws(InputError) -> FeatureCollection {
        let fc = try readValueAsDocument()
        p.skipWhitespace()
        if p.i < p.bytes.count { throw fail("unexpected text after the JSON value") }
        return fc
    }

    /// Reads one GeoJSON object (FeatureCollection, Feature or geometry) at the current position.
    mutating func readValueAsDocument() throws(InputError) -> FeatureCollection {
        p.skipWhitespace()
        let start = p.i
        let parts = try readObjectParts()
        guard let type = parts.type else { throw fail("missing required field 'type'", at: start) }
        switch type {
        case "FeatureCollection":
            guard let features = parts.features else { throw fail("missing required field 'features'", at: start) }
            return FeatureCollection(features: features, name: file)
        case "Feature":
            return FeatureCollection(features: [try makeFeature(parts, at: start)], name: file)
        default:
            return FeatureCollection(features: [Feature(geometry: try makeGeometry(parts, at: start))], name: file)
        }
    }

    /// The members of a GeoJSON object, collected before its `type` is known (the type may come last).
    struct ObjectParts {
        var type: String?
        var typeOffset = 0
        var features: [Feature]?
        var geometry: Geometry??
        var properties: PropertyMap?
        var id: PropertyValue?
        var coordinates: Coords?
        var coordinatesOffset = 0
        var geometries: [Geometry]?
    }

    /// Coordinates read before the geometry type is known: a position, a list of positions, or
    /// nested lists.
    indirect enum Coords {
        case position(LocationCoordinate2D)
        case positions([LocationCoordinate2D])
        case nested([Coords], offsets: [Int])
    }

    mutating func readObjectParts() throws(InputError) -> ObjectParts {
        var parts = ObjectParts()
        try beginObject()
        var first = true
        while let key = try nextMember(&first) {
            path.append(.key(key))
            switch key {
            case "type":
                parts.typeOffset = p.i
                parts.type = try string()
            case "features":
                parts.features = try readFeatures()
            case "geometry":
                if peek == UInt8(ascii: "n") {
                    _ = try anyValue()
                    parts.geometry = .some(nil)
                } else {
                    let start = p.i
                    let g = try readObjectParts()
                    parts.geometry = .some(try makeGeometry(g, at: start))
                }
            case "properties":
                let start = p.i
                let node = try anyValue()
                switch node.value {
                case .null: parts.properties = PropertyMap()
                case .object:
                    if case .object(let m) = PropertyValue(node) { parts.properties = m }
                default: throw fail("expected an object or null, found \(node.typeDescription)", at: start)
                }
            case "id":
                let start = p.i
                let node = try anyValue()
                switch node.value {
                case .number, .string: parts.id = PropertyValue(node)
                default: throw fail("expected a string or a number, found \(node.typeDescription)", at: start)
                }
            case "coordinates":
                parts.coordinatesOffset = p.i
                parts.coordinates = try readCoords()
            case "geometries":
                var list: [Geometry] = []
                try beginArray()
                var f = true
                var n = 0
                path.append(.index(0))
                while try nextElement(&f) {
                    path[path.count - 1] = .index(n)
                    let start = p.i
                    let g = try readObjectParts()
                    list.append(try makeGeometry(g, at: start))
                    n += 1
                }
                path.removeLast()
                parts.geometries = list
            default:
                _ = try anyValue()  // a foreign member (RFC 7946 §6.1)
            }
            path.removeLast()
        }
        return parts
    }

    mutating func readFeatures() throws(InputError) -> [Feature] {
        var out: [Feature] = []
        try beginArray()
        var first = true
        var n = 0
        path.append(.index(0))
        while try nextElement(&first) {
            path[path.count - 1] = .index(n)
            let start = p.i
            let parts = try readObjectParts()
            guard parts.type == "Feature" else {
                throw fail(parts.type.map { "expected a Feature, found type '\($0)'" } ?? "missing required field 'type'", at: start)
            }
            out.append(try makeFeature(parts, at: start))
            n += 1
        }
        path.removeLast()
        return out
    }

    func makeFeature(_ parts: ObjectParts, at offset: Int) throws(InputError) -> Feature {
        guard let g = parts.geometry else { throw fail("missing required field 'geometry'", at: offset) }
        guard let geometry = g else {
            throw fail("a feature without geometry (null) is not supported", at: offset)
        }
        return Feature(id: parts.id, geometry: geometry, properties: parts.properties ?? PropertyMap())
    }

    // MARK: geometry

    mutating func readCoords() throws(InputError) -> Coords {
        p.skipWhitespace()
        let start = p.i
        try beginArray()
        p.skipWhitespace()
        guard let c = peek else { throw fail("unexpected end of input in an array") }
        if c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39) {
            p.i = start
            p.depth -= 1
            return .position(try readPosition())
        }
        if c == UInt8(ascii: "[") {
            // Look inside the first element: numbers mean a list of positions.
            var j = p.i + 1
            while j < p.bytes.count, p.bytes[j] == 0x20 || p.bytes[j] == 0x0A || p.bytes[j] == 0x0D || p.bytes[j] == 0x09 { j += 1 }
            if j < p.bytes.count, p.bytes[j] == UInt8(ascii: "-") || (p.bytes[j] >= 0x30 && p.bytes[j] <= 0x39) {
                var list: [LocationCoordinate2D] = []
                var first = true
                var n = 0
                path.append(.index(0))
                while try nextElement(&first) {
                    path[path.count - 1] = .index(n)
                    list.append(try readPosition())
                    n += 1
                }
                path.removeLast()
                return .positions(list)
            }
        }
        var items: [Coords] = []
        var offsets: [Int] = []
        var first = true
        var n = 0
        path.append(.index(0))
        while try nextElement(&first) {
            path[path.count - 1] = .index(n)
            guard peek == UInt8(ascii: "[") else { throw fail("expected an array of coordinates, found \(describePeek())") }
            offsets.append(p.i)
            items.append(try readCoords())
            n += 1
        }
        path.removeLast()
        return .nested(items, offsets: offsets)
    }

    /// `[lng, lat]` or `[lng, lat, altitude]` (the altitude is ignored).
    mutating func readPosition() throws(InputError) -> LocationCoordinate2D {
        p.skipWhitespace()
        let start = p.i
        guard peek == UInt8(ascii: "[") else { throw fail("expected [lng, lat], found \(describePeek())") }
        p.i += 1
        var values = (0.0, 0.0)
        var count = 0
        while true {
            p.skipWhitespace()
            guard let c = peek else { throw fail("expected [lng, lat]: unexpected end of input", at: start) }
            if c == UInt8(ascii: "]") && count > 0 { p.i += 1; break }
            if count > 0 {
                guard c == UInt8(ascii: ",") else { throw fail("expected [lng, lat]", at: start) }
                p.i += 1
                p.skipWhitespace()
            }
            guard let d = peek, d == UInt8(ascii: "-") || (d >= 0x30 && d <= 0x39) else {
                throw fail("expected [lng, lat]: found \(describePeek()) in a position", at: start)
            }
            let v: Double
            do throws(JSONSyntaxError) { v = try p.parseNumber() } catch { throw convert(error) }
            if count == 0 { values.0 = v } else if count == 1 { values.1 = v }
            count += 1
            if count > 3 { throw fail("expected [lng, lat] or [lng, lat, altitude], found more numbers", at: start) }
        }
        guard count >= 2 else { throw fail("expected [lng, lat], found 1 number", at: start) }
        guard values.1 >= -90 && values.1 <= 90 else {
            throw fail("latitude \(values.1) is out of range -90…90", at: start)
        }
        guard abs(values.0) <= GeoJSON.maxAbsoluteLongitude else {
            throw fail("longitude \(values.0) is out of range -540…540", at: start)
        }
        return LocationCoordinate2D(latitude: values.1, longitude: values.0)
    }

    func makeGeometry(_ parts: ObjectParts, at offset: Int) throws(InputError) -> Geometry {
        guard let type = parts.type else { throw fail("missing required field 'type'", at: offset) }
        if type == "GeometryCollection" {
            guard let gs = parts.geometries else { throw fail("missing required field 'geometries'", at: offset) }
            return .geometryCollection(gs)
        }
        guard ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"].contains(type) else {
            var me = self
            me.path.append(.key("type"))
            throw me.fail("unknown geometry type '\(type)' (known: Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon, GeometryCollection)", at: parts.typeOffset)
        }
        guard let coords = parts.coordinates else { throw fail("missing required field 'coordinates'", at: offset) }
        var me = self
        me.path.append(.key("coordinates"))
        let o = parts.coordinatesOffset
        switch type {
        case "Point":
            guard case .position(let c) = coords else { throw me.fail("a Point needs one [lng, lat] position", at: o) }
            return .point(c)
        case "MultiPoint":
            return .multiPoint(try me.positions(coords, at: o, min: 0, what: "a MultiPoint"))
        case "LineString":
            return .lineString(try me.positions(coords, at: o, min: 2, what: "a LineString"))
        case "MultiLineString":
            return .multiLineString(try me.lists(coords, at: o, min: 2, what: "a line"))
        case "Polygon":
            return .polygon(try me.lists(coords, at: o, min: 4, what: "a polygon ring"))
        default:
            guard case .nested(let items, let offsets) = coords else {
                throw me.fail("a MultiPolygon needs an array of polygons (arrays of rings)", at: o)
            }
            var polys: [[[LocationCoordinate2D]]] = []
            polys.reserveCapacity(items.count)
            for (k, item) in items.enumerated() {
                me.path.append(.index(k))
                polys.append(try me.lists(item, at: offsets[k], min: 4, what: "a polygon ring"))
                me.path.removeLast()
            }
            return .multiPolygon(polys)
        }
    }

    func positions(_ c: Coords, at offset: Int, min: Int, what: String) throws(InputError) -> [LocationCoordinate2D] {
        switch c {
        case .positions(let list):
            guard list.count >= min else { throw fail("\(what) needs at least \(min) positions, found \(list.count)", at: offset) }
            return list
        case .nested(let items, _) where items.isEmpty && min == 0:
            return []
        default:
            throw fail("\(what) needs an array of [lng, lat] positions", at: offset)
        }
    }

    func lists(_ c: Coords, at offset: Int, min: Int, what: String) throws(InputError) -> [[LocationCoordinate2D]] {
        switch c {
        case .nested(let items, let offsets):
            var out: [[LocationCoordinate2D]] = []
            out.reserveCapacity(items.count)
            var me = self
            for (k, item) in items.enumerated() {
                me.path.append(.index(k))
                out.append(try me.positions(item, at: offsets[k], min: min, what: what))
                me.path.removeLast()
            }
            return out
        case .positions(let list) where list.isEmpty:
            return []
        default:
            throw fail("expected an array of arrays of [lng, lat] positions", at: offset)
        }
    }
}

/// Reads a whole file; a failure becomes an ``InputError`` naming the path.
func readFileBytes(_ path: String) throws(InputError) -> [UInt8] { try FileInput.read(path) }
