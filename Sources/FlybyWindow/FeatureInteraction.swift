import FlybyCore
import FlybyData
import FlybyRender

/// A map feature the user picked: enough to set its feature state and to name it.
public struct FeatureRef: Hashable, Sendable {
    /// The style source it comes from.
    public var source: String
    /// Its feature-state id (promoteId, GeoJSON id or generated).
    public var id: PropertyValue
    /// What the callout shows: the `name` property, else the source and id.
    public var name: String

    public init(source: String, id: PropertyValue, name: String) {
        self.source = source; self.id = id; self.name = name
    }

    /// The feature a query hit names, or nil when it has no feature-state id.
    public init?(_ hit: QueriedFeature) {
        guard let id = hit.featureID else { return nil }
        let name = hit.properties["name"]?.stringValue ?? hit.properties["name_en"]?.stringValue
        self.init(source: hit.sourceID, id: id, name: name ?? "\(hit.sourceID) \(FeatureRef.text(of: id))")
    }

    /// `style/source/id` as trace events name it (`world/countries-50m/FIN`).
    public func path(style: String) -> String { "\(style)/\(source)/\(FeatureRef.text(of: id))" }

    /// An id as plain text: strings unquoted, numbers as JSON prints them.
    static func text(of id: PropertyValue) -> String { id.stringValue ?? id.description }
}

/// A change the window makes to the renderer's feature state (and names in the trace).
public enum FeatureStateChange: Hashable, Sendable {
    /// Sets (`true`) or removes (`false`) a boolean state key on one feature.
    case set(key: String, on: Bool, FeatureRef)
    /// Removes every state of every feature.
    case removeAll

    /// The feature-state keys the window uses (the built-in styles read them).
    public static let selectKey = "select", hoverKey = "hover"

    /// The trace event for this change: `select world/countries-50m/FIN`, `deselect …`,
    /// `hover …`, `unhover …`, `clear feature states`.
    public func event(style: String) -> String {
        switch self {
        case .removeAll: return "clear feature states"
        case let .set(key, on, feature):
            let verb = key == Self.selectKey ? (on ? "select" : "deselect") : (on ? key : "un" + key)
            return "\(verb) \(feature.path(style: style))"
        }
    }
}

/// The callout the window draws for the selected feature: its name, pointing at the place that
/// was clicked (a ground coordinate, so it stays on the feature as the camera moves).
public struct Callout: Equatable, Sendable {
    public var text: String
    public var anchor: LocationCoordinate2D
    public init(text: String, anchor: LocationCoordinate2D) { self.text = text; self.anchor = anchor }
}

/// What the user has picked on the map: the selected feature (click), the hovered one (pointer
/// motion) and the callout. Pure state: each call returns the feature-state changes to apply, in
/// order, so the same logic serves the window and the tests.
///
/// Behaviour follows Mapbox's interactive-feature examples: a click selects the feature under
/// the pointer and deselects the previous one, a click on nothing deselects, hovering marks one
/// feature at a time, and a clear drops every state.
public struct FeatureInteraction: Sendable {
    public private(set) var selected: FeatureRef?
    public private(set) var hovered: FeatureRef?
    public private(set) var callout: Callout?

    public init() {}

    /// A click that hit `feature` (nil: nothing selectable) at ground point `anchor`.
    public mutating func select(_ feature: FeatureRef?, at anchor: LocationCoordinate2D) -> [FeatureStateChange] {
        callout = feature.map { Callout(text: $0.name, anchor: anchor) }
        defer { selected = feature }
        return Self.move(FeatureStateChange.selectKey, from: selected, to: feature)
    }

    /// The pointer is now over `feature` (nil: over nothing selectable).
    public mutating func hover(_ feature: FeatureRef?) -> [FeatureStateChange] {
        defer { hovered = feature }
        return Self.move(FeatureStateChange.hoverKey, from: hovered, to: feature)
    }

    /// Moves a one-feature-at-a-time state `key` from `old` to `new` (nothing when they are the same).
    private static func move(_ key: String, from old: FeatureRef?, to new: FeatureRef?) -> [FeatureStateChange] {
        guard old != new else { return [] }
        return [old.map { .set(key: key, on: false, $0) }, new.map { .set(key: key, on: true, $0) }].compactMap { $0 }
    }

    /// Right click or long press: no selection, no hover, no callout, no state at all.
    public mutating func clear() -> [FeatureStateChange] {
        selected = nil
        hovered = nil
        callout = nil
        return [.removeAll]
    }

    /// The feature a click picks from query hits (topmost first): the topmost hit with a
    /// feature-state id, preferring a fill or circle that contains the point over a line that
    /// only passes near it (a click beside a border means the country under the pointer).
    /// - Parameter isLine: whether a layer id names a line layer.
    public static func pick(_ hits: [QueriedFeature], isLine: (String) -> Bool) -> FeatureRef? {
        let candidates = hits.filter { $0.featureID != nil }
        let best = candidates.first { !isLine($0.layerID) } ?? candidates.first
        return best.flatMap(FeatureRef.init)
    }
}
