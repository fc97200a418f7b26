import FlybyCore
import FlybyData
import FlybyRender
import Foundation

/// The map of a ``MapView`` (Mapbox's `MapboxMap`, `mapView.mapboxMap`): the camera (forwarded to
/// FlybyCore's ``FlybyMap``, which the simulation ticks) and the style at run time — sources,
/// layers, images, feature state, rendered-feature queries, style and light-preset switches.
///
/// Style changes are synchronous: each call rebuilds the loaded style (parsing the document,
/// reusing projected data) and either succeeds or throws ``InputError`` and leaves the style as it
/// was. Screen coordinates are points, origin top-left, y down; a snapshot has one pixel per point.
public final class MapboxMap {
    /// The camera model the simulation drives (FlybyCore).
    public let map: FlybyMap
    var runtime: RuntimeStyle {
        didSet { followTerrain() }
    }
    /// The DEM the camera's terrain reads (the loaded style's ``LoadedStyle/terrainElevation``).
    private var terrainSource: TerrainElevation?
    /// Feature state read by `feature-state` expressions.
    public private(set) var featureStates = FeatureStateStore() {
        didSet { placementIsStale = true }
    }
    private var images: [(id: String, image: PixelBuffer)] = [] {
        didSet { placementIsStale = true }
    }
    /// True when feature states or images changed after the last frame placed the symbols
    /// (labels may read both); camera and style changes are checked apart.
    private var placementIsStale = true
    private var renderer: MapRenderer?
    private var rendererGeneration = -1
    /// Sent after ``loadStyle(_:)`` replaced the style (runtime layers and sources are gone;
    /// annotation managers add theirs again).
    public let onStyleLoaded = Signal<StyleURI>()
    /// Sent after any style change (runtime layer, source, preset or style switch).
    public let onStyleDataLoaded = Signal<Void>()

    init(map: FlybyMap, runtime: RuntimeStyle) {
        self.map = map
        self.runtime = runtime
        followTerrain()
    }

    /// Gives the camera the loaded style's `terrain` (or none), when it changed.
    private func followTerrain() {
        let dem = runtime.loaded?.terrainElevation
        guard dem !== terrainSource else { return }
        terrainSource = dem
        map.terrain = dem?.terrain()
    }

    /// The ground's height in metres at `coordinate` with the style's `terrain` (exaggeration
    /// applied), nil without terrain or where its DEM has no data (Mapbox
    /// `MapboxMap.elevation(at:)`). The camera's eye is kept above it (``FlybyMap/terrain``).
    public func elevation(at coordinate: LocationCoordinate2D) -> Double? { map.elevation(at: coordinate) }

    /// The v10 spelling: `mapView.mapboxMap.style.addLayer(…)` reads the same as v11's
    /// `mapView.mapboxMap.addLayer(…)`.
    public var style: MapboxMap { self }

    // MARK: Camera (FlybyMap)

    public var cameraState: CameraState { map.cameraState }
    public var cameraBounds: CameraBounds { map.cameraBounds }
    /// The view size in points.
    public var size: ScreenSize { map.size }
    /// Sent after every camera change.
    public var onCameraChanged: Signal<CameraState> { map.onCameraChanged }

    /// Jumps the camera (see ``FlybyMap/setCamera(to:)``: clamped to the bounds, NaN refused).
    public func setCamera(to options: CameraOptions) { map.setCamera(to: options) }
    public func setCameraBounds(with options: CameraBoundsOptions) throws(CameraBoundsError) { try map.setCameraBounds(with: options) }
    /// The screen point of a coordinate, or nil when it is behind the camera or past the horizon.
    /// With the style's `terrain` (drawn in 3D, docs/terrain.md) the coordinate is raised to the
    /// relief as the drape draws it (``ReliefSurface``), and returned even where a nearer slope
    /// hides it (see ``isHiddenByTerrain(_:)``).
    public func point(for coordinate: LocationCoordinate2D) -> ScreenPoint? {
        guard let relief else { return map.point(for: coordinate) }
        return relief.point(for: coordinate)?.point
    }

    /// The coordinate under a screen point (clamped below the horizon). With the style's
    /// `terrain` it is where the view ray through the point first meets the relief (ray march,
    /// ``ReliefSurface/hit(through:maxDepth:)``); where it meets none (the sky) it is the flat
    /// plane's point, as without terrain.
    public func coordinate(for point: ScreenPoint) -> LocationCoordinate2D {
        guard let relief, var c = relief.coordinate(for: point) else { return map.coordinate(for: point) }
        c.longitude = wrapLongitude(c.longitude)
        return c
    }

    /// True when the style's terrain hides `coordinate` (raised to the relief) from the camera:
    /// a nearer slope is in the way (``ReliefSurface/isHidden(_:)``). False on a flat map.
    public func isHiddenByTerrain(_ coordinate: LocationCoordinate2D) -> Bool {
        relief?.isHidden(coordinate) ?? false
    }

    /// The relief the map is drawn on for the current camera, in points: nil without terrain or
    /// when the frame is drawn flat (custom layers turn the drape off).
    var relief: ReliefSurface? {
        guard let terrain = map.terrain, terrainSource != nil, runtime.customPlacements.isEmpty else { return nil }
        return ReliefSurface(transform: map.transform, terrain: terrain)
    }
    public func dragCameraOptions(from: ScreenPoint, to: ScreenPoint) -> CameraOptions { map.dragCameraOptions(from: from, to: to) }

    /// The camera that shows a geometry (v10's `camera(for:padding:bearing:pitch:)`).
    public func camera(for geometry: Geometry, padding: EdgeInsets? = nil, bearing: Double? = nil, pitch: Double? = nil,
                       maxZoom: Double? = nil, offset: ScreenPoint? = nil) throws(CameraFitError) -> CameraOptions {
        try map.camera(for: geometry, padding: padding, bearing: bearing, pitch: pitch, maxZoom: maxZoom, offset: offset)
    }

    /// The camera that shows coordinates (v11's `camera(for:camera:coordinatesPadding:maxZoom:offset:)`).
    public func camera(for coordinates: [LocationCoordinate2D], camera: CameraOptions = CameraOptions(),
                       coordinatesPadding: EdgeInsets? = nil, maxZoom: Double? = nil, offset: ScreenPoint? = nil) throws(CameraFitError) -> CameraOptions {
        try map.camera(for: coordinates, camera: camera, coordinatesPadding: coordinatesPadding, maxZoom: maxZoom, offset: offset)
    }

    // MARK: Style

    /// The loaded style's URI.
    public var styleURI: StyleURI { runtime.uri }
    /// The parsed style as drawn now.
    public var loadedStyle: LoadedStyle { runtime.loaded! }
    /// The light presets of the style (`day` first).
    public var lightPresets: [String] { loadedStyle.style.presetNames }
    /// The light preset in use.
    public var lightPreset: String { loadedStyle.style.preset }

    /// Replaces the style. Runtime sources, layers and feature state go with the old style, as in
    /// Mapbox; images stay. Annotation managers put their layers back (``onStyleLoaded``).
    public func loadStyle(_ uri: StyleURI, completion: ((InputError?) -> Void)? = nil) {
        do {
            runtime = try RuntimeStyle(uri: uri)
            featureStates.removeAll()
            onStyleLoaded.send(uri)
            onStyleDataLoaded.send(())
            completion?(nil)
        } catch {
            completion?(error)
        }
    }

    /// Switches the light preset (`day`, `night`, … as the style defines).
    public func setLightPreset(_ name: String) throws(InputError) {
        try runtime.setPreset(name)
        onStyleDataLoaded.send(())
    }

    /// The Standard-style configuration: `lightPreset` (`day`, `dawn`, `dusk`, `night`) and
    /// `theme` (`default`, `faded`, `monochrome`, see ``MapTheme``); the import id is ignored
    /// (Flyby styles have no imports).
    public func setStyleImportConfigProperty(for importId: String, config: String, value: String) throws(InputError) {
        switch config {
        case "lightPreset":
            try setLightPreset(value)
        case "theme":
            guard let theme = MapTheme(rawValue: value) else {
                throw InputError(file: "setStyleImportConfigProperty", message: "unknown theme '\(value)' (known: \(MapTheme.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            try runtime.setTheme(theme)
            onStyleDataLoaded.send(())
        default:
            throw InputError(file: "setStyleImportConfigProperty", message: "unsupported config '\(config)' (supported: lightPreset, theme)")
        }
    }

    /// The colour theme in use.
    public var theme: MapTheme { runtime.theme }

    /// Shows labels in `locale`'s language where the data has it (Mapbox Maps SDK v10,
    /// "Localization"): every symbol layer's `text-field` (only those in `layerIds` when given)
    /// reads `name:LANG` first and the name it read before otherwise (see
    /// ``Style/localized(into:layerIDs:)``). The language is the locale's language code (`fi`
    /// for `fi_FI`); the setting stays for later style changes.
    /// - Throws: ``InputError`` when the locale has no usable language code.
    public func localizeLabels(into locale: Locale, forLayerIds layerIds: [String]? = nil) throws(InputError) {
        let code = locale.language.languageCode?.identifier ?? locale.identifier
        try runtime.setLocalization(code, layerIDs: layerIds.map(Set.init))
        onStyleDataLoaded.send(())
    }

    public func sourceExists(withId id: String) -> Bool { runtime.sourceExists(id) }
    public func layerExists(withId id: String) -> Bool { runtime.layerExists(id) }
    /// Layer ids bottom first, custom layers included.
    public var allLayerIdentifiers: [String] { runtime.entries.map(\.id) }
    public var allSourceIdentifiers: [String] { runtime.sourceIDs }

    public func addSource(_ source: GeoJSONSource) throws(InputError) { try styleChange { s throws(InputError) in try s.addSource(source) } }
    public func removeSource(withId id: String) throws(InputError) { try styleChange { s throws(InputError) in try s.removeSource(id: id) } }

    /// Replaces the data of a GeoJSON source added with ``addSource(_:)``.
    public func updateGeoJSONSource(withId id: String, data: GeoJSONSource.Data) throws(InputError) {
        try styleChange { s throws(InputError) in try s.updateGeoJSONSource(id: id, data: data) }
    }

    /// Adds a layer at the top, or at `layerPosition`.
    /// - Throws: ``InputError`` for a duplicate id, an unknown source or position layer, or a bad
    ///   property or expression (with the JSON path, e.g. `layers[9] (id "x").paint.fill-color`).
    public func addLayer(_ layer: some Layer, layerPosition: LayerPosition? = nil) throws(InputError) {
        try styleChange { s throws(InputError) in try s.addLayer(.style(id: layer.id, json: layer.layerJSON), position: layerPosition) }
    }

    /// Adds a custom layer (drawn by a Swift closure) at the top, or at `layerPosition`.
    public func addLayer(_ layer: CustomLayer, layerPosition: LayerPosition? = nil) throws(InputError) {
        try styleChange { s throws(InputError) in try s.addLayer(.custom(layer), position: layerPosition) }
    }

    /// Replaces a layer with a new version of the same id.
    public func updateLayer(_ layer: some Layer) throws(InputError) {
        try styleChange { s throws(InputError) in try s.replaceLayer(layer) }
    }

    public func removeLayer(withId id: String) throws(InputError) { try styleChange { s throws(InputError) in try s.removeLayer(id: id) } }

    private func styleChange(_ body: (inout RuntimeStyle) throws(InputError) -> Void) throws(InputError) {
        try body(&runtime)
        onStyleDataLoaded.send(())
    }

    /// Adds (or replaces) an image that symbol layers name in `iconImage`.
    /// - Parameter image: premultiplied pixels, one image pixel per point × `iconSize`.
    public func addImage(_ image: PixelBuffer, id: String) throws(InputError) {
        guard image.width > 0 && image.height > 0 else { throw InputError(file: "addImage", message: "image '\(id)' is empty") }
        images.removeAll { $0.id == id }
        images.append((id, image))
        renderer?.addImage(name: id, image: image)
    }

    public func removeImage(withId id: String) {
        images.removeAll { $0.id == id }
        renderer?.removeImage(name: id)
    }

    public func imageExists(withId id: String) -> Bool { images.contains { $0.id == id } }

    // MARK: Feature state

    /// Sets keys of a feature's state (values: Bool, Int, Double, String; others fail the
    /// callback). `featureId` is matched against the source's ids as a string, then as a number.
    public func setFeatureState(sourceId: String, featureId: String, state: [String: Any],
                                callback: ((Result<Void, InputError>) -> Void)? = nil) {
        let where_ = "setFeatureState(sourceId: \(sourceId), featureId: \(featureId))"
        guard let id = featureID(sourceId, featureId) else {
            callback?(.failure(InputError(file: where_, message: "no source '\(sourceId)'")))
            return
        }
        var converted: [(String, PropertyValue)] = []
        for key in state.keys.sorted() {
            guard let v = MapboxMap.propertyValue(state[key]!) else {
                callback?(.failure(InputError(file: where_, path: key, message: "unsupported state value \(state[key]!)")))
                return
            }
            converted.append((key, v))
        }
        for (k, v) in converted { featureStates.set(k, v, source: sourceId, feature: id) }
        callback?(.success(()))
    }

    /// A feature's state (empty when none is set).
    public func getFeatureState(sourceId: String, featureId: String) -> [String: PropertyValue] {
        guard let id = featureID(sourceId, featureId) else { return [:] }
        var out: [String: PropertyValue] = [:]
        for e in featureStates.state(source: sourceId, feature: id).entries { out[e.key] = e.value }
        return out
    }

    /// Removes one key, or the whole state, of a feature.
    public func removeFeatureState(sourceId: String, featureId: String, stateKey: String? = nil) {
        guard let id = featureID(sourceId, featureId) else { return }
        let keys = stateKey.map { [$0] } ?? featureStates.state(source: sourceId, feature: id).entries.map(\.key)
        for k in keys { featureStates.set(k, .null, source: sourceId, feature: id) }
    }

    /// Removes every feature state of a source.
    public func resetFeatureStates(sourceId: String) { featureStates.removeAll(source: sourceId) }

    private func featureID(_ sourceId: String, _ featureId: String) -> PropertyValue? {
        guard let source = loadedStyle.sources.first(where: { $0.id == sourceId }) else { return nil }
        if source.featureIndex(id: .string(featureId)) != nil { return .string(featureId) }
        if let d = Double(featureId), source.featureIndex(id: .number(d)) != nil { return .number(d) }
        return .string(featureId)
    }

    static func propertyValue(_ v: Any) -> PropertyValue? {
        switch v {
        case let b as Bool: return .bool(b)
        case let i as Int: return .number(Double(i))
        case let d as Double where d.isFinite: return .number(d)
        case let s as String: return .string(s)
        case let p as PropertyValue: return p
        default: return nil
        }
    }

    // MARK: Queries

    /// The rendered features at a point, topmost first: symbols whose placed icon or label box
    /// contains it, fills containing it, lines and circles within 3 points of it (see
    /// ``MapRenderer/queryFeatures(in:camera:tolerance:)``).
    public func queryRenderedFeatures(with point: ScreenPoint, options: RenderedQueryOptions? = nil) -> [QueriedRenderedFeature] {
        (try? query(ScreenRect(x: point.x, y: point.y, width: 0, height: 0), tolerance: 3, options: options)) ?? []
    }

    /// The rendered features whose drawn geometry intersects a rectangle, topmost first: symbol
    /// boxes, fill polygons, lines within half their width and circles within their radius of
    /// it, in the screen space of the current camera (see
    /// ``MapRenderer/queryFeatures(in:camera:tolerance:)``).
    public func queryRenderedFeatures(with rect: ScreenRect, options: RenderedQueryOptions? = nil) -> [QueriedRenderedFeature] {
        (try? query(rect, tolerance: 0, options: options)) ?? []
    }

    /// Mapbox's asynchronous form; the completion runs before this returns, with an error when the
    /// options' filter is not a valid expression.
    @discardableResult
    public func queryRenderedFeatures(with point: ScreenPoint, options: RenderedQueryOptions? = nil,
                                      completion: (Result<[QueriedRenderedFeature], InputError>) -> Void) -> Cancelable {
        completion(Result { () throws(InputError) in
            try query(ScreenRect(x: point.x, y: point.y, width: 0, height: 0), tolerance: 3, options: options)
        })
        return BlockCancelable {}
    }

    private func query(_ rect: ScreenRect, tolerance: Double, options: RenderedQueryOptions?) throws(InputError) -> [QueriedRenderedFeature] {
        let filter = try options?.compiledFilter?.get()
        if queriesSymbols(options) { placeSymbolsForCurrentCamera() }
        guard let r = currentRenderer() else { return [] }
        var found = r.queryFeatures(in: rect, camera: map.cameraState, tolerance: tolerance)
        if let ids = options?.layerIds { found.removeAll { !ids.contains($0.layerID) } }
        if let filter {
            found.removeAll { f in
                let ctx = FeatureContext(properties: f.properties, state: f.featureID.map { featureStates.state(source: f.sourceID, feature: $0) } ?? PropertyMap(),
                                         kind: loadedStyle.sources.first { $0.id == f.sourceID }?.data.kinds[f.featureIndex] ?? .point)
                return filter.evaluate(zoom: map.cameraState.zoom, feature: ctx) != .bool(true)
            }
        }
        return found
    }

    /// True when the query can return symbol features (a symbol layer is in the style and, when
    /// the options name layers, among them).
    private func queriesSymbols(_ options: RenderedQueryOptions?) -> Bool {
        loadedStyle.style.layers.contains { $0.type == .symbol && (options?.layerIds?.contains($0.id) ?? true) }
    }

    /// Makes the renderer's placed symbol boxes those of the current camera and feature states,
    /// rendering a frame to place them unless the last frame already did.
    func placeSymbolsForCurrentCamera() {
        if let r = currentRenderer(), r.symbolPlacementCamera == map.cameraState, !placementIsStale { return }
        var scratch = PixelBuffer(width: max(1, Int(size.width.rounded())), height: max(1, Int(size.height.rounded())))
        render(puck: nil, ornaments: OrnamentOptions(), into: &scratch)
    }

    /// The icon and label boxes placed in the last snapshot (screen points, padding included),
    /// topmost layer first: what collision detection kept.
    public var placedSymbolBoxes: [SymbolBox] { renderer?.placedSymbolBoxes ?? [] }

    // MARK: Rendering

    /// The renderer for the current style and size (rebuilt after a style change).
    func currentRenderer() -> MapRenderer? {
        let w = Int(map.size.width.rounded()), h = Int(map.size.height.rounded())
        if renderer == nil || rendererGeneration != runtime.generation || renderer!.width != w || renderer!.height != h {
            var r: MapRenderer
            do { r = try MapRenderer(style: loadedStyle, width: max(1, w), height: max(1, h)) } catch { return nil }
            for i in images { r.addImage(name: i.id, image: i.image) }
            if let old = renderer {
                r.showsOrnaments = old.showsOrnaments; r.showsScaleBar = old.showsScaleBar; r.showsCompass = old.showsCompass
            }
            renderer = r
            rendererGeneration = runtime.generation
        }
        renderer!.featureStates = featureStates
        renderer!.customLayers = runtime.customPlacements.map { p in
            let layer = p.layer
            return CustomLayerDrawing(beforeLayerIndex: p.beforeLayerIndex) { frame, transform, painter in
                layer.renderer.render(CustomLayerRenderParameters(transform: transform), frame, &painter)
            }
        }
        return renderer
    }

    /// Seconds of simulation time over which a label or icon that collision places or removes
    /// fades in or out between ``MapView/snapshot()``s (MapLibre GL JS's `fadeDuration` map
    /// option, default 0.3 s); 0 turns fading off. Clamped to 0…60.
    public var fadeDuration: Double = 0.3

    /// Draws the map for the current camera. With `time` (the simulation's clock, seconds) the
    /// frame is one of a sequence and symbols fade over ``fadeDuration``
    /// (`MapRenderer.render(camera:puck:time:into:)`); without, it is drawn alone, as a
    /// snapshot, and the sequence is forgotten.
    func render(puck: PuckState?, puck3D: Puck3D? = nil, ornaments: OrnamentOptions, time: Double? = nil,
                into frame: inout PixelBuffer) {
        guard var r = currentRenderer() else { return }
        renderer = nil  // render on a unique copy: no copy-on-write of the scratch buffers
        r.puck3D = puck3D
        r.showsScaleBar = ornaments.scaleBar.visibility != .hidden
        r.showsCompass = ornaments.compass.visibility != .hidden
        if let time {
            r.fadeDuration = fadeDuration
            r.render(camera: map.cameraState, puck: puck, time: time, into: &frame)
        } else {
            r.render(camera: map.cameraState, puck: puck, into: &frame)
        }
        renderer = r
        placementIsStale = false
    }
}

/// What ``MapboxMap/queryRenderedFeatures(with:options:)`` returns: layer, source, feature index,
/// feature id and properties (FlybyRender's `QueriedFeature`).
public typealias QueriedRenderedFeature = QueriedFeature

/// Options of a rendered-feature query (Mapbox's `RenderedQueryOptions`).
public struct RenderedQueryOptions {
    /// Only features of these layers (nil: all).
    public var layerIds: [String]?
    /// Only features for which this filter expression is true.
    public var filter: Exp?
    let compiledFilter: Result<StyleExpression, InputError>?

    /// A filter that is not a valid expression makes the query fail: the completion overload
    /// reports the error, the synchronous ones return no features. Use
    /// ``init(layerIds:validatedFilter:)`` to get the error here.
    public init(layerIds: [String]?, filter: Exp?) {
        self.layerIds = layerIds
        self.filter = filter
        compiledFilter = filter.map { f in
            Result { () throws(InputError) in try StyleExpression.filter(json: f.jsonNode.jsonBytes(), file: "RenderedQueryOptions.filter") }
        }
    }

    /// As ``init(layerIds:filter:)``, throwing when the filter is not a valid expression.
    public init(layerIds: [String]?, validatedFilter filter: Exp) throws(InputError) {
        self.layerIds = layerIds
        self.filter = filter
        compiledFilter = .success(try StyleExpression.filter(json: filter.jsonNode.jsonBytes(), file: "RenderedQueryOptions.filter"))
    }
}
