import FlybyCore
import FlybyData
import FlybyRender

/// A style layer built in Swift (Mapbox's `Layer` protocol): ``FillLayer``, ``FillExtrusionLayer``, ``LineLayer``,
/// ``CircleLayer``, ``SymbolLayer``, ``BackgroundLayer``, ``RasterLayer``, ``HillshadeLayer``.
/// Properties are `Value<T>?`; nil leaves the property at its Style Specification default. The
/// layer structs are generated from the style-property table into Layers+Generated.swift
/// (`Tools/generate-layers`); this file holds the hand-written parts.
public protocol Layer: Sendable {
    var id: String { get }
    var type: LayerType { get }
    /// The layer as a style-document layer object.
    var layerJSON: JSONNode { get }
}

/// An image name for `icon-image` (Mapbox's `ResolvedImage`).
public enum ResolvedImage: StyleEncodable, Sendable {
    case name(String)
    public var styleJSON: JSONNode { if case .name(let n) = self { return .string(n) } else { return .null } }
}

/// Writes the common layer fields and the properties into a layer object.
struct LayerWriter {
    var layout: [(key: String, value: JSONNode)] = []
    var paint: [(key: String, value: JSONNode)] = []

    mutating func add<T>(_ p: StyleProperty, _ v: Value<T>?) {
        guard let v else { return }
        if p.group == .layout { layout.append((p.rawValue, v.jsonNode)) } else { paint.append((p.rawValue, v.jsonNode)) }
    }

    func node(id: String, type: LayerType, source: String?, filter: Exp?, minZoom: Double?, maxZoom: Double?,
              visibility: Value<Visibility>?) -> JSONNode {
        var members: [(key: String, value: JSONNode)] = [("id", .string(id)), ("type", .string(type.rawValue))]
        if let source { members.append(("source", .string(source))) }
        if let filter { members.append(("filter", filter.jsonNode)) }
        if let minZoom { members.append(("minzoom", .number(minZoom))) }
        if let maxZoom { members.append(("maxzoom", .number(maxZoom))) }
        var layout = self.layout
        // The parser takes visibility as a plain keyword only.
        if case .constant(let v)? = visibility { layout.insert(("visibility", .string(v.rawValue)), at: 0) }
        if !layout.isEmpty { members.append(("layout", .object(layout))) }
        if !paint.isEmpty { members.append(("paint", .object(paint))) }
        return .object(members)
    }
}

/// Where ``MapboxMap/addLayer(_:layerPosition:)`` puts a layer (Mapbox's `LayerPosition`).
public enum LayerPosition: Sendable, Equatable {
    /// Above the layer with this id.
    case above(String)
    /// Below the layer with this id.
    case below(String)
    /// At this index of the layer list (0 = bottom); clamped to the list.
    case at(Int)
}

/// A GeoJSON source (Mapbox's `GeoJSONSource`): `var s = GeoJSONSource(id: "points"); s.data = .featureCollection(fc)`.
public struct GeoJSONSource: Sendable {
    /// The source's data.
    public enum Data: Sendable {
        case featureCollection(FeatureCollection)
        case feature(Feature)
        case geometry(Geometry)
        /// GeoJSON text (parsed when the source is added; errors name the JSON line and column).
        case string(String)
    }

    public var id: String
    public var data: Data?
    /// The property whose value is the feature id (for feature state).
    public var promoteId: String?
    /// Use each feature's index as its id when it has none.
    public var generateId: Bool?

    public init(id: String) { self.id = id }
}
