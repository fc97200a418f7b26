import CSDL2
import FlybyCore
import FlybyData
import FlybyExport
import FlybyFlight
import FlybyMedia
import FlybyRender
import Foundation

/// Draws one map frame: the camera, the puck (when a location is active), the session's frame
/// clock time (seconds of simulation time: the window's frames are one sequence, so labels fade,
/// `MapRenderer.render(camera:puck:time:into:)`; nil draws a frame alone, as a snapshot) and the
/// frame buffer (already sized to the window). This is how a renderer plugs into the window.
public typealias MapDrawFunction = (_ camera: CameraState, _ puck: PuckState?, _ time: Double?, _ buffer: inout PixelBuffer) -> Void

/// **The single injection point for the map renderer.** The window calls `draw` for every frame
/// it shows and for screenshots; `cycleLightPreset` (L) and `switchStyle` (S) return the new
/// preset / style name for the HUD and the trace header. ``placeholder()`` draws a graticule;
/// ``mapRenderer(style:)`` draws with `MapRenderer`.
///
/// Feature interaction goes through `queryFeatures` (the features drawn at a screen point,
/// topmost first, as `MapRenderer.queryFeatures(at:camera:tolerance:)`; `isLineLayer` tells line
/// hits apart) and `applyFeatureState` (the next `draw` shows the change).
public struct MapRendererHooks {
    public var draw: MapDrawFunction
    public var cycleLightPreset: () -> String
    public var switchStyle: () -> String
    /// The current style's attribution (shown bottom right).
    public var attribution: () -> String
    /// The features at a screen point (pixels) for a camera, topmost first.
    public var queryFeatures: (_ point: ScreenPoint, _ camera: CameraState) -> [QueriedFeature]
    /// Whether a layer id names a line layer (clicks prefer fills and circles).
    public var isLineLayer: (_ layerID: String) -> Bool
    /// Applies a feature-state change to what `draw` shows.
    public var applyFeatureState: (_ change: FeatureStateChange) -> Void
    public init(draw: @escaping MapDrawFunction, cycleLightPreset: @escaping () -> String, switchStyle: @escaping () -> String,
                attribution: @escaping () -> String = { "" },
                queryFeatures: @escaping (ScreenPoint, CameraState) -> [QueriedFeature] = { _, _ in [] },
                isLineLayer: @escaping (String) -> Bool = { _ in false },
                applyFeatureState: @escaping (FeatureStateChange) -> Void = { _ in }) {
        self.draw = draw; self.cycleLightPreset = cycleLightPreset; self.switchStyle = switchStyle; self.attribution = attribution
        self.queryFeatures = queryFeatures; self.isLineLayer = isLineLayer; self.applyFeatureState = applyFeatureState
    }

    /// The stand-in: FlybyFlight's ``PlaceholderFrameRenderer`` graticule (its ornaments off: the
    /// window draws its own), and light/style names that only change the HUD.
    public static func placeholder(style: String = "world", preset: String = "day") -> MapRendererHooks {
        final class State { var map = PlaceholderFrameRenderer(drawsOrnaments: false); var style: String; var preset: String
            init(_ s: String, _ p: String) { style = s; preset = p } }
        let presets = ["day", "dawn", "dusk", "night"], styles = ["world", "city"]
        let s = State(style, preset)
        return MapRendererHooks(
            draw: { camera, puck, _, buffer in s.map.render(camera: camera, puck: puck, size: (buffer.width, buffer.height), into: &buffer) },
            cycleLightPreset: { s.preset = presets[((presets.firstIndex(of: s.preset) ?? -1) + 1) % presets.count]; return s.preset },
            switchStyle: { s.style = styles[((styles.firstIndex(of: s.style) ?? -1) + 1) % styles.count]; return s.style },
            attribution: { MapRenderer.defaultAttribution })
    }
}

/// What `flyby window` asked for.
public struct MapWindowOptions {
    public var title = "Flyby"
    public var size = ScreenSize(width: 1280, height: 720)
    public var style = "world"
    /// Write the session trace here when the window closes (`--record`); recording starts at once.
    public var recordPath: String?
    /// Render the session's recording to this video (or Y4M, GIF, PNG folder) when the window
    /// closes (`--video`), with ``FlybyExport/VideoExport``: the frames `flyby play` draws for the
    /// trace. Recording starts at once; R restarts it, so the video holds the last recording.
    public var videoPath: String?
    /// Render threads of the `--video` export.
    public var videoThreads = 1
    /// Write one line per shown frame (`--stats`).
    public var statsPath: String?
    /// Show the HUD line (D toggles it).
    public var showsHUD = true
    /// Stop after this many shown frames (tests and benchmarks), nil for no limit.
    public var frameLimit: Int?
    /// Quit this many seconds after start (benchmarks), nil for no limit.
    public var timeLimit: Double?
    /// Device pixels per point, 1…4 (`--pixel-ratio`, MapLibre's `pixelRatio`): the window is
    /// this many times ``size`` in pixels and shows the same map, every length (lines, text,
    /// ornaments, HUD) that many times as many pixels; input, cameras and traces stay in points.
    public var pixelRatio = 1
    /// Folder for screenshots (P) and traces recorded with R when there is no `--record`.
    public var outputDirectory = "."
    public init() {}
}

/// The interactive SDL2 window: shows a ``WindowSession``'s map, feeds it the user's input through
/// ``InputMapper`` and draws on demand.
///
/// **Loop.** While something moves (animation, gesture, scroll, puck, flight, viewport state) the
/// loop waits with `SDL_WaitEventTimeout` until the next simulation tick is due (60 per second
/// by default), runs it and presents a frame: one tick per frame, paced by the simulation clock.
/// When nothing moves it draws nothing and blocks in `SDL_WaitEventTimeout` (an idle window uses
/// no CPU). Frames go to the window surface (a row copy; the window surface is XRGB8888, the same
/// layout as ``PixelBuffer``).
public final class MapWindow {
    public let session: WindowSession
    public var options: MapWindowOptions
    public var renderer: MapRendererHooks
    private let window: OpaquePointer
    private var buffer: PixelBuffer
    private var mapper = InputMapper()
    private var overlay: OverlayPainter
    /// Scale bar, compass and attribution: FlybyRender's one ornament drawer (nil without the font).
    private var ornaments = try? MapOrnaments()
    private var showsHelp = false
    private var dirty = true
    private var quitRequested = false
    private var styleName: String
    private var presetName = "day"
    private var statsLines: [String] = []
    /// Frames shown so far.
    public private(set) var framesShown = 0
    private var frameTimes: [Double] = []
    private var lastFrameWall: Double?
    private var lastDrawMilliseconds = 0.0
    private var lastShownCamera: CameraState?
    private var lastShownPuck: PuckState?
    private let startWall: Double
    /// The selected and hovered features and the callout.
    public private(set) var features = FeatureInteraction()
    /// Where the pointer last moved with no button held, until the hover query for it runs.
    private var hoverRequest: ScreenPoint?
    private var lastHoverQueryWall = -Double.infinity

    /// Opens the window. Fails with ``SDLError`` when there is no display.
    public init(session: WindowSession, options: MapWindowOptions, renderer: MapRendererHooks) throws(SDLError) {
        self.session = session
        self.options = options
        self.renderer = renderer
        // The window surface must be a plain X11 (XShm) framebuffer: with acceleration allowed,
        // SDL backs it with an OpenGL texture, which on a GPU-less machine is Mesa's llvmpipe
        // (measured under Xvfb: 80 % of the process's time went to llvmpipe, 17 ms per frame).
        SDL.setHint(SDL.hintFramebufferAcceleration, "0")
        try SDL.initVideo()
        do {
            window = try SDL.createWindow(title: options.title, width: Int(options.size.width) * options.pixelRatio,
                                          height: Int(options.size.height) * options.pixelRatio)
        } catch {
            SDL.quit()
            throw error
        }
        let (w, h) = SDL.windowSize(window)
        buffer = PixelBuffer(width: max(w, 1), height: max(h, 1))
        overlay = OverlayPainter(width: buffer.width, height: buffer.height)
        overlay.scale = Double(options.pixelRatio)
        // Lay out the ornament glyphs once before the first frame is timed (their distance
        // fields are made on first use); the frame is drawn over before it is shown.
        ornaments?.draw(camera: session.simulation.mapboxMap.cameraState, attribution: renderer.attribution() + " 0123456789 km",
                        scale: Double(options.pixelRatio), into: &buffer)
        styleName = options.style
        startWall = WallClock.monotonicSeconds()
        let points = ScreenSize(width: Double(w) / Double(options.pixelRatio), height: Double(h) / Double(options.pixelRatio))
        if points != session.simulation.mapboxMap.size, w > 0, h > 0 {
            session.simulation.mapboxMap.setSize(points)
        }
        if options.recordPath != nil || options.videoPath != nil { session.startRecording() }
    }

    deinit {
        SDL.destroyWindow(window)
        SDL.quit()
    }

    /// The SDL video driver in use.
    public var videoDriver: String { SDL.currentVideoDriver() ?? "?" }

    /// Runs until Q, Esc, the close button, or a limit; then writes `--record` and `--stats`.
    /// - Returns: messages for the user (files written).
    @discardableResult
    public func run() throws -> [String] {
        session.advance(toWallTime: WallClock.monotonicSeconds())
        var event = SDL_Event()
        while !quitRequested {
            let now = WallClock.monotonicSeconds()
            let busy = !session.isQuiescent || dirty
            var wait = busy ? session.secondsUntilNextTick(wall: now) : 1
            if let deadline = mapper.longPressDeadline { wait = min(wait, deadline - now) }
            if hoverRequest != nil { wait = min(wait, lastHoverQueryWall + hoverQueryInterval - now) }
            let timeout = Int32(max(0, min(1000, (wait * 1000).rounded(.up))))
            if let limit = options.timeLimit, now - startWall >= limit { break }
            if SDL.waitEvent(&event, timeoutMilliseconds: timeout) {
                handle(event)
                while SDL.pollEvent(&event) { handle(event) }
            }
            // On quit, input that came with it still reaches the simulation (and the trace).
            pump()
            if quitRequested { break }
            if let limit = options.frameLimit, framesShown >= limit { break }
        }
        return try finish()
    }

    /// One step without waiting: advance the simulation to the wall clock and show a frame when
    /// anything changed (the test hook; `run` calls it after each wait).
    public func pump() { pump(now: WallClock.monotonicSeconds()) }

    /// ``pump()`` at wall time `now` (monotonic seconds; tests pass their own).
    func pump(now: Double) {
        for action in mapper.update(time: now) { perform(action) }
        if let p = hoverRequest, now - lastHoverQueryWall >= hoverQueryInterval {
            hoverRequest = nil
            lastHoverQueryWall = now
            applyFeatureChanges(features.hover(feature(at: p)))
        }
        session.advance(toWallTime: now)
        let camera = session.simulation.mapboxMap.cameraState
        let puck = session.simulation.location?.puck
        // Ticks that change nothing visible (a reached overview, a paused puck) draw nothing.
        if dirty || camera != lastShownCamera || puck != lastShownPuck {
            present()
        }
    }

    /// Handles SDL events already queued (tests push events, then call this and ``pump()``).
    public func processPendingEvents() {
        var event = SDL_Event()
        while SDL.pollEvent(&event) { handle(event) }
    }

    /// Whether Q, Esc or the close button asked to quit.
    public var isQuitRequested: Bool { quitRequested }

    private func handle(_ e: SDL_Event) {
        guard let input = SDLEventTranslator.translate(e, modifiersNow: { SDLEventTranslator.modifiers(SDL.modState()) })?
            .inPoints(pixelRatio: Double(options.pixelRatio)) else { return }
        for action in mapper.map(input, time: WallClock.monotonicSeconds()) { perform(action) }
    }

    /// Carries out one action: window-level ones here, camera ones in the session.
    public func perform(_ action: WindowAction) {
        switch action {
        case .quit: quitRequested = true
        case .toggleHelp: showsHelp.toggle(); dirty = true
        case .toggleHUD: options.showsHUD.toggle(); dirty = true
        case .cycleLight:
            presetName = renderer.cycleLightPreset()
            session.notice = "light preset \(presetName)"
            dirty = true
        case .switchStyle:
            // The next style has other sources: nothing stays selected or hovered.
            if features.selected != nil || features.hovered != nil { applyFeatureChanges(features.clear()) }
            styleName = renderer.switchStyle()
            session.setStyleName(styleName)
            session.notice = "style \(styleName)"
            dirty = true
        case .click(let p):
            let c = compassCenter
            // Where the compass is shown, a click turns north; elsewhere it picks a feature.
            if MapOrnaments.showsCompass(bearing: shownCamera.bearing),
               (p.x - c.x) * (p.x - c.x) + (p.y - c.y) * (p.y - c.y) <= MapOrnaments.compassRadius * MapOrnaments.compassRadius {
                session.handle(.northUp)
            } else {
                select(at: p)
            }
        case .hover(let p?): hoverRequest = p
        case .hover(nil):
            hoverRequest = nil
            applyFeatureChanges(features.hover(nil))
        case .clearFeatures: applyFeatureChanges(features.clear())
        case .screenshot: screenshot()
        case .toggleRecording: toggleRecording()
        case .resize(let s):
            session.handle(action)
            let w = max(Int((s.width * scale).rounded()), 1), h = max(Int((s.height * scale).rounded()), 1)
            if w != buffer.width || h != buffer.height { buffer = PixelBuffer(width: w, height: h) }
            dirty = true
        default:
            session.handle(action)
            dirty = dirty || session.isPaused
        }
    }

    // MARK: Features

    /// Hover queries run at most once per simulation tick interval (one per drawn frame).
    private var hoverQueryInterval: Double { 1 / session.fps }

    /// The camera of the frame on screen (what the user pointed at).
    private var shownCamera: CameraState { lastShownCamera ?? session.simulation.mapboxMap.cameraState }

    /// The feature a click or hover at `point` picks in the shown frame.
    private func feature(at point: ScreenPoint) -> FeatureRef? {
        FeatureInteraction.pick(renderer.queryFeatures(point, shownCamera), isLine: renderer.isLineLayer)
    }

    /// Selects the feature under `point` (or deselects when there is none) and anchors the
    /// callout at the ground point clicked.
    public func select(at point: ScreenPoint) {
        let camera = shownCamera
        let anchor = MapTransform(size: session.simulation.mapboxMap.size, state: camera).coordinate(for: point)
        let hit = feature(at: point)
        applyFeatureChanges(features.select(hit, at: anchor))
        dirty = true
    }

    /// Applies feature-state changes to the map and names them in the trace.
    private func applyFeatureChanges(_ changes: [FeatureStateChange]) {
        for c in changes {
            renderer.applyFeatureState(c)
            session.record(event: c.event(style: styleName))
        }
        if !changes.isEmpty { dirty = true }
    }

    // MARK: Frames

    private func present() {
        let t0 = WallClock.monotonicSeconds()
        let camera = session.simulation.mapboxMap.cameraState
        let puck = session.simulation.location?.puck
        renderer.draw(camera, puck, session.clock.now, &buffer)
        let tMap = WallClock.monotonicSeconds()
        drawOverlays()
        let tOverlays = WallClock.monotonicSeconds()
        do { try blit() } catch { session.notice = "\(error)" }
        let t1 = WallClock.monotonicSeconds()
        lastDrawMilliseconds = (t1 - t0) * 1000
        let interval = lastFrameWall.map { (t1 - $0) * 1000 } ?? 0
        lastFrameWall = t1
        frameTimes.append(t1)
        if frameTimes.count > 120 { frameTimes.removeFirst(frameTimes.count - 120) }
        if options.statsPath != nil {
            statsLines.append("\(framesShown) \(fmt(t1 - startWall, 4)) \(fmt(interval, 3)) \(fmt(lastDrawMilliseconds, 3)) \(session.clock.frame) \(fmt((tMap - t0) * 1000, 3)) \(fmt((tOverlays - tMap) * 1000, 3))")
        }
        framesShown += 1
        lastShownCamera = camera
        lastShownPuck = puck
        dirty = false
    }

    /// Frames per second over the last second of shown frames.
    public var measuredFPS: Double {
        guard let last = frameTimes.last else { return 0 }
        let recent = frameTimes.filter { last - $0 <= 1 }
        guard recent.count >= 2, let first = recent.first, last > first else { return 0 }
        return Double(recent.count - 1) / (last - first)
    }

    /// The HUD text.
    public var hudLine: String {
        let c = session.simulation.mapboxMap.cameraState
        var s = "\(fmt(measuredFPS, 0)) fps  \(fmt(lastDrawMilliseconds, 1)) ms  zoom \(fmt(c.zoom, 2))  bearing \(fmt(wrapBearing(c.bearing), 1))°  pitch \(fmt(c.pitch, 1))°"
        s += "  \(session.simulation.viewportStatusName)  \(styleName):\(presetName)"
        if session.isPaused { s += "  PAUSED" } else if session.rate != 1 { s += "  time ×\(fmt(session.rate, session.rate < 1 ? 4 : 0))" }
        if session.isRecording { s += "  ● REC" }
        return s + "  (H: help)"
    }

    private func drawOverlays() {
        if let c = features.callout {
            let t = MapTransform(size: session.simulation.mapboxMap.size, state: session.simulation.mapboxMap.cameraState)
            if let p = t.point(for: c.anchor) { overlay.callout(c.text, pointingAt: ScreenPoint(x: p.x * scale, y: p.y * scale), into: &buffer) }
        }
        if options.showsHUD {
            var lines = [hudLine]
            if let n = session.notice { lines.append(n) }
            overlay.panel(lines, x: 8 * scale, y: 8 * scale, into: &buffer)
        }
        if showsHelp {
            overlay.panel(["Flyby keys"] + InputMapper.helpLines, x: 8 * scale, y: (options.showsHUD ? 60 : 8) * scale, into: &buffer)
        }
        var credits = [renderer.attribution()]
        if session.simulation.location != nil { credits += session.tracks[session.trackIndex].attribution }
        ornaments?.draw(camera: session.simulation.mapboxMap.cameraState, attribution: credits.filter { !$0.isEmpty }.joined(separator: " · "),
                        scale: scale, into: &buffer)
    }

    /// Frame pixels per point (``MapWindowOptions/pixelRatio``).
    private var scale: Double { Double(options.pixelRatio) }

    /// Where the compass sits (top right), in points; a click inside it eases to north.
    private var compassCenter: ScreenPoint { MapOrnaments.compassCenter(width: Int(session.simulation.mapboxMap.size.width.rounded())) }

    /// Copies the frame into the window surface row by row (honouring its pitch) and shows it.
    private func blit() throws(SDLError) {
        let surface = try SDL.windowSurface(window)
        let sw = Int(surface.pointee.w), sh = Int(surface.pointee.h), pitch = Int(surface.pointee.pitch)
        guard let dst = surface.pointee.pixels else { return }
        let w = min(sw, buffer.width), h = min(sh, buffer.height)
        let bw = buffer.width
        buffer.pixels.withUnsafeBufferPointer { src in
            for y in 0..<h {
                (dst + y * pitch).copyMemory(from: src.baseAddress! + y * bw, byteCount: w * 4)
            }
        }
        try SDL.updateWindowSurface(window)
    }

    // MARK: Files

    private func nextFreePath(_ prefix: String, _ suffix: String) -> String {
        var n = 1
        while true {
            let p = "\(options.outputDirectory)/\(prefix)-\(n)\(suffix)"
            if !FileManager.default.fileExists(atPath: p) { return p }
            n += 1
        }
    }

    private func screenshot() {
        var shot = PixelBuffer(width: buffer.width, height: buffer.height)
        renderer.draw(session.simulation.mapboxMap.cameraState, session.simulation.location?.puck, nil, &shot)
        let path = nextFreePath("flyby-screenshot", ".png")
        do {
            let png = try PNGEncoder().encode(pixels: shot.pixels, width: shot.width, height: shot.height)
            try AtomicFileWriter.write(png, to: path)
            session.notice = "screenshot saved to \(path)"
        } catch {
            session.notice = "screenshot failed: \(error)"
        }
        dirty = true
    }

    private func toggleRecording() {
        if session.isRecording {
            let path = options.recordPath ?? nextFreePath("flyby-recording", ".trace.jsonl")
            if let bytes = session.stopRecording() {
                do { try AtomicFileWriter.write(bytes, to: path); session.notice = "trace saved to \(path)" } catch { session.notice = "\(error)" }
            }
        } else {
            session.startRecording()
            session.notice = "recording"
        }
        dirty = true
    }

    /// Writes `--record` and `--stats` (atomically) and returns what was written.
    private func finish() throws -> [String] {
        var messages: [String] = []
        let recording = session.stopRecording()
        if let path = options.recordPath, let bytes = recording {
            try AtomicFileWriter.write(bytes, to: path)
            messages.append("flyby: trace written to \(path)")
        }
        if let path = options.videoPath, let bytes = recording {
            var export = VideoExport.Options(output: path)
            export.threads = options.videoThreads
            export.pixelRatio = options.pixelRatio
            export.searchPath = ProcessInfo.processInfo.environment["PATH"] ?? export.searchPath
            let summary = try VideoExport.run(traceBytes: bytes, name: "the window's recording", options: export)
            messages.append("flyby: \(summary.frames) frames (\(summary.size.width)x\(summary.size.height)) written to \(path)")
        }
        if let path = options.statsPath {
            // draw_ms is the whole frame: map_ms, overlay_ms (HUD, ornaments, callout), then the
            // copy to the window surface and SDL_UpdateWindowSurface (which waits for the X server).
            var text = "# frame wall_s interval_ms draw_ms sim_frame map_ms overlay_ms\n" + statsLines.joined(separator: "\n") + "\n"
            text += statsSummary()
            try AtomicFileWriter.write(Array(text.utf8), to: path)
            messages.append("flyby: frame stats written to \(path)")
        }
        return messages
    }

    /// `# name: value` summary lines of the frame stats.
    public func statsSummary() -> String {
        let intervals = statsLines.compactMap { Double($0.split(separator: " ")[2]) }.dropFirst().sorted()
        let draws = statsLines.compactMap { Double($0.split(separator: " ")[3]) }.sorted()
        let maps = statsLines.compactMap { Double($0.split(separator: " ")[5]) }.sorted()
        let overlays = statsLines.compactMap { Double($0.split(separator: " ")[6]) }.sorted()
        guard !intervals.isEmpty, !draws.isEmpty else { return "# frames: \(statsLines.count)\n" }
        func pct(_ a: [Double], _ p: Double) -> Double { a[min(a.count - 1, Int(Double(a.count - 1) * p))] }
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        // While moving: intervals of 100 ms or more are pauses in which nothing moved (and nothing
        // was drawn), not slow frames.
        let moving = intervals.filter { $0 < 100 }
        let movingMean = moving.isEmpty ? mean : moving.reduce(0, +) / Double(moving.count)
        return """
        # frames: \(statsLines.count)
        # fps_mean: \(fmt(1000 / mean, 2))
        # fps_moving: \(fmt(1000 / movingMean, 2))
        # frames_over_20ms_moving: \(moving.filter { $0 > 20 }.count)
        # interval_ms_median: \(fmt(pct(intervals, 0.5), 3))
        # interval_ms_p95: \(fmt(pct(intervals, 0.95), 3))
        # interval_ms_max: \(fmt(intervals.last!, 3))
        # draw_ms_median: \(fmt(pct(draws, 0.5), 3))
        # draw_ms_p95: \(fmt(pct(draws, 0.95), 3))
        # map_ms_median: \(fmt(pct(maps, 0.5), 3))
        # map_ms_p95: \(fmt(pct(maps, 0.95), 3))
        # overlay_ms_median: \(fmt(pct(overlays, 0.5), 3))

        """
    }
}

/// `value` with `digits` decimals.
func fmt(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    return String(format: "%.\(digits)f", value)
}
