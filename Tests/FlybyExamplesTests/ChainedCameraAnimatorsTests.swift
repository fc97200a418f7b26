import FlybyCore
import FlybyExamples
import FlybyMaps
import FlybyRender
import Testing

@Suite struct ChainedCameraAnimatorsTests {
    @Test func chainEndsAtZoom14Pitch55BearingMinus45AfterTenSecondsInThatOrder() throws {
        let r = try ChainedCameraAnimatorsExample.run()
        #expect(r.completions.map(\.name) == ["zoom", "pitch", "bearing"])
        #expect(r.completions.map(\.time) == [4, 6, 10])
        #expect(r.completions.allSatisfy { $0.position == .end })
        #expect(r.cameraAfterChain.zoom == 14)
        #expect(r.cameraAfterChain.pitch == 55)
        // −45° and 315° are the same bearing; the camera may hold either form.
        let b = r.cameraAfterChain.bearing
        #expect(b == -45 || b == 315)
        // The engine's own events interleave with the completions in the same order.
        let started = r.log.filter { $0.contains(" started") }
        #expect(started.count >= 3)
        let finished = r.log.filter { $0.contains("finished end") }
        #expect(finished.count >= 3)
    }

    @Test func eachAnimatorReportsItsOwner() throws {
        let r = try ChainedCameraAnimatorsExample.run()
        #expect(r.owners == ["chain", "chain", "chain", AnimationOwner.cameraAnimationsManager.rawValue])
    }

    @Test func fromValueOverridesTheCurrentCamera() throws {
        let r = try ChainedCameraAnimatorsExample.run()
        // One frame (1/60 s) into a linear 12 → 11: the camera was at 13 when it started.
        #expect(abs(r.fromToZoom.start - (12 - 1.0 / 60)) < 1e-9)
        #expect(r.fromToZoom.end == 11)
    }

    @Test func animatorReleasedWhilePausedStopsAndNeverCompletes() throws {
        let r = try ChainedCameraAnimatorsExample.run()
        #expect(r.releasedAnimatorStopped)
        #expect(r.releasedAnimatorCompletionCalls == 0)
    }

    @Test func restrictedBoundsKeepTheCameraInsideAndTheScaleBarShows() throws {
        let r = try ChainedCameraAnimatorsExample.run()
        #expect(r.restrictedCamera.zoom >= 5)
        let c = r.restrictedCamera.center
        #expect(c.latitude >= 38.5 && c.latitude <= 42.5)
        #expect(c.longitude >= -78 && c.longitude <= -70)
        // The scale bar's ink (dark grey #333) is drawn bottom-left.
        var ink = 0
        for y in (r.snapshot.height - 30)..<r.snapshot.height {
            for x in 0..<120 {
                let p = r.snapshot.color(x: x, y: y)
                if p.red < 90 && p.green < 90 && p.blue < 90 { ink += 1 }
            }
        }
        #expect(ink > 40)
    }

    @Test func fittedCameraShowsTheWholeShapeInsideThePadding() throws {
        let r = try ChainedCameraAnimatorsExample.run()
        #expect(r.fittedCorners.count == 3)
        for p in r.fittedCorners {
            #expect(p.x >= 40 - 1e-6 && p.x <= 640 - 40 + 1e-6)
            #expect(p.y >= 40 - 1e-6 && p.y <= 400 - 40 + 1e-6)
        }
        // Tight: some corner touches the padding on one axis.
        let touches = r.fittedCorners.contains { abs($0.x - 40) < 0.5 || abs($0.x - 600) < 0.5 || abs($0.y - 40) < 0.5 || abs($0.y - 360) < 0.5 }
        #expect(touches)
    }
}
