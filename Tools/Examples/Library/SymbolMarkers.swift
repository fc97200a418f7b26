import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender

/// Example 7 (the Mapbox symbol-layer marker example): two icons added to the style by name, a
/// GeoJSON source whose features carry an `icon` property, and a symbol layer whose `iconImage`
/// and `iconRotate` come from `match` expressions on it, with `iconAnchor` bottom,
/// `iconAllowOverlap` false and an `iconOffset`.
public enum SymbolMarkersExample {
    public static let center = LocationCoordinate2D(latitude: 60.1700, longitude: 24.9440)

    /// The markers: id, position, icon kind. "crowded" sits 3 m east of "kamppi", so the two icons
    /// collide and, with `iconAllowOverlap` false, only the first placed is drawn.
    public static let markers: [(id: String, coordinate: LocationCoordinate2D, icon: String)] = [
        ("kamppi", LocationCoordinate2D(latitude: 60.1695, longitude: 24.9385), "pin"),
        ("crowded", LocationCoordinate2D(latitude: 60.1695, longitude: 24.93855), "pin"),
        ("station", LocationCoordinate2D(latitude: 60.1712, longitude: 24.9414), "pin"),
        ("market", LocationCoordinate2D(latitude: 60.1678, longitude: 24.9500), "arrow"),
        ("esplanadi", LocationCoordinate2D(latitude: 60.1679, longitude: 24.9450), "arrow"),
        ("kluuvi", LocationCoordinate2D(latitude: 60.1722, longitude: 24.9480), "arrow"),
    ]

    /// The icon offset: 2 image pixels up, so the pin's tip sits just above the point.
    public static let iconOffset = [0.0, -2.0]

    /// What the run did.
    public struct Report {
        public var mapView: MapView
        public var snapshot: PixelBuffer
        /// Icon boxes placed in the marker layer (screen points).
        public var placedIcons: [SymbolBox]
        /// Screen points of the markers, by id.
        public var markerPoints: [String: ScreenPoint]
    }

    public static func run(size: ScreenSize = ScreenSize(width: 640, height: 400)) throws -> Report {
        let mapView = try MapView(frame: size, mapInitOptions: MapInitOptions(
            cameraOptions: CameraOptions(center: center, zoom: 14.6), styleURI: .city))
        let map = mapView.mapboxMap

        // Two icons, added by name (drawn in code here; `PixelBuffer(PNGDecoder.decode(…))` reads a PNG).
        try map.addImage(ExampleSupport.pinImage(color: Color(rgb: 0x1565C0), width: 26), id: "blue-pin")
        try map.addImage(ExampleSupport.arrowImage(color: Color(rgb: 0xE64A19), size: 24), id: "orange-arrow")

        var source = GeoJSONSource(id: "markers")
        source.data = .featureCollection(FeatureCollection(features: markers.map { m in
            Feature(id: .string(m.id), geometry: .point(m.coordinate), properties: PropertyMap([("icon", .string(m.icon))]))
        }, name: "markers"))
        try map.addSource(source)

        var layer = SymbolLayer(id: "markers", source: "markers")
        layer.iconImage = .expression(Exp(.match) {
            Exp(.get) { "icon" }
            "pin"
            "blue-pin"
            "arrow"
            "orange-arrow"
            ""
        })
        layer.iconRotate = .expression(Exp(.match) {
            Exp(.get) { "icon" }
            "arrow"
            45.0
            0.0
        })
        layer.iconAnchor = .constant(.bottom)
        layer.iconAllowOverlap = .constant(false)
        layer.iconOffset = .constant(iconOffset)
        try map.addLayer(layer)

        let snapshot = mapView.snapshot()
        var points: [String: ScreenPoint] = [:]
        for m in markers { points[m.id] = map.point(for: m.coordinate) }
        return Report(mapView: mapView, snapshot: snapshot, placedIcons: map.placedSymbolBoxes.filter { $0.layerID == "markers" },
                      markerPoints: points)
    }
}
