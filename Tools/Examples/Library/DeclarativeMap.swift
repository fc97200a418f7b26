import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender

/// Example 3 (Mapbox Maps SDK for iOS "SwiftUI" guide): the map as a value built with result
/// builders — a GeoJSON source and a fill layer, a polygon annotation, a view annotation, the 2D
/// puck and a clustered point annotation group — and a `Viewport` value whose changes run
/// viewport transitions (`withViewportAnimation(.default(maxDuration:))`, `.easeIn(duration:)`,
/// `.fly`) on the engine. SwiftUI itself does not exist on Linux: ``MapHost`` plays the view.
public enum DeclarativeMapExample {
    public static let station = LocationCoordinate2D(latitude: 60.171873, longitude: 24.941422)
    /// Kaisaniemi park (a rough outline), shown by the declared source and fill layer.
    public static let kaisaniemi: [LocationCoordinate2D] = [
        .init(latitude: 60.17335, longitude: 24.94410), .init(latitude: 60.17535, longitude: 24.94430),
        .init(latitude: 60.17660, longitude: 24.94830), .init(latitude: 60.17450, longitude: 24.95080),
        .init(latitude: 60.17300, longitude: 24.94800), .init(latitude: 60.17335, longitude: 24.94410),
    ]
    /// The Esplanadi park strip, drawn as a polygon annotation.
    public static let esplanadi: [LocationCoordinate2D] = [
        .init(latitude: 60.16745, longitude: 24.94300), .init(latitude: 60.16790, longitude: 24.94290),
        .init(latitude: 60.16800, longitude: 24.95080), .init(latitude: 60.16755, longitude: 24.95090),
        .init(latitude: 60.16745, longitude: 24.94300),
    ]

    /// The points of interest of the built-in Helsinki data, for the clustered group.
    public static func pois() throws -> [(name: String, coordinate: LocationCoordinate2D)] {
        try BuiltinData.geoJSON("city/helsinki_pois.geojson").features.compactMap { f in
            guard case .point(let c) = f.geometry else { return nil }
            return (f.properties["name"]?.stringValue ?? "", c)
        }
    }

    /// The guide's map, as a value.
    public static func makeMap() throws -> Map {
        let points = try pois()
        return Map(initialViewport: .camera(center: LocationCoordinate2D(latitude: 60.1705, longitude: 24.9460), zoom: 14.4)) {
            GeoJSONSource(id: "park-source").data(.geometry(.polygon([kaisaniemi])))
            FillLayer(id: "park-fill", source: "park-source")
                .fillColor(StyleColor(r8: 0x2E, g8: 0x9E, b8: 0x5B))
                .fillOpacity(0.35)
                .fillOutlineColor(StyleColor(r8: 0x1B, g8: 0x6B, b8: 0x3A))
            PolygonAnnotation(polygon: Polygon([esplanadi]))
                .fillColor(StyleColor(r8: 0x3D, g8: 0x6F, b8: 0xD0))
                .fillOpacity(0.5)
            MapViewAnnotation(coordinate: station) { Text("Hello, Helsinki!", detail: "a MapViewAnnotation") }
                .allowOverlap(true)
                .variableAnchors([.init(anchor: .bottom, offsetY: 6), .init(anchor: .top, offsetY: -6)])
            Puck2D(bearing: .course)
            PointAnnotationGroup(id: "poi-pins", points) { poi in
                var a = PointAnnotation(coordinate: poi.coordinate)
                a.image = .init(image: ExampleSupport.pinImage(color: Color(rgb: 0xD2453A), width: 18), name: "poi-pin")
                a.iconAnchor = .bottom
                return a
            }
            .clusterOptions(ClusterOptions(clusterRadius: 40, clusterMaxZoom: 15))
        }
        .mapStyle(.standard)
    }

    /// One viewport change: what was asked, and where the camera ended.
    public struct Step {
        public var viewport: String
        public var animation: String
        /// Seconds from the assignment to the end of the transition (the status reached the state).
        public var duration: Double
        public var camera: CameraState
    }

    /// What ``run(size:)`` did.
    public struct Report {
        public var sourcesAdded: [String]
        public var layersAdded: [String]
        public var steps: [Step]
        public var snapshot: PixelBuffer
    }

    /// Builds the map, then walks the guide's viewport changes: `.easeIn(duration: 1)` to a
    /// camera, `.fly` to an overview of the park, `.default(maxDuration: 2)` to following the
    /// puck, an immediate `.styleDefault`, and `.idle`.
    public static func run(size: ScreenSize = ScreenSize(width: 640, height: 400)) throws -> Report {
        let plain = try MapView(frame: size, mapInitOptions: MapInitOptions(styleURI: .standard))
        let host = try MapHost(try makeMap(), frame: size)
        let view = host.mapView
        view.location.override(track: try BuiltInTrack.helsinkiDrive.load())
        let snapshot = host.snapshot()

        var steps: [Step] = []
        func change(_ name: String, _ animation: ViewportAnimation?, to viewport: Viewport, limit: Double = 15) {
            let start = view.now
            if let animation { withViewportAnimation(animation) { host.viewport = viewport } } else { host.viewport = viewport }
            var elapsed = 0.0
            while elapsed < limit {
                if case .state = view.viewport.status { break }
                if case .idle = view.viewport.status, viewport.isIdle { break }
                host.advance(by: 1 / view.fps)
                elapsed = view.now - start
            }
            steps.append(Step(viewport: name, animation: host.transitions.last ?? "", duration: view.now - start, camera: view.mapboxMap.cameraState))
        }
        change("camera(zoom 16 at the station)", .easeIn(duration: 1), to: .camera(center: station, zoom: 16, bearing: 0, pitch: 0))
        change("overview(Kaisaniemi park)", .fly, to: .overview(geometry: .polygon([kaisaniemi]), geometryPadding: EdgeInsets(allEdges: 30)))
        change("followPuck(zoom 16)", .default(maxDuration: 2), to: .followPuck(zoom: 16, bearing: .course, pitch: 45))
        change("styleDefault", nil, to: .styleDefault)
        change("idle", nil, to: .idle)

        let before = (sources: plain.mapboxMap.allSourceIdentifiers, layers: plain.mapboxMap.allLayerIdentifiers)
        return Report(sourcesAdded: view.mapboxMap.allSourceIdentifiers.filter { !before.sources.contains($0) },
                      layersAdded: view.mapboxMap.allLayerIdentifiers.filter { !before.layers.contains($0) },
                      steps: steps, snapshot: snapshot)
    }
}
