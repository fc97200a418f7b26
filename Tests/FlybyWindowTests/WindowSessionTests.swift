import FlybyCore
import FlybyFlight
import FlybyRender
import FlybyTestSupport
import FlybyWindow
import Foundation
import Testing

private func p(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x, y: y) }

private func makeSession() -> WindowSession {
    WindowSession(size: ScreenSize(width: 1280, height: 720),
                  camera: CameraState(center: LocationCoordinate2D(latitude: 60.17, longitude: 24.94), zoom: 10), style: "world")
}

/// Applies `actions` and runs `ticks` ticks (the first tick applies them).
private func run(_ s: WindowSession, _ actions: [WindowAction], ticks: Int = 1) {
    for a in actions { s.handle(a) }
    for _ in 0..<ticks { s.step() }
}

@Suite struct WindowSessionTests {
    @Test func a300PixelDragKeepsTheGrabbedPointUnderTheCursor() {
        let s = makeSession()
        let map = s.simulation.mapboxMap
        let grabbed = map.coordinate(for: p(400, 300))
        run(s, [.panBegan(p(400, 300))])
        for x in stride(from: 430.0, through: 700, by: 30) { run(s, [.panChanged(p(x, 300))]) }
        run(s, [], ticks: 10)  // hold still: no fling on release
        run(s, [.panEnded], ticks: 30)
        let now = map.point(for: grabbed)!
        expectClose(now.x, 700, 1e-6)
        expectClose(now.y, 300, 1e-6)
        #expect(s.isQuiescent)
    }

    @Test func aQuickReleaseFlings() {
        let s = makeSession()
        let map = s.simulation.mapboxMap
        let grabbed = map.coordinate(for: p(400, 300))
        run(s, [.panBegan(p(400, 300))])
        for x in stride(from: 430.0, through: 700, by: 30) { run(s, [.panChanged(p(x, 300))]) }
        run(s, [.panEnded], ticks: 120)
        #expect(map.point(for: grabbed)!.x > 720, "inertia carries the map on")
    }

    @Test func fiveWheelClicksZoomInAboutTheCursor() {
        let s = makeSession()
        let map = s.simulation.mapboxMap
        let cursor = p(900, 200)
        let under = map.coordinate(for: cursor)
        let z0 = map.cameraState.zoom
        for _ in 0..<5 { run(s, [.scroll(delta: 100, kind: .wheel, at: cursor)], ticks: 2) }
        run(s, [], ticks: 30)
        expectClose(map.cameraState.zoom - z0, 5 * 0.151412, 1e-5)
        let q = map.point(for: under)!
        expectClose(q.x, cursor.x, 1e-6)
        expectClose(q.y, cursor.y, 1e-6)
        #expect(s.isQuiescent)
        #expect(!map.isGestureInProgress)
    }

    @Test func keyboardEasesLikeMapLibre() {
        let s = makeSession()
        let map = s.simulation.mapboxMap
        run(s, [.zoomBy(1)], ticks: 30)
        expectClose(map.cameraState.zoom, 11, 1e-9)
        run(s, [.rotateBy(15)], ticks: 30)
        expectClose(map.cameraState.bearing, 15, 1e-9)
        run(s, [.pitchBy(10)], ticks: 30)
        expectClose(map.cameraState.pitch, 10, 1e-9)
        run(s, [.northUp], ticks: 30)
        expectClose(map.cameraState.bearing, 0, 1e-9)
        let east = map.coordinate(for: p(740, 360))
        run(s, [.panBy(dx: 100, dy: 0)], ticks: 30)
        expectClose(map.cameraState.center, east, 1e-9)
    }

    @Test func rotateAndPitchDrag() {
        let s = makeSession()
        let map = s.simulation.mapboxMap
        run(s, [.rotatePitchBegan, .rotatePitchChanged(rotateDegrees: 40, pitchDegrees: 20)])
        run(s, [.rotatePitchEnded])
        expectClose(map.cameraState.bearing, 40, 1e-9)
        expectClose(map.cameraState.pitch, 20, 1e-9)
    }

    @Test func aRotateDragReleasedWhileTurningKeepsTurningAndSlowsDown() {
        let s = makeSession()
        let map = s.simulation.mapboxMap
        run(s, [.rotatePitchBegan])
        for i in 1...6 { run(s, [.rotatePitchChanged(rotateDegrees: Double(i) * 4, pitchDegrees: 0)]) }
        let released = map.cameraState.bearing
        run(s, [.rotatePitchEnded])
        var steps: [Double] = []
        var last = map.cameraState.bearing
        for _ in 0..<60 {
            s.step()
            steps.append(map.cameraState.bearing - last)
            last = map.cameraState.bearing
        }
        // Six samples of 4° spanning 5 ticks: speed 24° · 0.3 / (5/60 s) = 86.4°/s, so MapLibre's
        // inertia turns on for 86.4 / 300 = 0.288 s and 86.4 · 0.288 / 2 = 12.4416° more.
        expectClose(map.cameraState.bearing - released, 12.4416, 1e-9)
        #expect(steps[1] > 0 && steps[1] > steps[8] && steps[8] > 0, "it decelerates: \(steps.prefix(12))")
        #expect(s.isQuiescent)
    }

    @Test func aRotateDragHeldStillBeforeTheReleaseStops() {
        let s = makeSession()
        let map = s.simulation.mapboxMap
        run(s, [.rotatePitchBegan])
        for i in 1...6 { run(s, [.rotatePitchChanged(rotateDegrees: Double(i) * 4, pitchDegrees: 0)]) }
        run(s, [], ticks: 12)  // 200 ms still
        let released = map.cameraState.bearing
        run(s, [.rotatePitchEnded], ticks: 30)
        #expect(map.cameraState.bearing == released)
    }

    @Test func doubleClickZoomsAboutThePoint() {
        let s = makeSession()
        let map = s.simulation.mapboxMap
        let under = map.coordinate(for: p(200, 500))
        run(s, [.doubleClick(at: p(200, 500), zoomOut: false)], ticks: 30)
        expectClose(map.cameraState.zoom, 11, 1e-9)
        expectClose(map.point(for: under)!.x, 200, 1e-6)
        run(s, [.doubleClick(at: p(200, 500), zoomOut: true)], ticks: 30)
        expectClose(map.cameraState.zoom, 10, 1e-9)
    }

    @Test func followOverviewIdleAndTracks() {
        let s = makeSession()
        run(s, [.followPuck], ticks: 240)
        #expect(s.simulation.viewportStatusName == "followPuck")
        #expect(s.simulation.location?.puck != nil)
        #expect(!s.isQuiescent, "following moves the camera")
        run(s, [.cycleTrack], ticks: 5)
        #expect(s.simulation.location?.track.name.isEmpty == false)
        run(s, [.overview], ticks: 240)
        #expect(s.simulation.viewportStatusName == "overview")
        run(s, [.idle])
        #expect(s.simulation.viewportStatusName == "idle")
    }

    @Test func bookmarkFlies() {
        let s = makeSession()
        run(s, [.bookmark(2)], ticks: 60 * 30)
        let c = s.simulation.mapboxMap.cameraState
        expectClose(c.center, WindowSession.defaultBookmarks[1].camera.center!, 1e-9)
        #expect(s.notice?.contains("Paris") == true)
    }

    @Test func pauseStopsTimeButNotDragging() {
        let s = makeSession()
        s.advance(toWallTime: 0)
        s.handle(.togglePause)
        #expect(s.isPaused)
        let f = s.clock.frame
        s.handle(.panBegan(p(100, 100)))
        s.handle(.panChanged(p(200, 100)))
        #expect(s.advance(toWallTime: 5) == 0)
        #expect(s.clock.frame == f)
        #expect(s.simulation.mapboxMap.point(for: s.simulation.mapboxMap.coordinate(for: p(200, 100))) != nil)
        s.handle(.panEnded)
        s.handle(.togglePause)
        s.scaleRate(by: 2)
        #expect(s.rate == 2)
    }

    @Test func wallClockAdvanceRunsTheDueTicksAndIdlesWhenQuiescent() {
        let s = makeSession()
        s.advance(toWallTime: 100)
        s.handle(.zoomBy(1))
        #expect(s.advance(toWallTime: 100.001) == 1, "input after idle runs a tick at once")
        #expect(s.advance(toWallTime: 100.1) == 5)
        s.advance(toWallTime: 101)
        #expect(s.isQuiescent)
        let f = s.clock.frame
        #expect(s.advance(toWallTime: 500) <= 1, "an idle stretch adds no ticks")
        #expect(s.clock.frame <= f + 1)
    }

    @Test func scriptSessionRecordsTheSameTraceAsFlybyTrace() throws {
        let path = repositoryRoot() + "/Traces/camera/fly-short.flight.json"
        let script = try FlightScriptParser.parse(bytes: [UInt8](FileManager.default.contents(atPath: path)!), file: path)
        let traced = try TraceWriter.trace(of: script)  // what `flyby trace` writes
        let start = try StyleLoader.parseStyle(script.style).camera.applied(to: CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 1))
        let s = WindowSession(script: script, startCamera: start)
        s.startRecording()
        // Drive it with an irregular wall clock, as a window would.
        var wall = 0.0
        s.advance(toWallTime: wall)
        var i = 0
        while !(s.runner!.isFinished) {
            wall += [0.016, 0.021, 0.009, 0.05, 0.017][i % 5]
            s.advance(toWallTime: wall)
            i += 1
        }
        let bytes = s.stopRecording()!
        // The last wall step may run a few ticks past the end of the flight; those follow on.
        #expect(bytes.starts(with: traced), "the window's trace starts with flyby trace, byte for byte")
        #expect(bytes.split(separator: 10).count - traced.split(separator: 10).count < 4)
    }

    @Test func aRecordingOfAFlightWithA3DPuckNamesTheModelInItsHeaderAsFlybyTraceDoes() throws {
        let text = #"""
        {"flyby": 1, "size": [320, 180], "fps": 10, "style": "city",
         "location": {"track": "helsinki-drive", "puck3D": {"model": "arrow", "modelOpacity": 0.5}},
         "steps": [{"wait": 0.3}]}
        """#
        let script = try FlightScriptParser.parse(bytes: Array(text.utf8), file: "/tmp/w.flight.json")
        let traced = try TraceWriter.trace(of: script)
        let s = WindowSession(script: script, startCamera: try StyleResolver.defaultCamera(of: script))
        s.startRecording()
        while !(s.runner!.isFinished) { s.step() }
        let bytes = try #require(s.stopRecording())
        let header = bytes.prefix { $0 != 10 }
        #expect(header.elementsEqual(traced.prefix { $0 != 10 }), "the same header as flyby trace")
        #expect(try TraceReader.read(bytes: bytes, file: "/tmp/w.trace.jsonl").puck3D == script.location?.puck3D)
    }
}

/// The window over a style with `terrain` (issue 19 item 4): its gestures keep the eye above
/// the ground plus the clearance, as flights do, and its recording carries the eye's altitude.
@Suite struct WindowTerrainTests {
    @Test func pitchingDownOverTheRidgeStopsAtTheGroundAndTheRecordingCarriesTheAltitude() throws {
        let dem = try #require(try StyleResolver.terrain(ofStyle: "jacksboro-terrain", relativeTo: "./"))
        #expect(try StyleResolver.terrain(ofStyle: "world", relativeTo: "./") == nil, "a flat style has none")
        let centre = LocationCoordinate2D(latitude: 36.5896, longitude: -84.2458)
        let s = WindowSession(size: ScreenSize(width: 640, height: 360), camera: CameraState(center: centre, zoom: 17.5),
                              style: "jacksboro-terrain", terrain: dem)
        let terrain = try #require(s.simulation.mapboxMap.terrain)
        s.startRecording()
        var lowest = Double.infinity
        for _ in 0..<12 {
            run(s, [.pitchBy(10)], ticks: 30)
            let eye = terrain.eye(of: s.simulation.mapboxMap.cameraState, size: s.simulation.mapboxMap.size)
            lowest = min(lowest, eye.altitude - terrain.height(at: eye.coordinate) - terrain.clearance)
        }
        #expect(lowest > -1e-6, "the eye went \(-lowest) m below the clearance")
        #expect(s.simulation.mapboxMap.cameraState.pitch < 85, "the pitch stopped short of the maximum at the ground")
        let trace = try TraceReader.read(bytes: try #require(s.stopRecording()), file: "window.trace.jsonl")
        #expect(trace.frames.count > 100 && trace.frames.allSatisfy { $0.altitude != nil })
    }
}
