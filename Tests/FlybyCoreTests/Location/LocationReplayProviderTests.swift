import Testing

@testable import FlybyCore

@Suite struct LocationReplayProviderTests {
    @Test func speedFactorScalesDeliveryTimes() throws {
        let track = try Track(fixes: [fix(60, 25, t: 100), fix(60.001, 25, t: 110), fix(60.002, 25, t: 130)])
        let p = TrackReplayProvider(track: track, speed: 2)
        let u = p.updates(after: -.infinity, through: 100)
        #expect(u.map(\.time) == [0, 5, 15])
        #expect(u.map(\.location.timestamp) == [100, 110, 130])
        #expect(u.allSatisfy { $0.rate == 2 })
        #expect(p.updates(after: 0, through: 4.999).isEmpty)
        #expect(p.updates(after: 4.999, through: 5).count == 1)
        #expect(p.latestLocation(at: 14.9)?.timestamp == 110)
        #expect(p.latestLocation(at: 1000)?.timestamp == 130, "without loop the last fix stays")
        #expect(TrackReplayProvider(track: track, startTime: 3).latestUpdate(at: 2.9) == nil)
    }

    @Test func loopRepeatsAfterOneTypicalIntervalWithIncreasingTimestamps() throws {
        let track = try Track(fixes: [fix(60, 25, t: 0), fix(60.001, 25, t: 1), fix(60.002, 25, t: 2)])
        #expect(track.loopPeriod == 3)
        let p = TrackReplayProvider(track: track, speed: 2, loop: true)
        let u = p.updates(after: -.infinity, through: 2.5)
        #expect(u.map(\.time) == [0, 0.5, 1, 1.5, 2, 2.5])
        #expect(u.map(\.location.timestamp) == [0, 1, 2, 3, 4, 5])
        #expect(u[3].location.coordinate == track.fixes[0].coordinate)
        #expect(p.latestLocation(at: 1.7)?.timestamp == 3)
        // Between the last fix of a lap and the first of the next, the truth goes back to the start.
        let mid = p.truePosition(at: 1.25)
        #expect(abs(mid.latitude - 60.001) < 1e-9)
    }

    @Test(arguments: [1.0 / 60, 0.1, 0.37, 2.5])
    func pollingDeliversEveryFixExactlyOnce(_ dt: Double) throws {
        let track = try Track(fixes: (0..<20).map { fix(60 + Double($0) * 0.0001, 25, t: Double($0) * 0.7) })
        let provider = TrackReplayProvider(track: track, speed: 1.3, loop: true)
        var feed = LocationFeed(provider: provider)
        var stamps: [Double] = []
        var k = 0
        while Double(k) * dt <= 40 {
            stamps += feed.poll(through: Double(k) * dt).map(\.location.timestamp)
            k += 1
        }
        let expected = provider.updates(after: -.infinity, through: Double(k - 1) * dt).map(\.location.timestamp)
        #expect(stamps == expected)
        #expect(stamps.count > 40)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func gapsDeliverNothingAndTheTruthMovesAcrossThem() throws {
        let track = try Track(fixes: [
            fix(60, 25, t: 0), fix(60.001, 25, t: 1), fix(60.01, 25, t: 61), fix(60.011, 25, t: 62),
        ])
        let p = TrackReplayProvider(track: track)
        #expect(p.updates(after: 1, through: 60.99).isEmpty)
        #expect(abs(p.truePosition(at: 31).latitude - 60.0055) < 1e-9)
    }
}
