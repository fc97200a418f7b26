import FlybyCore
import FlybyData
import FlybyRender

/// A style layer built in Swift (Mapbox's `Layer` protocol): ``FillLayer``, ``FillExtrusionLayer``, ``LineLayer``,
/// ``CircleLayer``, ``SymbolLayer``, ``BackgroundLayer``. Properties are `Value<T>?`; nil leaves
/// the property at its Style Specification default.
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

/// A `fill` layer: polygons filled with a colour.
public struct FillLayer: Layer {
    public var id: String
    public var source: String
    public var type: LayerType { .fill }
    public var filter: Exp?
    public var minZoom: Double?
    public var maxZoom: Double?
    public var visibility: Value<Visibility>?
    public var fillAntialias: Value<Bool>?
    public var fillColor: Value<StyleColor>?
    public var fillOpacity: Value<Double>?
    public var fillOutlineColor: Value<StyleColor>?
    public var fillSortKey: Value<Double>?

    public init(id: String, source: String) { self.id = id; self.source = source }

    public var layerJSON: JSONNode {
        var w = LayerWriter()
        w.add(.fillSortKey, fillSortKey)
        w.add(.fillAntialias, fillAntialias)
        w.add(.fillColor, fillColor)
        w.add(.fillOpacity, fillOpacity)
        w.add(.fillOutlineColor, fillOutlineColor)
        return w.node(id: id, type: type, source: source, filter: filter, minZoom: minZoom, maxZoom: maxZoom, visibility: visibility)
    }
}

/// A `fill-extrusion` layer: polygons raised into 3D buildings, lit by the style's `light`
/// (docs/3d-buildings.md).
public struct FillExtrusionLayer: Layer {
    public var id: String
    public var source: String
    public var type: LayerType { .fillExtrusion }
    public var filter: Exp?
    public var minZoom: Double?
    public var maxZoom: Double?
    public var visibility: Value<Visibility>?
    public var fillExtrusionColor: Value<StyleColor>?
    /// The layer's opacity as a whole, 0…1.
    public var fillExtrusionOpacity: Value<Double>?
    /// Top and bottom of each building, metres above the ground.
    public var fillExtrusionHeight: Value<Double>?
    public var fillExtrusionBase: Value<Double>?

    public init(id: String, source: String) { self.id = id; self.source = source }

    public var layerJSON: JSONNode {
        var w = LayerWriter()
        w.add(.fillExtrusionColor, fillExtrusionColor)
        w.add(.fillExtrusionOpacity, fillExtrusionOpacity)
        w.add(.fillExtrusionHeight, fillExtrusionHeight)
        w.add(.fillExtrusionBase, fillExtrusionBase)
        return w.node(id: id, type: type, source: source, filter: filter, minZoom: minZoom, maxZoom: maxZoom, visibility: visibility)
    }
}

/// A `line` layer: line strings and polygon outlines stroked.
public struct LineLayer: Layer {
    public var id: String
    public var source: String
    public var type: LayerType { .line }
    public var filter: Exp?
    public var minZoom: Double?
    public var maxZoom: Double?
    public var visibility: Value<Visibility>?
    public var lineCap: Value<LineCap>?
    public var lineJoin: Value<LineJoin>?
    public var lineMiterLimit: Value<Double>?
    public var lineSortKey: Value<Double>?
    public var lineColor: Value<StyleColor>?
    /// Points.
    public var lineWidth: Value<Double>?
    public var lineOpacity: Value<Double>?
    /// Dash and gap lengths in line widths.
    public var lineDasharray: Value<[Double]>?

    public init(id: String, source: String) { self.id = id; self.source = source }

    public var layerJSON: JSONNode {
        var w = LayerWriter()
        w.add(.lineCap, lineCap)
        w.add(.lineJoin, lineJoin)
        w.add(.lineMiterLimit, lineMiterLimit)
        w.add(.lineSortKey, lineSortKey)
        w.add(.lineColor, lineColor)
        w.add(.lineWidth, lineWidth)
        w.add(.lineOpacity, lineOpacity)
        w.add(.lineDasharray, lineDasharray)
        return w.node(id: id, type: type, source: source, filter: filter, minZoom: minZoom, maxZoom: maxZoom, visibility: visibility)
    }
}

/// A `circle` layer: points drawn as circles (radius in points).
public struct CircleLayer: Layer {
    public var id: String
    public var source: String
    public var type: LayerType { .circle }
    public var filter: Exp?
    public var minZoom: Double?
    public var maxZoom: Double?
    public var visibility: Value<Visibility>?
    public var circleSortKey: Value<Double>?
    public var circleRadius: Value<Double>?
    public var circleColor: Value<StyleColor>?
    public var circleOpacity: Value<Double>?
    public var circleBlur: Value<Double>?
    public var circleStrokeWidth: Value<Double>?
    public var circleStrokeColor: Value<StyleColor>?
    public var circleStrokeOpacity: Value<Double>?

    public init(id: String, source: String) { self.id = id; self.source = source }

    public var layerJSON: JSONNode {
        var w = LayerWriter()
        w.add(.circleSortKey, circleSortKey)
        w.add(.circleRadius, circleRadius)
        w.add(.circleColor, circleColor)
        w.add(.circleOpacity, circleOpacity)
        w.add(.circleBlur, circleBlur)
        w.add(.circleStrokeWidth, circleStrokeWidth)
        w.add(.circleStrokeColor, circleStrokeColor)
        w.add(.circleStrokeOpacity, circleStrokeOpacity)
        return w.node(id: id, type: type, source: source, filter: filter, minZoom: minZoom, maxZoom: maxZoom, visibility: visibility)
    }
}

/// A `symbol` layer: icons (images added with ``MapboxMap/addImage(_:id:)``) and labels, placed
/// with collision detection.
public struct SymbolLayer: Layer {
    public var id: String
    public var source: String
    public var type: LayerType { .symbol }
    public var filter: Exp?
    public var minZoom: Double?
    public var maxZoom: Double?
    public var visibility: Value<Visibility>?
    // layout
    public var symbolPlacement: Value<SymbolPlacement>?
    public var symbolSpacing: Value<Double>?
    public var symbolSortKey: Value<Double>?
    public var iconImage: Value<ResolvedImage>?
    public var iconSize: Value<Double>?
    /// Degrees clockwise.
    public var iconRotate: Value<Double>?
    public var iconAnchor: Value<IconAnchor>?
    /// `[x, y]` in image pixels × `iconSize`, right and down.
    public var iconOffset: Value<[Double]>?
    public var iconPadding: Value<Double>?
    public var iconAllowOverlap: Value<Bool>?
    public var iconIgnorePlacement: Value<Bool>?
    public var iconOptional: Value<Bool>?
    public var textField: Value<String>?
    public var textFont: Value<[String]>?
    public var textSize: Value<Double>?
    public var textMaxWidth: Value<Double>?
    public var textJustify: Value<TextJustify>?
    public var textAnchor: Value<TextAnchor>?
    /// `[x, y]` in ems.
    public var textOffset: Value<[Double]>?
    public var textRotate: Value<Double>?
    public var textPadding: Value<Double>?
    public var textTransform: Value<TextTransform>?
    public var textAllowOverlap: Value<Bool>?
    public var textIgnorePlacement: Value<Bool>?
    public var textOptional: Value<Bool>?
    // paint
    public var textColor: Value<StyleColor>?
    public var textOpacity: Value<Double>?
    public var textHaloColor: Value<StyleColor>?
    public var textHaloWidth: Value<Double>?
    public var textHaloBlur: Value<Double>?
    public var iconOpacity: Value<Double>?
    public var iconColor: Value<StyleColor>?

    public init(id: String, source: String) { self.id = id; self.source = source }

    public var layerJSON: JSONNode {
        var w = LayerWriter()
        w.add(.symbolPlacement, symbolPlacement)
        w.add(.symbolSpacing, symbolSpacing)
        w.add(.symbolSortKey, symbolSortKey)
        w.add(.iconImage, iconImage)
        w.add(.iconSize, iconSize)
        w.add(.iconRotate, iconRotate)
        w.add(.iconAnchor, iconAnchor)
        w.add(.iconOffset, iconOffset)
        w.add(.iconPadding, iconPadding)
        w.add(.iconAllowOverlap, iconAllowOverlap)
        w.add(.iconIgnorePlacement, iconIgnorePlacement)
        w.add(.iconOptional, iconOptional)
        w.add(.textField, textField)
        w.add(.textFont, textFont)
        w.add(.textSize, textSize)
        w.add(.textMaxWidth, textMaxWidth)
        w.add(.textJustify, textJustify)
        w.add(.textAnchor, textAnchor)
        w.add(.textOffset, textOffset)
        w.add(.textRotate, textRotate)
        w.add(.textPadding, textPadding)
        w.add(.textTransform, textTransform)
        w.add(.textAllowOverlap, textAllowOverlap)
        w.add(.textIgnorePlacement, textIgnorePlacement)
        w.add(.textOptional, textOptional)
        w.add(.textColor, textColor)
        w.add(.textOpacity, textOpacity)
        w.add(.textHaloColor, textHaloColor)
        w.add(.textHaloWidth, textHaloWidth)
        w.add(.textHaloBlur, textHaloBlur)
        w.add(.iconOpacity, iconOpacity)
        w.add(.iconColor, iconColor)
        return w.node(id: id, type: type, source: source, filter: filter, minZoom: minZoom, maxZoom: maxZoom, visibility: visibility)
    }
}

/// A `background` layer: the whole frame in one colour.
public struct BackgroundLayer: Layer {
    public var id: String
    public var type: LayerType { .background }
    public var minZoom: Double?
    public var maxZoom: Double?
    public var visibility: Value<Visibility>?
    public var backgroundColor: Value<StyleColor>?
    public var backgroundOpacity: Value<Double>?

    public init(id: String) { self.id = id }

    public var layerJSON: JSONNode {
        var w = LayerWriter()
        w.add(.backgroundColor, backgroundColor)
        w.add(.backgroundOpacity, backgroundOpacity)
        return w.node(id: id, type: type, source: nil, filter: nil, minZoom: minZoom, maxZoom: maxZoom, visibility: visibility)
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
