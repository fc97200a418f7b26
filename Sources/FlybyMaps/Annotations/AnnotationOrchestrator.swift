import FlybyCore
import FlybyData
import FlybyRender

/// What every annotation manager offers (Mapbox's `AnnotationManager`).
public protocol AnnotationManager: AnyObject {
    /// The manager's id; also the id of its generated source and layer.
    var id: String { get }
    var sourceId: String { get }
    var layerId: String { get }
}

/// Told which annotations a tap hit (Mapbox v10's `AnnotationInteractionDelegate`).
public protocol AnnotationInteractionDelegate: AnyObject {
    /// The annotations under the tap, topmost first (never empty).
    func annotationManager(_ manager: AnnotationManager, didDetectTappedAnnotations annotations: [Annotation])
}

public typealias PointAnnotationManager = StyledAnnotationManager<PointAnnotation>
public typealias PolylineAnnotationManager = StyledAnnotationManager<PolylineAnnotation>
public typealias PolygonAnnotationManager = StyledAnnotationManager<PolygonAnnotation>
public typealias CircleAnnotationManager = StyledAnnotationManager<CircleAnnotation>

/// Manages annotations of one kind, drawn as a generated GeoJSON source and one layer whose
/// properties read each annotation's values (the way Mapbox's managers work). Assigning
/// ``annotations`` updates the source at once.
public final class StyledAnnotationManager<A: StyledAnnotation>: AnnotationManager {
    public let id: String
    public var sourceId: String { id }
    public var layerId: String { id }
    /// The annotations, drawn in this order (later above earlier, unless a sort key says else).
    public var annotations: [A] = [] {
        didSet { sync() }
    }
    /// Told about taps on this manager's annotations.
    public weak var delegate: AnnotationInteractionDelegate?
    /// The last error from writing the annotations into the style (nil when they are drawn).
    public private(set) var lastError: InputError?

    private unowned let mapboxMap: MapboxMap
    private let layerPosition: LayerPosition?
    private var isInStyle = false

    init(id: String, mapboxMap: MapboxMap, layerPosition: LayerPosition?) {
        self.id = id
        self.mapboxMap = mapboxMap
        self.layerPosition = layerPosition
        sync()
    }

    /// The style lost the generated source and layer (a style switch): add them again.
    func styleReloaded() {
        isInStyle = false
        sync()
    }

    func removeFromStyle() {
        if mapboxMap.layerExists(withId: layerId) { try? mapboxMap.removeLayer(withId: layerId) }
        if mapboxMap.sourceExists(withId: sourceId) { try? mapboxMap.removeSource(withId: sourceId) }
        isInStyle = false
    }

    private func sync() {
        do {
            if let points = annotations as? [PointAnnotation] {
                for p in points { if let image = p.image, !mapboxMap.imageExists(withId: image.name) { try mapboxMap.addImage(image.image, id: image.name) } }
            }
            let features = annotations.map { a in
                Feature(id: .string(a.id), geometry: a.geometry, properties: PropertyMap(a.styleProperties))
            }
            let data = GeoJSONSource.Data.featureCollection(FeatureCollection(features: features, name: id))
            if isInStyle {
                try mapboxMap.updateGeoJSONSource(withId: sourceId, data: data)
            } else {
                var source = GeoJSONSource(id: sourceId)
                source.data = data
                try mapboxMap.addSource(source)
                try mapboxMap.addLayer(A.makeLayer(id: layerId, source: sourceId), layerPosition: layerPosition)
                isInStyle = true
            }
            lastError = nil
        } catch {
            lastError = error
        }
    }

    /// The annotations under a screen point, topmost first.
    func annotations(at point: ScreenPoint) -> [A] {
        if A.self == PointAnnotation.self {
            return annotations.reversed().filter { a in
                guard let box = (a as? PointAnnotation)?.imageBox(on: mapboxMap) else { return false }
                return box.contains(point)
            }
        }
        let hits = mapboxMap.queryRenderedFeatures(with: point, options: RenderedQueryOptions(layerIds: [layerId], filter: nil))
        return hits.compactMap { hit in annotations.first { .string($0.id) == hit.featureID } }
    }

    /// Handles a tap: the annotations' tap handlers, then the delegate. True when handled.
    func handleTap(_ context: MapContentGestureContext) -> Bool {
        let hit = annotations(at: context.point)
        guard !hit.isEmpty else { return false }
        var handled = false
        for a in hit { if let h = a.tapHandler, h(context) { handled = true; break } }
        if let delegate {
            delegate.annotationManager(self, didDetectTappedAnnotations: hit)
            handled = true
        }
        return handled
    }

    func handleLongPress(_ context: MapContentGestureContext) -> Bool {
        for a in annotations(at: context.point) { if let h = a.longPressHandler, h(context) { return true } }
        return false
    }
}

/// `mapView.annotations` (Mapbox's `AnnotationOrchestrator`): makes annotation managers, whose
/// layers go on top of the style (or at `layerPosition`).
public final class AnnotationOrchestrator {
    private unowned let mapView: MapView
    private var managers: [(id: String, manager: AnyObject, tap: (MapContentGestureContext) -> Bool,
                            longPress: (MapContentGestureContext) -> Bool, reload: () -> Void, remove: () -> Void)] = []
    private var styleObservation: Cancelable?
    private var nextID = 1

    init(mapView: MapView) {
        self.mapView = mapView
        styleObservation = mapView.mapboxMap.onStyleLoaded.observe { [unowned self] _ in
            for m in managers { m.reload() }
        }
    }

    /// The managers by id.
    public var annotationManagersById: [String: AnnotationManager] {
        var out: [String: AnnotationManager] = [:]
        for m in managers { out[m.id] = m.manager as? AnnotationManager }
        return out
    }

    public func makePointAnnotationManager(id: String? = nil, layerPosition: LayerPosition? = nil) -> PointAnnotationManager {
        make(id, "point", layerPosition)
    }

    public func makePolylineAnnotationManager(id: String? = nil, layerPosition: LayerPosition? = nil) -> PolylineAnnotationManager {
        make(id, "polyline", layerPosition)
    }

    public func makePolygonAnnotationManager(id: String? = nil, layerPosition: LayerPosition? = nil) -> PolygonAnnotationManager {
        make(id, "polygon", layerPosition)
    }

    public func makeCircleAnnotationManager(id: String? = nil, layerPosition: LayerPosition? = nil) -> CircleAnnotationManager {
        make(id, "circle", layerPosition)
    }

    /// Removes a manager and its source and layer.
    public func removeAnnotationManager(withId id: String) {
        guard let k = managers.firstIndex(where: { $0.id == id }) else { return }
        managers[k].remove()
        managers.remove(at: k)
    }

    private func make<A>(_ id: String?, _ kind: String, _ position: LayerPosition?) -> StyledAnnotationManager<A> {
        var mid = id ?? "\(kind)-annotation-manager-\(nextID)"
        nextID += 1
        while managers.contains(where: { $0.id == mid }) || mapView.mapboxMap.layerExists(withId: mid) || mapView.mapboxMap.sourceExists(withId: mid) { mid += "-\(nextID)"; nextID += 1 }
        let m = StyledAnnotationManager<A>(id: mid, mapboxMap: mapView.mapboxMap, layerPosition: position)
        managers.append((mid, m, { [unowned m] in m.handleTap($0) }, { [unowned m] in m.handleLongPress($0) },
                         { [unowned m] in m.styleReloaded() }, { [unowned m] in m.removeFromStyle() }))
        return m
    }

    /// The managers in drawing order, topmost first.
    private var topmostFirst: [Int] {
        let order = mapView.mapboxMap.allLayerIdentifiers
        return managers.indices.sorted { (order.firstIndex(of: managers[$0].id) ?? -1) > (order.firstIndex(of: managers[$1].id) ?? -1) }
    }

    /// Offers a tap to the managers, topmost first; true when one handled it.
    func handleTap(_ context: MapContentGestureContext) -> Bool {
        topmostFirst.contains { managers[$0].tap(context) }
    }

    /// Offers a long press to the managers, topmost first; true when one handled it.
    func handleLongPress(_ context: MapContentGestureContext) -> Bool {
        topmostFirst.contains { managers[$0].longPress(context) }
    }
}
