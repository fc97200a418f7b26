@testable import FlybyFlight
import Testing

/// The ground-speed panel's axis is not flattened by one spike (a jump at t = 0).
@Suite struct TracePlotAxisTests {
    @Test func aLoneSpikeDoesNotSetTheAxis() {
        let speeds = [50_000.0] + Array(repeating: 20, count: 200)
        #expect(TracePlot.robustMax(speeds) == 25)
    }

    @Test func anEvenRangeKeepsItsMaximum() {
        #expect(TracePlot.robustMax((0...100).map(Double.init)) == 100)
        #expect(TracePlot.robustMax([]) == 1)
        #expect(TracePlot.robustMax([0, 0, 0]) == 0)
    }
}
