import FlybyCore
import FlybyMaps
import FlybyRender

/// Example 8 (the counterpart of Mapbox's custom Metal layer example): a `CustomLayer` whose
/// drawing is a Swift closure — a translucent triangle and a heat blob placed in map coordinates —
/// drawn between two style layers: above the land use and water, below the buildings and roads.
public enum CustomRenderedLayerExample {
    public static let center = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9445)
    /// The triangle's corners, between the railway station, Kluuvi and the Esplanadi.
    public static let triangle = [LocationCoordinate2D(latitude: 60.1722, longitude: 24.9420),
                                  LocationCoordinate2D(latitude: 60.1690, longitude: 24.9490),
                                  LocationCoordinate2D(latitude: 60.1675, longitude: 24.9405)]
    /// The heat blob's centre (over the Esplanadi park) and radius in metres.
    public static let blobCenter = LocationCoordinate2D(latitude: 60.1680, longitude: 24.9478)
    public static let blobRadiusMeters = 75.0
    public static let triangleColor = Color(rgb: 0xFF5722, alpha: 150)
    /// The layer the custom layer goes below.
    public static let upperLayer = "buildings"

    /// The closure of the custom layer: everything in map coordinates, projected per frame.
    public static func draw(_ parameters: CustomLayerRenderParameters, _ frame: PixelBufferView, _ painter: inout Painter) {
        let corners = triangle.compactMap { parameters.point(for: $0) }
        if corners.count == 3 {
            var path = Path()
            path.addPolygon(corners)
            painter.fill(path, color: triangleColor, into: frame)
        }
        // The blob: stacked translucent discs, densest in the middle.
        guard let c = parameters.point(for: blobCenter) else { return }
        let metersPerPoint = WebMercator.metersPerPoint(latitude: blobCenter.latitude, zoom: parameters.zoom)
        let radius = blobRadiusMeters / metersPerPoint
        for k in 0..<6 {
            painter.fillCircle(center: c, radius: radius * (1 - Double(k) / 6), color: Color(rgb: 0xD81B60, alpha: 45), into: frame)
        }
    }

    /// What the run did.
    public struct Report {
        public var mapView: MapView
        /// The frame with the custom layer, and the same frame without it.
        public var snapshot: PixelBuffer
        public var baseline: PixelBuffer
        /// The layer order around the custom layer.
        public var layerIds: [String]
    }

    public static func run(size: ScreenSize = ScreenSize(width: 640, height: 400)) throws -> Report {
        let mapView = try MapView(frame: size, mapInitOptions: MapInitOptions(
            cameraOptions: CameraOptions(center: center, zoom: 14.6), styleURI: .city))
        let map = mapView.mapboxMap
        let baseline = mapView.snapshot()
        try map.addLayer(CustomLayer(id: "heat", renderer: draw), layerPosition: .below(upperLayer))
        let snapshot = mapView.snapshot()
        return Report(mapView: mapView, snapshot: snapshot, baseline: baseline, layerIds: map.allLayerIdentifiers)
    }
}
