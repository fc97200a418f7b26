import FlybyCore
import FlybyRender

/// One tick of a flight as written to a trace.
public struct FrameRecord: Sendable, Equatable {
    public var frame: Int
    public var t: Double
    public var camera: CameraState
    public var viewport: String
    /// The puck when a location track is active (the trace's `puck` field).
    public var puck: TracePuck?
    public var events: [String]
    /// The camera eye's altitude in metres above sea level when the style has `terrain` (the
    /// trace's `altitude` field; nil without terrain).
    public var altitude: Double?

    public init(frame: Int, t: Double, camera: CameraState, viewport: String = "idle", puck: TracePuck? = nil, events: [String] = [],
                altitude: Double? = nil) {
        self.frame = frame; self.t = t; self.camera = camera; self.viewport = viewport; self.puck = puck; self.events = events
        self.altitude = altitude
    }
}

/// The flight did not finish within the frame limit (a runaway script).
public struct FlightLimitError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var frames: Int
    public var description: String { "\(file): the flight did not finish within \(frames) frames" }
}

/// Runs a flight script on a `MapSimulation` with a manual clock: frame 0 is the state after the
/// steps that start at t = 0 were started (before any progress); then one record per tick until
/// the tick in which the last step completes.
public final class FlightRunner {
    /// At most this many frames (a day at 60 fps plus margin); protects against runaway scripts.
    public static let defaultFrameLimit = 6_000_000

    public let script: FlightScript
    /// The terrain the camera stays above (nil: a flat map).
    public let terrain: TerrainElevation?
    public let simulation: MapSimulation
    public let clock: ManualClock
    private var queue: [FlightStep]
    private var queueIndex = 0
    private var current: ActiveStep?
    private var namedAnimators: [String: BasicCameraAnimator] = [:]
    public private(set) var isFinished = false

    /// - Parameter startCamera: the camera before the script's own `camera` fields are applied
    ///   (the style's default camera).
    ///   - terrain: the style's terrain (``StyleResolver/terrain(of:)``): the camera's eye is kept
    ///     above it and every record carries the eye's altitude; nil for a flat map.
    public init(script: FlightScript, startCamera: CameraState, terrain: TerrainElevation? = nil) {
        self.script = script
        self.terrain = terrain
        clock = ManualClock(fps: script.fps)
        simulation = MapSimulation(size: script.size, camera: startCamera.applying(script.camera), bounds: script.bounds, clock: clock)
        simulation.mapboxMap.terrain = terrain?.terrain()
        simulation.viewport.context.styleDefaultCamera = CameraOptions(cameraState: startCamera)
        simulation.viewport.options.transitionsToIdleUponUserInteraction = script.transitionsToIdleUponUserInteraction
        if let l = script.location {
            let location = SimulatedLocation(track: l.track, speed: l.speed, loop: l.loop, mode: l.mode)
            location.puckBearing = l.puckBearing
            simulation.setLocation(location)
        }
        queue = script.steps
        simulation.inputParticipants.append { [unowned self] now in
            for g in activeGestures { g.gestureInput(now) }
            activeGestures.removeAll { $0.done }
        }
    }

    /// Gesture steps that give input each tick (phase 1).
    fileprivate var activeGestures: [ActiveStep] = []

    /// The current frame's record (events since the previous record).
    public func record() -> FrameRecord {
        let events = simulation.takeEvents()
        return FrameRecord(frame: clock.frame, t: clock.now, camera: simulation.mapboxMap.cameraState,
                           viewport: simulation.viewportStatusName, puck: simulation.tracePuck, events: events,
                           altitude: simulation.mapboxMap.eyeAltitude)
    }

    /// Starts the steps due at t = 0 and returns frame 0.
    public func start() -> FrameRecord {
        advanceSteps(at: clock.now)
        return record()
    }

    /// Ticks once and returns the new frame.
    public func step() -> FrameRecord {
        simulation.tick()
        advanceSteps(at: clock.now)
        return record()
    }

    /// Runs the whole flight, handing each frame to `sink`.
    /// A DEM tile that cannot be read stops the flight with its error (after the frame that
    /// needed it: the camera cannot throw in the middle of a tick).
    public func run(frameLimit: Int = FlightRunner.defaultFrameLimit, _ sink: (FrameRecord) throws -> Void) throws {
        try sink(start())
        while !isFinished {
            if clock.frame >= frameLimit { throw FlightLimitError(file: script.file, frames: frameLimit) }
            if let e = terrain?.firstError { throw e }
            try sink(step())
        }
        if let e = terrain?.firstError { throw e }
    }

    /// Starts steps until one is still running (or none is left).
    private func advanceSteps(at now: Double) {
        while true {
            if let c = current {
                if c.poll(now) { current = nil } else { return }
            }
            guard queueIndex < queue.count else { isFinished = true; return }
            let s = makeActive(queue[queueIndex])
            queueIndex += 1
            s.start(now)
            current = s
        }
    }

    func makeActive(_ step: FlightStep) -> ActiveStep {
        ActiveStep(step: step, runner: self)
    }

    // MARK: Step execution

    final class ActiveStep {
        let step: FlightStep
        unowned let runner: FlightRunner
        var done = false
        var startTime = 0.0
        var children: [(at: Double, active: ActiveStep?, step: FlightStep)] = []
        /// Viewport steps: when the transition ended (the hold starts then).
        var transitionEndTime: Double?

        init(step: FlightStep, runner: FlightRunner) { self.step = step; self.runner = runner }

        func start(_ now: Double) {
            startTime = now
            let sim = runner.simulation
            switch step {
            case .set(let camera):
                sim.mapboxMap.setCamera(to: camera)
                done = true
            case .wait(let seconds):
                done = seconds <= 0
            case .ease(let to, let duration, let curve):
                sim.camera.ease(to: to, duration: duration, curve: curve) { [weak self] _ in self?.done = true }
            case .fly(let to, let duration, let curve, let maxDuration, let minZoom):
                sim.camera.fly(to: to, duration: duration, curve: curve, maxDuration: maxDuration, minZoom: minZoom) { [weak self] _ in
                    self?.done = true
                }
            case .animate(let a):
                let animator = sim.camera.makeAnimator(duration: a.duration, curve: a.curve, animationOwner: a.owner) { t in
                    t.setFromValues(a.from)
                    t.setToValues(a.to)
                    t.shouldOptimizeBearingPath = a.shortestBearing
                }
                animator.isReversed = a.reversed
                animator.addCompletion { [weak self] _ in self?.done = true }
                if let id = a.id { runner.namedAnimators[id] = animator }
                animator.startAnimation(afterDelay: a.delay)
            case .parallel(let items):
                children = items.map { ($0.at, nil, $0.step) }
                done = pollChildren(now)
            case .cancel(let owners):
                if let owners { sim.camera.cancelAnimations(withOwners: owners) } else { sim.camera.cancelAnimations() }
                done = true
            case .control(let id, let action):
                if let a = runner.namedAnimators[id] {
                    switch action {
                    case .pause: a.pauseAnimation()
                    case .resume: a.startAnimation()
                    case .reverse: a.isReversed.toggle()
                    case .scrub(let f): a.fractionComplete = f
                    case .stop: a.stopAnimation()
                    }
                } else {
                    sim.record(event: "control: no animator named \(id)")
                }
                done = true
            case .viewport(let stateSpec, let transitionSpec, let hold):
                startViewport(stateSpec, transitionSpec, hold: hold, now: now)
            case .gesture(let g):
                startGesture(g, now: now)
            }
        }

        func startViewport(_ spec: ViewportStateDescriptor, _ t: ViewportTransitionDescriptor, hold: Double, now: Double) {
            let started = runner.simulation.viewport.transition(to: spec, transition: t) { [weak self] _ in
                guard let self else { return }
                self.transitionEndTime = self.runner.clock.now
                if hold <= 0 { self.done = true }
            }
            if !started {  // idle: no transition, the hold starts now
                transitionEndTime = now
                done = hold <= 0
            }
        }

        // MARK: Gestures (input each tick, as a finger would)

        var gesture: GestureSpec?

        func startGesture(_ g: GestureSpec, now: Double) {
            let gm = runner.simulation.gestures
            gesture = g
            switch g {
            case .pan(let from, _, _): gm.panBegan(at: from, time: now)
            case .pinch(let at, _, _): gm.pinchBegan(at: at)
            case .rotate: gm.rotateBegan()
            case .pitch: gm.pitchBegan()
            case .quickZoom(let at, _, _): gm.quickZoomBegan(at: at)
            case .doubleTap(let at): gm.doubleTap(at: at); done = true; return
            case .twoFingerTap(let at): gm.twoFingerTap(at: at); done = true; return
            }
            if gestureDuration(g) <= 0 { gestureInput(now) } else { runner.activeGestures.append(self) }
        }

        func gestureDuration(_ g: GestureSpec) -> Double {
            switch g {
            case .pan(_, _, let d), .pinch(_, _, let d), .rotate(_, _, let d), .pitch(_, let d), .quickZoom(_, _, let d): return d
            case .doubleTap, .twoFingerTap: return 0
            }
        }

        /// One tick of finger input; ends the gesture when its time is up.
        func gestureInput(_ now: Double) {
            guard let g = gesture, !done else { return }
            let gm = runner.simulation.gestures
            let d = gestureDuration(g)
            let f = d <= 0 ? 1 : min(max((now - startTime) / d, 0), 1)
            let finished = d <= 0 || now - startTime >= d - timeEpsilon
            switch g {
            case .pan(let from, let to, _):
                gm.panChanged(to: ScreenPoint(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f), time: now)
                if finished { gm.panEnded(time: now) }
            case .pinch(let at, let scale, _):
                gm.pinchChanged(scale: 1 + (scale - 1) * f, at: at)
                if finished { gm.pinchEnded() }
            case .rotate(let at, let degrees, _):
                gm.rotateChanged(degrees: degrees * f, at: at)
                if finished { gm.rotateEnded() }
            case .pitch(let degrees, _):
                gm.pitchChanged(translationY: -GestureManager.pitchPointsPerDegree * degrees * f)
                if finished { gm.pitchEnded() }
            case .quickZoom(_, let dy, _):
                gm.quickZoomChanged(dy: dy * f)
                if finished { gm.quickZoomEnded() }
            case .doubleTap, .twoFingerTap:
                break
            }
            if finished { done = true }
        }

        /// True once the step has completed (or was cancelled).
        func poll(_ now: Double) -> Bool {
            if done { return true }
            switch step {
            case .wait(let seconds):
                done = now - startTime >= seconds - timeEpsilon
            case .viewport(_, _, let hold):
                if let end = transitionEndTime { done = now - end >= hold - timeEpsilon }
            case .parallel:
                done = pollChildren(now)
            default:
                break
            }
            return done
        }

        private func pollChildren(_ now: Double) -> Bool {
            // Start every child that is due first, so a child cancelled by a sibling started in
            // this tick counts as done in this tick.
            var allStarted = true
            for i in children.indices where children[i].active == nil {
                if now - startTime >= children[i].at - timeEpsilon {
                    let child = ActiveStep(step: children[i].step, runner: runner)
                    children[i].active = child
                    child.start(now)
                } else {
                    allStarted = false
                }
            }
            var allDone = allStarted
            for c in children { if let a = c.active, !a.poll(now) { allDone = false } }
            return allDone
        }
    }
}
