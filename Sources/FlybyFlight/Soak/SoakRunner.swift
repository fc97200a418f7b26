import FlybyCore

/// A seeded random walk through the engine (issue 8): random eases, flies, animators with every
/// curve, viewport transitions, gestures and cancellations, ticked at a fixed rate, with the
/// invariants checked after every tick. Deterministic for a seed.
public final class SoakRunner {
    /// What a soak run did.
    public struct Report: Sendable, CustomStringConvertible {
        public var ticks = 0
        public var animationsStarted = 0
        public var transitionsStarted = 0
        public var gestures = 0
        public var cancellations = 0
        /// The first broken invariant, or nil.
        public var failure: String?
        public var description: String {
            "ticks \(ticks), animations \(animationsStarted), transitions \(transitionsStarted), gestures \(gestures), cancellations \(cancellations)"
                + (failure.map { ", FAILED: \($0)" } ?? ", all invariants held")
        }
    }

    public let simulation: MapSimulation
    let clock: ManualClock
    var rng: SplitMix64
    public private(set) var report = Report()
    var held: [BasicCameraAnimator] = []
    let size = ScreenSize(width: 800, height: 600)

    /// - Parameters: `track` gives the simulation a moving puck to follow (looped).
    public init(seed: UInt64, fps: Double = 60, track: Track?) {
        clock = ManualClock(fps: fps)
        let bounds = CameraBounds(minZoom: 0, maxZoom: 22, minPitch: 0, maxPitch: 85)
        simulation = MapSimulation(size: size, camera: CameraState(center: .init(latitude: 60.17, longitude: 24.94), zoom: 12),
                                   bounds: bounds, clock: clock)
        rng = SplitMix64(seed: seed)
        if let track { simulation.setLocation(SimulatedLocation(track: track, speed: 4, loop: true)) }
    }

    func randomCamera() -> CameraOptions {
        var c = CameraOptions()
        if rng.unit() < 0.6 { c.center = .init(latitude: rng.range(-89, 89), longitude: rng.range(-400, 400)) }
        if rng.unit() < 0.6 { c.zoom = rng.range(-3, 26) }
        if rng.unit() < 0.5 { c.bearing = rng.range(-1000, 1000) }
        if rng.unit() < 0.5 { c.pitch = rng.range(0, 95) }
        if rng.unit() < 0.2 { c.padding = EdgeInsets(top: rng.range(0, 200), left: rng.range(0, 200), bottom: rng.range(0, 200), right: rng.range(0, 200)) }
        if rng.unit() < 0.1 { c.anchor = ScreenPoint(x: rng.range(-100, 900), y: rng.range(-100, 700)) }
        return c
    }

    func randomCurve() -> AnimationCurve {
        // Every named curve (the core's table), then a Bézier, then a spring.
        let named = AnimationCurve.named
        let pick = rng.int(named.count + 2)
        if pick < named.count { return named[pick].curve }
        if pick == named.count { return .bezier(rng.unit(), rng.range(-1, 2), rng.unit(), rng.range(-1, 2)) }
        return .spring(dampingRatio: rng.range(0.05, 3))
    }

    func randomPoint() -> ScreenPoint { ScreenPoint(x: rng.range(0, 800), y: rng.range(0, 600)) }

    /// One random action.
    func act() {
        let sim = simulation
        let now = clock.now
        switch rng.int(14) {
        case 0: sim.camera.ease(to: randomCamera(), duration: rng.range(0, 3), curve: randomCurve()); report.animationsStarted += 1
        case 1: sim.camera.fly(to: randomCamera(), duration: rng.unit() < 0.5 ? nil : rng.range(0, 5), maxDuration: rng.unit() < 0.3 ? rng.range(0, 4) : nil,
                               minZoom: rng.unit() < 0.2 ? rng.range(0, 10) : nil)
            report.animationsStarted += 1
        case 2, 3:
            let target = randomCamera()
            let a = sim.camera.makeAnimator(duration: rng.range(0, 4), curve: randomCurve(),
                                            animationOwner: rng.unit() < 0.5 ? .unspecified : AnimationOwner(rawValue: "soak")) { t in
                t.center.toValue = target.center; t.zoom.toValue = target.zoom; t.bearing.toValue = target.bearing
                t.pitch.toValue = target.pitch; t.padding.toValue = target.padding
            }
            a.isReversed = rng.unit() < 0.2
            a.pausesOnCompletion = rng.unit() < 0.05
            a.startAnimation(afterDelay: rng.unit() < 0.3 ? rng.range(0, 1) : 0)
            if rng.unit() < 0.3 { held.append(a) }
            report.animationsStarted += 1
        case 4:
            if let a = held.randomElementSeeded(&rng) {
                switch rng.int(5) {
                case 0: a.pauseAnimation()
                case 1: a.startAnimation()
                case 2: a.fractionComplete = rng.unit()
                case 3: a.isReversed.toggle()
                default: a.stopAnimation()
                }
            }
            held.removeAll { $0.state == .inactive && $0.finalPosition != nil }
        case 5: sim.camera.cancelAnimations(); report.cancellations += 1
        case 6: sim.camera.cancelAnimations(withOwners: [AnimationOwner(rawValue: "soak"), .cameraAnimationsManager]); report.cancellations += 1
        case 7, 8:
            let v = sim.viewport
            let state: ViewportState
            switch rng.int(4) {
            case 0: state = v.makeFollowPuckViewportState(options: .init(zoom: rng.unit() < 0.2 ? nil : rng.range(10, 18),
                                                                         bearing: [.heading, .course, .constant(rng.range(0, 360)), nil][rng.int(4)],
                                                                         pitch: rng.range(0, 80)))
            case 1: state = v.makeOverviewViewportState(options: .init(geometry: .multiPoint([]), geometryPadding: EdgeInsets(allEdges: rng.range(0, 100)),
                                                                       bearing: rng.range(0, 360), pitch: rng.range(0, 60), animationDuration: rng.range(0, 2)))
            case 2: state = v.makeCameraViewportState(camera: randomCamera())
            default: state = v.makeStyleDefaultViewportState()
            }
            let transition: ViewportTransition
            switch rng.int(4) {
            case 0: transition = v.makeDefaultViewportTransition(options: .init(maxDuration: rng.range(0, 4)))
            case 1: transition = v.makeImmediateViewportTransition()
            case 2: transition = AnimationViewportTransition(.fly(duration: rng.unit() < 0.5 ? nil : rng.range(0, 3)))
            default: transition = AnimationViewportTransition(.ease(duration: rng.range(0, 3), curve: randomCurve()))
            }
            v.transition(to: state, transition: transition)
            report.transitionsStarted += 1
        case 9: sim.viewport.idle()
        case 10:
            let g = sim.gestures
            let p = randomPoint()
            g.panBegan(at: p, time: now)
            g.panChanged(to: randomPoint(), time: now + 0.01)
            g.panEnded(time: now + 0.01 + rng.range(0, 0.06))
            report.gestures += 1
        case 11:
            let g = sim.gestures
            g.pinchBegan(at: randomPoint()); g.pinchChanged(scale: rng.range(0.1, 8), at: randomPoint()); g.pinchEnded()
            g.rotateBegan(); g.rotateChanged(degrees: rng.range(-720, 720), at: randomPoint()); g.rotateEnded()
            report.gestures += 1
        case 12:
            let g = sim.gestures
            g.pitchBegan(); g.pitchChanged(translationY: rng.range(-400, 400)); g.pitchEnded()
            g.quickZoomBegan(at: randomPoint()); g.quickZoomChanged(dy: rng.range(-900, 900)); g.quickZoomEnded()
            report.gestures += 1
        default:
            if rng.unit() < 0.5 { sim.gestures.doubleTap(at: randomPoint()) } else { sim.gestures.twoFingerTap(at: randomPoint()) }
            report.gestures += 1
        }
    }

    /// The invariants of every tick; returns the first one broken.
    func check() -> String? {
        let c = simulation.mapboxMap.cameraState
        let b = simulation.mapboxMap.cameraBounds
        let values = [c.center.latitude, c.center.longitude, c.zoom, c.bearing, c.pitch, c.padding.top, c.padding.left, c.padding.bottom, c.padding.right]
        if !values.allSatisfy(\.isFinite) { return "non-finite camera \(c)" }
        if c.zoom < b.minZoom - 1e-9 || c.zoom > b.maxZoom + 1e-9 { return "zoom \(c.zoom) outside \(b.minZoom)…\(b.maxZoom)" }
        if c.pitch < b.minPitch - 1e-9 || c.pitch > b.maxPitch + 1e-9 { return "pitch \(c.pitch) outside bounds" }
        if !(c.bearing >= 0 && c.bearing < 360) { return "bearing \(c.bearing) not wrapped" }
        if !(c.center.longitude >= -180 && c.center.longitude < 180) { return "longitude \(c.center.longitude) not wrapped" }
        if abs(c.center.latitude) > 85.0512 { return "latitude \(c.center.latitude) outside the world" }
        return nil
    }

    /// Runs for `seconds` of simulated time, acting on average every `actionInterval` seconds.
    public func run(seconds: Double, actionInterval: Double = 0.25, progress: ((Double) -> Void)? = nil) -> Report {
        let end = Int((seconds * clock.fps).rounded())
        let p = 1 / (actionInterval * clock.fps)
        while clock.frame < end {
            if rng.unit() < p { act() }
            simulation.tick()
            _ = simulation.takeEvents()
            report.ticks += 1
            if let f = check() { report.failure = "tick \(clock.frame): \(f)"; return report }
            if let progress, clock.frame % Int(clock.fps * 60) == 0 { progress(clock.now) }
        }
        return report
    }

    /// Stops everything and checks that nothing leaked: no running or alive animators (once the
    /// held ones are released), no viewport activity, no gesture or animation counted.
    public func finishAndCheckLeaks() -> String? {
        held.removeAll()
        simulation.viewport.idle()
        simulation.camera.cancelAnimations()
        simulation.tick()
        _ = simulation.takeEvents()
        if simulation.camera.runningAnimatorCount != 0 { return "\(simulation.camera.runningAnimatorCount) animators still running" }
        if !simulation.camera.cameraAnimators.isEmpty { return "\(simulation.camera.cameraAnimators.count) animators still alive" }
        if simulation.mapboxMap.animationCount != 0 { return "animation count \(simulation.mapboxMap.animationCount)" }
        if simulation.mapboxMap.gestureCount != 0 { return "gesture count \(simulation.mapboxMap.gestureCount)" }
        return nil
    }
}

extension Array {
    fileprivate func randomElementSeeded(_ rng: inout SplitMix64) -> Element? {
        isEmpty ? nil : self[rng.int(count)]
    }
}
