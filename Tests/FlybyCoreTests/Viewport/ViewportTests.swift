#if canImport(Glibc)
import Glibc
#endif
import FlybyCore
import FlybyTestSupport
import Testing

/// A straight eastward drive at a steady speed: one fix per second, with a heading.
func steadyTrack(seconds: Int = 120, metresPerSecond: Double = 10, heading: Double? = 90) throws -> Track {
    let start = LocationCoordinate2D(latitude: 60.17, longitude: 24.94)
    let fixes = (0...seconds).map { i in
        Location(coordinate: Geodesy.destination(from: start, bearing: 90, distance: Double(i) * metresPerSecond),
                 timestamp: Double(i), course: 90, speed: metresPerSecond, heading: heading)
    }
    return try Track(name: "steady", fixes: fixes)
}

/// A simulation following a steady drive (60 fps, 1280×720).
func followingSimulation(zoom: Double = 12, heading: Double? = 90) throws -> (MapSimulation, ManualClock) {
    let (sim, clock) = makeSimulation(width: 1280, height: 720, center: .init(latitude: 60.2, longitude: 24.9), zoom: zoom)
    sim.setLocation(SimulatedLocation(track: try steadyTrack(heading: heading)))
    return (sim, clock)
}

/// Docs/mapbox-camera-viewport.md behaviours 21–29 and the viewport "must show" lines of issue 3.
@Suite struct ViewportTests {
    @Test func lowZoomToHighComponentsMatchTheSpecTable() {
        // Behaviour 21: zoom 10 → 16 with the centre 1000 pt away, every field changing.
        let size = ScreenSize(width: 2000, height: 1000)
        let state = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 10)
        let t = MapTransform(size: size, state: state)
        let target = t.coordinate(for: ScreenPoint(x: t.principalPoint.x + 1000, y: t.principalPoint.y))
        let c = DefaultViewportTransition.components(from: state, to: CameraOptions(center: target, padding: EdgeInsets(allEdges: 10), zoom: 16, bearing: 30, pitch: 40),
                                                     transform: t, maxDuration: .infinity)
        func spec(_ f: DefaultViewportTransition.Component.Field) -> DefaultViewportTransition.Component { c.first { $0.field == f }! }
        expectClose(spec(.center).duration, 2.0, 1e-9); expectClose(spec(.center).delay, 0, 0)
        expectClose(spec(.zoom).duration, 6 / 2.2, 1e-9); expectClose(spec(.zoom).delay, 1.0, 1e-9)
        expectClose(spec(.bearing).duration, 1.8, 1e-9); expectClose(spec(.bearing).delay, 1.0 + 6 / 2.2 - 1.8, 1e-9)
        expectClose(spec(.pitch).delay, 1.0 + 6 / 2.2 - 1.2 + 0.1, 1e-9)
        expectClose(spec(.padding).delay, spec(.pitch).delay, 1e-12)
        let scaled = DefaultViewportTransition.components(from: state, to: CameraOptions(center: target, padding: EdgeInsets(allEdges: 10), zoom: 16, bearing: 30, pitch: 40),
                                                          transform: t, maxDuration: 3.5)
        let longest = scaled.map { $0.delay + $0.duration }.max()!
        expectClose(longest, 3.5, 1e-9, "scaled to end exactly at maxDuration")
        expectClose(scaled.first { $0.field == .center }!.duration, 2.0 * 3.5 / 3.8272727272727274, 1e-9)
    }

    @Test func highZoomToLowComponentsMatchTheSpecTable() {
        // Behaviour 22, zooming out.
        let size = ScreenSize(width: 1000, height: 1000)
        let state = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 14)
        let c = DefaultViewportTransition.components(from: state, to: CameraOptions(center: .init(latitude: 1, longitude: 1), zoom: 10, bearing: 20, pitch: 10),
                                                     transform: MapTransform(size: size, state: state), maxDuration: 3.5)
        let byField = Dictionary(uniqueKeysWithValues: c.map { ($0.field, ($0.duration, $0.delay)) })
        #expect(byField[.center]! == (1.0, 0.8) && byField[.zoom]! == (1.8, 0) && byField[.bearing]! == (1.2, 0.6) && byField[.pitch]! == (1.0, 0))
    }

    @Test func equalZoomTransitionPansAtOnceAndEndsOnTarget() throws {
        // Differs from Mapbox on purpose (mapbox-maps-ios#2171): no 0.8 s pause before panning.
        let (sim, clock) = makeSimulation(width: 1280, height: 720, center: .init(latitude: 60.17, longitude: 24.94), zoom: 14)
        let target = LocationCoordinate2D(latitude: 60.175, longitude: 24.95)
        let state = sim.viewport.makeCameraViewportState(camera: CameraOptions(center: target, zoom: 14))
        var succeeded: Bool?
        sim.viewport.transition(to: state) { succeeded = $0 }
        var firstMove: Double?
        while succeeded == nil && clock.frame < 600 {
            sim.tick()
            if firstMove == nil && sim.mapboxMap.cameraState.center != .init(latitude: 60.17, longitude: 24.94) { firstMove = clock.now }
        }
        #expect(try #require(firstMove) <= 0.1)
        #expect(succeeded == true)
        #expect(sim.mapboxMap.cameraState.center == target && sim.mapboxMap.cameraState.zoom == 14)
    }

    @Test func transitionToAMovingPuckHasNoJumpAtTheHandOff() throws {
        // Behaviour 23 and the hand-off "must show": the centre moves at most 3× its typical
        // per-frame step when the transition hands over to following.
        let (sim, clock) = try followingSimulation(zoom: 13)
        let follow = sim.viewport.makeFollowPuckViewportState()
        var done = false
        sim.viewport.transition(to: follow) { _ in done = true }
        var steps: [Double] = []
        var last = sim.mapboxMap.cameraState.center
        var handOffIndex: Int?
        while clock.frame < 60 * 20 {
            sim.tick()
            let c = sim.mapboxMap.cameraState.center
            steps.append(Geodesy.distance(from: last, to: c))
            last = c
            if done && handOffIndex == nil { handOffIndex = steps.count }
        }
        let h = try #require(handOffIndex)
        let typical = steps[(h + 30)..<(h + 90)].sorted()[30]
        let around = steps[(h - 2)...(h + 2)].max()!
        #expect(around <= 3 * typical, "step \(around) m at the hand-off vs typical \(typical) m")
        if case .state(let s) = sim.viewport.status { #expect(s === follow) } else { Issue.record("not following") }
    }

    @Test func whileFollowingTheCentreIsThePuckInEveryFrame() throws {
        let (sim, _) = try followingSimulation()
        let follow = sim.viewport.makeFollowPuckViewportState()
        sim.viewport.transition(to: follow, transition: sim.viewport.makeImmediateViewportTransition())
        for _ in 0..<300 {
            sim.tick()
            let puck = try #require(sim.location?.puck)
            #expect(sim.mapboxMap.cameraState.center == puck.coordinate)
            #expect(sim.mapboxMap.cameraState.zoom == 16.35 && sim.mapboxMap.cameraState.pitch == 45)
            expectClose(sim.mapboxMap.cameraState.bearing, puck.heading!, 1e-9)
            #expect(sim.mapboxMap.isAnimationInProgress, "following counts as animating (no idle)")
        }
    }

    @Test func followingWithoutHeadingLeavesBearingAlone() throws {
        // Behaviour 28: no heading → bearing unchanged.
        let (sim, _) = try followingSimulation(heading: nil)
        sim.mapboxMap.setCamera(to: CameraOptions(bearing: 33))
        sim.viewport.transition(to: sim.viewport.makeFollowPuckViewportState(), transition: sim.viewport.makeImmediateViewportTransition())
        for _ in 0..<30 { sim.tick() }
        #expect(sim.mapboxMap.cameraState.bearing == 33)
    }

    @Test func panWhileFollowingIdlesAtOnceAndNeverSnapsBack() throws {
        // Behaviour 27 and the "must show": a pan idles the viewport (userInteraction) in that
        // tick, and the camera stays where the user left it.
        let (sim, clock) = try followingSimulation()
        sim.viewport.transition(to: sim.viewport.makeFollowPuckViewportState(), transition: sim.viewport.makeImmediateViewportTransition())
        for _ in 0..<30 { sim.tick() }
        var reasons: [ViewportStatusChangeReason] = []
        sim.viewport.addStatusObserver { _, _, r in reasons.append(r) }
        sim.gestures.panBegan(at: ScreenPoint(x: 640, y: 360), time: clock.now)
        #expect(sim.viewport.status.description == "idle")
        sim.gestures.panChanged(to: ScreenPoint(x: 500, y: 300), time: clock.now + 0.1)
        sim.gestures.panEnded(time: clock.now + 0.5)  // released still: no fling
        let left = sim.mapboxMap.cameraState
        for _ in 0..<120 { sim.tick() }
        #expect(sim.mapboxMap.cameraState == left)
        #expect(reasons == [.userInteraction])
    }

    @Test func withInteractionIdlingOffPinchZoomsWhileFollowing() throws {
        // Behaviour 27 (option off) and mapbox-maps-ios#2361: zoom nil in the options lets the
        // user's pinch stand while the centre keeps following.
        let (sim, clock) = try followingSimulation()
        sim.viewport.options.transitionsToIdleUponUserInteraction = false
        sim.viewport.transition(to: sim.viewport.makeFollowPuckViewportState(options: .init(zoom: nil)),
                                transition: sim.viewport.makeImmediateViewportTransition())
        sim.tick()
        let z0 = sim.mapboxMap.cameraState.zoom
        sim.gestures.pinchBegan(at: ScreenPoint(x: 640, y: 360))
        sim.gestures.pinchChanged(scale: 2, at: ScreenPoint(x: 640, y: 360))
        sim.gestures.pinchEnded()
        for _ in 0..<90 { sim.tick() }
        #expect(sim.viewport.status.description == "followPuck")
        expectClose(sim.mapboxMap.cameraState.zoom, z0 + 1, 1e-9)
        #expect(sim.mapboxMap.cameraState.center == sim.location!.puck!.coordinate)
        _ = clock
    }

    @Test func statusSequenceAndCompletions() throws {
        // Behaviour 24.
        let (sim, _) = try followingSimulation()
        var log: [String] = []
        sim.viewport.addStatusObserver { from, to, reason in log.append("\(from)→\(to) \(reason.rawValue)") }
        let a = sim.viewport.makeCameraViewportState(camera: CameraOptions(zoom: 5))
        let b = sim.viewport.makeCameraViewportState(camera: CameraOptions(zoom: 8))
        var aResult: Bool?, bResult: Bool?
        sim.viewport.transition(to: a) { aResult = $0 }
        sim.viewport.transition(to: b) { bResult = $0 }
        #expect(aResult == false, "A's completion runs synchronously with false")
        #expect(log.isEmpty, "observers are told at the end of the tick")
        sim.tick()
        #expect(log == ["idle→transition:camera transitionStarted", "transition:camera→transition:camera transitionStarted"])
        sim.viewport.idle()
        #expect(bResult == false)
        sim.tick()
        #expect(log.last == "transition:camera→idle idleRequested")
    }

    @Test func sameStateCallsAreShortCircuited() {
        // Behaviour 25.
        let (sim, _) = makeSimulation()
        let s = sim.viewport.makeCameraViewportState(camera: CameraOptions(zoom: 11))
        sim.viewport.transition(to: s)
        var again: Bool?
        sim.viewport.transition(to: s) { again = $0 }
        #expect(again == false, "in transition to S: false, nothing changes")
        for _ in 0..<300 { sim.tick() }
        var inState: Bool?
        sim.viewport.transition(to: s) { inState = $0 }
        #expect(inState == true)
    }

    @Test func immediateTransitionWithAReadyStateGoesStraightToTheState() {
        // Behaviour 26.
        let (sim, _) = makeSimulation()
        var reasons: [ViewportStatusChangeReason] = []
        sim.viewport.addStatusObserver { _, _, r in reasons.append(r) }
        var result: Bool?
        let s = sim.viewport.makeCameraViewportState(camera: CameraOptions(zoom: 12))
        sim.viewport.transition(to: s, transition: sim.viewport.makeImmediateViewportTransition()) { result = $0 }
        #expect(result == true && sim.mapboxMap.cameraState.zoom == 12)
        sim.tick()
        #expect(reasons == [.transitionSucceeded])
    }

    @Test func overviewFitsTheTrackTightlyInsideItsPadding() throws {
        let (sim, _) = try followingSimulation()
        let pad = EdgeInsets(top: 40, left: 50, bottom: 60, right: 70)
        let overview = sim.viewport.makeOverviewViewportState(options: .init(geometry: .multiPoint([]), geometryPadding: pad))
        sim.viewport.transition(to: overview, transition: sim.viewport.makeImmediateViewportTransition())
        let pts = sim.location!.track.coordinates.map { sim.mapboxMap.point(for: $0)! }
        let minX = pts.map(\.x).min()!, maxX = pts.map(\.x).max()!
        let minY = pts.map(\.y).min()!, maxY = pts.map(\.y).max()!
        #expect(minX >= pad.left - 1e-6 && maxX <= 1280 - pad.right + 1e-6 && minY >= pad.top - 1e-6 && maxY <= 720 - pad.bottom + 1e-6)
        #expect(abs(minX - pad.left) < 1e-3 || abs(maxY - minY - (720 - pad.top - pad.bottom)) < 1e-3, "tight on one axis")
    }

    @Test func overviewEasesLinearlyWhenItsOptionsChange() throws {
        // Behaviour 29.
        let (sim, _) = makeSimulation(width: 800, height: 600)
        let line = Geometry.lineString([.init(latitude: 0, longitude: 0), .init(latitude: 1, longitude: 1)])
        let o = sim.viewport.makeOverviewViewportState(options: .init(geometry: line))
        sim.viewport.transition(to: o, transition: sim.viewport.makeImmediateViewportTransition())
        let z0 = sim.mapboxMap.cameraState.zoom
        o.options.geometry = .lineString([.init(latitude: 0, longitude: 0), .init(latitude: 2, longitude: 2)])
        sim.tick()  // the state notices and starts a 1 s linear ease
        for _ in 0..<30 { sim.tick() }
        let half = sim.mapboxMap.cameraState.zoom
        for _ in 0..<40 { sim.tick() }
        let end = sim.mapboxMap.cameraState.zoom
        expectClose(end - z0, -1, 1e-3, "twice the extent: one level out")
        expectClose(half, (z0 + end) / 2, 1e-3, "linear: half way at half time")
        o.options.animationDuration = 0
        o.options.geometry = line
        sim.tick()
        expectClose(sim.mapboxMap.cameraState.zoom, z0, 1e-9, "duration 0 jumps")
    }
}

/// Docs behaviours 17–20: gestures in screen points.
@Suite struct GestureTests {
    @Test func releaseAfterAPauseDoesNotFling() {
        // Behaviour 17.
        let (sim, _) = makeSimulation()
        sim.gestures.panBegan(at: ScreenPoint(x: 500, y: 500), time: 0)
        sim.gestures.panChanged(to: ScreenPoint(x: 400, y: 500), time: 0.1)
        sim.gestures.panEnded(time: 0.1 + 1.0 / 30)
        #expect(sim.camera.runningAnimatorCount == 0)
        sim.gestures.panBegan(at: ScreenPoint(x: 500, y: 500), time: 1)
        sim.gestures.panChanged(to: ScreenPoint(x: 400, y: 500), time: 1.1)
        sim.gestures.panEnded(time: 1.11)
        #expect(sim.camera.runningAnimatorCount == 1, "a release while moving flings")
    }

    @Test func dragMovesTheMapByTheDragDistance() {
        let (sim, _) = makeSimulation(center: .init(latitude: 48, longitude: 2))
        let grabbed = sim.mapboxMap.coordinate(for: ScreenPoint(x: 300, y: 300))
        sim.gestures.panBegan(at: ScreenPoint(x: 300, y: 300), time: 0)
        sim.gestures.panChanged(to: ScreenPoint(x: 600, y: 300), time: 0.1)
        let p = sim.mapboxMap.point(for: grabbed)!
        expectClose(p.x, 600, 1e-6); expectClose(p.y, 300, 1e-6)
    }

    @Test func pinchScaleTwoAddsOneZoomAboutTheFingers() {
        // Behaviour 18.
        let (sim, _) = makeSimulation(zoom: 10)
        let at = ScreenPoint(x: 200, y: 700)
        let under = sim.mapboxMap.coordinate(for: at)
        sim.gestures.pinchBegan(at: at)
        sim.gestures.pinchChanged(scale: 2, at: at)
        expectClose(sim.mapboxMap.cameraState.zoom, 11, 1e-12)
        expectClose(sim.mapboxMap.coordinate(for: at), under, 1e-9)
        sim.gestures.pinchChanged(scale: 0.5, at: at)
        expectClose(sim.mapboxMap.cameraState.zoom, 9, 1e-12)
    }

    @Test func quickZoomPitchAndRotateConstants() {
        // Behaviour 19.
        let (sim, _) = makeSimulation(zoom: 10)
        sim.gestures.quickZoomBegan(at: ScreenPoint(x: 500, y: 500))
        sim.gestures.quickZoomChanged(dy: 75)
        sim.gestures.quickZoomEnded()
        expectClose(sim.mapboxMap.cameraState.zoom, 11, 1e-12)
        sim.gestures.pitchBegan()
        sim.gestures.pitchChanged(translationY: -20)
        sim.gestures.pitchEnded()
        expectClose(sim.mapboxMap.cameraState.pitch, 10, 1e-12)
        sim.gestures.rotateBegan()
        sim.gestures.rotateChanged(degrees: 2.9, at: ScreenPoint(x: 500, y: 500))
        #expect(sim.mapboxMap.cameraState.bearing == 0, "under 3° nothing turns")
        sim.gestures.rotateChanged(degrees: 10, at: ScreenPoint(x: 500, y: 500))
        expectClose(sim.mapboxMap.cameraState.bearing, 350, 1e-9)
        sim.gestures.rotateEnded()
    }

    @Test func doubleTapZoomsInAboutTheTapInPointThreeSeconds() {
        // Behaviour 20.
        let (sim, clock) = makeSimulation(zoom: 10)
        let tap = ScreenPoint(x: 150, y: 800)
        let under = sim.mapboxMap.coordinate(for: tap)
        sim.gestures.doubleTap(at: tap)
        #expect(sim.camera.cameraAnimators.first?.owner == .cameraAnimationsManager)
        while sim.camera.runningAnimatorCount > 0 {
            sim.tick()
            let p = sim.mapboxMap.point(for: under)!
            #expect(abs(p.x - tap.x) <= 0.5 && abs(p.y - tap.y) <= 0.5)
        }
        expectClose(clock.now, 0.3, 1e-9)
        #expect(sim.mapboxMap.cameraState.zoom == 11)
        sim.gestures.twoFingerTap(at: tap)
        for _ in 0..<20 { sim.tick() }
        #expect(sim.mapboxMap.cameraState.zoom == 10)
    }

    @Test func gesturesCancelAnimations() {
        let (sim, _) = makeSimulation()
        let a = sim.camera.makeAnimator(duration: 5, curve: .linear) { $0.bearing.toValue = 90 }
        a.startAnimation()
        sim.gestures.pinchBegan(at: ScreenPoint(x: 1, y: 1))
        #expect(a.finalPosition == .current)
    }
}

/// Behaviour 31: the order of events in a tick. Flyby has no render events in the core; the
/// renderer draws after `tick()` returns. Deliberate difference: animator writes are batched, so
/// `cameraChanged` comes once per tick, not once per animator.
@Suite struct TickOrderTests {
    @Test func cameraChangedOncePerTickAndIdleOnlyAfterTheLastFrame() {
        let (sim, _) = makeSimulation(fps: 10)
        var changes = 0
        _ = sim.mapboxMap.onCameraChanged.observe { _ in changes += 1 }
        let a = sim.camera.makeAnimator(duration: 0.5, curve: .linear) { $0.zoom.toValue = 12 }
        let b = sim.camera.makeAnimator(duration: 0.5, curve: .linear) { $0.bearing.toValue = 40 }
        a.startAnimation(); b.startAnimation()
        var inProgress: [Bool] = []
        for _ in 0..<5 {
            let before = changes
            sim.tick()
            #expect(changes - before == 1, "one cameraChanged for two animators")
            inProgress.append(sim.mapboxMap.isAnimationInProgress)
        }
        #expect(inProgress == [true, true, true, true, false], "idle only after the final frame")
        sim.tick()
        #expect(changes == 5, "nothing changes once the animators ended")
    }

    @Test func completionsRunAfterEveryAnimatorOfTheTick() {
        let (sim, _) = makeSimulation(fps: 10)
        var log: [String] = []
        let a = sim.camera.makeAnimator(duration: 0.1, curve: .linear) { $0.zoom.toValue = 11 }
        let b = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.bearing.toValue = 90 }
        a.addCompletion { _ in log.append("a completion, bearing \(sim.mapboxMap.cameraState.bearing)") }
        a.startAnimation(); b.startAnimation()
        sim.tick()
        #expect(log == ["a completion, bearing 9.0"], "b (created later) wrote before a's completion ran")
    }
}
