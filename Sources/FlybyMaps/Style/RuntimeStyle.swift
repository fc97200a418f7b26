import FlybyCore
import FlybyData
import FlybyRender
import Synchronization

/// The style as changed at run time: the style document's JSON, the layers and sources added from
/// Swift, and custom layers, rebuilt into a `LoadedStyle` after each change.
///
/// Runtime layers are written into the document's `layers` array and parsed with the style file
/// rules, so a bad property fails with the same message as in a style file. Runtime GeoJSON
/// sources are written as empty inline collections and then given their projected data, which
/// is projected once per `addSource`/`updateGeoJSONSource`, not once per rebuild; the built-in
/// and file data are cached by one `StyleLoader` shared by all views.
struct RuntimeStyle {
    /// One entry of the layer list, bottom first.
    enum Entry {
        case style(id: String, json: JSONNode)
        case custom(CustomLayer)
        var id: String {
            switch self {
            case .style(let id, _): return id
            case .custom(let c): return c.id
            }
        }
    }

    struct RuntimeSource {
        var id: String
        var data: ProjectedSource
        var promoteId: String?
        var generateId: Bool
    }

    /// The style spec it was loaded from (built-in name or file) and the light preset.
    private(set) var uri: StyleURI
    private(set) var preset: String?
    /// The document without its `layers` (kept in ``entries``) and with the runtime sources.
    private var root: JSONNode
    private var file: String
    private(set) var entries: [Entry] = []
    private var runtimeSources: [RuntimeSource] = []
    /// The current build (nil until the first ``rebuild()``).
    private(set) var loaded: LoadedStyle?
    /// Custom layers and the style-layer index each goes below, for the last build.
    private(set) var customPlacements: [(beforeLayerIndex: Int, layer: CustomLayer)] = []
    /// Counts rebuilds, so hosts can rebuild their renderer only when it changed.
    private(set) var generation = 0

    /// Reads a style document.
    /// - Throws: ``InputError`` naming the style file.
    init(uri: StyleURI) throws(InputError) {
        self.uri = uri
        let (bytes, file, preset) = try StyleLoader.readDocument(uri.rawValue)
        self.file = file
        self.preset = preset
        let doc = try JSONDocument(file: file, bytes: bytes)
        var root = doc.root
        guard case .object(let members) = root.value else { throw InputError(file: file, message: "a style must be a JSON object") }
        for m in members where m.key == "layers" {
            for layer in m.value.arrayValue ?? [] {
                entries.append(.style(id: layer["id"]?.stringValue ?? "", json: layer))
            }
        }
        root = .object(members.filter { $0.key != "layers" })
        self.root = root
        try rebuild()
    }

    // MARK: Changes (each rebuilds; a failed change is undone and rethrown)

    private mutating func change(_ body: (inout RuntimeStyle) throws(InputError) -> Void) throws(InputError) {
        let saved = self
        do {
            try body(&self)
            try rebuild()
        } catch {
            self = saved
            throw error
        }
    }

    mutating func setPreset(_ name: String?) throws(InputError) {
        try change { (s: inout RuntimeStyle) throws(InputError) in s.preset = name }
    }

    /// The colour theme applied to the style's colours (Standard's `theme` config).
    private(set) var theme: MapTheme = .default

    mutating func setTheme(_ theme: MapTheme) throws(InputError) {
        try change { (s: inout RuntimeStyle) throws(InputError) in s.theme = theme }
    }

    /// The language labels are shown in (``Style/localized(into:layerIDs:)``) and the layers it
    /// applies to (nil: all), or nil for the style's own labels.
    private(set) var localization: (language: String, layerIDs: Set<String>?)?

    mutating func setLocalization(_ language: String, layerIDs: Set<String>?) throws(InputError) {
        try change { (s: inout RuntimeStyle) throws(InputError) in s.localization = (language, layerIDs) }
    }

    func layerExists(_ id: String) -> Bool { entries.contains { $0.id == id } }
    func sourceExists(_ id: String) -> Bool { sourceIDs.contains(id) }

    var sourceIDs: [String] { loaded?.style.sources.map(\.id) ?? [] }

    mutating func addSource(_ source: GeoJSONSource) throws(InputError) {
        guard !sourceExists(source.id) else { throw InputError(file: "addSource", message: "a source with id '\(source.id)' already exists") }
        let data = try RuntimeStyle.collection(source)
        try change { (s: inout RuntimeStyle) throws(InputError) in
            s.runtimeSources.append(RuntimeSource(id: source.id, data: ProjectedSource(data), promoteId: source.promoteId,
                                                  generateId: source.generateId ?? false))
            var spec: [(key: String, value: JSONNode)] = [("type", .string("geojson")),
                                                          ("data", .object([("type", .string("FeatureCollection")), ("features", .array([]))]))]
            if let p = source.promoteId { spec.append(("promoteId", .string(p))) }
            if let g = source.generateId { spec.append(("generateId", .bool(g))) }
            let sources = (s.root["sources"] ?? .object([])).setting(source.id, .object(spec))
            s.root = s.root.setting("sources", sources)
        }
    }

    /// Replaces the data of a source added with ``addSource(_:)``.
    mutating func updateGeoJSONSource(id: String, data: GeoJSONSource.Data) throws(InputError) {
        guard let k = runtimeSources.firstIndex(where: { $0.id == id }) else {
            throw InputError(file: "updateGeoJSONSource", message: "no source '\(id)' was added at run time")
        }
        var probe = GeoJSONSource(id: id)
        probe.data = data
        runtimeSources[k].data = ProjectedSource(try RuntimeStyle.collection(probe))
        try rebuild()
    }

    mutating func removeSource(id: String) throws(InputError) {
        try change { (s: inout RuntimeStyle) throws(InputError) in
            guard let sources = s.root["sources"], case .object(let members) = sources.value, members.contains(where: { $0.key == id }) else {
                throw InputError(file: "removeSource", message: "no source '\(id)'")
            }
            s.root = s.root.setting("sources", .object(members.filter { $0.key != id }))
            s.runtimeSources.removeAll { $0.id == id }
        }
    }

    mutating func addLayer(_ entry: Entry, position: LayerPosition?) throws(InputError) {
        guard !layerExists(entry.id) else { throw InputError(file: "addLayer", message: "a layer with id '\(entry.id)' already exists") }
        let index: Int
        switch position {
        case nil: index = entries.count
        case .at(let k): index = min(max(0, k), entries.count)
        case .above(let other), .below(let other):
            guard let k = entries.firstIndex(where: { $0.id == other }) else {
                throw InputError(file: "addLayer", message: "layer position names no layer '\(other)'")
            }
            if case .above = position { index = k + 1 } else { index = k }
        }
        try change { (s: inout RuntimeStyle) throws(InputError) in s.entries.insert(entry, at: index) }
    }

    mutating func removeLayer(id: String) throws(InputError) {
        guard layerExists(id) else { throw InputError(file: "removeLayer", message: "no layer '\(id)'") }
        try change { (s: inout RuntimeStyle) throws(InputError) in s.entries.removeAll { $0.id == id } }
    }

    /// Replaces a style layer by a new version with the same id (Mapbox's `updateLayer`).
    mutating func replaceLayer(_ layer: some Layer) throws(InputError) {
        guard let k = entries.firstIndex(where: { $0.id == layer.id }) else { throw InputError(file: "updateLayer", message: "no layer '\(layer.id)'") }
        try change { (s: inout RuntimeStyle) throws(InputError) in s.entries[k] = .style(id: layer.id, json: layer.layerJSON) }
    }

    // MARK: Build

    /// Parses the document with its layers and loads it.
    mutating func rebuild() throws(InputError) {
        var layers: [JSONNode] = []
        var placements: [(Int, CustomLayer)] = []
        for e in entries {
            switch e {
            case .style(_, let json): layers.append(json)
            case .custom(let c): placements.append((layers.count, c))
            }
        }
        let document = root.setting("layers", .array(layers))
        var style = try Style.parse(document.jsonBytes(), file: file, preset: preset).themed(theme)
        if let localization { style = try style.localized(into: localization.language, layerIDs: localization.layerIDs) }
        let base = try RuntimeStyle.sharedLoader.withLock { (loader: inout StyleLoader) throws(InputError) in try loader.load(style: style) }
        let sources = base.sources.map { s in
            guard let r = runtimeSources.first(where: { $0.id == s.id }) else { return s }
            return LoadedSource(id: r.id, data: r.data, promoteId: r.promoteId, generateId: r.generateId)
        }
        var next = LoadedStyle(style: style, sources: sources, tileSets: base.tileSets, rasterSets: base.rasterSets)
        next.sprite = base.sprite
        loaded = next
        customPlacements = placements
        generation += 1
    }

    /// One loader for every map view of the process: built-in and file data are read and
    /// projected once, then shared (`ProjectedSource` is an immutable value).
    static let sharedLoader = Mutex(StyleLoader())

    static func collection(_ source: GeoJSONSource) throws(InputError) -> FeatureCollection {
        switch source.data {
        case nil: return FeatureCollection(features: [], name: source.id)
        case .featureCollection(let fc)?: return fc
        case .feature(let f)?: return FeatureCollection(features: [f], name: source.id)
        case .geometry(let g)?: return FeatureCollection(features: [Feature(geometry: g)], name: source.id)
        case .string(let text)?: return try GeoJSON.parse(Array(text.utf8), file: "source '\(source.id)' data")
        }
    }
}

/// A style to load (Mapbox's `StyleURI`): a built-in style, optionally with a light preset
/// (`world:night`), or a style JSON file.
public struct StyleURI: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A style JSON file (docs/formats.md §4).
    public init(file path: String) { rawValue = path }

    /// The built-in world style (Natural Earth countries, oceans, cities).
    public static let world = StyleURI(rawValue: "world")
    /// The built-in Helsinki city style (OpenStreetMap buildings, roads, water, rail).
    public static let city = StyleURI(rawValue: "city")
    /// The built-in "Flyby Standard" style: the city style with points of interest and place
    /// labels, styled by feature state, for featureset interactions (Mapbox's `.standard`).
    public static let standard = StyleURI(rawValue: "standard")
    /// OpenMapTiles' OSM Bright over the bundled Helsinki vector tiles (docs/tiles.md).
    public static let osmBright = StyleURI(rawValue: "osm-bright")
    /// OSM Bright with 3D buildings (docs/3d-buildings.md).
    public static let osmBright3D = StyleURI(rawValue: "osm-bright-3d")
    /// Hillshade of the Jacksboro fault over 3D terrain (exaggeration 2): the camera stays
    /// above the relief (docs/raster.md).
    public static let jacksboroTerrain = StyleURI(rawValue: "jacksboro-terrain")
}
