/// One map's deterministic simulation: the frame clock, the camera model (`mapboxMap`) and the
/// camera animations (`camera`), ticked in the order of the Mapbox display link (docs/research/mapbox-camera-viewport.md §0):
/// 1. input and location/puck participants, 2. viewport participants, 3. animators in creation
/// order, 4. completions (which may start the next animation), 5. events.
///
/// The interactive window, flight traces and video playback all drive this same type; only the
/// clock (manual or wall) and the source of input differ. Names follow Mapbox's `MapView`:
/// `simulation.mapboxMap.setCamera(to:)`, `simulation.camera.ease(to:)`.
public final class MapSimulation {
    public let clock: FrameClock
    public let mapboxMap: FlybyMap
    public let camera: CameraAnimationsManager
    /// The viewport state machine (Mapbox's `mapView.viewport`).
    public let viewport: ViewportManager
    /// Touch input in screen points (Mapbox's `mapView.gestures`).
    public let gestures: GestureManager
    /// The simulated location and its puck, when a track is set.
    public private(set) var location: SimulatedLocation?
    /// Phase 1 (input, location, puck) and phase 2 (viewport) work, called each tick with its time.
    /// Plumbing between Flyby's modules (the flight runner, the window), not API.
    package var inputParticipants: [(Double) -> Void] = []
    package var viewportParticipants: [(Double) -> Void] = []
    /// Called after completions, each tick (scripted steps start here).
    package var afterTickParticipants: [(Double) -> Void] = []

    private var events: [String] = []
    private var observations: [Cancelable] = []

    /// - Precondition: size positive; camera finite.
    public init(size: ScreenSize, camera: CameraState, bounds: CameraBounds = .default, clock: FrameClock) {
        self.clock = clock
        mapboxMap = FlybyMap(size: size, camera: camera, bounds: bounds)
        self.camera = CameraAnimationsManager(map: mapboxMap)
        self.camera.now = clock.now
        viewport = ViewportManager(context: ViewportContext(map: mapboxMap, camera: self.camera,
                                                            styleDefaultCamera: CameraOptions(cameraState: mapboxMap.cameraState)))
        gestures = GestureManager(map: mapboxMap, camera: self.camera, viewport: viewport)
        viewport.eventSink = { [unowned self] e in events.append(e) }
        observations = [
            self.camera.onCameraAnimatorStarted.observe { [unowned self] a in events.append("animator \(a.id) started") },
            self.camera.onCameraAnimatorPaused.observe { [unowned self] a in events.append("animator \(a.id) paused") },
            self.camera.onCameraAnimatorFinished.observe { [unowned self] e in events.append("animator \(e.animator.id) finished \(e.position.rawValue)") },
            self.camera.onCameraAnimatorCancelled.observe { [unowned self] a in events.append("animator \(a.id) cancelled current") },
        ]
    }

    deinit {
        for o in observations { o.cancel() }
        camera.invalidate()
    }

    /// Time of the current tick, seconds.
    public var now: Double { clock.now }

    /// Starts replaying a location track; the puck appears at the first fix.
    public func setLocation(_ location: SimulatedLocation?) {
        self.location = location
        viewport.context.trackCoordinates = location?.track.coordinates ?? []
        updateLocation(at: clock.now)
    }

    private func updateLocation(at t: Double) {
        guard let location else { viewport.context.puck = nil; return }
        viewport.context.puckMoved = location.advance(to: t)
        viewport.context.puck = location.puck
    }

    /// Advances the clock one tick and runs every phase.
    public func tick() {
        let t = clock.advance()
        camera.now = t
        for p in inputParticipants { p(t) }
        updateLocation(at: t)
        for p in viewportParticipants { p(t) }
        viewport.update()
        camera.update(at: t)
        for p in afterTickParticipants { p(t) }
        viewport.deliverNotifications()
    }

    /// The viewport status as written in traces.
    public var viewportStatusName: String { viewport.status.description }

    /// Appends an event line (for the trace's `events` field).
    public func record(event: String) { events.append(event) }

    /// The events since the last call, in the order they happened.
    public func takeEvents() -> [String] {
        viewport.deliverNotifications()
        if events.isEmpty { return [] }
        defer { events = [] }
        return events
    }
}
