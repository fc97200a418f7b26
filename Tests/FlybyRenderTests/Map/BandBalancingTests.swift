@testable import FlybyRender
import Testing

/// The row bands of multi-threaded rendering move to share the work (the pixels never depend on
/// where they are: BandRenderingTests).
@Suite struct BandBalancingTests {
    @Test func equalCostsKeepTheSplit() {
        #expect(MapRenderer.balancedBands([0, 360, 720], costs: [5, 5], height: 720) == [0, 360, 720])
        #expect(MapRenderer.balancedBands([0, 100, 400, 720], costs: [2, 2, 2], height: 720) == [0, 100, 400, 720])
    }

    /// A frame whose bottom half costs three times its top half (a pitched city) ends up split
    /// where the work is equal: cost density 1 per row above 360, 3 below → boundary at 480.
    @Test func repeatedFramesConvergeOnTheEvenWorkSplit() {
        func cost(_ rows: Range<Int>) -> Double {
            Double(max(0, min(rows.upperBound, 360) - rows.lowerBound)) + 3 * Double(max(0, rows.upperBound - max(rows.lowerBound, 360)))
        }
        var bounds = [0, 360, 720]
        var history: [Int] = []
        for _ in 0..<12 {
            let costs = (0..<2).map { cost(bounds[$0]..<bounds[$0 + 1]) }
            bounds = MapRenderer.balancedBands(bounds, costs: costs, height: 720)
            history.append(bounds[1])
        }
        #expect(history.first! > 360 && history.first! < 480, "moves towards the cheaper band, damped: \(history)")
        #expect(abs(bounds[1] - 480) <= 2, "\(history)")
        #expect(zip(history, history.dropFirst()).allSatisfy { $0 <= $1 }, "no overshoot: \(history)")
    }

    @Test func everyBandKeepsARowAndBadCostsChangeNothing() {
        let squeezed = MapRenderer.balancedBands([0, 1, 2, 10], costs: [1000, 1000, 0], height: 10)
        #expect(zip(squeezed, squeezed.dropFirst()).allSatisfy { $0 < $1 } && squeezed.first == 0 && squeezed.last == 10)
        #expect(MapRenderer.balancedBands([0, 5, 10], costs: [0, 0], height: 10) == [0, 5, 10])
        #expect(MapRenderer.balancedBands([0, 5, 10], costs: [.nan, 1], height: 10) == [0, 5, 10])
        #expect(MapRenderer.balancedBands([0, 5, 10], costs: [.infinity, 1], height: 10) == [0, 5, 10])
    }
}
