import Testing

@testable import FlybyCore

@Suite struct LocationTrackTests {
    @Test func emptyAndOnePointTracksAreRefused() {
        #expect(throws: TrackError(index: nil, message: "the track has no fixes")) { try Track(fixes: []) }
        #expect(throws: TrackError(index: nil, message: "the track has only one fix; at least two are needed")) {
            try Track(fixes: [fix(60, 25, t: 0)])
        }
    }

    @Test func unsortedTimesAreRefusedAtTheOffendingFix() {
        do {
            _ = try Track(fixes: [fix(60, 25, t: 0), fix(60.001, 25, t: 2), fix(60.002, 25, t: 1)])
            Issue.record("expected an error")
        } catch {
            #expect(error.index == 2)
            #expect(error.message.contains("time order"))
        }
    }

    @Test func duplicateTimeWithAnotherPositionIsRefusedButAnExactRepeatIsDropped() throws {
        #expect(throws: TrackError.self) { try Track(fixes: [fix(60, 25, t: 0), fix(60.001, 25, t: 0)]) }
        let t = try Track(fixes: [fix(60, 25, t: 0), fix(60, 25, t: 0), fix(60.001, 25, t: 1)])
        #expect(t.fixes.count == 2)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteInputIsRefused(_ bad: Double) {
        #expect(throws: TrackError.self) { try Track(fixes: [fix(bad, 25, t: 0), fix(60, 25, t: 1)]) }
        #expect(throws: TrackError.self) { try Track(fixes: [fix(60, bad, t: 0), fix(60, 25, t: 1)]) }
        #expect(throws: TrackError.self) { try Track(fixes: [fix(60, 25, t: bad), fix(60, 25, t: 1)]) }
        #expect(throws: TrackError.self) { try Track(fixes: [fix(60, 25, t: 0, speed: bad), fix(60, 25, t: 1)]) }
        #expect(throws: TrackError.self) { try Track(fixes: [fix(60, 25, t: 0, accuracy: bad), fix(60, 25, t: 1)]) }
        #expect(throws: TrackError.self) { try Track(fixes: [fix(60, 25, t: 0, course: bad), fix(60, 25, t: 1)]) }
    }

    @Test func outOfRangeCoordinatesAreRefused() {
        #expect(throws: TrackError.self) { try Track(fixes: [fix(91, 25, t: 0), fix(60, 25, t: 1)]) }
        #expect(throws: TrackError.self) { try Track(fixes: [fix(60, 181, t: 0), fix(60, 25, t: 1)]) }
    }

    @Test func missingCourseIsTheInitialBearingFromThePreviousFix() throws {
        let a = LocationCoordinate2D(latitude: 60, longitude: 25)
        let b = Geodesy.destination(from: a, bearing: 90, distance: 50)
        let c = Geodesy.destination(from: b, bearing: 0, distance: 50)
        let t = try Track(fixes: [
            Location(coordinate: a, timestamp: 0), Location(coordinate: b, timestamp: 10),
            Location(coordinate: c, timestamp: 20),
        ])
        let courses = t.fixes.map { $0.course ?? -1 }
        #expect(abs(courses[0] - 90) < 1e-6, "the first fix takes the first derived course")
        #expect(abs(courses[1] - 90) < 1e-6)
        #expect(abs(courses[2] - 0) < 0.1)  // initial bearing of the second leg, slightly off 0 on the sphere
        #expect(abs((t.fixes[1].speed ?? 0) - 5) < 1e-6)
    }

    @Test func stopsKeepTheLastGoodCourseAndGiveNoNaN() throws {
        let a = LocationCoordinate2D(latitude: 60, longitude: 25)
        let b = Geodesy.destination(from: a, bearing: 45, distance: 30)
        var fixes = [
            Location(coordinate: a, timestamp: 0, horizontalAccuracy: 5),
            Location(coordinate: b, timestamp: 3, horizontalAccuracy: 5),
        ]
        // Stopped: identical and jittering (2 m, under the noise threshold) positions.
        for k in 0..<6 {
            let jitter = Geodesy.destination(from: b, bearing: Double(k) * 97, distance: k % 2 == 0 ? 0 : 2)
            fixes.append(Location(coordinate: jitter, timestamp: 4 + Double(k), horizontalAccuracy: 5))
        }
        let t = try Track(fixes: fixes)
        for f in t.fixes {
            let course = try #require(f.course)
            #expect(!course.isNaN && abs(course - 45) < 1e-6)
            #expect(!(f.speed ?? .nan).isNaN)
        }
        #expect(t.fixes.dropFirst(2).allSatisfy { $0.speed == 0 })
    }

    @Test func trackThatNeverMovesHasNoCourseButNoNaN() throws {
        let t = try Track(fixes: [fix(60, 25, t: 0), fix(60, 25, t: 1), fix(60, 25, t: 2)])
        #expect(t.fixes.allSatisfy { $0.course == nil && $0.speed == 0 })
    }

    @Test func truePositionInterpolatesLinearlyAndClampsAtTheEnds() throws {
        let t = try Track(fixes: [fix(60, 25, t: 10), fix(61, 26, t: 20)])
        #expect(t.position(at: 0) == LocationCoordinate2D(latitude: 60, longitude: 25))
        #expect(t.position(at: 15) == LocationCoordinate2D(latitude: 60.5, longitude: 25.5))
        #expect(t.position(at: 99) == LocationCoordinate2D(latitude: 61, longitude: 26))
        #expect(t.typicalInterval == 10 && t.duration == 10)
    }
}
