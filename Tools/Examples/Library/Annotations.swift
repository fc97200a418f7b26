import FlybyCore
import FlybyMaps
import FlybyRender

/// Example 2 (Mapbox v10 migration guide, "Annotations"): point annotations with an image, a
/// polyline New York → Washington (red, opacity 0.8, width 10), a polygon with a hole, and tap
/// selection through an `AnnotationInteractionDelegate`.
public enum AnnotationsExample {
    public static let newYork = LocationCoordinate2D(latitude: 40.7128, longitude: -74.0060)
    public static let washington = LocationCoordinate2D(latitude: 38.9072, longitude: -77.0369)
    /// A square around Pennsylvania's middle with a square hole.
    public static let outerRing = [LocationCoordinate2D(latitude: 39.6, longitude: -79.6), LocationCoordinate2D(latitude: 39.6, longitude: -76.4),
                                   LocationCoordinate2D(latitude: 42.0, longitude: -76.4), LocationCoordinate2D(latitude: 42.0, longitude: -79.6)]
    public static let hole = [LocationCoordinate2D(latitude: 40.3, longitude: -78.7), LocationCoordinate2D(latitude: 41.3, longitude: -78.7),
                              LocationCoordinate2D(latitude: 41.3, longitude: -77.3), LocationCoordinate2D(latitude: 40.3, longitude: -77.3)]

    /// Records the delegate calls.
    public final class TapRecorder: AnnotationInteractionDelegate {
        /// For each delegate call: the manager id and the tapped annotation ids.
        public private(set) var calls: [(manager: String, annotations: [String])] = []
        public init() {}
        public func annotationManager(_ manager: AnnotationManager, didDetectTappedAnnotations annotations: [Annotation]) {
            calls.append((manager.id, annotations.map(\.id)))
        }
    }

    /// The map with its annotation managers, ready for taps.
    public struct Scene {
        public let mapView: MapView
        public let points: PointAnnotationManager
        public let lines: PolylineAnnotationManager
        public let polygons: PolygonAnnotationManager
        public let recorder: TapRecorder
    }

    public static func makeScene(size: ScreenSize = ScreenSize(width: 640, height: 400)) throws -> Scene {
        let mapView = try MapView(frame: size, mapInitOptions: MapInitOptions(
            cameraOptions: CameraOptions(center: LocationCoordinate2D(latitude: 40.2, longitude: -76.3), zoom: 5.6), styleURI: .world))
        let recorder = TapRecorder()

        // Polygon with an inner ring (below the line and the pins: managers stack in creation order).
        let polygons = mapView.annotations.makePolygonAnnotationManager()
        var polygon = PolygonAnnotation(id: "pennsylvania-ring", polygon: Polygon(outerRing: Ring(coordinates: outerRing),
                                                                                  innerRings: [Ring(coordinates: hole)]))
        polygon.fillColor = StyleColor(r8: 0x1E, g8: 0x88, b8: 0xE5)
        polygon.fillOpacity = 0.5
        polygon.fillOutlineColor = StyleColor(r8: 0x0D, g8: 0x47, b8: 0xA1)
        polygons.annotations = [polygon]
        polygons.delegate = recorder

        // The guide's polyline: New York → Washington, red, 0.8 opacity, 10 points wide.
        let lines = mapView.annotations.makePolylineAnnotationManager()
        var line = PolylineAnnotation(id: "new-york-washington", lineCoordinates: [newYork, washington])
        line.lineColor = StyleColor(red: 1, green: 0, blue: 0)
        line.lineOpacity = 0.8
        line.lineWidth = 10
        lines.annotations = [line]
        lines.delegate = recorder

        // Point annotations with an image, anchored at the pin's tip.
        let points = mapView.annotations.makePointAnnotationManager()
        let pin = PointAnnotation.Image(image: ExampleSupport.pinImage(color: Color(rgb: 0xD32F2F)), name: "red_pin")
        points.annotations = [("new-york", newYork, "New York"), ("washington", washington, "Washington")].map { id, coordinate, name in
            var p = PointAnnotation(id: id, coordinate: coordinate)
            p.image = pin
            p.iconAnchor = .bottom
            p.textField = name
            p.textAnchor = .top
            p.textOffset = [0, 0.3]
            p.textHaloColor = .white
            p.textHaloWidth = 1.5
            return p
        }
        points.delegate = recorder
        return Scene(mapView: mapView, points: points, lines: lines, polygons: polygons, recorder: recorder)
    }

    /// What the run did.
    public struct Report {
        /// Delegate calls of the three taps: on the line's middle, in the hole, on the ring's band.
        public var tapOnLine: [(manager: String, annotations: [String])] = []
        public var tapInHole: [(manager: String, annotations: [String])] = []
        public var tapOnRing: [(manager: String, annotations: [String])] = []
        public var tapOnPin: [(manager: String, annotations: [String])] = []
        public var snapshot = PixelBuffer(width: 1, height: 1)
    }

    public static func run(size: ScreenSize = ScreenSize(width: 640, height: 400)) throws -> Report {
        let scene = try makeScene(size: size)
        let map = scene.mapView.mapboxMap
        var report = Report()
        report.snapshot = scene.mapView.snapshot()
        func tap(_ c: LocationCoordinate2D, dy: Double = 0) -> [(manager: String, annotations: [String])] {
            let before = scene.recorder.calls.count
            guard var p = map.point(for: c) else { return [] }
            p.y += dy
            scene.mapView.tap(at: p)
            return Array(scene.recorder.calls[before...])
        }
        let middle = LocationCoordinate2D(latitude: (newYork.latitude + washington.latitude) / 2,
                                          longitude: (newYork.longitude + washington.longitude) / 2)
        report.tapOnLine = tap(middle)
        report.tapInHole = tap(LocationCoordinate2D(latitude: 40.8, longitude: -78.0))
        report.tapOnRing = tap(LocationCoordinate2D(latitude: 39.95, longitude: -79.2))
        report.tapOnPin = tap(newYork, dy: -20)  // on the pin's head, above its tip
        return report
    }
}
