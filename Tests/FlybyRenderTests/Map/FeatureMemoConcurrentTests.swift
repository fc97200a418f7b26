@testable import FlybyRender
import Testing

/// ``FeatureMemo/fillConcurrently(_:_:)``: the values made on several threads are those made
/// one by one, each feature's own, and features already known are left alone.
@Suite struct FeatureMemoConcurrentTests {
    static func value(_ f: Int) -> Int { (f &* 2_654_435_761) % 1009 }

    @Test func concurrentlyFilledValuesAreEachFeaturesOwn() {
        var memo = FeatureMemo<Int>()
        memo.prepare(count: 5000, zoom: 10, readsZoom: true, generation: 0, readsState: false)
        memo[7] = -1   // known already: kept
        let features = (0..<4000).map { Int32($0 * 5 / 4) }
        memo.fillConcurrently(features) { Self.value($0) }
        #expect(memo[7] == -1)
        #expect(features.allSatisfy { $0 == 7 || memo[Int($0)] == Self.value(Int($0)) })
        #expect(memo[4] == nil && memo[4999] == nil, "features not asked for (4, 9, …, 4999) stay unknown")
    }

    @Test func fewUnknownFeaturesAreLeftToTheCaller() {
        var memo = FeatureMemo<Int>()
        memo.prepare(count: 100, zoom: 10, readsZoom: true, generation: 0, readsState: false)
        memo.fillConcurrently((0..<100).map { Int32($0) }) { Self.value($0) }
        #expect((0..<100).allSatisfy { memo[$0] == nil })
    }
}
