import FlybyCore
import FlybyData
import FlybyMedia
import FlybyRender

/// What a ``MapView`` starts with (Mapbox's `MapInitOptions`).
public struct MapInitOptions {
    /// The first camera; fields left nil come from the style's default camera.
    public var cameraOptions: CameraOptions?
    public var styleURI: StyleURI
    /// The camera bounds (zoom, pitch and area limits); the whole world when nil.
    public var cameraBounds: CameraBounds?

    public init(cameraOptions: CameraOptions? = nil, styleURI: StyleURI = .world, cameraBounds: CameraBounds? = nil) {
        self.cameraOptions = cameraOptions
        self.styleURI = styleURI
        self.cameraBounds = cameraBounds
    }
}

/// A headless map view with the shape of the Mapbox Maps SDK's `MapView`: `mapboxMap` (camera and
/// style), `camera` (animations), `viewport`, `gestures`, `location`, `ornaments` and
/// `annotations`, driven by a deterministic frame clock that the host advances
/// (``advance(by:)``, ``tick()``). ``snapshot()`` renders the current frame; ``tap(at:)`` and
/// ``longPress(at:)`` are the touch input of tests and examples.
///
/// Nothing reads the wall clock: the same calls give the same camera and the same pixels.
public final class MapView {
    /// The simulation ticked by ``tick()`` (clock, camera model, animations, viewport, gestures).
    public let simulation: MapSimulation
    public let mapboxMap: MapboxMap
    /// The frame clock; frames happen at ``fps``.
    public let clock: ManualClock
    public let location: LocationManager
    public let ornaments = OrnamentsManager()
    /// Annotation managers, drawn above the style.
    public private(set) lazy var annotations = AnnotationOrchestrator(mapView: self)
    /// View annotations (callouts) drawn above the map and its annotations.
    public private(set) lazy var viewAnnotations = ViewAnnotationManager(mapView: self)
    /// Tap and long-press interactions on featuresets (``addInteraction(_:)``).
    public private(set) lazy var interactions = InteractionsManager(mapView: self)
    private var layerTapHandlers: [(layerId: String, handler: (QueriedRenderedFeature, MapContentGestureContext) -> Bool)] = []

    /// Camera animations (ease, fly, animators): Mapbox's `mapView.camera`.
    public var camera: CameraAnimationsManager { simulation.camera }
    /// The viewport state machine: Mapbox's `mapView.viewport`.
    public var viewport: ViewportManager { simulation.viewport }
    /// Touch gestures in screen points: Mapbox's `mapView.gestures`.
    public var gestures: GestureManager { simulation.gestures }
    /// The view size in points (also the snapshot size in pixels).
    public var bounds: ScreenSize { mapboxMap.size }
    /// The time of the current frame, seconds since the view was made.
    public var now: Double { clock.now }
    public var fps: Double { clock.fps }

    /// A map view of `frame` points.
    /// - Parameters:
    ///   - fps: frames per second of the clock (the animation step).
    /// - Throws: ``InputError`` when the style cannot be read or parsed.
    /// - Precondition: a positive, finite size; a finite camera.
    public init(frame: ScreenSize, mapInitOptions: MapInitOptions = MapInitOptions(), fps: Double = 60) throws(InputError) {
        clock = ManualClock(fps: fps)
        let styleRuntime = try RuntimeStyle(uri: mapInitOptions.styleURI)
        let base = CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 0)
        var camera = styleRuntime.loaded!.camera.applied(to: base)
        if let o = mapInitOptions.cameraOptions { camera = camera.applying(o) }
        simulation = MapSimulation(size: frame, camera: camera, bounds: mapInitOptions.cameraBounds ?? .default, clock: clock)
        mapboxMap = MapboxMap(map: simulation.mapboxMap, runtime: styleRuntime)
        location = LocationManager(simulation: simulation)
        simulation.viewport.context.styleDefaultCamera = CameraOptions(cameraState: styleRuntime.loaded!.camera.applied(to: camera))
    }

    // MARK: Clock

    /// Runs one frame: location and puck, viewport, animators, completions, events.
    public func tick() { simulation.tick() }

    /// Runs the frames of the next `seconds` (rounded to whole frames).
    public func advance(by seconds: Double) {
        guard seconds.isFinite && seconds > 0 else { return }
        let frames = Int((seconds * clock.fps - timeEpsilon).rounded(.up))
        for _ in 0..<frames { tick() }
    }

    // MARK: Input

    /// A single tap: cancels camera animations (Mapbox), then offers the tap to the annotation
    /// managers (topmost first), then to ``onLayerTap(_:handler:)`` handlers (topmost layer
    /// first), and sends `gestures.onMapTap` when none of them handled it.
    public func tap(at point: ScreenPoint) {
        gestures.singleTap(at: point)
        let context = MapContentGestureContext(point: point, coordinate: mapboxMap.coordinate(for: point))
        if annotations.handleTap(context) { return }
        if !layerTapHandlers.isEmpty {
            for feature in mapboxMap.queryRenderedFeatures(with: point) {
                for h in layerTapHandlers where h.layerId == feature.layerID {
                    if h.handler(feature, context) { return }
                }
            }
        }
        gestures.onMapTap.send(context)
    }

    /// A long press: annotation managers first (their long-press handlers), then
    /// `gestures.onMapLongPress`.
    public func longPress(at point: ScreenPoint) {
        let context = MapContentGestureContext(point: point, coordinate: mapboxMap.coordinate(for: point))
        if annotations.handleLongPress(context) { return }
        gestures.onMapLongPress.send(context)
    }

    /// Calls `handler` for taps on features of a layer; return true to stop the tap there (Mapbox
    /// v11's `gestures.onLayerTap`).
    @discardableResult
    public func onLayerTap(_ layerId: String, handler: @escaping (QueriedRenderedFeature, MapContentGestureContext) -> Bool) -> Cancelable {
        layerTapHandlers.append((layerId, handler))
        let index = layerTapHandlers.count - 1
        return BlockCancelable { [weak self] in
            guard let self, index < self.layerTapHandlers.count else { return }
            self.layerTapHandlers[index].handler = { _, _ in false }
        }
    }

    // MARK: Snapshot

    /// Renders the current frame (style, custom layers, annotations, puck, ornaments and the
    /// attribution), one pixel per point. Successive snapshots are frames of one sequence at the
    /// frame clock's time (``now``): labels and icons that collision places or removes fade over
    /// ``MapboxMap/fadeDuration``. A snapshot at the same time as the last, a time that goes
    /// back or jumps by more than a second, and a feature query (which places symbols for its
    /// camera) start a new sequence, whose first frame shows every placed symbol fully.
    public func snapshot() -> PixelBuffer {
        var frame = PixelBuffer(width: max(1, Int(bounds.width.rounded())), height: max(1, Int(bounds.height.rounded())))
        let puck3D: Puck3D? = if case .puck3D(let c) = location.options.puckType { c.puck3D } else { nil }
        mapboxMap.render(puck: location.options.puckType != nil ? simulation.location?.puck : nil, puck3D: puck3D,
                         ornaments: ornaments.options, time: now, into: &frame)
        viewAnnotations.layout()
        viewAnnotations.draw(into: &frame)
        return frame
    }
}

extension PixelBuffer {
    /// Writes the pixels as a PNG file, atomically (no half-written file is ever left).
    /// - Throws: ``MediaError`` when the file cannot be written.
    public func writePNG(to path: String) throws(MediaError) {
        let png = try PNGEncoder(compressionLevel: 9).encode(pixels: pixels, width: width, height: height)
        try AtomicFileWriter.write(png, to: path)
    }

    /// Pixels from a decoded PNG (both are premultiplied ARGB), e.g. an icon for `addImage`.
    public init(_ image: PNGImage) {
        self.init(width: image.width, height: image.height)
        pixels = image.pixels
    }
}

/// Ornament visibility (Mapbox's `OrnamentVisibility`).
public enum OrnamentVisibility: Sendable {
    /// Scale bar: shown; compass: shown only while the map is rotated.
    case adaptive
    /// Shown (the compass still needs a rotated map: a north-up compass says nothing).
    case visible
    case hidden
}

/// Ornament options (Mapbox's `OrnamentOptions`): the scale bar (bottom-left) and the compass
/// (top-right). The attribution is always drawn: it is a licence requirement.
public struct OrnamentOptions: Sendable {
    public struct Ornament: Sendable {
        public var visibility: OrnamentVisibility
    }
    public var scaleBar = Ornament(visibility: .adaptive)
    public var compass = Ornament(visibility: .adaptive)
    public init() {}
}

/// `mapView.ornaments` (Mapbox's `OrnamentsManager`).
public final class OrnamentsManager {
    public var options = OrnamentOptions()
    init() {}
}

/// The puck's look (Mapbox's `PuckType`): the 2D puck, or a glTF model (docs/puck-3d.md).
public enum PuckType: Sendable, Equatable {
    case puck2D
    case puck3D(Puck3DConfiguration)
    public static func puck2D() -> PuckType { .puck2D }
}

/// Location options (Mapbox's `LocationOptions`).
public struct LocationOptions: Sendable {
    /// Nil: no puck (Mapbox's default).
    public var puckType: PuckType?
    public var puckBearing: PuckBearing = .course
    public init() {}
}

/// `mapView.location` (Mapbox's `LocationManager`): the location source (a replayed track) and
/// the puck.
public final class LocationManager {
    private let simulation: MapSimulation
    public var options = LocationOptions() {
        didSet { simulation.location?.puckBearing = options.puckBearing }
    }

    init(simulation: MapSimulation) { self.simulation = simulation }

    /// Replays a recorded track as the device location (Mapbox: `override(locationProvider:)`).
    public func override(track: Track, speed: Double = 1, loop: Bool = false) {
        let l = SimulatedLocation(track: track, speed: speed, loop: loop, startTime: simulation.now)
        l.puckBearing = options.puckBearing
        simulation.setLocation(l)
    }

    /// The puck as shown now (nil before the first fix or without a track).
    public var puck: PuckState? { simulation.location?.puck }
}
