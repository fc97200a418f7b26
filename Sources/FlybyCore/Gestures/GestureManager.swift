#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gesture settings (Mapbox's `GestureOptions`).
public struct GestureOptions: Sendable {
    public var panEnabled = true
    public var pinchEnabled = true
    public var rotateEnabled = true
    public var pitchEnabled = true
    public var doubleTapToZoomInEnabled = true
    public var doubleTouchToZoomOutEnabled = true
    public var quickZoomEnabled = true
    /// Velocity decay per millisecond after a fling (`UIScrollView.DecelerationRate.normal`).
    public var panDecelerationFactor = 0.998
    /// Fixed anchor for pinch, rotate, double tap, two-finger tap and quick zoom (nil: the touch).
    public var focalPoint: ScreenPoint?
    public init() {}
}

/// Where a tap or long press happened: the screen point and the coordinate under it (Mapbox's
/// `MapContentGestureContext`).
public struct MapContentGestureContext: Hashable, Sendable {
    /// Screen point (points, origin top-left, y down).
    public var point: ScreenPoint
    /// The coordinate under the point, degrees.
    public var coordinate: LocationCoordinate2D
    public init(point: ScreenPoint, coordinate: LocationCoordinate2D) { self.point = point; self.coordinate = coordinate }
}

/// The kinds of gesture, for the begin/end signals (Mapbox's `GestureType`).
public enum GestureType: String, Sendable {
    case pan, pinch, rotation, pitch, doubleTapToZoomIn, doubleTouchToZoomOut, quickZoom, singleTap
}

/// Turns touch input, in screen points, into camera changes the way the Mapbox iOS gesture
/// handlers do (docs/research/mapbox-camera-viewport.md §8). Independent of SDL: the window and flight
/// scripts call the same methods.
///
/// Every continuous gesture begins like Mapbox v11's "any-touch" recognizer: all camera
/// animations are cancelled and the viewport goes idle (reason `userInteraction`) when
/// `transitionsToIdleUponUserInteraction` is on. Taps: double tap zooms in by 1 and two-finger tap
/// out by 1 about the touch, as a 0.3 s `ease` (owner `cameraAnimationsManager`).
public final class GestureManager {
    /// Seconds after the last pan change within which a release still flings (Mapbox: 1/30 s).
    public static let flingWindow = 1.0 / 30
    /// Degrees of accumulated rotation before a rotation gesture starts turning the map.
    public static let rotationThreshold = 3.0
    /// Points of vertical drag per degree of pitch.
    public static let pitchPointsPerDegree = 2.0
    /// Points of quick-zoom drag per zoom level.
    public static let quickZoomPointsPerLevel = 75.0

    public var options = GestureOptions()
    public let onGestureBegan = Signal<GestureType>()
    public let onGestureEnded = Signal<(type: GestureType, willAnimate: Bool)>()
    /// A single tap on the map, after annotation and layer tap handlers declined it (Mapbox
    /// v11's `gestures.onMapTap`; hosts such as FlybyMaps' `MapView` send it).
    public let onMapTap = Signal<MapContentGestureContext>()
    /// A long press on the map (Mapbox v11's `gestures.onMapLongPress`).
    public let onMapLongPress = Signal<MapContentGestureContext>()

    let map: FlybyMap
    let camera: CameraAnimationsManager
    let viewport: ViewportManager

    private var panLast: ScreenPoint?
    private var panLastTime = 0.0
    private var panVelocity = ScreenPoint.zero
    private var pinchStart: (zoom: Double, at: ScreenPoint)?
    private var pinchLast: ScreenPoint?
    private var rotateStart: (bearing: Double, started: Bool)?
    private var pitchStart: Double?
    private var quickZoomStart: (zoom: Double, at: ScreenPoint)?

    init(map: FlybyMap, camera: CameraAnimationsManager, viewport: ViewportManager) {
        self.map = map; self.camera = camera; self.viewport = viewport
    }

    /// What every continuous gesture does first (Mapbox v11 any-touch).
    private func touchBegan(_ type: GestureType) {
        // Idle first, so a running transition ends as USER_INTERACTION rather than failing
        // because its animators were cancelled.
        viewport.userInteractionBegan()
        camera.cancelAnimations()
        map.beginGesture()
        onGestureBegan.send(type)
    }

    private func touchEnded(_ type: GestureType, willAnimate: Bool) {
        map.endGesture()
        onGestureEnded.send((type, willAnimate))
    }

    // MARK: Pan

    /// A finger (or the mouse) went down and started dragging at `point`; `time` in seconds of
    /// simulation time.
    public func panBegan(at point: ScreenPoint, time: Double) {
        guard options.panEnabled, point.isFinite else { return }
        touchBegan(.pan)
        panLast = point
        panLastTime = time
        panVelocity = .zero
    }

    /// The finger moved to `point`: the ground under the previous point follows it.
    public func panChanged(to point: ScreenPoint, time: Double) {
        guard let last = panLast, point.isFinite else { return }
        map.setCamera(to: map.dragCameraOptions(from: last, to: point))
        let dt = time - panLastTime
        if dt > 0 { panVelocity = ScreenPoint(x: (point.x - last.x) / dt, y: (point.y - last.y) / dt) }
        panLast = point
        panLastTime = time
    }

    /// The finger lifted at `time`. When it was still moving (its last change less than
    /// `flingWindow` ago), the map decelerates with that velocity (points per second).
    public func panEnded(time: Double, velocity: ScreenPoint? = nil) {
        guard let last = panLast else { return }
        panLast = nil
        let v = velocity ?? panVelocity
        let flings = time - panLastTime < GestureManager.flingWindow - timeEpsilon && v.isFinite && (abs(v.x) >= 35 || abs(v.y) >= 35)
        if flings {
            // Mapbox starts the deceleration at least 3/4 down the view, away from the horizon.
            let start = ScreenPoint(x: last.x, y: max(last.y, map.size.height * 0.75))
            let map = self.map
            camera.decelerate(location: start, velocity: v, decelerationFactor: options.panDecelerationFactor,
                              locationChangeHandler: { from, to in map.setCamera(to: map.dragCameraOptions(from: from, to: to)) })
        }
        touchEnded(.pan, willAnimate: flings)
    }

    // MARK: Pinch

    public func pinchBegan(at point: ScreenPoint) {
        guard options.pinchEnabled, point.isFinite else { return }
        touchBegan(.pinch)
        pinchStart = (map.cameraState.zoom, point)
        pinchLast = point
    }

    /// Scale relative to the start of the pinch (2 = one zoom level in), about `point`; a moving
    /// centroid also pans.
    public func pinchChanged(scale: Double, at point: ScreenPoint) {
        guard let start = pinchStart, scale.isFinite, scale > 0, point.isFinite else { return }
        if let last = pinchLast, last != point, options.focalPoint == nil {
            map.setCamera(to: map.dragCameraOptions(from: last, to: point))
        }
        pinchLast = point
        map.setCamera(to: CameraOptions(anchor: options.focalPoint ?? point, zoom: start.zoom + log2(scale)))
    }

    public func pinchEnded() {
        guard pinchStart != nil else { return }
        pinchStart = nil
        pinchLast = nil
        touchEnded(.pinch, willAnimate: false)
    }

    // MARK: Rotate

    public func rotateBegan() {
        guard options.rotateEnabled else { return }
        touchBegan(.rotation)
        rotateStart = (map.cameraState.bearing, false)
    }

    /// Rotation so far in degrees (counter-clockwise positive, as the fingers turn), about `point`.
    /// Nothing turns until the rotation reaches `rotationThreshold` degrees.
    public func rotateChanged(degrees: Double, at point: ScreenPoint) {
        guard var r = rotateStart, degrees.isFinite, point.isFinite else { return }
        if !r.started {
            guard abs(degrees) >= GestureManager.rotationThreshold else { return }
            r.started = true
            rotateStart = r
        }
        map.setCamera(to: CameraOptions(anchor: options.focalPoint ?? point, bearing: wrapBearing(r.bearing - degrees)))
    }

    public func rotateEnded() {
        guard rotateStart != nil else { return }
        rotateStart = nil
        touchEnded(.rotation, willAnimate: false)
    }

    // MARK: Pitch

    public func pitchBegan() {
        guard options.pitchEnabled else { return }
        touchBegan(.pitch)
        pitchStart = map.cameraState.pitch
    }

    /// Two fingers dragged vertically by `translationY` points (up is negative): 2 pt per degree.
    public func pitchChanged(translationY: Double) {
        guard let p0 = pitchStart, translationY.isFinite else { return }
        map.setCamera(to: CameraOptions(pitch: p0 - translationY / GestureManager.pitchPointsPerDegree))
    }

    public func pitchEnded() {
        guard pitchStart != nil else { return }
        pitchStart = nil
        touchEnded(.pitch, willAnimate: false)
    }

    // MARK: Quick zoom (tap, then drag)

    public func quickZoomBegan(at point: ScreenPoint) {
        guard options.quickZoomEnabled, point.isFinite else { return }
        touchBegan(.quickZoom)
        quickZoomStart = (map.cameraState.zoom, point)
    }

    /// Dragged `dy` points down since the start (down zooms in): 75 pt per level.
    public func quickZoomChanged(dy: Double) {
        guard let s = quickZoomStart, dy.isFinite else { return }
        map.setCamera(to: CameraOptions(anchor: options.focalPoint ?? s.at, zoom: s.zoom + dy / GestureManager.quickZoomPointsPerLevel))
    }

    public func quickZoomEnded() {
        guard quickZoomStart != nil else { return }
        quickZoomStart = nil
        touchEnded(.quickZoom, willAnimate: false)
    }

    // MARK: Taps

    /// Zooms in by one level about `point` in 0.3 s.
    public func doubleTap(at point: ScreenPoint) { zoomTap(at: point, by: 1, type: .doubleTapToZoomIn, enabled: options.doubleTapToZoomInEnabled) }

    /// Zooms out by one level about `point` in 0.3 s.
    public func twoFingerTap(at point: ScreenPoint) { zoomTap(at: point, by: -1, type: .doubleTouchToZoomOut, enabled: options.doubleTouchToZoomOutEnabled) }

    private func zoomTap(at point: ScreenPoint, by delta: Double, type: GestureType, enabled: Bool) {
        guard enabled, point.isFinite else { return }
        viewport.userInteractionBegan()
        onGestureBegan.send(type)
        camera.ease(to: CameraOptions(anchor: options.focalPoint ?? point, zoom: map.cameraState.zoom + delta), duration: 0.3, curve: .easeOut)
        onGestureEnded.send((type, true))
    }

    /// A single tap cancels every animation (Mapbox); it does not idle the viewport.
    public func singleTap(at point: ScreenPoint) {
        camera.cancelAnimations()
        onGestureBegan.send(.singleTap)
        onGestureEnded.send((.singleTap, false))
    }
}
