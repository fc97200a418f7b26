import Foundation
import FlybyCore
import FlybyData
@testable import FlybyRender

/// Maps fixture JSON to Flyby's expression API and Flyby's values back to the fixtures' shapes.
enum ConformanceAdapter {
    static func compile(_ text: String, spec: JSONCursor?) throws(InputError) -> StyleExpression {
        let doc = try JSONDocument(file: "<fixture>", bytes: Array(text.utf8))
        return try ExpressionCompiler.compile(doc.cursor, spec: propertySpec(spec?.node))
    }

    /// A fixture's `propertySpec` as Flyby's ``PropertySpec`` (none: any type, data-driven,
    /// zoom-dependent and interpolatable, as MapLibre's harness assumes).
    static func propertySpec(_ s: JSONNode?) -> PropertySpec {
        var spec = PropertySpec(type: nil)
        guard let s else { return spec }
        let types: [String: ExprType] = [
            "number": .number, "string": .string, "color": .color, "boolean": .boolean, "formatted": .formatted,
            "resolvedImage": .resolvedImage, "padding": .padding, "numberArray": .numberArray, "colorArray": .colorArray,
            "projectionDefinition": .projectionDefinition, "variableAnchorOffsetCollection": .variableAnchorOffsetCollection,
            "enum": .string,
        ]
        if let t = s["type"]?.stringValue {
            if t == "array" {
                let item = s["value"]?.stringValue.flatMap { types[$0] } ?? .value
                spec.type = .array(item, s["length"]?.doubleValue.map { Int($0) })
            } else {
                spec.type = types[t]
            }
            if t == "enum", let values = s["values"] {
                spec.enumValues = values.objectValue?.map(\.key) ?? values.arrayValue?.compactMap(\.stringValue)
            }
        }
        if let pt = s["property-type"]?.stringValue { spec.dataDriven = pt == "data-driven" || pt == "cross-faded-data-driven" }
        if let e = s["expression"] {
            spec.interpolated = e["interpolated"]?.boolValue ?? false
            spec.zoomDependent = e["parameters"]?.arrayValue?.contains { $0.stringValue == "zoom" } ?? false
        }
        spec.defaultValue = s["default"]
        spec.tokens = s["tokens"]?.boolValue ?? false
        return spec
    }

    /// The geometry as MapLibre's harness hands it to `within`/`distance`: in integer tile units
    /// (extent 8192) of the fixture's `canonicalID` tile, here converted back to degrees.
    static func quantized(_ g: Geometry, z: Double, x: Double, y: Double) -> Geometry {
        let n = pow(2, z), extent = 8192.0
        func q(_ c: LocationCoordinate2D) -> LocationCoordinate2D {
            let mx = (c.longitude + 180) / 360
            let my = (180 - 180 / Double.pi * log(tan(Double.pi / 4 + c.latitude * Double.pi / 360))) / 360
            let tx = ((mx * n - x) * extent).rounded(), ty = ((my * n - y) * extent).rounded()
            let bx = (tx / extent + x) / n, by = (ty / extent + y) / n
            let lat = 360 / Double.pi * atan(exp((180 - by * 360) * Double.pi / 180)) - 90
            return LocationCoordinate2D(latitude: lat, longitude: bx * 360 - 180)
        }
        switch g {
        case .point(let c): return .point(q(c))
        case .multiPoint(let cs): return .multiPoint(cs.map(q))
        case .lineString(let cs): return .lineString(cs.map(q))
        case .multiLineString(let ls): return .multiLineString(ls.map { $0.map(q) })
        case .polygon(let rs): return .polygon(rs.map { $0.map(q) })
        case .multiPolygon(let ps): return .multiPolygon(ps.map { $0.map { $0.map(q) } })
        case .geometryCollection(let gs): return .geometryCollection(gs.map { quantized($0, z: z, x: x, y: y) })
        }
    }

    static func typeName(_ e: StyleExpression) -> String { e.typeName }

    static func evaluate(_ e: StyleExpression, context: JSONCursor, feature: JSONCursor, globalState: PropertyValue?) -> Conformed? {
        let zoom = context.node["zoom"]?.doubleValue ?? 0
        var globals = ExpressionGlobals()
        if case .object(let m)? = globalState { globals.globalState = m }
        if let images = context.node["availableImages"]?.arrayValue { globals.availableImages = Set(images.compactMap(\.stringValue)) }
        globals.heatmapDensity = context.node["heatmapDensity"]?.doubleValue
        globals.elevation = context.node["elevation"]?.doubleValue
        var props = PropertyMap()
        if case .object(let m)? = feature.node["properties"].map(PropertyValue.init) { props = m }
        var state = PropertyMap()
        if case .object(let m)? = feature.node["featureState"].map(PropertyValue.init) { state = m }
        var f = FeatureContext(properties: props, state: state)
        f.id = feature.node["id"].map(PropertyValue.init)
        if let g = try? feature.member("geometry"), let fc = try? GeoJSON.parse(g), let geometry = fc.features.first?.geometry {
            f.geometry = geometry
            if let t = context.node["canonicalID"], let z = t["z"]?.doubleValue, let x = t["x"]?.doubleValue, let y = t["y"]?.doubleValue {
                f.geometry = quantized(geometry, z: z, x: x, y: y)
            }
            switch geometry {
            case .point, .multiPoint: f.kind = .point
            case .lineString, .multiLineString: f.kind = .line
            default: f.kind = .polygon
            }
        }
        guard let v = e.evaluate(zoom: zoom, feature: f, globals: globals) else { return nil }
        return conformed(v)
    }

    static func color(_ c: StyleColor) -> [Conformed] {
        [.number(c.red * c.alpha), .number(c.green * c.alpha), .number(c.blue * c.alpha), .number(c.alpha)]
    }

    static func rgbaObject(_ c: StyleColor) -> Conformed {
        let v = color(c)
        return .object([("r", v[0]), ("g", v[1]), ("b", v[2]), ("a", v[3])])
    }

    static func conformed(_ v: StyleValue) -> Conformed {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .color(let c): return .array(color(c))
        case .array(let a): return .array(a.map(conformed))
        case .object(let o): return .object(o.entries.map { ($0.key, conformed(StyleValue($0.value))) })
        case .formatted(let f):
            return .object([("sections", .array(f.sections.map { s in
                .object([("text", .string(s.text)),
                         ("image", s.image.map { conformed(.image($0)) } ?? .null),
                         ("scale", s.scale.map(Conformed.number) ?? .null),
                         ("fontStack", s.fontStack.map(Conformed.string) ?? .null),
                         ("textColor", s.textColor.map(rgbaObject) ?? .null),
                         ("verticalAlign", s.verticalAlign.map(Conformed.string) ?? .null)])
            }))])
        case .image(let i): return .object([("name", .string(i.name)), ("available", .bool(i.available))])
        case .collator(let c): return .object([("caseSensitive", .bool(c.caseSensitive)), ("diacriticSensitive", .bool(c.diacriticSensitive))])
        case .padding(let a), .numberArray(let a): return .object([("values", .array(a.map(Conformed.number)))])
        case .colorArray(let a): return .object([("values", .array(a.map(rgbaObject)))])
        }
    }
}
