import FlybyCore
import FlybyData
import FlybyRender

/// A map described as a value (the Mapbox SwiftUI `Map`): its first viewport, its style and its
/// content, built with ``MapContentBuilder``. SwiftUI views do not exist on Linux; a ``MapHost``
/// plays the part of the SwiftUI view and drives a ``MapView`` from the value.
///
/// ```swift
/// let map = Map(initialViewport: .camera(center: helsinki, zoom: 14)) {
///     GeoJSONSource(id: "zones").data(.geometry(zone))
///     FillLayer(id: "zones-fill", source: "zones").fillColor(StyleColor(css: "#3b8")!).fillOpacity(0.4)
///     PolygonAnnotation(polygon: park).fillColor(.green)
///     MapViewAnnotation(coordinate: station) { Text("Central Station") }.allowOverlap(true)
///     Puck2D(bearing: .course)
///     PointAnnotationGroup(id: "pois", pois) { PointAnnotation(coordinate: $0.coordinate) }.clusterOptions(ClusterOptions())
/// }.mapStyle(.standard)
/// ```
public struct Map {
    public var initialViewport: Viewport
    public var content: [MapContentElement]
    public var styleURI: StyleURI = .standard

    public init(initialViewport: Viewport = .styleDefault, @MapContentBuilder content: () -> [MapContentElement] = { [] }) {
        self.initialViewport = initialViewport
        self.content = content()
    }

    /// The style (Mapbox's `.mapStyle(_:)` modifier; default `.standard`).
    public func mapStyle(_ uri: StyleURI) -> Map {
        var m = self
        m.styleURI = uri
        return m
    }
}

/// One declared piece of map content.
public enum MapContentElement {
    case source(GeoJSONSource)
    case layer(any Layer)
    case polygonAnnotation(PolygonAnnotation)
    case pointAnnotation(PointAnnotation)
    case pointAnnotationGroup(PointAnnotationGroup)
    case viewAnnotation(MapViewAnnotation)
    case puck2D(Puck2D)
}

/// Builds map content from a list of declarations, with `if`, `if`/`else`, `for` and ``ForEvery``
/// (the Mapbox SwiftUI `MapContentBuilder`).
@resultBuilder
public enum MapContentBuilder {
    public static func buildExpression(_ s: GeoJSONSource) -> [MapContentElement] { [.source(s)] }
    public static func buildExpression<L: Layer>(_ l: L) -> [MapContentElement] { [.layer(l)] }
    public static func buildExpression(_ a: PolygonAnnotation) -> [MapContentElement] { [.polygonAnnotation(a)] }
    public static func buildExpression(_ a: PointAnnotation) -> [MapContentElement] { [.pointAnnotation(a)] }
    public static func buildExpression(_ g: PointAnnotationGroup) -> [MapContentElement] { [.pointAnnotationGroup(g)] }
    public static func buildExpression(_ v: MapViewAnnotation) -> [MapContentElement] { [.viewAnnotation(v)] }
    public static func buildExpression(_ p: Puck2D) -> [MapContentElement] { [.puck2D(p)] }
    public static func buildExpression(_ elements: [MapContentElement]) -> [MapContentElement] { elements }
    public static func buildExpression<T>(_ each: ForEvery<T>) -> [MapContentElement] { each.elements }
    public static func buildBlock(_ parts: [MapContentElement]...) -> [MapContentElement] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [MapContentElement]?) -> [MapContentElement] { part ?? [] }
    public static func buildEither(first: [MapContentElement]) -> [MapContentElement] { first }
    public static func buildEither(second: [MapContentElement]) -> [MapContentElement] { second }
    public static func buildArray(_ parts: [[MapContentElement]]) -> [MapContentElement] { parts.flatMap { $0 } }
}

/// Content for every item of a collection (the Mapbox SwiftUI `ForEvery`).
public struct ForEvery<T> {
    let elements: [MapContentElement]
    public init(_ data: [T], @MapContentBuilder content: (T) -> [MapContentElement]) {
        elements = data.flatMap(content)
    }
}

/// The text of a ``MapViewAnnotation`` (on Linux a view annotation is a rendered callout; this
/// stands where the SwiftUI guide writes `Text("…")`).
public struct Text: Hashable, Sendable {
    public var title: String
    public var detail: String?
    public init(_ title: String, detail: String? = nil) { self.title = title; self.detail = detail }
}

/// A view annotation declared in map content (the Mapbox SwiftUI `MapViewAnnotation`).
public struct MapViewAnnotation {
    public var annotatedFeature: AnnotatedFeature
    public var text: Text
    public var allowOverlap = false
    public var visible = true
    public var selected = false
    public var priority = 0
    public var variableAnchors: [ViewAnnotationAnchorConfig] = [.center]
    /// Called when the layout picks a different anchor.
    public var onAnchorChanged: ((ViewAnnotationAnchorConfig) -> Void)?

    public init(coordinate: LocationCoordinate2D, content: () -> Text) {
        annotatedFeature = .geometry(.point(coordinate)); text = content()
    }

    public init(layerId: String, featureId: String? = nil, content: () -> Text) {
        annotatedFeature = .layerFeature(layerId: layerId, featureId: featureId); text = content()
    }

    public func allowOverlap(_ v: Bool) -> MapViewAnnotation { var a = self; a.allowOverlap = v; return a }
    public func visible(_ v: Bool) -> MapViewAnnotation { var a = self; a.visible = v; return a }
    public func selected(_ v: Bool) -> MapViewAnnotation { var a = self; a.selected = v; return a }
    public func priority(_ v: Int) -> MapViewAnnotation { var a = self; a.priority = v; return a }
    public func variableAnchors(_ v: [ViewAnnotationAnchorConfig]) -> MapViewAnnotation { var a = self; a.variableAnchors = v; return a }
    public func onAnchorChanged(_ action: @escaping (ViewAnnotationAnchorConfig) -> Void) -> MapViewAnnotation {
        var a = self; a.onAnchorChanged = action; return a
    }
}

/// The 2D location puck in map content (the Mapbox SwiftUI `Puck2D`).
public struct Puck2D: Hashable, Sendable {
    public var bearing: PuckBearing?
    /// - Parameter bearing: the arrow follows the heading or the course; nil: no arrow turning.
    public init(bearing: PuckBearing? = nil) { self.bearing = bearing }
}

/// How a ``PointAnnotationGroup`` gathers nearby points (Mapbox's `ClusterOptions`).
///
/// Points closer than `clusterRadius` screen points at the current integer zoom are drawn as
/// one bubble with their count, up to `clusterMaxZoom`. The pass is greedy in the group's order
/// (deterministic); Mapbox's supercluster builds a hierarchy over all zooms instead, which can
/// group slightly differently.
public struct ClusterOptions: Hashable, Sendable {
    public var circleColor: StyleColor
    public var textColor: StyleColor
    /// Screen points.
    public var clusterRadius: Double
    /// At zooms above this the points are never clustered.
    public var clusterMaxZoom: Double
    /// The fewest points that make a cluster.
    public var clusterMinPoints: Int

    public init(circleColor: StyleColor = StyleColor(r8: 0x51, g8: 0xBB, b8: 0xD6), textColor: StyleColor = .white,
                clusterRadius: Double = 50, clusterMaxZoom: Double = 14, clusterMinPoints: Int = 2) {
        self.circleColor = circleColor; self.textColor = textColor; self.clusterRadius = clusterRadius
        self.clusterMaxZoom = clusterMaxZoom; self.clusterMinPoints = clusterMinPoints
    }
}

/// A group of point annotations drawn by one manager, optionally clustered (the Mapbox SwiftUI
/// `PointAnnotationGroup`).
public struct PointAnnotationGroup {
    /// The manager (and layer) id.
    public var id: String
    public var annotations: [PointAnnotation]
    public var clusterOptions: ClusterOptions?

    public init(id: String, _ annotations: [PointAnnotation]) { self.id = id; self.annotations = annotations }

    /// One annotation per item.
    public init<T>(id: String, _ data: [T], content: (T) -> PointAnnotation) {
        self.init(id: id, data.map(content))
    }

    public func clusterOptions(_ options: ClusterOptions) -> PointAnnotationGroup { var g = self; g.clusterOptions = options; return g }
}

// MARK: SwiftUI-style modifiers on the style and annotation types

extension GeoJSONSource {
    public func data(_ data: GeoJSONSource.Data) -> GeoJSONSource { var s = self; s.data = data; return s }
}

extension FillLayer {
    public func fillColor(_ c: StyleColor) -> FillLayer { var l = self; l.fillColor = .constant(c); return l }
    public func fillOpacity(_ v: Double) -> FillLayer { var l = self; l.fillOpacity = .constant(v); return l }
    public func fillOutlineColor(_ c: StyleColor) -> FillLayer { var l = self; l.fillOutlineColor = .constant(c); return l }
}

extension PolygonAnnotation {
    public func fillColor(_ c: StyleColor) -> PolygonAnnotation { var a = self; a.fillColor = c; return a }
    public func fillOpacity(_ v: Double) -> PolygonAnnotation { var a = self; a.fillOpacity = v; return a }
    public func fillOutlineColor(_ c: StyleColor) -> PolygonAnnotation { var a = self; a.fillOutlineColor = c; return a }
    /// Mapbox SwiftUI's `.onTapGesture { }`.
    public func onTapGesture(_ handler: @escaping (MapContentGestureContext) -> Void) -> PolygonAnnotation {
        var a = self; a.tapHandler = { handler($0); return true }; return a
    }
}

extension PointAnnotation {
    public func image(_ image: PointAnnotation.Image) -> PointAnnotation { var a = self; a.image = image; return a }
    public func iconAnchor(_ anchor: IconAnchor) -> PointAnnotation { var a = self; a.iconAnchor = anchor; return a }
}
