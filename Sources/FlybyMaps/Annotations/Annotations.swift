import FlybyCore
import FlybyData
import FlybyRender
import Synchronization

/// Something drawn by an annotation manager (Mapbox's `Annotation`).
public protocol Annotation {
    /// Unique within its manager; generated (`annotation-N`) when not given.
    var id: String { get }
    var geometry: Geometry { get }
    /// Free data of the app, not drawn.
    var userInfo: [String: Any]? { get set }
}

/// An annotation kind: how it becomes a feature and a layer of its manager.
public protocol StyledAnnotation: Annotation {
    /// The manager's layer, whose properties read each feature's properties.
    static func makeLayer(id: String, source: String) -> any Layer
    /// Feature properties (style property name → value) written for this annotation.
    var styleProperties: [(key: String, value: PropertyValue)] { get }
    /// A tap on the annotation (Mapbox v11's `tapHandler`); return true when handled.
    var tapHandler: ((MapContentGestureContext) -> Bool)? { get set }
    /// A long press on the annotation; return true when handled.
    var longPressHandler: ((MapContentGestureContext) -> Bool)? { get set }
}

private let annotationCounter = Atomic<Int>(0)

/// The next generated annotation id (`annotation-N`, N counting up in this process).
public func makeAnnotationID() -> String {
    "annotation-\(annotationCounter.add(1, ordering: .relaxed).newValue)"
}

/// `["get", name]`: a layer property that reads each annotation's own value (unset values fall
/// back to the property's default when `get` finds nothing).
func annotationValue<T>(_ property: StyleProperty) -> Value<T> {
    .expression(Exp(.get) { property.rawValue })
}

func styleColorValue(_ c: StyleColor?) -> PropertyValue? { c.map { .string($0.description) } }

/// Collects the set properties of an annotation.
struct AnnotationProperties {
    var items: [(key: String, value: PropertyValue)] = []
    mutating func add(_ p: StyleProperty, _ v: Double?) { if let v { items.append((p.rawValue, .number(v))) } }
    mutating func add(_ p: StyleProperty, _ v: StyleColor?) { if let v { items.append((p.rawValue, .string(v.description))) } }
    mutating func add(_ p: StyleProperty, _ v: String?) { if let v { items.append((p.rawValue, .string(v))) } }
    mutating func add(_ p: StyleProperty, _ v: [Double]?) { if let v { items.append((p.rawValue, .array(v.map { .number($0) }))) } }
}

/// A polyline (Mapbox's `PolylineAnnotation`): `PolylineAnnotation(lineCoordinates: [a, b])`
/// with `lineColor`, `lineOpacity`, `lineWidth` (points).
public struct PolylineAnnotation: StyledAnnotation {
    public var id: String
    public var lineCoordinates: [LocationCoordinate2D]
    public var geometry: Geometry { .lineString(lineCoordinates) }
    public var userInfo: [String: Any]?
    public var lineColor: StyleColor?
    public var lineOpacity: Double?
    public var lineWidth: Double?
    public var lineSortKey: Double?
    public var tapHandler: ((MapContentGestureContext) -> Bool)?
    public var longPressHandler: ((MapContentGestureContext) -> Bool)?

    public init(id: String = makeAnnotationID(), lineCoordinates: [LocationCoordinate2D]) {
        self.id = id
        self.lineCoordinates = lineCoordinates
    }

    public static func makeLayer(id: String, source: String) -> any Layer {
        var l = LineLayer(id: id, source: source)
        l.lineColor = annotationValue(.lineColor)
        l.lineOpacity = annotationValue(.lineOpacity)
        l.lineWidth = annotationValue(.lineWidth)
        l.lineSortKey = annotationValue(.lineSortKey)
        l.lineJoin = .constant(.round)
        l.lineCap = .constant(.round)
        return l
    }

    public var styleProperties: [(key: String, value: PropertyValue)] {
        var p = AnnotationProperties()
        p.add(.lineColor, lineColor); p.add(.lineOpacity, lineOpacity); p.add(.lineWidth, lineWidth); p.add(.lineSortKey, lineSortKey)
        return p.items
    }
}

/// A polygon with optional holes (Mapbox's `PolygonAnnotation`).
public struct PolygonAnnotation: StyledAnnotation {
    public var id: String
    public var polygon: Polygon
    public var geometry: Geometry { .polygon([polygon.outerRing.coordinates] + polygon.innerRings.map(\.coordinates)) }
    public var userInfo: [String: Any]?
    public var fillColor: StyleColor?
    public var fillOpacity: Double?
    public var fillOutlineColor: StyleColor?
    public var fillSortKey: Double?
    public var tapHandler: ((MapContentGestureContext) -> Bool)?
    public var longPressHandler: ((MapContentGestureContext) -> Bool)?

    public init(id: String = makeAnnotationID(), polygon: Polygon) {
        self.id = id
        self.polygon = polygon
    }

    public static func makeLayer(id: String, source: String) -> any Layer {
        var l = FillLayer(id: id, source: source)
        l.fillColor = annotationValue(.fillColor)
        l.fillOpacity = annotationValue(.fillOpacity)
        l.fillOutlineColor = annotationValue(.fillOutlineColor)
        l.fillSortKey = annotationValue(.fillSortKey)
        return l
    }

    public var styleProperties: [(key: String, value: PropertyValue)] {
        var p = AnnotationProperties()
        p.add(.fillColor, fillColor); p.add(.fillOpacity, fillOpacity); p.add(.fillOutlineColor, fillOutlineColor); p.add(.fillSortKey, fillSortKey)
        return p.items
    }
}

/// A closed ring of coordinates (Turf's `Ring`); closing the ring is optional.
public struct Ring: Hashable, Sendable {
    public var coordinates: [LocationCoordinate2D]
    public init(coordinates: [LocationCoordinate2D]) { self.coordinates = coordinates }
}

/// A polygon: an outer ring and holes (Turf's `Polygon`).
public struct Polygon: Hashable, Sendable {
    public var outerRing: Ring
    public var innerRings: [Ring]
    public init(outerRing: Ring, innerRings: [Ring] = []) { self.outerRing = outerRing; self.innerRings = innerRings }
    /// Rings as GeoJSON writes them: the first is the outer boundary, the rest are holes.
    public init(_ rings: [[LocationCoordinate2D]]) {
        outerRing = Ring(coordinates: rings.first ?? [])
        innerRings = rings.dropFirst().map { Ring(coordinates: $0) }
    }
}

/// A circle at a coordinate, radius in points (Mapbox's `CircleAnnotation`).
public struct CircleAnnotation: StyledAnnotation {
    public var id: String
    public var point: LocationCoordinate2D
    public var geometry: Geometry { .point(point) }
    public var userInfo: [String: Any]?
    public var circleColor: StyleColor?
    public var circleRadius: Double?
    public var circleOpacity: Double?
    public var circleStrokeColor: StyleColor?
    public var circleStrokeWidth: Double?
    public var circleSortKey: Double?
    public var tapHandler: ((MapContentGestureContext) -> Bool)?
    public var longPressHandler: ((MapContentGestureContext) -> Bool)?

    public init(id: String = makeAnnotationID(), centerCoordinate: LocationCoordinate2D) {
        self.id = id
        self.point = centerCoordinate
    }

    public static func makeLayer(id: String, source: String) -> any Layer {
        var l = CircleLayer(id: id, source: source)
        l.circleColor = annotationValue(.circleColor)
        l.circleRadius = annotationValue(.circleRadius)
        l.circleOpacity = annotationValue(.circleOpacity)
        l.circleStrokeColor = annotationValue(.circleStrokeColor)
        l.circleStrokeWidth = annotationValue(.circleStrokeWidth)
        l.circleSortKey = annotationValue(.circleSortKey)
        return l
    }

    public var styleProperties: [(key: String, value: PropertyValue)] {
        var p = AnnotationProperties()
        p.add(.circleColor, circleColor); p.add(.circleRadius, circleRadius); p.add(.circleOpacity, circleOpacity)
        p.add(.circleStrokeColor, circleStrokeColor); p.add(.circleStrokeWidth, circleStrokeWidth); p.add(.circleSortKey, circleSortKey)
        return p.items
    }
}

/// A marker: an image and/or a label at a coordinate (Mapbox's `PointAnnotation`).
public struct PointAnnotation: StyledAnnotation {
    /// The marker image and the name it is registered under in the style.
    public struct Image {
        public var image: PixelBuffer
        public var name: String
        public init(image: PixelBuffer, name: String) { self.image = image; self.name = name }
    }

    public var id: String
    public var point: LocationCoordinate2D
    public var geometry: Geometry { .point(point) }
    public var userInfo: [String: Any]?
    public var image: Image?
    public var iconAnchor: IconAnchor?
    public var iconSize: Double?
    public var iconRotate: Double?
    /// `[x, y]` in image pixels × `iconSize`.
    public var iconOffset: [Double]?
    public var textField: String?
    public var textColor: StyleColor?
    public var textSize: Double?
    public var textAnchor: TextAnchor?
    /// `[x, y]` in ems.
    public var textOffset: [Double]?
    public var textHaloColor: StyleColor?
    public var textHaloWidth: Double?
    public var symbolSortKey: Double?
    public var tapHandler: ((MapContentGestureContext) -> Bool)?
    public var longPressHandler: ((MapContentGestureContext) -> Bool)?

    public init(id: String = makeAnnotationID(), coordinate: LocationCoordinate2D) {
        self.id = id
        self.point = coordinate
    }

    /// Mapbox's `PointAnnotation(image:)` spelling (the coordinate set afterwards).
    public init(id: String = makeAnnotationID(), coordinate: LocationCoordinate2D, image: Image?) {
        self.init(id: id, coordinate: coordinate)
        self.image = image
    }

    public static func makeLayer(id: String, source: String) -> any Layer {
        var l = SymbolLayer(id: id, source: source)
        l.iconImage = annotationValue(.iconImage)
        l.iconAnchor = annotationValue(.iconAnchor)
        l.iconSize = annotationValue(.iconSize)
        l.iconRotate = annotationValue(.iconRotate)
        l.iconOffset = annotationValue(.iconOffset)
        l.textField = annotationValue(.textField)
        l.textColor = annotationValue(.textColor)
        l.textSize = annotationValue(.textSize)
        l.textAnchor = annotationValue(.textAnchor)
        l.textOffset = annotationValue(.textOffset)
        l.textHaloColor = annotationValue(.textHaloColor)
        l.textHaloWidth = annotationValue(.textHaloWidth)
        l.symbolSortKey = annotationValue(.symbolSortKey)
        // Markers are all shown, as Mapbox's point annotation manager does by default.
        l.iconAllowOverlap = .constant(true)
        l.textAllowOverlap = .constant(true)
        return l
    }

    public var styleProperties: [(key: String, value: PropertyValue)] {
        var p = AnnotationProperties()
        p.add(.iconImage, image?.name); p.add(.iconAnchor, iconAnchor?.rawValue); p.add(.iconSize, iconSize)
        p.add(.iconRotate, iconRotate); p.add(.iconOffset, iconOffset); p.add(.textField, textField)
        p.add(.textColor, textColor); p.add(.textSize, textSize); p.add(.textAnchor, textAnchor?.rawValue)
        p.add(.textOffset, textOffset); p.add(.textHaloColor, textHaloColor); p.add(.textHaloWidth, textHaloWidth)
        p.add(.symbolSortKey, symbolSortKey)
        return p.items
    }

    /// The marker image's box on screen (points), for taps; nil without an image or off screen.
    func imageBox(on map: MapboxMap) -> ScreenRect? {
        guard let image, let p = map.point(for: point) else { return nil }
        let scale = iconSize ?? 1
        let w = Double(image.image.width) * scale, h = Double(image.image.height) * scale
        var x = p.x - w / 2, y = p.y - h / 2
        switch iconAnchor ?? .center {
        case .center: break
        case .left: x = p.x
        case .right: x = p.x - w
        case .top: y = p.y
        case .bottom: y = p.y - h
        case .topLeft: x = p.x; y = p.y
        case .topRight: x = p.x - w; y = p.y
        case .bottomLeft: x = p.x; y = p.y - h
        case .bottomRight: x = p.x - w; y = p.y - h
        }
        if let o = iconOffset, o.count == 2 { x += o[0] * scale; y += o[1] * scale }
        return ScreenRect(x: x, y: y, width: w, height: h)
    }
}
