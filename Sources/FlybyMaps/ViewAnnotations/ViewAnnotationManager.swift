import FlybyCore
import FlybyData
import FlybyRender

/// A view annotation (Mapbox v11's `ViewAnnotation`): a small rendered callout — on Linux there
/// are no UIViews, so the "view" is a rounded box with a title and an optional detail line —
/// attached to a coordinate, a line, or a feature of a style layer, drawn above the map.
///
/// Layout follows ``ViewAnnotationLayout``: the variable anchors are tried in order to stay on
/// screen and clear of annotations placed before it; `allowOverlap` lets it overlap them. After
/// every layout (each ``MapView/snapshot()`` or ``ViewAnnotationManager/layout()``) ``frame``
/// and ``anchorConfig`` say where it went, and the callbacks fire when they changed.
public final class ViewAnnotation {
    /// What it is attached to.
    public var annotatedFeature: AnnotatedFeature
    /// The callout's text (the stand-in for the UIView's content).
    public var title: String
    public var detail: String?
    /// The callout's look (`.selected` is the highlighted one).
    public var appearance: CalloutRenderer.Appearance = .standard
    /// Size in points; nil: the callout's own size for its text.
    public var size: ScreenSize?
    public var allowOverlap = false
    public var visible = true
    /// Selected annotations are placed first (they win collisions) and drawn on top.
    public var selected = false
    public var priority = 0
    /// Tried in order (Mapbox's default is `[.center]`).
    public var variableAnchors: [ViewAnnotationAnchorConfig] = [.center]
    /// Called when a layout picks a different anchor.
    public var onAnchorChanged: ((ViewAnnotationAnchorConfig) -> Void)?
    /// Called when the annotation appears or hides.
    public var onVisibilityChanged: ((Bool) -> Void)?

    /// The anchor of the last layout (nil while hidden).
    public private(set) var anchorConfig: ViewAnnotationAnchorConfig?
    /// The frame of the last layout in screen points (nil while hidden).
    public private(set) var frame: ScreenRect?
    /// The screen point it is attached to in the last layout.
    public private(set) var anchorPoint: ScreenPoint?
    /// True when the last layout did not show it.
    public var isHidden: Bool { frame == nil }

    weak var manager: ViewAnnotationManager?

    public init(annotatedFeature: AnnotatedFeature, title: String, detail: String? = nil) {
        self.annotatedFeature = annotatedFeature; self.title = title; self.detail = detail
    }

    /// At a coordinate (Mapbox: `ViewAnnotation(coordinate:view:)`).
    public convenience init(coordinate: LocationCoordinate2D, title: String, detail: String? = nil) {
        self.init(annotatedFeature: .geometry(.point(coordinate)), title: title, detail: detail)
    }

    /// On a feature of a style layer, e.g. along a route line (Mapbox: `ViewAnnotation(layerId:featureId:view:)`).
    public convenience init(layerId: String, featureId: String? = nil, title: String, detail: String? = nil) {
        self.init(annotatedFeature: .layerFeature(layerId: layerId, featureId: featureId), title: title, detail: detail)
    }

    /// The v10 options form, applied over the annotation's current settings.
    public func apply(_ options: ViewAnnotationOptions) {
        if let f = options.annotatedFeature { annotatedFeature = f }
        if let w = options.width, let h = options.height { size = ScreenSize(width: w, height: h) }
        if let v = options.allowOverlap { allowOverlap = v }
        if let v = options.visible { visible = v }
        if let v = options.variableAnchors { variableAnchors = v }
        if let v = options.selected { selected = v }
        if let v = options.priority { priority = v }
    }

    /// Takes the annotation off the map.
    public func remove() { manager?.remove(self) }

    func update(_ placement: ViewAnnotationPlacement?) {
        let wasHidden = isHidden
        let oldAnchor = anchorConfig
        frame = placement?.frame
        anchorConfig = placement?.anchor
        anchorPoint = placement?.anchorPoint
        if wasHidden != isHidden { onVisibilityChanged?(!isHidden) }
        if let a = anchorConfig, a != oldAnchor { onAnchorChanged?(a) }
    }
}

/// `mapView.viewAnnotations` (Mapbox's `ViewAnnotationManager`): adds, lays out and draws view
/// annotations above the map.
public final class ViewAnnotationManager {
    unowned let mapView: MapView
    /// In the order added.
    public private(set) var allAnnotations: [ViewAnnotation] = []
    var callouts: CalloutRenderer?

    init(mapView: MapView) { self.mapView = mapView }

    /// Adds an annotation (adding it twice does nothing).
    public func add(_ annotation: ViewAnnotation) {
        guard !allAnnotations.contains(where: { $0 === annotation }) else { return }
        annotation.manager?.remove(annotation)
        annotation.manager = self
        allAnnotations.append(annotation)
    }

    /// The v10 form: a callout with options (`mapView.viewAnnotations.add(view, options:)`).
    @discardableResult
    public func add(title: String, detail: String? = nil, options: ViewAnnotationOptions) -> ViewAnnotation {
        let a = ViewAnnotation(annotatedFeature: options.annotatedFeature ?? .geometry(.point(mapView.mapboxMap.cameraState.center)),
                               title: title, detail: detail)
        a.apply(options)
        add(a)
        return a
    }

    public func remove(_ annotation: ViewAnnotation) {
        allAnnotations.removeAll { $0 === annotation }
        annotation.manager = nil
        annotation.update(nil)
    }

    public func removeAll() { for a in allAnnotations { remove(a) } }

    /// Lays the annotations out for the current camera and updates their frames, anchors and
    /// callbacks. ``MapView/snapshot()`` calls it before drawing.
    public func layout() {
        guard !allAnnotations.isEmpty else { return }
        let renderer = calloutRenderer()
        let items = allAnnotations.enumerated().map { k, a in
            ViewAnnotationLayoutItem(id: k, target: target(of: a.annotatedFeature),
                                     size: a.size ?? renderer?.size(title: a.title, detail: a.detail, appearance: a.appearance) ?? ScreenSize(width: 80, height: 30),
                                     allowOverlap: a.allowOverlap, visible: a.visible, anchors: a.variableAnchors,
                                     selected: a.selected, priority: a.priority)
        }
        // The attribution is a licence requirement: no callout may cover it.
        let attribution = mapView.mapboxMap.currentRenderer()?.attributionFrame
        let placements = ViewAnnotationLayout.place(items, screen: mapView.bounds, obstacles: attribution.map { [$0] } ?? [])
        var byID: [Int: ViewAnnotationPlacement] = [:]
        for p in placements { byID[p.id] = p }
        for (k, a) in allAnnotations.enumerated() { a.update(byID[k]) }
    }

    /// Draws the shown annotations (laid out by ``layout()``) into a frame: unselected first,
    /// then selected on top, each group in the order added.
    func draw(into frame: inout PixelBuffer) {
        guard var renderer = calloutRenderer() else { return }
        for selectedPass in [false, true] {
            for a in allAnnotations where a.selected == selectedPass {
                guard let r = a.frame else { continue }
                renderer.draw(title: a.title, detail: a.detail, in: r, pointer: a.anchorPoint, appearance: a.appearance, into: &frame)
            }
        }
        callouts = renderer
    }

    private func calloutRenderer() -> CalloutRenderer? {
        let w = max(1, Int(mapView.bounds.width.rounded())), h = max(1, Int(mapView.bounds.height.rounded()))
        if callouts == nil { callouts = try? CalloutRenderer(width: w, height: h) }
        return callouts
    }

    /// The screen target of an annotated feature for the current camera.
    func target(of feature: AnnotatedFeature) -> ViewAnnotationTarget {
        switch feature {
        case .geometry(let g): return target(of: g)
        case .layerFeature(let layerId, let featureId):
            let style = mapView.mapboxMap.loadedStyle
            guard let layer = style.style.layer(id: layerId), let source = style.source(for: layer) else { return .point(nil) }
            let index: Int?
            if let featureId {
                index = source.featureIndex(id: .string(featureId))
                    ?? Double(featureId).flatMap { source.featureIndex(id: .number($0)) }
            } else {
                index = source.data.features.isEmpty ? nil : 0
            }
            guard let index else { return .point(nil) }
            return target(of: source.data.features[index].geometry)
        }
    }

    func target(of geometry: Geometry) -> ViewAnnotationTarget {
        let map = mapView.mapboxMap
        let relief = map.relief
        /// The screen point of `c` (on the terrain: raised to the relief, nil where it hides it).
        func point(_ c: LocationCoordinate2D) -> ScreenPoint? {
            guard let relief else { return map.point(for: c) }
            guard let p = relief.point(for: c), !relief.isHidden(c) else { return nil }
            return p.point
        }
        /// Projects a line, splitting it where points fall behind the camera (or the relief).
        func project(_ line: [LocationCoordinate2D]) -> [[ScreenPoint]] {
            var runs: [[ScreenPoint]] = [[]]
            for c in line {
                if let p = point(c) { runs[runs.count - 1].append(p) } else if !runs[runs.count - 1].isEmpty { runs.append([]) }
            }
            return runs.filter { $0.count >= 2 }
        }
        switch geometry {
        case .point(let c): return .point(point(c))
        case .lineString(let line): return .lines(project(line))
        case .multiLineString(let lines): return .lines(lines.flatMap(project))
        default: return .point(geometry.allCoordinates.first.flatMap { point($0) })
        }
    }
}
