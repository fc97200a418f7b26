import FlybyCore
import FlybyTestSupport
import Testing

/// BasicCameraAnimator and CameraAnimationsManager against docs/research/mapbox-camera-viewport.md
/// behaviours 8 and 10–16 (deliberate differences are named in each test).
@Suite struct AnimatorTests {
    @Test func easeBearingTakesTheShortWay() {
        // Behaviour 8.
        for (from, to, mid) in [(350.0, 10.0, 0.0), (10.0, 350.0, 0.0), (0.0, 180.0, 270.0)] {
            let (sim, _) = makeSimulation(bearing: from, fps: 10)
            sim.camera.ease(to: CameraOptions(bearing: to), duration: 1, curve: .linear)
            for _ in 0..<5 { sim.tick() }
            expectClose(sim.mapboxMap.cameraState.bearing, mid, 1e-9, "\(from) → \(to) at half way")
        }
    }

    @Test func bearingPathOptimisationCanBeTurnedOffToSpin() {
        let (sim, _) = makeSimulation(fps: 10)
        let a = sim.camera.makeAnimator(duration: 10, curve: .linear) { t in
            t.bearing.toValue = -3600
            t.shouldOptimizeBearingPath = false
        }
        a.startAnimation()
        var turned = 0.0, last = 0.0
        for _ in 0..<100 {
            sim.tick()
            let b = sim.mapboxMap.cameraState.bearing
            var step = b - last
            if step > 180 { step -= 360 }
            turned += step
            last = b
        }
        expectClose(turned, -3600, 1e-6, "ten counter-clockwise turns")
    }

    @Test func easeCancelsTheEarlierEaseButNotMakeAnimator() {
        // Behaviour 10.
        let (sim, _) = makeSimulation()
        var log: [String] = []
        _ = sim.camera.onCameraAnimatorStarted.observe { log.append("started \($0.id)") }
        _ = sim.camera.onCameraAnimatorCancelled.observe { log.append("cancelled \($0.id)") }
        let basic = sim.camera.makeAnimator(duration: 5, curve: .linear) { $0.pitch.toValue = 40 }
        basic.startAnimation()
        var aPosition: UIViewAnimatingPosition?
        sim.camera.ease(to: CameraOptions(zoom: 12), duration: 1) { aPosition = $0 }
        sim.tick()
        sim.camera.ease(to: CameraOptions(zoom: 8), duration: 1)
        #expect(aPosition == .current, "A's completion ran synchronously")
        #expect(log == ["started 1", "started 2", "cancelled 2", "started 3"])
        #expect(basic.isRunning)
    }

    @Test func cancelAnimationsStopsEveryAnimatorInEveryState() {
        // Behaviour 11.
        let (sim, _) = makeSimulation()
        var cancelled: [Int] = []
        _ = sim.camera.onCameraAnimatorCancelled.observe { cancelled.append($0.id) }
        var positions: [Int: UIViewAnimatingPosition] = [:]
        let idle = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.zoom.toValue = 3 }
        let paused = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.zoom.toValue = 4 }
        let running = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.zoom.toValue = 5 }
        for a in [idle, paused, running] { let id = a.id; a.addCompletion { positions[id] = $0 } }
        paused.startAnimation(); sim.tick(); paused.pauseAnimation()
        running.startAnimation()
        sim.camera.cancelAnimations()
        #expect(positions == [idle.id: .current, paused.id: .current, running.id: .current])
        #expect(cancelled == [paused.id, running.id], "the never-started animator emits nothing")
    }

    @Test func completionAddedLateRunsOnTheNextTick() {
        // Behaviour 12.
        let (sim, _) = makeSimulation(fps: 10)
        let a = sim.camera.makeAnimator(duration: 0.1, curve: .linear) { $0.zoom.toValue = 11 }
        a.startAnimation()
        sim.tick()
        #expect(a.finalPosition == .end)
        var got: UIViewAnimatingPosition?
        a.addCompletion { got = $0 }
        #expect(got == nil)
        sim.tick()
        #expect(got == .end)
    }

    @Test func fromValuesAreCapturedAtStart() {
        // Behaviour 13.
        let (sim, _) = makeSimulation(zoom: 5)
        let a = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.zoom.toValue = 10 }
        sim.mapboxMap.setCamera(to: CameraOptions(zoom: 8))
        a.startAnimation()
        #expect(a.transition?.zoom.fromValue == 8)
    }

    @Test func fieldsWithoutToValueAreNeverWritten() {
        // Behaviour 14.
        let (sim, _) = makeSimulation(fps: 10)
        let a = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.zoom.toValue = 12 }
        a.startAnimation()
        for i in 0..<12 {
            if i == 4 { sim.mapboxMap.setCamera(to: CameraOptions(bearing: 33)) }
            sim.tick()
        }
        #expect(sim.mapboxMap.cameraState.bearing == 33 && sim.mapboxMap.cameraState.zoom == 12)
    }

    @Test func disabledRunnerEndsEasesAtOnce() {
        // Behaviour 15.
        let (sim, _) = makeSimulation()
        sim.camera.isEnabled = false
        var got: UIViewAnimatingPosition?
        sim.camera.ease(to: CameraOptions(zoom: 14), duration: 1) { got = $0 }
        #expect(got == .current)
        sim.tick()
        #expect(sim.mapboxMap.cameraState.zoom == 10)
    }

    @Test func decelerationStopsAfterTheDocumentedDistance() {
        // Behaviour 16: (1000, 0) pt/s, 0.998 per ms, 60 Hz → ends after ≈101 frames, ≈490 pt.
        let (sim, _) = makeSimulation(zoom: 10)
        var travelled = 0.0, frames = 0
        var ended: UIViewAnimatingPosition?
        sim.camera.decelerate(location: ScreenPoint(x: 500, y: 500), velocity: ScreenPoint(x: 1000, y: 0),
                              locationChangeHandler: { from, to in travelled += to.x - from.x }, completion: { ended = $0 })
        while ended == nil && frames < 1000 { sim.tick(); frames += 1 }
        #expect(ended == .end)
        #expect((100...103).contains(frames), "ended after \(frames) frames")
        expectClose(travelled, 490, 2)
        var slow: UIViewAnimatingPosition?
        sim.camera.decelerate(location: .zero, velocity: ScreenPoint(x: 30, y: 30), locationChangeHandler: { _, _ in }, completion: { slow = $0 })
        sim.tick()
        #expect(slow == .end, "below 35 pt/s it ends at the first update")
    }

    @Test func animationCompletesInTheTickItReachesItsDuration() {
        let (sim, clock) = makeSimulation(fps: 30)
        var endFrame = -1
        sim.camera.ease(to: CameraOptions(zoom: 11), duration: 1) { _ in endFrame = clock.frame }
        while endFrame < 0 { sim.tick() }
        #expect(endFrame == 30)
        #expect(sim.mapboxMap.cameraState.zoom == 11)
    }

    @Test func pauseScrubReverseAndResume() {
        let (sim, _) = makeSimulation(zoom: 10, fps: 10)
        let a = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.zoom.toValue = 12 }
        a.startAnimation()
        for _ in 0..<3 { sim.tick() }
        expectClose(sim.mapboxMap.cameraState.zoom, 10.6, 1e-9)
        a.pauseAnimation()
        #expect(a.state == .active && !a.isRunning)
        sim.tick()
        expectClose(sim.mapboxMap.cameraState.zoom, 10.6, 1e-9, "paused holds still")
        a.fractionComplete = 0.8
        expectClose(sim.mapboxMap.cameraState.zoom, 11.6, 1e-9, "scrubbing moves the camera at once")
        a.isReversed = true
        var end: UIViewAnimatingPosition?
        a.addCompletion { end = $0 }
        a.startAnimation()
        for _ in 0..<8 { sim.tick() }
        #expect(end == .start)
        #expect(sim.mapboxMap.cameraState.zoom == 10)
    }

    @Test func reversedFromTheStartPlaysBackwards() {
        let (sim, _) = makeSimulation(zoom: 10, fps: 10)
        let a = sim.camera.makeAnimator(duration: 1, curve: .linear) { t in t.zoom.fromValue = 14; t.zoom.toValue = 12 }
        a.isReversed = true
        a.startAnimation()
        sim.tick()
        expectClose(sim.mapboxMap.cameraState.zoom, 12.2, 1e-9)
        for _ in 0..<9 { sim.tick() }
        #expect(a.finalPosition == .start && sim.mapboxMap.cameraState.zoom == 14)
    }

    @Test func delayedAnimatorWritesNothingDuringItsDelay() {
        let (sim, _) = makeSimulation(zoom: 10, fps: 10)
        let a = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.zoom.toValue = 11 }
        a.startAnimation(afterDelay: 0.5)
        #expect(a.isRunning)
        for _ in 0..<5 { sim.tick(); sim.mapboxMap.setCamera(to: CameraOptions(bearing: 10)) }
        #expect(sim.mapboxMap.cameraState.zoom == 10)
        sim.tick()
        expectClose(sim.mapboxMap.cameraState.zoom, 10.1, 1e-9)
        for _ in 0..<9 { sim.tick() }
        #expect(a.finalPosition == .end)
    }

    @Test func pausesOnCompletionWaitsForStop() {
        let (sim, _) = makeSimulation(fps: 10)
        let a = sim.camera.makeAnimator(duration: 0.2, curve: .linear) { $0.zoom.toValue = 11 }
        a.pausesOnCompletion = true
        var end: UIViewAnimatingPosition?
        a.addCompletion { end = $0 }
        a.startAnimation()
        for _ in 0..<5 { sim.tick() }
        #expect(end == nil && a.state == .active && sim.mapboxMap.cameraState.zoom == 11)
        a.stopAnimation()
        #expect(end == .current)
    }

    @Test func continueAnimationUsesTheNewCurveAndDuration() {
        let (sim, _) = makeSimulation(zoom: 10, fps: 10)
        let a = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.zoom.toValue = 12 }
        a.startAnimation()
        for _ in 0..<5 { sim.tick() }
        a.pauseAnimation()
        a.continueAnimation(withTimingParameters: .linear, durationFactor: 2)
        for _ in 0..<5 { sim.tick() }
        expectClose(sim.mapboxMap.cameraState.zoom, 11.5, 1e-9, "half the remaining time at double duration")
    }

    @Test func laterAnimatorWinsOnASharedField() {
        let (sim, _) = makeSimulation(zoom: 10, fps: 10)
        let a = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.zoom.toValue = 12 }
        let b = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.zoom.toValue = 8 }
        b.startAnimation(); a.startAnimation()
        sim.tick()
        expectClose(sim.mapboxMap.cameraState.zoom, 9.8, 1e-9, "b was created later, so it writes last")
    }

    @Test func cancelByOwnerLeavesOtherOwnersRunning() {
        let (sim, _) = makeSimulation()
        let tour = AnimationOwner(rawValue: "tour")
        let a = sim.camera.makeAnimator(duration: 1, curve: .linear, animationOwner: tour) { $0.zoom.toValue = 12 }
        let b = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.bearing.toValue = 90 }
        a.startAnimation(); b.startAnimation()
        sim.camera.cancelAnimations(withOwners: [tour])
        #expect(a.finalPosition == .current && b.isRunning)
    }

    @Test func releasedIdleAnimatorIsGoneWithoutCallingCompletions() {
        let (sim, _) = makeSimulation()
        var called = false
        do {
            let a = sim.camera.makeAnimator(duration: 1, curve: .linear) { $0.zoom.toValue = 12 }
            a.addCompletion { _ in called = true }
        }
        #expect(sim.camera.cameraAnimators.isEmpty)
        #expect(!called)
    }

    @Test func runningAnimatorsAreRetainedAndReleasedWhenDone() {
        let (sim, _) = makeSimulation(fps: 10)
        weak var weakRef: BasicCameraAnimator?
        do {
            let a = sim.camera.makeAnimator(duration: 0.3, curve: .linear) { $0.zoom.toValue = 12 }
            a.startAnimation()
            weakRef = a
        }
        #expect(weakRef != nil && sim.camera.runningAnimatorCount == 1)
        for _ in 0..<4 { sim.tick() }
        #expect(weakRef == nil && sim.camera.runningAnimatorCount == 0 && !sim.mapboxMap.isAnimationInProgress)
    }

    @Test func easeWithAnAnchorKeepsTheTappedPointStill() {
        let (sim, _) = makeSimulation(center: .init(latitude: 48, longitude: 2), zoom: 10)
        let tap = ScreenPoint(x: 200, y: 700)
        let under = sim.mapboxMap.coordinate(for: tap)
        sim.camera.ease(to: CameraOptions(anchor: tap, zoom: 11), duration: 0.3)
        for _ in 0..<20 {
            sim.tick()
            let p = sim.mapboxMap.point(for: under)!
            #expect(abs(p.x - tap.x) < 0.5 && abs(p.y - tap.y) < 0.5)
        }
        #expect(sim.mapboxMap.cameraState.zoom == 11)
    }

    @Test func nonFiniteTargetsAreRefusedAtTheBoundary() {
        let (sim, _) = makeSimulation()
        var a: UIViewAnimatingPosition?, b: UIViewAnimatingPosition?
        sim.camera.ease(to: CameraOptions(zoom: .infinity), duration: 1) { a = $0 }
        sim.camera.fly(to: CameraOptions(center: .init(latitude: .nan, longitude: 0))) { b = $0 }
        #expect(a == .current && b == .current)
        sim.tick()
        #expect(sim.mapboxMap.cameraState.zoom == 10 && sim.camera.runningAnimatorCount == 0)
    }
}

@Suite struct SimulationLifetimeTests {
    @Test func droppingASimulationMidAnimationFreesEverything() {
        weak var manager: CameraAnimationsManager?
        weak var animator: BasicCameraAnimator?
        do {
            let (sim, _) = makeSimulation()
            sim.camera.fly(to: CameraOptions(zoom: 3))
            let a = sim.camera.makeAnimator(duration: 5, curve: .linear) { $0.bearing.toValue = 90 }
            a.startAnimation()
            sim.tick()
            manager = sim.camera
            animator = a
        }
        #expect(manager == nil && animator == nil, "running animators and their manager are released with the simulation")
    }
}
