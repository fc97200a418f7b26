import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender

/// Example 5 (Mapbox iOS SDK v6 example "Dynamically style interactive points"): a point set as a
/// circle layer whose radius follows the zoom (`interpolate`) and whose opacity steps with it
/// (`step`), a symbol layer with an icon, the `name` as text with a halo, an offset and left
/// justification, and a tap that selects the feature **nearest** the tap within a 44 × 44 pt box
/// and shows a callout with its name.
///
/// The data: the guide shows US lighthouses; Flyby ships no lighthouse list (none with a clear
/// public-domain licence could be fetched), so the real Natural Earth US places stand in for them
/// (`world/ne_50m_populated_places_us.geojson`, public domain; see DATA-SOURCES.md).
public enum InteractivePointsExample {
    public static let sourceId = "lighthouses"
    public static let circleLayerId = "lighthouse-circles"
    public static let symbolLayerId = "lighthouse-symbols"
    public static let iconId = "lighthouse"
    /// The guide's tap box: 44 × 44 points (Apple's minimum touch target).
    public static let tapBox = ScreenSize(width: 44, height: 44)

    /// The eastern United States, where the stand-in points are dense.
    public static let camera = CameraOptions(center: LocationCoordinate2D(latitude: 39.6, longitude: -76.2), zoom: 4.6)

    /// A map view with the source, the two layers and the icon.
    public static func makeMapView(size: ScreenSize = ScreenSize(width: 640, height: 400)) throws -> MapView {
        let mapView = try MapView(frame: size, mapInitOptions: MapInitOptions(cameraOptions: camera, styleURI: .world))
        var source = GeoJSONSource(id: sourceId)
        source.data = .featureCollection(try BuiltinData.geoJSON("world/ne_50m_populated_places_us.geojson"))
        try mapView.mapboxMap.addSource(source)
        try mapView.mapboxMap.addImage(lighthouseImage(), id: iconId)

        var circles = CircleLayer(id: circleLayerId, source: sourceId)
        circles.circleColor = .constant(StyleColor(r8: 0x1F, g8: 0x6F, b8: 0xC5))
        circles.circleStrokeColor = .constant(.white)
        circles.circleStrokeWidth = .constant(1)
        // Radius grows with zoom (exponential interpolation between stops) ...
        circles.circleRadius = .expression(Exp(.interpolate) {
            Exp(.exponential) { 1.75 }
            Exp(.zoom)
            2; 2
            6; 6
            12; 16
        })
        // ... and the opacity steps up at zoom 4 and 6.
        circles.circleOpacity = .expression(Exp(.step) {
            Exp(.zoom)
            0.4
            4; 0.7
            6; 0.95
        })
        try mapView.mapboxMap.addLayer(circles)

        var symbols = SymbolLayer(id: symbolLayerId, source: sourceId)
        symbols.minZoom = 4
        symbols.iconImage = .constant(.name(iconId))
        symbols.iconAllowOverlap = .constant(true)
        symbols.iconAnchor = .constant(.bottom)
        symbols.iconOffset = .constant([0, -4])
        symbols.textField = .expression(Exp(.get) { "name" })
        symbols.textFont = .constant(["DejaVu Sans"])
        symbols.textSize = .constant(11)
        symbols.textColor = .constant(StyleColor(r8: 0x1B, g8: 0x2A, b8: 0x3A))
        symbols.textHaloColor = .constant(.white)
        symbols.textHaloWidth = .constant(1.5)
        symbols.textAnchor = .constant(.left)
        symbols.textJustify = .constant(.left)
        symbols.textOffset = .constant([0.9, -0.9])
        symbols.textMaxWidth = .constant(8)
        try mapView.mapboxMap.addLayer(symbols)
        return mapView
    }

    /// A point feature found by a tap.
    public struct Hit: Equatable {
        public var name: String
        public var coordinate: LocationCoordinate2D
        /// Distance from the tap in screen points.
        public var distance: Double
    }

    /// The feature nearest `point` among those drawn within the 44 × 44 box around it (the
    /// guide sorts the box's features by distance from the tap), or nil when the box is empty.
    public static func nearestFeature(in mapView: MapView, at point: ScreenPoint) -> Hit? {
        let box = ScreenRect(center: point, size: tapBox)
        let found = mapView.mapboxMap.queryRenderedFeatures(with: box, options: RenderedQueryOptions(layerIds: [circleLayerId], filter: nil))
        let source = mapView.mapboxMap.loadedStyle.sources.first { $0.id == sourceId }
        var best: Hit?
        for f in found {
            guard let feature = source?.data.features[f.featureIndex], case .point(let c) = feature.geometry,
                  let p = mapView.mapboxMap.point(for: c), box.contains(p) else { continue }
            let d = ((p.x - point.x) * (p.x - point.x) + (p.y - point.y) * (p.y - point.y)).squareRoot()
            if best == nil || d < best!.distance {
                best = Hit(name: f.properties["name"]?.stringValue ?? "", coordinate: c, distance: d)
            }
        }
        return best
    }

    /// The guide's tap handler: selects the nearest feature and shows a callout with its name
    /// above it (replacing the previous one); a tap on empty map removes the callout.
    @discardableResult
    public static func handleTap(_ mapView: MapView, at point: ScreenPoint) -> Hit? {
        mapView.viewAnnotations.removeAll()
        guard let hit = nearestFeature(in: mapView, at: point) else { return nil }
        let callout = ViewAnnotation(coordinate: hit.coordinate, title: hit.name, detail: "tapped \(Int(hit.distance.rounded())) pt away")
        // Above the lighthouse icon (30 px tall, anchored at its bottom), else below the point.
        callout.variableAnchors = [.init(anchor: .bottom, offsetY: 34), .init(anchor: .bottomRight, offsetX: -4, offsetY: 34),
                                   .init(anchor: .bottomLeft, offsetX: 4, offsetY: 34), .init(anchor: .top, offsetY: -8)]
        callout.selected = true
        mapView.viewAnnotations.add(callout)
        return hit
    }

    /// What ``run(size:)`` did.
    public struct Report {
        public var tapPoint: ScreenPoint
        public var selected: Hit?
        public var snapshot: PixelBuffer
    }

    /// Builds the map, taps just beside Boston, and snapshots it with the callout.
    public static func run(size: ScreenSize = ScreenSize(width: 640, height: 400)) throws -> Report {
        let mapView = try makeMapView(size: size)
        var selected: Hit?
        // The guide's tap gesture recognizer: a tap that no annotation took reaches onMapTap.
        // `weak`: the map view owns the signal, so a strong capture would keep both alive forever.
        mapView.gestures.onMapTap.observe { [weak mapView] context in
            guard let mapView else { return }
            selected = handleTap(mapView, at: context.point)
        }
        let boston = LocationCoordinate2D(latitude: 42.33, longitude: -71.07)
        let onScreen = mapView.mapboxMap.point(for: boston) ?? ScreenPoint(x: size.width / 2, y: size.height / 2)
        let tap = ScreenPoint(x: onScreen.x + 6, y: onScreen.y + 5)
        mapView.tap(at: tap)
        return Report(tapPoint: tap, selected: selected, snapshot: mapView.snapshot())
    }

    /// A lighthouse icon drawn in code (22 × 30 px): a white-and-red striped tower with a lamp.
    public static func lighthouseImage() -> PixelBuffer {
        let w = 22, h = 30
        var image = PixelBuffer(width: w, height: h)
        var painter = Painter(width: w, height: h)
        var path = Path()
        let red = Color(rgb: 0xD23C2A), ink = Color(rgb: 0x1B2A3A)
        image.withView { view in
            // Light beams.
            path.addPolygon([ScreenPoint(x: 11, y: 6), ScreenPoint(x: 0, y: 2), ScreenPoint(x: 0, y: 9)])
            path.addPolygon([ScreenPoint(x: 11, y: 6), ScreenPoint(x: 22, y: 2), ScreenPoint(x: 22, y: 9)])
            painter.fill(path, color: Color(rgb: 0xFFD54F, alpha: 170), into: view)
            path.removeAll()
            // Tower: a tapering body with two red bands.
            path.addPolygon([ScreenPoint(x: 7, y: 10), ScreenPoint(x: 15, y: 10), ScreenPoint(x: 17, y: 29), ScreenPoint(x: 5, y: 29)])
            painter.fill(path, color: .white, into: view)
            painter.stroke(path, style: StrokeStyle(width: 1.2, join: .round), color: ink, into: view)
            path.removeAll()
            path.addPolygon([ScreenPoint(x: 7.5, y: 14), ScreenPoint(x: 14.5, y: 14), ScreenPoint(x: 15, y: 18), ScreenPoint(x: 7, y: 18)])
            path.addPolygon([ScreenPoint(x: 6.5, y: 22), ScreenPoint(x: 15.5, y: 22), ScreenPoint(x: 16, y: 26), ScreenPoint(x: 6, y: 26)])
            painter.fill(path, color: red, into: view)
            path.removeAll()
            // Lamp room and roof.
            path.addRect(x: 8, y: 5, width: 6, height: 5)
            painter.fill(path, color: Color(rgb: 0xFFE082), into: view)
            painter.stroke(path, style: StrokeStyle(width: 1), color: ink, into: view)
            path.removeAll()
            path.addPolygon([ScreenPoint(x: 7, y: 5), ScreenPoint(x: 11, y: 1), ScreenPoint(x: 15, y: 5)])
            painter.fill(path, color: red, into: view)
        }
        return image
    }
}
