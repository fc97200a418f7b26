import FlybyCore
import FlybyTestSupport
import Testing

/// The one viewport vocabulary (``ViewportStateDescriptor``, ``ViewportTransitionDescriptor``) and
/// the one CameraOptions merge and copy.
@Suite struct ViewportDescriptorTests {
    static let target = CameraOptions(center: .init(latitude: 1, longitude: 2), padding: EdgeInsets(allEdges: 12), zoom: 12, bearing: 30, pitch: 20)

    @Test(arguments: [
        ViewportStateDescriptor.styleDefault,
        .camera(target),
        .overview(OverviewViewportStateOptions(geometry: .multiPoint([.init(latitude: 0, longitude: 0), .init(latitude: 1, longitude: 1)]))),
        .followPuck(FollowPuckViewportStateOptions(zoom: 15)),
    ])
    func everyStateDescriptorMakesTheStateOfItsFactory(_ d: ViewportStateDescriptor) throws {
        let (sim, _) = makeSimulation()
        let state = try #require(d.make(in: sim.viewport))
        switch d {
        case .styleDefault: #expect(state is StyleDefaultViewportState)
        case .camera(let c): #expect((state as? CameraViewportState)?.cameraOptions == c)
        case .overview: #expect(state is OverviewViewportState)
        case .followPuck: #expect(state is FollowPuckViewportState)
        case .idle: Issue.record("idle makes no state")
        }
    }

    @Test func idleMakesNoStateAndTransitioningToItGoesIdle() {
        let (sim, _) = makeSimulation()
        #expect(ViewportStateDescriptor.idle.make(in: sim.viewport) == nil)
        #expect(sim.viewport.transition(to: .camera(Self.target), transition: .immediate))
        sim.tick()
        #expect(!(sim.viewport.status === ViewportStatus.idle))
        #expect(!sim.viewport.transition(to: .idle, transition: .immediate))
        #expect(sim.viewport.status === ViewportStatus.idle)
    }

    @Test func aCameraDescriptorWithAnEaseEndsOnItsCamera() {
        let (sim, _) = makeSimulation()
        sim.viewport.transition(to: .camera(Self.target), transition: .ease(duration: 0.5, curve: .linear))
        for _ in 0..<60 { sim.tick() }
        let c = sim.mapboxMap.cameraState
        #expect(c == CameraState(center: .init(latitude: 0, longitude: 0), zoom: 10).applying(Self.target))
    }

    @Test func transitionDescriptorsMakeTheirTransitions() {
        let (sim, _) = makeSimulation()
        #expect(ViewportTransitionDescriptor.default(maxDuration: 2).make(in: sim.viewport) is DefaultViewportTransition)
        #expect(ViewportTransitionDescriptor.immediate.make(in: sim.viewport) is ImmediateViewportTransition)
        #expect(ViewportTransitionDescriptor.fly(duration: nil).make(in: sim.viewport) is AnimationViewportTransition)
        #expect(ViewportTransitionDescriptor.ease(duration: 1, curve: .easeIn).make(in: sim.viewport) is AnimationViewportTransition)
    }

    @Test func settingToAndFromValuesCopiesEverySetField() {
        var t = CameraTransition(cameraState: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 3), initialAnchor: .init(x: 5, y: 5))
        var o = Self.target
        o.anchor = ScreenPoint(x: 7, y: 8)
        t.setToValues(o)
        #expect(t.center.toValue == o.center && t.zoom.toValue == 12 && t.bearing.toValue == 30 && t.pitch.toValue == 20)
        #expect(t.padding.toValue == EdgeInsets(allEdges: 12) && t.anchor.toValue == ScreenPoint(x: 7, y: 8))
        t.setFromValues(CameraOptions(zoom: 9))
        #expect(t.zoom.fromValue == 9 && t.center.fromValue == .init(latitude: 0, longitude: 0), "unset fields keep their from-values")
    }

    @Test func aRetargetedFlightEndsWithTheNewPadding() throws {
        let (sim, _) = makeSimulation()
        let fly = try #require(sim.camera.fly(to: CameraOptions(center: .init(latitude: 0.2, longitude: 0.2), zoom: 11), duration: 1) as? FlyToCameraAnimator)
        for _ in 0..<30 { sim.tick() }
        let before = sim.mapboxMap.cameraState.padding
        fly.retarget(to: CameraOptions(padding: EdgeInsets(allEdges: 40)), bounds: .default, size: sim.mapboxMap.size)
        sim.tick()
        let during = sim.mapboxMap.cameraState.padding.top
        #expect(during > before.top && during < 40, "blended in, no jump: \(during)")
        for _ in 0..<40 { sim.tick() }
        #expect(sim.mapboxMap.cameraState.padding == EdgeInsets(allEdges: 40))
    }
}
