import Testing
@testable import FlybyCore

/// Exit tests for the documented preconditions (programmer errors; input files are checked with
/// thrown errors before they get here), and a determinism check.
@Suite struct LocationPreconditionTests {
    @Test func replaySpeedMustBePositiveAndFinite() async {
        await #expect(processExitsWith: .failure) {
            let track = try! Track(fixes: [fix(60, 25, t: 0), fix(60.001, 25, t: 1)])
            _ = TrackReplayProvider(track: track, speed: 0)
        }
        await #expect(processExitsWith: .failure) {
            let track = try! Track(fixes: [fix(60, 25, t: 0), fix(60.001, 25, t: 1)])
            _ = TrackReplayProvider(track: track, speed: .nan)
        }
    }

    @Test func feedTimeMustNotGoBackwards() async {
        await #expect(processExitsWith: .failure) {
            let track = try! Track(fixes: [fix(60, 25, t: 0), fix(60.001, 25, t: 1)])
            var feed = LocationFeed(provider: TrackReplayProvider(track: track))
            _ = feed.poll(through: 1)
            _ = feed.poll(through: 0.5)
        }
    }

    @Test func interpolatorRefusesNonFiniteFixes() async {
        await #expect(processExitsWith: .failure) {
            var puck = PuckInterpolator()
            puck.update(with: fix(.nan, 25, t: 0), at: 0)
        }
    }

    @Test func replayIsDeterministic() throws {
        let track = try straightTrack(count: 20, withSpeed: false)
        let a = PuckLag.measure(track: track, mode: .predictive(), fps: 60, speed: 1.5)
        let b = PuckLag.measure(track: track, mode: .predictive(), fps: 60, speed: 1.5)
        #expect(a == b)
    }
}
