import FlybyCore
import FlybyData
import FlybyFlight
import Testing

/// The short soak (issue 8): two simulated minutes of random engine use per seed; the hour-long
/// run is `Tools/soak`.
@Suite struct SoakTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomWalkKeepsEveryInvariantAndLeaksNothing(seed: UInt64) throws {
        let soak = SoakRunner(seed: seed, track: try BuiltInTrack.tram9.load())
        let report = soak.run(seconds: 120, actionInterval: 0.2)
        #expect(report.failure == nil, "\(report)")
        #expect(report.animationsStarted > 100 && report.transitionsStarted > 20 && report.gestures > 20)
        #expect(soak.finishAndCheckLeaks() == nil)
    }

    @Test func soakIsDeterministic() throws {
        let a = SoakRunner(seed: 9, track: nil), b = SoakRunner(seed: 9, track: nil)
        _ = a.run(seconds: 20); _ = b.run(seconds: 20)
        #expect(a.simulation.mapboxMap.cameraState == b.simulation.mapboxMap.cameraState)
    }
}
