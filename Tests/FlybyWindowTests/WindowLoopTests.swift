import CSDL2
import FlybyCore
import FlybyData
import FlybyFlight
import FlybyTestSupport
@testable import FlybyWindow
import Foundation
import Testing

private func p(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x, y: y) }

/// Input pushed into SDL's queue, as the window system would deliver it.
private enum Push {
    static func push(_ e: inout SDL_Event) { #expect(SDL_PushEvent(&e) == 1, "SDL_PushEvent: \(String(cString: SDL_GetError()))") }

    static func motion(_ x: Int32, _ y: Int32, left: Bool) {
        var e = SDL_Event()
        e.type = SDL_MOUSEMOTION.rawValue
        e.motion.x = x; e.motion.y = y
        e.motion.state = left ? CSDL2_BUTTON_MASK(SDL_BUTTON_LEFT) : 0
        push(&e)
    }

    static func button(_ down: Bool, _ x: Int32, _ y: Int32, clicks: UInt8 = 1, button: Int32 = SDL_BUTTON_LEFT) {
        var e = SDL_Event()
        e.type = down ? SDL_MOUSEBUTTONDOWN.rawValue : SDL_MOUSEBUTTONUP.rawValue
        e.button.button = UInt8(button)
        e.button.state = UInt8(down ? SDL_PRESSED : SDL_RELEASED)
        e.button.clicks = clicks
        e.button.x = x; e.button.y = y
        push(&e)
    }

    static func wheel(_ y: Int32, at x: Int32, _ my: Int32) {
        var e = SDL_Event()
        e.type = SDL_MOUSEWHEEL.rawValue
        e.wheel.y = y
        e.wheel.preciseY = Float(y)
        e.wheel.direction = SDL_MOUSEWHEEL_NORMAL.rawValue
        e.wheel.mouseX = x; e.wheel.mouseY = my
        push(&e)
    }

    static func key(_ sym: Int32) {
        var e = SDL_Event()
        e.type = SDL_KEYDOWN.rawValue
        e.key.state = UInt8(SDL_PRESSED)
        e.key.keysym.sym = sym
        push(&e)
    }
}

/// The SDL window loop under `SDL_VIDEODRIVER=dummy`: real SDL events through the whole path.
/// SDL is process-global, so these run one at a time.
@Suite(.serialized) struct WindowLoopTests {
    init() { setenv("SDL_VIDEODRIVER", "dummy", 1) }

    func makeWindow(record: String? = nil, renderer: MapRendererHooks = .placeholder(),
                    camera: CameraState = CameraState(center: LocationCoordinate2D(latitude: 60.17, longitude: 24.94), zoom: 10),
                    pixelRatio: Int = 1) throws -> MapWindow {
        let session = WindowSession(size: ScreenSize(width: 800, height: 600), camera: camera, style: "world")
        var o = MapWindowOptions()
        o.size = ScreenSize(width: 800, height: 600)
        o.pixelRatio = pixelRatio
        o.recordPath = record
        o.outputDirectory = NSTemporaryDirectory()
        return try MapWindow(session: session, options: o, renderer: renderer)
    }

    /// Handles queued events and lets the simulation run for `seconds` of wall time.
    func settle(_ w: MapWindow, seconds: Double) {
        let end = WallClock.monotonicSeconds() + seconds
        repeat {
            w.processPendingEvents()
            w.pump()
            usleep(4000)
        } while WallClock.monotonicSeconds() < end
    }

    /// A left-button drag along row `y` from x `from` to `to` in window pixels, held still
    /// before the release (no inertia).
    func drag(_ w: MapWindow, from: Int, to: Int, step: Int, y: Int32) {
        Push.motion(Int32(from), y, left: false)
        Push.button(true, Int32(from), y)
        for x in stride(from: from + step, through: to, by: step) {
            Push.motion(Int32(x), y, left: true)
            settle(w, seconds: 0.01)
        }
        settle(w, seconds: 0.15)
        Push.button(false, Int32(to), y)
        settle(w, seconds: 0.2)
    }

    @Test func a300PixelDragMovesTheMap300Pixels() throws {
        let w = try makeWindow()
        #expect(w.videoDriver == "dummy")
        let map = w.session.simulation.mapboxMap
        w.pump()
        let grabbed = map.coordinate(for: p(200, 300))
        drag(w, from: 200, to: 500, step: 30, y: 300)
        let q = map.point(for: grabbed)!
        expectClose(q.x, 500, 1e-6, "grabbed point x")
        expectClose(q.y, 300, 1e-6, "grabbed point y")
        #expect(w.framesShown > 3)
    }

    @Test func atPixelRatio2TheWindowIsTwiceAsManyPixelsAndADragMovesTheMapInPoints() throws {
        let w = try makeWindow(renderer: .mapRenderer(style: "world", pixelRatio: 2), pixelRatio: 2)
        let map = w.session.simulation.mapboxMap
        #expect(map.size == ScreenSize(width: 800, height: 600), "the map keeps its size in points")
        w.pump()
        let grabbed = map.coordinate(for: p(100, 150))
        // SDL reports window pixels: a 540-pixel drag at 2× is a 270-point pan.
        drag(w, from: 200, to: 740, step: 60, y: 300)
        let q = map.point(for: grabbed)!
        expectClose(q.x, 370, 1e-6, "grabbed point x, in points")
        expectClose(q.y, 150, 1e-6, "grabbed point y, in points")
        // The compass, 30 points from the top-right corner, is at 60 pixels: a click there turns north.
        map.setCamera(to: CameraOptions(bearing: 40))
        settle(w, seconds: 0.05)
        Push.button(true, 1600 - 68, 68)
        Push.button(false, 1600 - 68, 68)
        // A 2× frame of the real map takes a while in a debug build on a loaded machine, and the
        // window's clock catches up at most a few ticks per frame: wait until the ease has run
        // (it must start and end at north; a missed click never turns the map at all).
        let deadline = WallClock.monotonicSeconds() + 20
        repeat { settle(w, seconds: 0.1) } while abs(map.cameraState.bearing) > 1e-9 && WallClock.monotonicSeconds() < deadline
        expectClose(map.cameraState.bearing, 0, 1e-9)
    }

    @Test func inputInPixelsBecomesPoints() {
        let m = KeyModifiers()
        #expect(InputEvent.mouseDown(.left, at: p(10, 20), clicks: 2, modifiers: m).inPoints(pixelRatio: 2)
                == .mouseDown(.left, at: p(5, 10), clicks: 2, modifiers: m))
        #expect(InputEvent.wheel(notches: 1, at: p(30, 6), modifiers: m).inPoints(pixelRatio: 3) == .wheel(notches: 1, at: p(10, 2), modifiers: m))
        #expect(InputEvent.resized(ScreenSize(width: 1600, height: 900)).inPoints(pixelRatio: 2) == .resized(ScreenSize(width: 800, height: 450)))
        #expect(InputEvent.mouseMoved(to: p(7, 9)).inPoints(pixelRatio: 1) == .mouseMoved(to: p(7, 9)))
    }

    @Test func fiveWheelClicksZoomInAboutTheCursor() throws {
        let w = try makeWindow()
        let map = w.session.simulation.mapboxMap
        w.pump()
        let under = map.coordinate(for: p(650, 150))
        let z0 = map.cameraState.zoom
        for _ in 0..<5 {
            Push.wheel(1, at: 650, 150)
            settle(w, seconds: 0.03)
        }
        settle(w, seconds: 0.5)
        let dz = map.cameraState.zoom - z0
        #expect(dz > 0.6 && dz < 0.8, "five notches ≈ 5 × 0.1514 zoom (frames may merge notches), got \(dz)")
        let q = map.point(for: under)!
        expectClose(q.x, 650, 1e-6)
        expectClose(q.y, 150, 1e-6)
        #expect(w.session.isQuiescent)
    }

    @Test func anIdleWindowDrawsNothing() throws {
        let w = try makeWindow()
        settle(w, seconds: 0.05)
        let shown = w.framesShown
        #expect(shown == 1, "the first frame only")
        settle(w, seconds: 0.3)
        #expect(w.framesShown == shown)
        #expect(w.session.isQuiescent)
    }

    @Test func clickingTheCompassTurnsNorthUp() throws {
        let w = try makeWindow()
        w.session.simulation.mapboxMap.setCamera(to: CameraOptions(bearing: 40))
        settle(w, seconds: 0.05)
        Push.button(true, 800 - 34, 34)
        Push.button(false, 800 - 34, 34)
        settle(w, seconds: 0.5)
        expectClose(w.session.simulation.mapboxMap.cameraState.bearing, 0, 1e-9)
    }

    @Test func clickingACountrySelectsItHoverMarksItAndARightClickClears() throws {
        let path = NSTemporaryDirectory() + "flyby-select-test-\(getpid()).trace.jsonl"
        defer { unlink(path) }
        let finland = CameraState(center: LocationCoordinate2D(latitude: 63.5, longitude: 27), zoom: 4)
        let w = try makeWindow(record: path, renderer: .mapRenderer(style: "world"), camera: finland)
        settle(w, seconds: 0.05)
        Push.motion(400, 300, left: false)
        settle(w, seconds: 0.1)
        #expect(w.features.hovered?.id == .string("FIN"))
        Push.button(true, 400, 300)
        Push.button(false, 400, 300)
        settle(w, seconds: 0.1)
        #expect(w.features.selected?.id == .string("FIN"))
        #expect(w.features.callout?.text == "Finland")
        // A drag from Finland into Sweden pans; it selects nothing.
        Push.button(true, 400, 300)
        for x in stride(from: 380, through: 200, by: -30) { Push.motion(Int32(x), 300, left: true); settle(w, seconds: 0.01) }
        settle(w, seconds: 0.15)
        Push.button(false, 200, 300)
        settle(w, seconds: 0.1)
        #expect(w.features.selected?.id == .string("FIN"))
        Push.button(true, 300, 300, button: SDL_BUTTON_RIGHT)
        Push.button(false, 300, 300, button: SDL_BUTTON_RIGHT)
        settle(w, seconds: 0.1)
        #expect(w.features.selected == nil && w.features.callout == nil)
        Push.key(Int32(UInt8(ascii: "q")))
        _ = try w.run()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let events = text.split(separator: "\n").map(String.init)
        let hover = events.firstIndex { $0.contains(#""hover world/countries-50m/FIN""#) }
        let select = events.firstIndex { $0.contains(#""select world/countries-50m/FIN""#) }
        let clear = events.firstIndex { $0.contains(#""clear feature states""#) }
        #expect(hover != nil && select != nil && clear != nil, "\(text.suffix(2000))")
        if let hover, let select, let clear { #expect(hover < select && select < clear) }
        #expect(text.components(separatedBy: "\"select ").count == 2, "the drag selected nothing")
    }

    @Test func hoveringQueriesAtMostOncePerFrameInterval() throws {
        final class Counter: @unchecked Sendable { var queries: [ScreenPoint] = [] }
        let counter = Counter()
        var hooks = MapRendererHooks.placeholder()
        hooks.queryFeatures = { point, _ in counter.queries.append(point); return [] }
        let w = try makeWindow(renderer: hooks)
        settle(w, seconds: 0.05)
        let t0 = WallClock.monotonicSeconds()
        for x in 0..<20 { Push.motion(Int32(100 + x), 200, left: false) }
        w.processPendingEvents()
        w.pump(now: t0)
        #expect(counter.queries == [p(119, 200)], "20 motions before a frame: one query, at the latest point")
        Push.motion(300, 300, left: false)
        w.processPendingEvents()
        w.pump(now: t0 + 0.01)
        #expect(counter.queries.count == 1, "the next query waits for the next frame interval (1/60 s)")
        w.pump(now: t0 + 0.017)
        #expect(counter.queries == [p(119, 200), p(300, 300)])
    }

    @Test func aLongPressClearsTheSelection() throws {
        let w = try makeWindow(renderer: .mapRenderer(style: "world"),
                               camera: CameraState(center: LocationCoordinate2D(latitude: 63.5, longitude: 27), zoom: 4))
        settle(w, seconds: 0.05)
        w.select(at: p(400, 300))
        #expect(w.features.selected?.id == .string("FIN"))
        Push.button(true, 500, 300)
        settle(w, seconds: 0.6)
        #expect(w.features.selected == nil, "cleared while the button is still down")
        Push.button(false, 500, 300)
        settle(w, seconds: 0.05)
        #expect(w.features.selected == nil, "the release of a long press is no click")
    }

    @Test func resizingTheWindowResizesTheMap() throws {
        let w = try makeWindow()
        var e = SDL_Event()
        e.type = SDL_WINDOWEVENT.rawValue
        e.window.event = UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue)
        e.window.data1 = 640
        e.window.data2 = 400
        Push.push(&e)
        settle(w, seconds: 0.05)
        #expect(w.session.simulation.mapboxMap.size == ScreenSize(width: 640, height: 400))
    }

    @Test func qQuitsAndTheRecordedTraceShowsTheSession() throws {
        let path = NSTemporaryDirectory() + "flyby-window-test-\(getpid()).trace.jsonl"
        defer { unlink(path) }
        let w = try makeWindow(record: path)
        Push.key(Int32(SDLK_EQUALS.rawValue))  // zoom +1 (300 ms ease)
        settle(w, seconds: 0.5)
        Push.key(Int32(UInt8(ascii: "q")))
        let messages = try w.run()
        #expect(w.isQuitRequested)
        #expect(messages.contains { $0.contains(path) })
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.first?.contains(#""kind":"trace""#) == true)
        #expect(lines[1].hasPrefix(#"{"frame":0,"t":0,"#))
        #expect(lines.last?.contains(#""zoom":11,"#) == true, "the last frame shows the finished zoom: \(lines.last ?? "")")
        #expect(text.contains("finished end"))
    }
}
