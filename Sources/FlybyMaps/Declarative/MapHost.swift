import FlybyCore
import FlybyData
import FlybyRender

/// Shows a declarative ``Map`` on a headless ``MapView``: the part the SwiftUI `Map` view plays
/// on iOS. It adds the declared sources, layers, annotations, view annotations and puck, and
/// turns every ``viewport`` assignment into a viewport transition of the same engine
/// (`mapView.viewport`), animated as the enclosing ``withViewportAnimation(_:body:)`` says.
public final class MapHost {
    public let mapView: MapView
    public private(set) var map: Map
    /// The name of the animation of each viewport change, in order (`immediate`, `fly`, …).
    public private(set) var transitions: [String] = []

    private var addedLayers: [String] = []
    private var addedSources: [String] = []
    private var managers: [String] = []
    private var viewAnnotations: [ViewAnnotation] = []
    private var groups: [PointAnnotationGroup] = []
    private var groupManagers: [String: PointAnnotationManager] = [:]
    private var clusteredAtZoom: [String: Int] = [:]
    static let polygonManagerId = "map-content-polygons"
    static let pointManagerId = "map-content-points"

    /// The viewport; assigning runs a transition (immediate outside `withViewportAnimation`).
    public var viewport: Viewport {
        didSet { apply(viewport, animation: ViewportAnimation.current ?? .immediate) }
    }

    /// - Throws: ``InputError`` when the style or a declared source or layer is invalid.
    public init(_ map: Map, frame: ScreenSize = ScreenSize(width: 640, height: 400)) throws {
        mapView = try MapView(frame: frame, mapInitOptions: MapInitOptions(styleURI: map.styleURI))
        self.map = map
        viewport = map.initialViewport
        // The first viewport first, so that clusters are made for its zoom.
        apply(map.initialViewport, animation: .immediate)
        mapView.tick()
        try install(map.content)
    }

    /// Replaces the content with that of `map` (the viewport is left as it is).
    public func update(_ map: Map) throws {
        uninstall()
        self.map = map
        try install(map.content)
    }

    /// Advances the clock (re-clustering groups when the integer zoom changed).
    public func advance(by seconds: Double) {
        mapView.advance(by: seconds)
        recluster()
    }

    /// The current frame.
    public func snapshot() -> PixelBuffer {
        recluster()
        return mapView.snapshot()
    }

    // MARK: Content

    private func install(_ content: [MapContentElement]) throws {
        var polygons: [PolygonAnnotation] = []
        var points: [PointAnnotation] = []
        for element in content {
            switch element {
            case .source(let s):
                try mapView.mapboxMap.addSource(s)
                addedSources.append(s.id)
            case .layer(let l):
                try mapView.mapboxMap.addLayer(l)
                addedLayers.append(l.id)
            case .polygonAnnotation(let a): polygons.append(a)
            case .pointAnnotation(let a): points.append(a)
            case .pointAnnotationGroup(let g):
                groups.append(g)
            case .viewAnnotation(let v):
                let a = ViewAnnotation(annotatedFeature: v.annotatedFeature, title: v.text.title, detail: v.text.detail)
                a.allowOverlap = v.allowOverlap; a.visible = v.visible; a.selected = v.selected
                a.priority = v.priority; a.variableAnchors = v.variableAnchors; a.onAnchorChanged = v.onAnchorChanged
                mapView.viewAnnotations.add(a)
                viewAnnotations.append(a)
            case .puck2D(let p):
                mapView.location.options.puckType = .puck2D()
                if let b = p.bearing { mapView.location.options.puckBearing = b }
            }
        }
        if !polygons.isEmpty {
            mapView.annotations.makePolygonAnnotationManager(id: MapHost.polygonManagerId).annotations = polygons
            managers.append(MapHost.polygonManagerId)
        }
        if !points.isEmpty {
            mapView.annotations.makePointAnnotationManager(id: MapHost.pointManagerId).annotations = points
            managers.append(MapHost.pointManagerId)
        }
        for g in groups {
            // The orchestrator may rename the manager when the style already uses the id.
            groupManagers[g.id] = mapView.annotations.makePointAnnotationManager(id: g.id)
            managers.append(groupManagers[g.id]!.id)
        }
        clusteredAtZoom = [:]
        recluster()
    }

    private func uninstall() {
        for id in managers { mapView.annotations.removeAnnotationManager(withId: id) }
        for id in addedLayers.reversed() { try? mapView.mapboxMap.removeLayer(withId: id) }
        for id in addedSources.reversed() { try? mapView.mapboxMap.removeSource(withId: id) }
        for a in viewAnnotations { a.remove() }
        managers = []; addedLayers = []; addedSources = []; viewAnnotations = []; groups = []; groupManagers = [:]
        mapView.location.options.puckType = nil
    }

    /// The annotations a group shows at the current zoom: its points, or cluster bubbles.
    private func recluster() {
        let zoom = Int(mapView.mapboxMap.cameraState.zoom.rounded(.down))
        for g in groups where clusteredAtZoom[g.id] != zoom {
            clusteredAtZoom[g.id] = zoom
            guard let manager = groupManagers[g.id] else { continue }
            guard let options = g.clusterOptions, Double(zoom) <= options.clusterMaxZoom else {
                manager.annotations = g.annotations
                continue
            }
            manager.annotations = PointClusterer.cluster(g.annotations, zoom: Double(zoom), options: options, groupId: g.id)
        }
    }

    // MARK: Viewport

    private func apply(_ v: Viewport, animation: ViewportAnimation) {
        transitions.append(v.isIdle ? "idle" : animation.name)
        mapView.viewport.transition(to: v.descriptor, transition: animation.descriptor)
    }
}

/// Greedy point clustering for ``PointAnnotationGroup`` (see ``ClusterOptions``).
enum PointClusterer {
    /// The annotations to show at `zoom`: each point joins the first cluster whose seed lies
    /// within `clusterRadius` points of it (in the 512-px-tile world at that zoom), in order;
    /// clusters of at least `clusterMinPoints` become a bubble at their points' mean position
    /// with the count as text, smaller ones show their points.
    static func cluster(_ points: [PointAnnotation], zoom: Double, options: ClusterOptions, groupId: String) -> [PointAnnotation] {
        let worldSize = WebMercator.worldSize(zoom: Double(max(0, Int(zoom))))
        var seeds: [(x: Double, y: Double, members: [Int])] = []
        for (k, p) in points.enumerated() {
            let (x, y) = WebMercator.project(p.point, worldSize: worldSize)
            if let s = seeds.indices.first(where: { (seeds[$0].x - x) * (seeds[$0].x - x) + (seeds[$0].y - y) * (seeds[$0].y - y)
                                                    <= options.clusterRadius * options.clusterRadius }) {
                seeds[s].members.append(k)
            } else {
                seeds.append((x, y, [k]))
            }
        }
        let bubble = PointAnnotation.Image(image: bubbleImage(options.circleColor), name: "\(groupId)-cluster")
        var out: [PointAnnotation] = []
        for (n, s) in seeds.enumerated() {
            guard s.members.count >= max(options.clusterMinPoints, 2) else {
                out += s.members.map { points[$0] }
                continue
            }
            let lat = s.members.map { points[$0].point.latitude }.reduce(0, +) / Double(s.members.count)
            let lng = s.members.map { points[$0].point.longitude }.reduce(0, +) / Double(s.members.count)
            var a = PointAnnotation(id: "\(groupId)-cluster-\(n)", coordinate: LocationCoordinate2D(latitude: lat, longitude: lng))
            a.image = bubble
            a.iconAnchor = .center
            a.textField = "\(s.members.count)"
            a.textColor = options.textColor
            a.textSize = 12
            a.textAnchor = .center
            out.append(a)
        }
        return out
    }

    /// A 28 px disc with a white ring.
    static func bubbleImage(_ color: StyleColor) -> PixelBuffer {
        var image = PixelBuffer(width: 28, height: 28)
        var painter = Painter(width: 28, height: 28)
        let c = color.rgba8
        image.withView { view in
            painter.fillCircle(center: ScreenPoint(x: 14, y: 14), radius: 13.5, color: .white, into: view)
            painter.fillCircle(center: ScreenPoint(x: 14, y: 14), radius: 11.5, color: Color(red: c.r, green: c.g, blue: c.b), into: view)
        }
        return image
    }
}
