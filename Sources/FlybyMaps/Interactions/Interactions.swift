import FlybyCore
import FlybyData
import FlybyRender

/// A named group of style layers whose features are interactive (Mapbox v11's featuresets of the
/// Standard style: `.standardPoi`, `.standardBuildings`, `.standardPlaceLabels`). In Flyby a
/// featureset is simply a list of layer ids of the loaded style.
public struct FeaturesetDescriptor: Hashable, Sendable {
    public var featuresetId: String
    /// The layers whose features belong to the set (symbol layers are hit by their label boxes).
    public var layerIds: [String]

    public init(featuresetId: String, layerIds: [String]) { self.featuresetId = featuresetId; self.layerIds = layerIds }

    /// The points of interest of the built-in `standard` style (its `poi` circles and labels).
    public static let standardPoi = FeaturesetDescriptor(featuresetId: "poi", layerIds: ["poi-labels", "poi"])
    /// The buildings of the `standard` (and `city`) style.
    public static let standardBuildings = FeaturesetDescriptor(featuresetId: "buildings", layerIds: ["buildings"])
    /// The place labels (city blocks and parks) of the `standard` style.
    public static let standardPlaceLabels = FeaturesetDescriptor(featuresetId: "place-labels", layerIds: ["place-labels"])
}

/// A feature of a featureset, found by an interaction (Mapbox's `FeaturesetFeature`).
public struct FeaturesetFeature: Sendable {
    public var featureset: FeaturesetDescriptor
    /// The layer it was hit in.
    public var layerId: String
    public var sourceId: String
    /// Its id for feature state, as text (nil when the source gives it none).
    public var id: String?
    public var featureIndex: Int
    public var properties: PropertyMap
    public var geometry: Geometry
}

/// Where an interaction happened (Mapbox's `InteractionContext`).
public typealias InteractionContext = MapContentGestureContext

/// The gesture an ``Interaction`` answers.
public enum InteractionGestureKind: Sendable { case tap, longPress }

/// Marks the gesture of an ``Interaction`` type.
public protocol InteractionGesture { static var kind: InteractionGestureKind { get } }
public enum TapGesture: InteractionGesture { public static let kind = InteractionGestureKind.tap }
public enum LongPressGesture: InteractionGesture { public static let kind = InteractionGestureKind.longPress }

/// A gesture on a featureset (or, with no featureset, on the map). Return true from the handler
/// to stop the gesture there. Mapbox's `TapInteraction` and `LongPressInteraction` are this type
/// for each gesture.
public struct Interaction<Gesture: InteractionGesture> {
    public var featureset: FeaturesetDescriptor?
    public var handler: (FeaturesetFeature?, InteractionContext) -> Bool

    public init(_ featureset: FeaturesetDescriptor, handler: @escaping (FeaturesetFeature, InteractionContext) -> Bool) {
        self.featureset = featureset
        self.handler = { feature, context in feature.map { handler($0, context) } ?? false }
    }

    /// The gesture anywhere on the map, when no featureset interaction handled it.
    public init(handler: @escaping (InteractionContext) -> Bool) {
        featureset = nil
        self.handler = { _, context in handler(context) }
    }
}

public typealias TapInteraction = Interaction<TapGesture>
public typealias LongPressInteraction = Interaction<LongPressGesture>

/// Runs the interactions of a ``MapView`` on its taps and long presses that no annotation took.
///
/// The features under the point are collected from every featureset that has an interaction
/// and taken topmost first (labels above everything, then layers in reverse drawing order), so
/// a POI drawn over a building gets the tap before the building, whatever order the
/// interactions were added in. For each feature the interactions of its featureset run, the
/// most recently added first, until a handler returns true; then the map-wide interactions
/// (no featureset) run the same way.
public final class InteractionsManager {
    unowned let mapView: MapView
    private var interactions: [(id: Int, gesture: InteractionGestureKind, handler: Handler)] = []
    private var nextID = 0
    private var subscriptions: [Cancelable] = []

    typealias Handler = (featureset: FeaturesetDescriptor?, handle: (FeaturesetFeature?, InteractionContext) -> Bool)

    init(mapView: MapView) {
        self.mapView = mapView
        subscriptions.append(mapView.gestures.onMapTap.observe { [unowned self] context in _ = self.dispatch(.tap, context) })
        subscriptions.append(mapView.gestures.onMapLongPress.observe { [unowned self] context in _ = self.dispatch(.longPress, context) })
    }

    @discardableResult
    public func add<G>(_ interaction: Interaction<G>) -> Cancelable {
        let id = nextID
        nextID += 1
        interactions.append((id, G.kind, (interaction.featureset, interaction.handler)))
        return BlockCancelable { [weak self] in self?.interactions.removeAll { $0.id == id } }
    }

    /// The interactions of a gesture, the most recently added first.
    private func dispatch(_ gesture: InteractionGestureKind, _ context: InteractionContext) -> Bool {
        let handlers = interactions.reversed().filter { $0.gesture == gesture }.map(\.handler)
        var sets: [FeaturesetDescriptor] = []
        for h in handlers { if let f = h.featureset, !sets.contains(f) { sets.append(f) } }
        // One placed frame serves every featureset's symbol hits (the query places labels only
        // when the camera, states or images changed since the last frame).
        var hits: [FeaturesetFeature] = []
        for set in sets { hits += mapView.queryRenderedFeatures(at: context.point, featureset: set) }
        let style = mapView.mapboxMap.loadedStyle.style
        func rank(_ f: FeaturesetFeature) -> Int {
            let k = style.layers.firstIndex { $0.id == f.layerId } ?? 0
            return (style.layers[k].type == .symbol ? style.layers.count : 0) + k
        }
        // Stable: within a layer, the query's own topmost-first order stays.
        let ordered = hits.enumerated().sorted { a, b in
            let ra = rank(a.element), rb = rank(b.element)
            return ra != rb ? ra > rb : a.offset < b.offset
        }.map(\.element)
        for feature in ordered {
            for h in handlers where h.featureset == feature.featureset {
                if h.handle(feature, context) { return true }
            }
        }
        for h in handlers where h.featureset == nil {
            if h.handle(nil, context) { return true }
        }
        return false
    }
}

extension MapView {
    /// Adds a tap or long-press interaction (Mapbox: `mapboxMap.addInteraction(TapInteraction(...))`).
    @discardableResult
    public func addInteraction<G>(_ interaction: Interaction<G>) -> Cancelable { interactions.add(interaction) }

    /// The features of a featureset under a screen point, topmost first: labels and icons of its
    /// symbol layers (hit by the boxes placed for the current camera, so only symbols that are
    /// drawn count), then its circles, lines and fills, as
    /// ``MapboxMap/queryRenderedFeatures(with:options:)`` finds them.
    public func queryRenderedFeatures(at point: ScreenPoint, featureset: FeaturesetDescriptor) -> [FeaturesetFeature] {
        let style = mapboxMap.loadedStyle
        return mapboxMap.queryRenderedFeatures(with: point, options: RenderedQueryOptions(layerIds: featureset.layerIds, filter: nil)).compactMap { hit in
            style.sources.first { $0.id == hit.sourceID }.map { feature(featureset, hit.layerID, $0, hit.featureIndex) }
        }
    }

    private func feature(_ set: FeaturesetDescriptor, _ layerId: String, _ source: LoadedSource, _ k: Int) -> FeaturesetFeature {
        let f = source.data.features[k]
        return FeaturesetFeature(featureset: set, layerId: layerId, sourceId: source.id, id: source.featureIDs[k].map(MapboxMap.featureIDText),
                                 featureIndex: k, properties: f.properties, geometry: f.geometry)
    }
}

extension MapboxMap {
    /// Sets keys of a featureset feature's state (Mapbox: `setFeatureState(_:state:)`).
    public func setFeatureState(_ feature: FeaturesetFeature, state: [String: Any]) {
        guard let id = feature.id else { return }
        setFeatureState(sourceId: feature.sourceId, featureId: id, state: state)
    }

    /// Removes a featureset feature's state, or one key of it.
    public func removeFeatureState(_ feature: FeaturesetFeature, stateKey: String? = nil) {
        guard let id = feature.id else { return }
        removeFeatureState(sourceId: feature.sourceId, featureId: id, stateKey: stateKey)
    }

    /// Clears the state of every feature of a featureset (Mapbox: `resetFeatureStates(featureset:)`).
    public func resetFeatureStates(featureset: FeaturesetDescriptor) {
        let style = loadedStyle
        var sources: [String] = []
        for id in featureset.layerIds {
            if let s = style.style.layer(id: id)?.source, !sources.contains(s) { sources.append(s) }
        }
        for s in sources { resetFeatureStates(sourceId: s) }
    }

    /// The label and icon boxes of a frame drawn now (renders one frame to place them), in
    /// screen points.
    public func placedLabelBoxes() -> [SymbolBox] {
        var scratch = PixelBuffer(width: max(1, Int(size.width.rounded())), height: max(1, Int(size.height.rounded())))
        render(puck: nil, ornaments: OrnamentOptions(), into: &scratch)
        return currentRenderer()?.placedSymbolBoxes ?? []
    }

    /// A feature id as the text `setFeatureState(sourceId:featureId:)` takes ("7" for 7.0).
    public static func featureIDText(_ id: PropertyValue) -> String {
        switch id {
        case .number(let d) where d == d.rounded() && abs(d) < 1e15: return String(Int(d))
        case .string(let s): return s
        default: return id.description
        }
    }
}
