import Testing

@testable import FlybyCore

@Suite struct LocationPuckInterpolatorTests {
    let a = fix(60, 24.9, t: 0, course: 10, accuracy: 20)
    let b = fix(60.01, 25.0, t: 1, course: 30, accuracy: 10)

    /// docs/research/mapbox-camera-viewport.md behaviour 30.
    @Test func behaviour30LocationMidpointAt1_55AndExactlyBFrom2_1() throws {
        var puck = PuckInterpolator()
        puck.update(with: a, at: 0)
        puck.update(with: b, at: 1.0)
        let mid = try #require(puck.puck(at: 1.55))
        #expect(abs(mid.coordinate.latitude - 60.005) < 1e-12)
        #expect(abs(mid.coordinate.longitude - 24.95) < 1e-12)
        #expect(abs((mid.course ?? 0) - 20) < 1e-12, "course is interpolated")
        #expect(abs(mid.horizontalAccuracy - 15) < 1e-12, "accuracy is interpolated")
        for t in [2.1, 2.5, 100.0] {
            let end = try #require(puck.puck(at: t))
            #expect(end.coordinate == b.coordinate && end.course == 30 && end.horizontalAccuracy == 10)
        }
    }

    @Test func behaviour30Heading350To10ReachesZeroAt0_15And10At0_3() throws {
        var puck = PuckInterpolator()
        puck.update(with: fix(60, 25, t: 0, heading: 350), at: 0)
        #expect(puck.puck(at: 0)?.heading == 350)
        puck.update(with: fix(60, 25, t: 0.5, heading: 10), at: 0)
        #expect(abs((puck.puck(at: 0.15)?.heading ?? -1) - 0) < 1e-9)
        #expect(puck.puck(at: 0.3)?.heading == 10)
        #expect(abs((puck.puck(at: 0.075)?.heading ?? -1) - 355) < 1e-9)
    }

    @Test(arguments: [PuckInterpolationMode.mapboxDefault, .predictive()])
    func firstFixIsShownAtOnce(_ mode: PuckInterpolationMode) throws {
        var puck = PuckInterpolator(mode: mode)
        #expect(puck.puck(at: 0) == nil)
        puck.update(with: a, at: 5)
        let p = try #require(puck.puck(at: 5))
        #expect(p.coordinate == a.coordinate && p.course == 10 && p.horizontalAccuracy == 20)
        #expect(p.bearing(.course) == 10 && p.bearing(.heading) == 0)
    }

    @Test func restartsFromTheDisplayedValue() throws {
        var puck = PuckInterpolator()
        puck.update(with: a, at: 0)
        puck.update(with: b, at: 1)
        let shown = try #require(puck.puck(at: 1.55)).coordinate
        let c = fix(60.02, 25.0, t: 2)
        puck.update(with: c, at: 1.55)
        #expect(puck.puck(at: 1.55)?.coordinate == shown, "no jump when a fix arrives mid-way")
        let half = try #require(puck.puck(at: 1.55 + 0.55)).coordinate
        #expect(abs(half.latitude - (shown.latitude + 60.02) / 2) < 1e-12)
    }

    @Test func longitudeTakesTheShortWayAcrossTheAntimeridian() throws {
        var puck = PuckInterpolator()
        puck.update(with: fix(0, 179.5, t: 0), at: 0)
        puck.update(with: fix(0, -179.5, t: 1), at: 0)
        #expect(puck.puck(at: 0.55)?.coordinate.longitude == -180)
    }

    /// A car stopping: repeated positions. Both modes: no NaN, and the puck holds still. (In
    /// the default mode a 1 Hz fix restarts the 1.1 s interpolation before it ends, so the puck
    /// approaches the stop geometrically, by a factor 0.1/1.1 per fix, as in Mapbox.)
    @Test(arguments: [PuckInterpolationMode.mapboxDefault, .predictive()])
    func stopsHoldThePuckStill(_ mode: PuckInterpolationMode) throws {
        let moving = try straightTrack(count: 5, withSpeed: false).fixes
        var fixes = moving.map { fix($0.coordinate.latitude, $0.coordinate.longitude, t: $0.timestamp, accuracy: 5) }
        for k in 1...10 {
            fixes.append(
                fix(moving[4].coordinate.latitude, moving[4].coordinate.longitude, t: 4 + Double(k), accuracy: 5))
        }
        let track = try Track(fixes: fixes)
        var feed = LocationFeed(provider: TrackReplayProvider(track: track))
        var puck = PuckInterpolator(mode: mode)
        var positions: [LocationCoordinate2D] = []
        for i in 0...(14 * 60) {
            let state = try #require(puck.advance(to: Double(i) / 60, feed: &feed))
            #expect(state.coordinate.isFinite)
            let course = try #require(state.course)
            #expect(abs(course - 0) < 1e-6 || abs(course - 360) < 1e-6, "the course of the last move is kept")
            positions.append(state.coordinate)
        }
        // From 5 s after the car stopped the puck stays put (within a millimetre).
        let still = positions[(9 * 60)...]
        #expect(still.allSatisfy { metres($0, moving[4].coordinate) < 0.001 })
        if case .predictive = mode { #expect(still.allSatisfy { $0 == moving[4].coordinate }) }
    }

    /// Jitter at a stop (fixes scattered 2 m around one spot, accuracy 5 m): the predictive puck
    /// rests; the default puck follows the jitter, as Mapbox's does, but stays within it.
    @Test func jitterAtAStop() throws {
        let moving = try straightTrack(count: 5, withSpeed: false).fixes
        let spot = moving[4].coordinate
        var fixes = moving.map { fix($0.coordinate.latitude, $0.coordinate.longitude, t: $0.timestamp, accuracy: 5) }
        for k in 1...10 {
            let c = Geodesy.destination(from: spot, bearing: Double(k) * 131, distance: 2)
            fixes.append(fix(c.latitude, c.longitude, t: 4 + Double(k), accuracy: 5))
        }
        let track = try Track(fixes: fixes)
        for mode in [PuckInterpolationMode.mapboxDefault, .predictive()] {
            var feed = LocationFeed(provider: TrackReplayProvider(track: track))
            var puck = PuckInterpolator(mode: mode)
            var rest: [LocationCoordinate2D] = []
            for i in 0...(14 * 60) {
                let state = try #require(puck.advance(to: Double(i) / 60, feed: &feed))
                #expect(state.coordinate.isFinite && state.course != nil)
                if i >= 7 * 60 { rest.append(state.coordinate) }
            }
            #expect(rest.allSatisfy { metres($0, spot) <= 2 + 1e-6 }, "\(mode)")
            if case .predictive = mode {
                #expect(rest.allSatisfy { $0 == rest[0] }, "the predictive puck holds still")
            }
        }
    }

    /// A 60 s gap: nothing arrives, no NaN; the predictive puck stops after the cap.
    @Test func gapsAreSafeAndPredictionIsCapped() throws {
        var fixes = try straightTrack(count: 5, withSpeed: false).fixes
        let far = Geodesy.destination(from: fixes[4].coordinate, bearing: 0, distance: 300)
        fixes.append(Location(coordinate: far, timestamp: 64, horizontalAccuracy: 5))
        let track = try Track(fixes: fixes)
        for mode in [PuckInterpolationMode.mapboxDefault, .predictive()] {
            var feed = LocationFeed(provider: TrackReplayProvider(track: track))
            var puck = PuckInterpolator(mode: mode)
            var maxAhead = 0.0
            for i in 0...(70 * 10) {
                let t = Double(i) / 10
                let s = try #require(puck.advance(to: t, feed: &feed))
                #expect(s.coordinate.isFinite)
                if t > 4, t < 64 { maxAhead = max(maxAhead, metres(s.coordinate, fixes[4].coordinate)) }
            }
            // The previous interval is 1 s at 10 m/s: at most 10 m ahead of the last fix.
            #expect(maxAhead <= 10 + 1e-6, "\(mode)")
        }
    }

    /// Constant velocity: prediction matches the truth once the first error has blended out,
    /// and the puck never jumps (per-frame step bounded).
    @Test func predictiveRemovesTheLagWithoutJumps() throws {
        let track = try straightTrack(count: 30)
        var feed = LocationFeed(provider: TrackReplayProvider(track: track))
        var puck = PuckInterpolator(mode: .predictive())
        var previous: LocationCoordinate2D? = nil
        var maxStep = 0.0
        for i in 0...(29 * 60) {
            let t = Double(i) / 60
            let s = try #require(puck.advance(to: t, feed: &feed))
            if t >= 2.5 { #expect(metres(s.coordinate, track.position(at: t)) < 0.01) }
            if let previous { maxStep = max(maxStep, metres(previous, s.coordinate)) }
            previous = s.coordinate
        }
        #expect(maxStep < 0.2, "10 m/s at 60 fps is 0.167 m per frame")
    }

    /// A sharp turn: the prediction overshoots, then converges to the new fix's prediction
    /// smoothly; the largest per-frame step stays within speed + the smoothstep's peak slope.
    @Test func predictiveConvergesAfterATurnWithoutAJump() throws {
        var fixes = try straightTrack(count: 10).fixes
        for k in 1...10 {
            let c = Geodesy.destination(from: fixes[9].coordinate, bearing: 90, distance: 10 * Double(k))
            fixes.append(
                Location(coordinate: c, timestamp: 9 + Double(k), course: 90, speed: 10, horizontalAccuracy: 5))
        }
        let track = try Track(fixes: fixes)
        var feed = LocationFeed(provider: TrackReplayProvider(track: track))
        let prediction = PuckPrediction()
        var puck = PuckInterpolator(mode: .predictive(prediction))
        var previous: LocationCoordinate2D? = nil
        var maxStep = 0.0
        for i in 0...(19 * 60) {
            let t = Double(i) / 60
            let s = try #require(puck.advance(to: t, feed: &feed))
            if let previous { maxStep = max(maxStep, metres(previous, s.coordinate)) }
            previous = s.coordinate
            if t >= 10 + prediction.correctionDuration + 0.01, t <= 19 {
                #expect(metres(s.coordinate, track.position(at: t)) < 0.01)
            }
        }
        // Error at the turn ≤ 10 m·√2 blended out with peak slope 1.5/s, plus 10 m/s travel.
        let bound = (10 + 1.5 * 10 * 2.0.squareRoot()) / 60
        #expect(maxStep <= bound, "max step \(maxStep) m")
    }

    @Test func predictiveUsesReplaySpeed() throws {
        let track = try straightTrack(count: 10)
        var feed = LocationFeed(provider: TrackReplayProvider(track: track, speed: 4))
        var puck = PuckInterpolator(mode: .predictive())
        for i in 0...(2 * 60) {
            let t = Double(i) / 60
            let s = try #require(puck.advance(to: t, feed: &feed))
            if t > 1 { #expect(metres(s.coordinate, track.position(at: t * 4)) < 0.01) }
        }
    }
}
