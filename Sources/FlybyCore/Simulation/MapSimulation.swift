/// One map's deterministic simulation: the frame clock, the camera model (`mapboxMap`) and the
/// camera animations (`camera`), ticked in the order of the Mapbox display link (DESIGN.md):
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
    /// Phase 1 (input, location, puck) and phase 2 (viewport) work, called each tick with its time.
    public var inputParticipants: [(Double) -> Void] = []
    public var viewportParticipants: [(Double) -> Void] = []
    /// Called after completions, each tick (scripted steps start here).
    public var afterTickParticipants: [(Double) -> Void] = []

    private var events: [String] = []
    private var observations: [Cancelable] = []

    /// - Precondition: size positive; camera finite.
    public init(size: ScreenSize, camera: CameraState, bounds: CameraBounds = .default, clock: FrameClock) {
        self.clock = clock
        mapboxMap = FlybyMap(size: size, camera: camera, bounds: bounds)
        self.camera = CameraAnimationsManager(map: mapboxMap)
        self.camera.now = clock.now
        observations = [
            self.camera.onCameraAnimatorStarted.observe { [unowned self] a in events.append("animator \(a.id) started") },
            self.camera.onCameraAnimatorPaused.observe { [unowned self] a in events.append("animator \(a.id) paused") },
            self.camera.onCameraAnimatorFinished.observe { [unowned self] e in events.append("animator \(e.animator.id) finished \(e.position.rawValue)") },
            self.camera.onCameraAnimatorCancelled.observe { [unowned self] a in events.append("animator \(a.id) cancelled current") },
        ]
    }

    /// Time of the current tick, seconds.
    public var now: Double { clock.now }

    /// Advances the clock one tick and runs every phase.
    public func tick() {
        let t = clock.advance()
        camera.now = t
        for p in inputParticipants { p(t) }
        for p in viewportParticipants { p(t) }
        camera.update(at: t)
        for p in afterTickParticipants { p(t) }
    }

    /// Appends an event line (for the trace's `events` field).
    public func record(event: String) { events.append(event) }

    /// The events since the last call, in the order they happened.
    public func takeEvents() -> [String] {
        if events.isEmpty { return [] }
        defer { events = [] }
        return events
    }
}
