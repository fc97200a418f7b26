import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender

/// Example 4 (Mapbox iOS SDK v11 guide "View annotations"): callouts placed above the map at
/// coordinates and along a route line, with `allowOverlap`, `variableAnchors` that move to keep
/// a callout on screen, `onAnchorChanged`, `selected` and `visible`.
///
/// On Linux a view annotation is a small rendered callout (a rounded box with text) instead of
/// a UIView; placement and collision follow Mapbox's rules (see ``ViewAnnotationLayout``).
public enum ViewAnnotationsExample {
    public static let routeSourceId = "route"
    public static let routeLayerId = "route-line"

    public static let cathedral = LocationCoordinate2D(latitude: 60.170378, longitude: 24.952125)
    public static let station = LocationCoordinate2D(latitude: 60.171873, longitude: 24.941422)
    /// A few metres from the station entrance: its callout collides with the station's.
    public static let stationTaxi = LocationCoordinate2D(latitude: 60.171500, longitude: 24.942300)
    public static let market = LocationCoordinate2D(latitude: 60.167514, longitude: 24.953013)

    /// The anchors every point callout tries, in order: above, below, right, left of the point.
    public static let anchors: [ViewAnnotationAnchorConfig] = [
        .init(anchor: .bottom, offsetY: 6), .init(anchor: .top, offsetY: -6),
        .init(anchor: .left, offsetX: 6), .init(anchor: .right, offsetX: -6),
    ]

    /// The map and its annotations.
    public struct Scene {
        public let mapView: MapView
        public let cathedral: ViewAnnotation
        public let station: ViewAnnotation
        public let taxi: ViewAnnotation
        public let market: ViewAnnotation
        public let route: ViewAnnotation
        /// Every anchor change reported by `onAnchorChanged`, as "title → anchor".
        public let anchorChanges: AnchorLog
    }

    /// Collects `onAnchorChanged` calls.
    public final class AnchorLog {
        public private(set) var entries: [String] = []
        func append(_ s: String) { entries.append(s) }
    }

    public static func makeScene(size: ScreenSize = ScreenSize(width: 640, height: 400)) throws -> Scene {
        let mapView = try MapView(frame: size, mapInitOptions: MapInitOptions(
            cameraOptions: CameraOptions(center: LocationCoordinate2D(latitude: 60.1697, longitude: 24.9472), zoom: 14.45), styleURI: .city))

        // The route: the routed polyline of the built-in drive (OSM-derived).
        let drive = try BuiltinData.geoJSON("tracks/helsinki_drive_1hz.geojson")
        var source = GeoJSONSource(id: routeSourceId)
        source.data = .featureCollection(FeatureCollection(features: drive.features.filter { $0.properties["kind"]?.stringValue == "route" },
                                                           name: "route"))
        try mapView.mapboxMap.addSource(source)
        var line = LineLayer(id: routeLayerId, source: routeSourceId)
        line.lineColor = .constant(StyleColor(r8: 0x1E, g8: 0x6F, b8: 0xD9))
        line.lineWidth = .constant(5)
        line.lineOpacity = .constant(0.85)
        line.lineCap = .constant(.round)
        line.lineJoin = .constant(.round)
        try mapView.mapboxMap.addLayer(line, layerPosition: .below("building-labels"))

        let log = AnchorLog()
        func callout(_ c: LocationCoordinate2D, _ title: String, _ detail: String) -> ViewAnnotation {
            let a = ViewAnnotation(coordinate: c, title: title, detail: detail)
            a.variableAnchors = anchors
            a.onAnchorChanged = { config in log.append("\(title) → \(config.anchor.rawValue)") }
            mapView.viewAnnotations.add(a)
            return a
        }
        let cathedral = callout(cathedral, "Helsinki Cathedral", "Senate Square")
        let station = callout(station, "Central Station", "trains and metro")
        // No free anchor next to the station's callout: hidden unless it may overlap.
        let taxi = ViewAnnotation(coordinate: stationTaxi, title: "Taxi rank", detail: "Kaivokatu")
        taxi.variableAnchors = [.init(anchor: .bottom, offsetY: 6)]
        mapView.viewAnnotations.add(taxi)
        let market = callout(market, "Market Square", "Kauppatori")
        market.selected = true
        market.appearance = .selected

        // Along the route line: anchored in the middle of its visible part.
        let route = ViewAnnotation(layerId: routeLayerId, title: "Drive loop", detail: "4.9 km · 10 min")
        route.variableAnchors = [.init(anchor: .bottomLeft, offsetX: 4, offsetY: 4), .init(anchor: .topRight, offsetX: -4, offsetY: -4)]
        mapView.viewAnnotations.add(route)
        return Scene(mapView: mapView, cathedral: cathedral, station: station, taxi: taxi, market: market, route: route, anchorChanges: log)
    }

    /// What ``run(size:)`` saw.
    public struct Report {
        /// Anchors and visibility in the first layout.
        public var firstAnchors: [String: String]
        /// After panning so the cathedral is near the top edge: its anchor.
        public var cathedralAnchorNearTop: String?
        /// The taxi callout is hidden, then shown once `allowOverlap` is set.
        public var taxiHiddenWithoutOverlap: Bool
        public var taxiShownWithOverlap: Bool
        public var anchorChanges: [String]
        public var snapshot: PixelBuffer
    }

    public static func run(size: ScreenSize = ScreenSize(width: 640, height: 400)) throws -> Report {
        let scene = try makeScene(size: size)
        let view = scene.mapView
        view.viewAnnotations.layout()
        var first: [String: String] = [:]
        for a in view.viewAnnotations.allAnnotations { first[a.title] = a.anchorConfig?.anchor.rawValue ?? "hidden" }
        let taxiHidden = scene.taxi.isHidden
        scene.taxi.allowOverlap = true
        view.viewAnnotations.layout()
        let taxiShown = !scene.taxi.isHidden
        scene.taxi.allowOverlap = false
        let snapshot = view.snapshot()

        // Pan so the cathedral sits 20 points below the top edge: "above" no longer fits.
        if let p = view.mapboxMap.point(for: cathedral) {
            let shifted = ScreenPoint(x: size.width / 2, y: size.height / 2 + (p.y - 20))
            view.mapboxMap.setCamera(to: CameraOptions(center: view.mapboxMap.coordinate(for: shifted)))
        }
        view.viewAnnotations.layout()
        return Report(firstAnchors: first, cathedralAnchorNearTop: scene.cathedral.anchorConfig?.anchor.rawValue,
                      taxiHiddenWithoutOverlap: taxiHidden, taxiShownWithOverlap: taxiShown,
                      anchorChanges: scene.anchorChanges.entries, snapshot: snapshot)
    }
}
