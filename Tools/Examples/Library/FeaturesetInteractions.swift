import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender

/// Example 6 (Mapbox iOS SDK v11 example "Featureset interactions" with the Standard style):
/// tap a point of interest to hide it (feature state `hide`) and show a view annotation in its
/// place; tap a building or a place label to select it (feature state `select`); long-press to
/// reset every state; switch the light preset (day, dawn, dusk, night) and the theme (default,
/// faded, monochrome) with `setStyleImportConfigProperty`.
///
/// The style is Flyby's built-in `standard` style (the Helsinki city style plus points of
/// interest and place labels derived from the OpenStreetMap data; see DATA-SOURCES.md).
public final class FeaturesetInteractionsExample {
    public let mapView: MapView
    /// The POI shown as a view annotation (hidden on the map), if any.
    public private(set) var selectedPoi: FeaturesetFeature?
    public private(set) var poiAnnotation: ViewAnnotation?
    /// What the handlers did, in order.
    public private(set) var log: [String] = []

    /// Central Helsinki: the railway station square, Ateneum and the Kluuvi blocks.
    public static let camera = CameraOptions(center: LocationCoordinate2D(latitude: 60.1702, longitude: 24.9440), zoom: 15.6)

    public init(size: ScreenSize = ScreenSize(width: 640, height: 400), camera: CameraOptions = FeaturesetInteractionsExample.camera) throws {
        mapView = try MapView(frame: size, mapInitOptions: MapInitOptions(cameraOptions: camera, styleURI: .standard))

        // Tap a POI: hide it and show a callout in its place (one at a time).
        mapView.addInteraction(TapInteraction(.standardPoi) { [unowned self] poi, _ in
            if let old = selectedPoi { mapView.mapboxMap.removeFeatureState(old, stateKey: "hide") }
            poiAnnotation?.remove()
            mapView.mapboxMap.setFeatureState(poi, state: ["hide": true])
            let name = poi.properties["name"]?.stringValue ?? "?"
            guard case .point(let coordinate) = poi.geometry else { return true }
            let callout = ViewAnnotation(coordinate: coordinate, title: name, detail: poi.properties["class"]?.stringValue)
            callout.variableAnchors = [.init(anchor: .bottom, offsetY: 8), .init(anchor: .top, offsetY: -8), .init(anchor: .left, offsetX: 8), .init(anchor: .right, offsetX: -8)]
            callout.selected = true
            callout.appearance = .selected
            mapView.viewAnnotations.add(callout)
            selectedPoi = poi
            poiAnnotation = callout
            log.append("poi \(name): hidden, view annotation shown")
            return true
        })
        // Tap a building: select it.
        mapView.addInteraction(TapInteraction(.standardBuildings) { [unowned self] building, _ in
            mapView.mapboxMap.setFeatureState(building, state: ["select": true])
            log.append("building \(building.id ?? "?") selected")
            return true
        })
        // Tap a place label: select it (added last, so labels win over the buildings below them).
        mapView.addInteraction(TapInteraction(.standardPlaceLabels) { [unowned self] label, _ in
            mapView.mapboxMap.setFeatureState(label, state: ["select": true])
            log.append("place label \(label.properties["name"]?.stringValue ?? "?") selected")
            return true
        })
        // Long press anywhere: reset every state and remove the callout.
        mapView.addInteraction(LongPressInteraction { [unowned self] _ in
            for set in [FeaturesetDescriptor.standardPoi, .standardBuildings, .standardPlaceLabels] {
                mapView.mapboxMap.resetFeatureStates(featureset: set)
            }
            poiAnnotation?.remove()
            poiAnnotation = nil
            selectedPoi = nil
            log.append("long press: all feature states reset")
            return true
        })
    }

    /// The guide's light preset buttons.
    public func setLightPreset(_ preset: String) throws {
        try mapView.mapboxMap.setStyleImportConfigProperty(for: "basemap", config: "lightPreset", value: preset)
    }

    /// The guide's theme buttons.
    public func setTheme(_ theme: MapTheme) throws {
        try mapView.mapboxMap.setStyleImportConfigProperty(for: "basemap", config: "theme", value: theme.rawValue)
    }

    // MARK: Finding things to tap (for the run and the tests)

    /// The screen point of a POI by name.
    public func point(ofPoi name: String) -> ScreenPoint? {
        guard let c = coordinate(in: "pois", name: name) else { return nil }
        return mapView.mapboxMap.point(for: c)
    }

    /// A screen point inside a named building's footprint (its area centroid).
    public func point(ofBuilding name: String) -> ScreenPoint? {
        guard let source = mapView.mapboxMap.loadedStyle.sources.first(where: { $0.id == "buildings" }),
              let f = source.data.features.first(where: { $0.properties["name"]?.stringValue == name }),
              case .polygon(let rings) = f.geometry, let ring = rings.first else { return nil }
        return mapView.mapboxMap.point(for: FeaturesetInteractionsExample.areaCentroid(ring))
    }

    /// The centre of a place label's box as drawn now.
    public func point(ofPlaceLabel name: String) -> ScreenPoint? {
        let box = mapView.mapboxMap.placedLabelBoxes().first { $0.layerID == "place-labels" && $0.text.lowercased() == name.lowercased() }
        return box.map { ScreenPoint(x: ($0.minX + $0.maxX) / 2, y: ($0.minY + $0.maxY) / 2) }
    }

    /// Every key of every feature state of the POI, building and place sources.
    public func allStates() -> [String: [String: PropertyValue]] {
        var out: [String: [String: PropertyValue]] = [:]
        let style = mapView.mapboxMap.loadedStyle
        for sourceId in ["pois", "buildings", "places"] {
            guard let source = style.sources.first(where: { $0.id == sourceId }) else { continue }
            for id in source.featureIDs.compactMap({ $0 }) {
                let text = MapboxMap.featureIDText(id)
                let state = mapView.mapboxMap.getFeatureState(sourceId: sourceId, featureId: text)
                if !state.isEmpty { out["\(sourceId)/\(text)"] = state }
            }
        }
        return out
    }

    func coordinate(in sourceId: String, name: String) -> LocationCoordinate2D? {
        let source = mapView.mapboxMap.loadedStyle.sources.first { $0.id == sourceId }
        guard let f = source?.data.features.first(where: { $0.properties["name"]?.stringValue == name }),
              case .point(let c) = f.geometry else { return nil }
        return c
    }

    /// Area centroid of a ring (planar in degrees; fine for one building).
    static func areaCentroid(_ ring: [LocationCoordinate2D]) -> LocationCoordinate2D {
        var a = 0.0, cx = 0.0, cy = 0.0
        for (p, q) in zip(ring, ring.dropFirst() + [ring[0]]) {
            let c = p.longitude * q.latitude - q.longitude * p.latitude
            a += c; cx += (p.longitude + q.longitude) * c; cy += (p.latitude + q.latitude) * c
        }
        guard a != 0 else { return ring[0] }
        return LocationCoordinate2D(latitude: cy / (3 * a), longitude: cx / (3 * a))
    }

    // MARK: The run

    /// What ``run(size:)`` did.
    public struct Report {
        public var log: [String]
        /// The interaction snapshot: a hidden POI with its callout, a selected building and label.
        public var interactions: PixelBuffer
        /// A 2 × 2 grid: default day, faded dawn, monochrome day, default night.
        public var themes: PixelBuffer
    }

    /// Taps the Ateneum POI, the Aikatalo building and the "Hamsteri" block label, snapshots,
    /// then renders the preset and theme grid.
    public static func run(size: ScreenSize = ScreenSize(width: 640, height: 400)) throws -> Report {
        let example = try FeaturesetInteractionsExample(size: size)
        if let p = example.point(ofPoi: "Ateneum") { example.mapView.tap(at: p) }
        if let p = example.point(ofBuilding: "Aikatalo") { example.mapView.tap(at: p) }
        if let p = example.point(ofPlaceLabel: "Hamsteri") { example.mapView.tap(at: p) }
        let interactions = example.mapView.snapshot()

        // 400 × 250 panels: narrower ones cannot fit the whole attribution line.
        let panel = ScreenSize(width: 400, height: 250)
        var grid = PixelBuffer(width: Int(panel.width) * 2, height: Int(panel.height) * 2)
        let looks: [(preset: String, theme: MapTheme)] = [("day", .default), ("dawn", .faded), ("day", .monochrome), ("night", .default)]
        for (k, look) in looks.enumerated() {
            let view = try FeaturesetInteractionsExample(size: panel, camera: CameraOptions(center: camera.center, zoom: (camera.zoom ?? 16) - 1))
            try view.setLightPreset(look.preset)
            try view.setTheme(look.theme)
            grid.blit(view.mapView.snapshot(), x: (k % 2) * Int(panel.width), y: (k / 2) * Int(panel.height))
        }
        return Report(log: example.log, interactions: interactions, themes: grid)
    }
}

extension PixelBuffer {
    /// Copies `image` with its top-left corner at (x, y) (clipped to this buffer).
    mutating func blit(_ image: PixelBuffer, x: Int, y: Int) {
        for row in 0..<image.height where y + row >= 0 && y + row < height {
            for col in 0..<image.width where x + col >= 0 && x + col < width {
                pixels[(y + row) * width + x + col] = image.pixels[row * image.width + col]
            }
        }
    }
}
