import FlybyCore
import FlybyData
import FlybyFlight
import FlybyRender

#if canImport(Glibc)
import Glibc
#endif

/// A place the number keys fly to.
public struct Bookmark: Sendable, Equatable {
    public var name: String
    public var camera: CameraOptions
    public init(name: String, camera: CameraOptions) { self.name = name; self.camera = camera }
}

/// The simulation behind a window, free of SDL: a `MapSimulation` on a fixed-step
/// `ManualClock`, advanced to the wall clock, with window input applied as the engine's gesture
/// and animation calls.
///
/// **Time.** Simulation tick i is at exactly t = i / fps, as in `flyby trace`. Each displayed
/// frame calls ``advance(toWallTime:)``, which runs every tick due by the (paused, rate-scaled)
/// wall time. With `--script` the ticks are `FlightRunner.step()`, so a session shows and records
/// the same cameras as `flyby trace` at the same instants, whatever the display frame rate.
/// While nothing moves, simulated time stands still (an idle window does no work, and an idle
/// minute does not add 3 600 trace lines); it resumes at the next input.
///
/// **Input.** Actions queue up and are applied in the input phase (phase 1) of the next tick,
/// exactly where a flight's gesture steps give their input; when time is paused they apply at
/// once so the map can still be dragged.
public final class WindowSession {
    public let simulation: MapSimulation
    public let clock: ManualClock
    /// The flight being played (`--script`), if any.
    public let runner: FlightRunner?
    public var fps: Double { clock.fps }
    /// Built-in tracks for F / T / O, in cycling order.
    public let tracks: [BuiltInTrack] = BuiltInTrack.allCases
    public private(set) var trackIndex = 0
    /// Places for keys 1–9.
    public var bookmarks: [Bookmark] = WindowSession.defaultBookmarks
    /// Simulated time stands still while true (Space).
    public var isPaused = false
    /// Simulated seconds per wall second ([ and ]), 1/16 … 16.
    public private(set) var rate = 1.0
    /// A short message for the HUD (last action result), if any.
    public var notice: String?

    private var pending: [WindowAction] = []
    /// Trace events from the window (feature selection) waiting for the next input phase.
    private var pendingEvents: [String] = []
    private var scroll = ScrollZoom()
    private var scrollPinch: (startZoom: Double, at: ScreenPoint)?
    private var rotateInertia = RotateInertia()
    private var simTime: Double
    private var lastWall: Double?
    private var wasQuiescent = true
    private var holdsInput = false
    private var recording: (bytes: [UInt8], startFrame: Int)?
    private var style: String
    /// The flight's `location.puck3D`, written into recorded trace headers (docs/formats.md §3).
    private var puck3D: Puck3D?

    /// An interactive session starting at `camera`. With the style's `terrain`
    /// (``StyleResolver/terrain(of:)``) no gesture or animation puts the eye below the ground
    /// plus the clearance, as in flights, and recorded frames carry the eye's `altitude`.
    public init(size: ScreenSize, camera: CameraState, style: String, fps: Double = 60, bounds: CameraBounds = .default,
                terrain: TerrainElevation? = nil) {
        clock = ManualClock(fps: fps)
        simulation = MapSimulation(size: size, camera: camera, bounds: bounds, clock: clock)
        simulation.mapboxMap.terrain = terrain?.terrain()
        runner = nil
        simTime = 0
        self.style = style
        install()
    }

    /// A session that plays `script` (its first frame is started here), over the style's
    /// `terrain` when given.
    public init(script: FlightScript, startCamera: CameraState, size: ScreenSize? = nil, terrain: TerrainElevation? = nil) {
        let r = FlightRunner(script: script, startCamera: startCamera, terrain: terrain)
        runner = r
        clock = r.clock
        simulation = r.simulation
        simTime = 0
        style = script.style
        puck3D = script.location?.puck3D
        if let size { simulation.mapboxMap.setSize(size) }
        install()
        firstRecord = r.start()
    }

    private var firstRecord: FrameRecord?

    private func install() {
        simulation.inputParticipants.insert({ [unowned self] t in inputPhase(t) }, at: 0)
    }

    // MARK: Time

    /// Runs every tick due by wall time `wall` (seconds, any origin) and returns how many ran.
    /// At most `maxCatchUp` seconds of simulated time are run per call, so a stall does not
    /// freeze the window while it catches up.
    @discardableResult
    public func advance(toWallTime wall: Double, maxCatchUp: Double = 0.25) -> Int {
        defer { lastWall = wall }
        guard let last = lastWall else { return 0 }
        if isPaused {
            applyPendingNow()
            return 0
        }
        var dt = max(0, wall - last)
        // After an idle stretch, time resumes from the next tick rather than jumping ahead.
        if wasQuiescent { dt = min(dt, 1 / fps) }
        simTime += min(dt, maxCatchUp) * rate
        var count = 0
        // Input that arrived since the last call happened after the ticks still due, except the
        // last one: hold it back until then, so (for example) a release after a still pause does
        // not fling because it was applied at an earlier tick.
        let due = Int(((simTime - clock.now) * fps + 1e-9).rounded(.down))
        if due <= 0, wasQuiescent, hasPendingInput {
            // Input after idle: apply it at the next tick now instead of waiting for it.
            simTime = clock.now + 1 / fps
            step()
            count = 1
        } else if due > 0 {
            holdsInput = true
            for i in 0..<due {
                if i == due - 1 { holdsInput = false }
                step()
                count += 1
            }
            holdsInput = false
        }
        wasQuiescent = isQuiescent
        return count
    }

    /// Wall seconds from `wall` until the next tick is due (for frame pacing).
    public func secondsUntilNextTick(wall: Double) -> Double {
        guard !isPaused, let last = lastWall else { return 1 }
        return max(0, (clock.now + 1 / fps - simTime) / rate - max(0, wall - last))
    }

    /// Runs exactly one tick (the test hook; `advance` calls it).
    public func step() {
        let record: FrameRecord
        if let r = runner, !r.isFinished {
            record = r.step()
        } else {
            simulation.tick()
            record = currentRecord()
        }
        append(record)
    }

    /// The trace record of the frame just run (its events taken), with the eye's altitude over terrain.
    private func currentRecord() -> FrameRecord {
        FrameRecord(frame: clock.frame, t: clock.now, camera: simulation.mapboxMap.cameraState,
                    viewport: simulation.viewportStatusName, puck: simulation.tracePuck,
                    events: simulation.takeEvents(), altitude: simulation.mapboxMap.eyeAltitude)
    }

    /// True when nothing moves: no animation, gesture, scroll, queued input, moving puck,
    /// running flight or active viewport state. Then the window need not draw or tick.
    public var isQuiescent: Bool {
        if hasPendingInput || scroll.isActive || scrollPinch != nil { return false }
        if simulation.camera.runningAnimatorCount > 0 || simulation.mapboxMap.isGestureInProgress { return false }
        if let r = runner, !r.isFinished { return false }
        if simulation.location != nil && !isPaused { return false }
        if simulation.viewportStatusName != "idle" && !isPaused { return false }
        return true
    }

    private var hasPendingInput: Bool { !pending.isEmpty || !pendingEvents.isEmpty }

    /// Halves or doubles the simulated-time rate.
    public func scaleRate(by factor: Double) {
        rate = min(16, max(1.0 / 16, rate * factor))
    }

    // MARK: Input

    /// Queues a camera action for the next tick (or applies it now while paused). Actions the
    /// session does not own (quit, screenshot, overlays, style) are ignored here.
    public func handle(_ action: WindowAction) {
        switch action {
        case .togglePause: isPaused.toggle()
        case .slower: scaleRate(by: 0.5)
        case .faster: scaleRate(by: 2)
        case .resize(let s):
            guard s.width >= 1, s.height >= 1 else { return }
            simulation.mapboxMap.setSize(s)
        case .quit, .screenshot, .toggleHelp, .toggleHUD, .cycleLight, .switchStyle, .toggleRecording, .click, .hover, .clearFeatures: return
        default:
            pending.append(action)
            if isPaused { applyPendingNow() }
        }
    }

    /// Adds an event line (e.g. `select world/countries-50m/FIN`) to the trace in the input phase
    /// of the next tick, like input: the tick in which the user acted names it.
    public func record(event: String) {
        pendingEvents.append(event)
        if isPaused { applyPendingNow() }
    }

    private func applyPendingNow() {
        inputPhase(clock.now)
        // Scroll zoom eases need ticks; while paused a scroll lands on its target at once.
        while scroll.isActive {
            let m = simulation.mapboxMap
            guard let z = scroll.update(currentZoom: m.cameraState.zoom, minZoom: m.cameraBounds.minZoom,
                                        maxZoom: m.cameraBounds.maxZoom, time: clock.now + 1) else { break }
            applyScrollZoom(z)
        }
        endScrollPinch()
    }

    /// Phase 1 of a tick: queued input, then the scroll zoom.
    private func inputPhase(_ t: Double) {
        let actions = holdsInput ? [] : pending
        if !holdsInput {
            pending.removeAll(keepingCapacity: true)
            for e in pendingEvents { simulation.record(event: e) }
            pendingEvents.removeAll(keepingCapacity: true)
        }
        for a in actions { apply(a, at: t) }
        let m = simulation.mapboxMap
        if let z = scroll.update(currentZoom: m.cameraState.zoom, minZoom: m.cameraBounds.minZoom, maxZoom: m.cameraBounds.maxZoom, time: t) {
            applyScrollZoom(z)
        }
        if !scroll.isActive { endScrollPinch() }
    }

    private func applyScrollZoom(_ zoom: Double) {
        let g = simulation.gestures
        if let p = scrollPinch, p.at != scroll.around { g.pinchEnded(); scrollPinch = nil }
        if scrollPinch == nil {
            g.pinchBegan(at: scroll.around)
            scrollPinch = (simulation.mapboxMap.cameraState.zoom, scroll.around)
        }
        g.pinchChanged(scale: pow2(zoom - scrollPinch!.startZoom), at: scroll.around)
    }

    private func endScrollPinch() {
        if scrollPinch != nil { simulation.gestures.pinchEnded(); scrollPinch = nil }
    }

    /// The MapLibre keyboard easing t·(2 − t) as a cubic Bézier.
    public static let keyboardCurve = AnimationCurve.bezier(1.0 / 3, 2.0 / 3, 2.0 / 3, 1)
    /// Keyboard ease duration, seconds.
    public static let keyboardDuration = 0.3

    private func apply(_ action: WindowAction, at t: Double) {
        let sim = simulation, g = sim.gestures, map = sim.mapboxMap
        let camera = map.cameraState
        func keyEase(_ options: CameraOptions) {
            sim.viewport.userInteractionBegan()
            sim.camera.ease(to: options, duration: Self.keyboardDuration, curve: Self.keyboardCurve)
        }
        switch action {
        case .panBegan(let p): g.panBegan(at: p, time: t)
        case .panChanged(let p): g.panChanged(to: p, time: t)
        case .panEnded: g.panEnded(time: t)
        case .rotatePitchBegan:
            g.rotateBegan()
            g.pitchBegan()
            rotateInertia.reset()
        case let .rotatePitchChanged(rotate, pitch):
            // GestureManager's rotation is counter-clockwise positive; a drag right turns the
            // bearing clockwise. Its pitch gesture lowers the pitch by 1° per 2 pt of translation.
            g.rotateChanged(degrees: -rotate, at: map.anchor)
            g.pitchChanged(translationY: -pitch * GestureManager.pitchPointsPerDegree)
            // What the camera actually did (after the rotation threshold and the pitch bounds).
            let now = map.cameraState
            rotateInertia.record(time: t, bearing: shortestAngle(from: camera.bearing, to: now.bearing) - camera.bearing,
                                 pitch: now.pitch - camera.pitch)
        case .rotatePitchEnded:
            g.rotateEnded()
            g.pitchEnded()
            // Released while turning: keep turning and slow down (MapLibre inertia).
            if let glide = rotateInertia.release(time: t) {
                let bounds = map.cameraBounds
                sim.camera.ease(to: CameraOptions(bearing: camera.bearing + glide.bearing,
                                                  pitch: min(max(camera.pitch + glide.pitch, bounds.minPitch), bounds.maxPitch)),
                                duration: glide.duration, curve: RotateInertia.curve)
            }
        case let .scroll(delta, kind, p):
            scroll.scroll(delta: delta, kind: kind, at: p, time: t)
        case let .doubleClick(p, zoomOut):
            if zoomOut { g.twoFingerTap(at: p) } else { g.doubleTap(at: p) }
        case let .panBy(dx, dy):
            let a = map.anchor
            keyEase(map.dragCameraOptions(from: ScreenPoint(x: a.x + dx, y: a.y + dy), to: a))
        case .zoomBy(let d): keyEase(CameraOptions(zoom: camera.zoom.rounded() + d))
        case .rotateBy(let d): keyEase(CameraOptions(bearing: camera.bearing + d))
        case .pitchBy(let d): keyEase(CameraOptions(pitch: min(max(camera.pitch + d, map.cameraBounds.minPitch), map.cameraBounds.maxPitch)))
        case .northUp: keyEase(CameraOptions(bearing: 0))
        case .bookmark(let n):
            guard n >= 1, n <= bookmarks.count else { return }
            sim.viewport.userInteractionBegan()
            sim.camera.fly(to: bookmarks[n - 1].camera)
            notice = "flying to \(bookmarks[n - 1].name)"
        case .followPuck:
            guard ensureLocation() else { return }
            sim.viewport.transition(to: sim.viewport.makeFollowPuckViewportState(options: .init(bearing: .course)))
            notice = "following \(tracks[trackIndex].rawValue)"
        case .cycleTrack:
            trackIndex = (trackIndex + 1) % tracks.count
            let wasFollowing = sim.viewportStatusName.hasSuffix("followPuck")
            let wasOverview = sim.viewportStatusName.hasSuffix("overview")
            guard startTrack() else { return }
            if wasFollowing { apply(.followPuck, at: t) } else if wasOverview { apply(.overview, at: t) }
            notice = "track \(tracks[trackIndex].rawValue)"
        case .overview:
            guard ensureLocation(), let l = sim.location else { return }
            let pad = EdgeInsets(top: 60, left: 60, bottom: 60, right: 60)
            sim.viewport.transition(to: sim.viewport.makeOverviewViewportState(options: .init(geometry: l.track.geometry, geometryPadding: pad)))
            notice = "overview of \(tracks[trackIndex].rawValue)"
        case .idle:
            sim.viewport.idle()
            notice = "viewport idle"
        default: break
        }
    }

    private func ensureLocation() -> Bool { simulation.location != nil || startTrack() }

    private func startTrack() -> Bool {
        do {
            let track = try tracks[trackIndex].load()
            simulation.setLocation(SimulatedLocation(track: track, loop: true, startTime: clock.now))
            return true
        } catch {
            notice = "cannot load track: \(error)"
            return false
        }
    }

    // MARK: Recording

    /// Whether a trace is being recorded.
    public var isRecording: Bool { recording != nil }

    /// Starts recording a trace (docs/formats.md §3) at the current frame, which becomes frame 0.
    public func startRecording() {
        var bytes = TraceWriter.header(fps: fps, size: simulation.mapboxMap.size, style: style, puck3D: puck3D)
        let start = clock.frame
        let r = firstRecord ?? currentRecord()
        firstRecord = nil
        TraceWriter.appendFrame(rebased(r, start), to: &bytes)
        recording = (bytes, start)
    }

    /// Stops recording and returns the trace bytes (nil when not recording).
    public func stopRecording() -> [UInt8]? {
        defer { recording = nil }
        return recording?.bytes
    }

    /// The style name written in trace headers.
    public func setStyleName(_ name: String) { style = name }

    private func rebased(_ r: FrameRecord, _ start: Int) -> FrameRecord {
        guard start != 0 else { return r }
        var c = r
        c.frame = r.frame - start
        c.t = Double(c.frame) / fps
        return c
    }

    private func append(_ r: FrameRecord) {
        firstRecord = nil
        guard recording != nil else { return }
        TraceWriter.appendFrame(rebased(r, recording!.startFrame), to: &recording!.bytes)
    }

    /// Places for keys 1–9.
    public static let defaultBookmarks: [Bookmark] = [
        Bookmark(name: "Helsinki", camera: CameraOptions(center: LocationCoordinate2D(latitude: 60.1699, longitude: 24.9384), zoom: 12, bearing: 0, pitch: 0)),
        Bookmark(name: "Paris", camera: CameraOptions(center: LocationCoordinate2D(latitude: 48.8566, longitude: 2.3522), zoom: 11, bearing: 0, pitch: 30)),
        Bookmark(name: "New York", camera: CameraOptions(center: LocationCoordinate2D(latitude: 40.7128, longitude: -74.006), zoom: 10, bearing: 20, pitch: 45)),
        Bookmark(name: "Tokyo", camera: CameraOptions(center: LocationCoordinate2D(latitude: 35.6762, longitude: 139.6503), zoom: 10, bearing: 0, pitch: 0)),
        Bookmark(name: "Sydney", camera: CameraOptions(center: LocationCoordinate2D(latitude: -33.8688, longitude: 151.2093), zoom: 10, bearing: 0, pitch: 0)),
        Bookmark(name: "Rio de Janeiro", camera: CameraOptions(center: LocationCoordinate2D(latitude: -22.9068, longitude: -43.1729), zoom: 10, bearing: 0, pitch: 0)),
        Bookmark(name: "Cape Town", camera: CameraOptions(center: LocationCoordinate2D(latitude: -33.9249, longitude: 18.4241), zoom: 10, bearing: 0, pitch: 0)),
        Bookmark(name: "Reykjavik", camera: CameraOptions(center: LocationCoordinate2D(latitude: 64.1466, longitude: -21.9426), zoom: 10, bearing: 0, pitch: 0)),
        Bookmark(name: "the whole world", camera: CameraOptions(center: LocationCoordinate2D(latitude: 20, longitude: 0), zoom: 1, bearing: 0, pitch: 0)),
    ]
}

/// 2^x.
@inline(__always) func pow2(_ x: Double) -> Double { exp2(x) }
