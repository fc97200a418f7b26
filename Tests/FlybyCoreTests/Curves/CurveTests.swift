import FlybyCore
import FlybyTestSupport
import Testing

@Suite struct CurveTests {
    @Test func everyNamedCurveRoundTripsThroughItsName() {
        #expect(Set(AnimationCurve.named.map(\.name)).count == AnimationCurve.named.count, "names are unique")
        for (name, curve) in AnimationCurve.named {
            #expect(AnimationCurve(name: name) == curve)
            #expect(curve.name == name)
        }
        #expect(AnimationCurve(name: "bounce") == nil)
        #expect(AnimationCurve.bezier(0.1, 0.2, 0.3, 0.4).name == nil && AnimationCurve.spring(dampingRatio: 1).name == nil)
    }

    @Test func uikitCurvesMatchCoreAnimationSamples() {
        expectClose(AnimationCurve.easeInOut.value(at: 0.5), 0.5, 1e-6)
        expectClose(AnimationCurve.easeInOut.value(at: 0.25), 0.1292, 1e-4)
        expectClose(AnimationCurve.easeOut.value(at: 0.5), 0.6846, 1e-4, "CSS easeOut (0,0,0.58,1)")
        expectClose(AnimationCurve.easeOut.value(at: 0.25), 0.3781, 1e-4)
        expectClose(AnimationCurve.easeIn.value(at: 0.5), 0.3154, 1e-4)
        expectClose(AnimationCurve.linear.value(at: 0.3), 0.3, 0)
    }

    @Test func mapboxTimingCurvesMatchBehaviourOne() {
        expectClose(TimingCurve.easeOut.bezier.solve(0.5), 0.7575, 1e-4)
        expectClose(TimingCurve.easeOut.bezier.solve(0.25), 0.4531, 1e-4)
        expectClose(TimingCurve.easeIn.bezier.solve(0.5), 0.2425, 1e-4)
        expectClose(TimingCurve.easeInOut.bezier.solve(0.75), 0.8708, 1e-4)
    }

    @Test func cssEaseMatchesGLJSDefaultEasing() {
        let ease = UnitBezier(0.25, 0.1, 0.25, 1)
        expectClose(ease.solve(0.25), 0.408510593016, 1e-6)
        expectClose(ease.solve(0.5), 0.802403387695, 1e-6)
        expectClose(ease.solve(0.9), 0.994316477510, 1e-6)
    }

    @Test func bezierEndsAreExact() {
        let b = UnitBezier(0.42, 0, 0.58, 1)
        #expect(b.solve(0) == 0 && b.solve(1) == 1 && b.solve(-1) == 0 && b.solve(2) == 1)
    }

    @Test(arguments: [0.2, 0.5, 0.8, 1.0, 2.0, 5.0])
    func springSettlesByTheEndOfItsDuration(dampingRatio: Double) {
        let s = SpringCurve(dampingRatio: dampingRatio)
        #expect(s.value(0) == 0 && s.value(1) == 1)
        // Within the settle tolerance over the last part of the duration.
        for i in 990..<1000 { #expect(abs(s.value(Double(i) / 1000) - 1) <= 2 * SpringCurve.settleTolerance) }
        let overshoot = (1..<1000).map { s.value(Double($0) / 1000) }.max()!
        if dampingRatio < 1 { #expect(overshoot > 1.001, "an underdamped spring overshoots") }
        else { #expect(overshoot <= 1, "a damped spring never overshoots") }
    }

    @Test func springWithNonFiniteRatioFallsBackToCritical() {
        #expect(SpringCurve(dampingRatio: .nan).dampingRatio == 1)
    }
}
