import FlybyCore
import FlybyTestSupport
import Testing

@Suite struct AngleTests {
    @Test func shortestBearingPathFollowsMapboxRule() {
        #expect(shortestAngle(from: 350, to: 10) == 370)
        #expect(shortestAngle(from: 10, to: 350) == -10)
        #expect(shortestAngle(from: 0, to: 180) == -180)
        #expect(shortestAngle(from: 720, to: 10) == 730)
    }

    @Test func wrappingInterpolatorGoesThroughTheSeam() {
        // Behaviour 9: direction 350 → 10 at 0.5 is 0; longitude 170 → −170 at 0.5 is −180.
        let b = shortestAngle(from: 350, to: 10)
        #expect(wrapBearing(350 + (b - 350) * 0.5) == 0)
        let l = shortestAngle(from: 170, to: -170)
        #expect(wrapLongitude(170 + (l - 170) * 0.5) == -180)
    }

    @Test func wrapsIntoHalfOpenRanges() {
        #expect(wrapLongitude(180) == -180)
        #expect(wrapLongitude(-180) == -180)
        #expect(wrapLongitude(190) == -170)
        #expect(wrapLongitude(-0.0).sign == .plus)
        #expect(wrapBearing(360) == 0)
        #expect(wrapBearing(-90) == 270)
        #expect(wrapBearing(-3600) == 0)
    }
}
