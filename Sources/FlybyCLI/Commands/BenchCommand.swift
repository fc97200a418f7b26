import FlybyCore
import FlybyData
import FlybyFlight
import FlybyRender
import Foundation

/// `flyby bench sim` and `flyby bench render`.
enum BenchCommand: FlybyCommand {
    static let name = "bench"
    static let summary = "print benchmark figures (bench sim, bench render)"
    static let about = """
    Prints benchmark figures as 'name: value' lines (medians of several runs). Build with
    'swift build -c release' first: debug builds are many times slower.
    """
    static let notes = """
    Figures:
      sim.fly_sample_ns           one evaluation of a fly path (zoom, centre, bearing, pitch, padding)
      sim.tick_10k_animators_us   one tick with 10,000 running animators
      sim.frames_per_s            ticks per second of a 60-second flight with its trace written to /dev/null
      sim.follow_tick_ns          one tick while following the puck on the Helsinki drive (puck interpolation included)
      sim.transition_frames_per_s ticks per second through viewport transitions (overview ↔ followPuck, default
                                  transition, trace written to /dev/null)
      render.median_ms            median wall time to render one frame (style and data loaded first;
                                  3 warm-up frames, then N frames, default 60), on this thread
      render.min_ms, render.p90_ms  the fastest and the 90th-percentile frame
      render.cpu_median_ms        median thread CPU time per frame (immune to other processes); with
                                  --threads N > 1 only the calling thread's share (it draws a band or places the symbols)
      render.load_ms              loading and parsing the style and its data, once
      render.labels               labels and icons placed in the last frame
      render.tiles                tiled styles: tiles the frame draws, over all tiled sources
      render.tile_decode_ms       reading and decoding those tiles from the archives, cold, one thread
                                  (and render.tile_decode_cpu_ms); not part of the frame times above
      render.first_frame_ms       the first frame after that: cutting, joining and projecting the
                                  decoded tiles, then drawing
      render.layer.ID_cpu_ms      with --layers: median thread CPU time of a frame that draws only layer ID
                                  (plus the background, sky and ornaments, which 'render.layer.base_cpu_ms' is)
    """
    static let subcommands: [any FlybyCommand.Type] = [Sim.self, Render.self]

    /// `flyby bench sim [--only NAME,…]`.
    enum Sim: FlybyCommand {
        static let name = "sim"
        static let summary = "simulation benchmarks"
        static let about = "the simulation figures (sim.*)."
        static let options = [OptionSpec("only", .string, "NAME,…", help: "only these figures (with or without the 'sim.' prefix)")]

        static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
            let only = parsed.string("only").map { Set($0.split(separator: ",").map { "sim." + $0.replacingOccurrences(of: "sim.", with: "") }) }
            for name in SimBench.names where only?.contains(name) ?? true {
                out.print("\(name): \(SimBench.measure(name))")
            }
        }
    }

    /// `flyby bench render [--style S] [--camera JSON] [--size WxH] [--frames N] [--layers] [--no-terrain] [--threads N]`.
    enum Render: FlybyCommand {
        static let name = "render"
        static let summary = "frame times of one style and camera"
        static let about = "frame times of one style and camera (render.*)."
        static let options = [
            OptionSpec.style, OptionSpec.camera, OptionSpec.size(default: "1280x720"),
            OptionSpec("frames", .int(1...100_000), "N", help: "frames timed after the warm-up", default: "60"),
            OptionSpec("layers", .flag, help: "also time each style layer on its own (render.layer.*)"),
            OptionSpec("no-terrain", .flag, help: "draw a style with terrain flat (to compare with its 3D frames)"),
            OptionSpec.bandThreads, OptionSpec.tileCache,
        ]

        static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
            let frames = parsed.int("frames")!
            let t0 = SimBench.seconds()
            var scene = try RenderScene(parsed)
            scene.drawsTerrain = !parsed.flag("no-terrain")
            scene.reusesTerrainFrame = false   // every timed frame redraws the terrain's texture and mesh
            let loadMs = (SimBench.seconds() - t0) * 1000
            for (name, value) in try RenderBench.run(scene, frames: frames, loadMs: loadMs) { out.print("\(name): \(value)") }
            if parsed.flag("layers") {
                for (name, value) in try RenderBench.perLayer(scene, frames: frames) { out.print("\(name): \(value)") }
            }
        }
    }
}

/// The simulation benchmarks.
enum SimBench {
    static func seconds() -> Double { WallClock.monotonicSeconds() }

    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func format(_ v: Double) -> String { String(format: "%.3f", v) }

    static let names = ["sim.fly_sample_ns", "sim.tick_10k_animators_us", "sim.frames_per_s", "sim.follow_tick_ns", "sim.transition_frames_per_s"]

    static func measure(_ name: String) -> String {
        switch name {
        case "sim.fly_sample_ns": return format(flySample())
        case "sim.tick_10k_animators_us": return format(tick10k())
        case "sim.frames_per_s": return String(format: "%.0f", framesPerSecond())
        case "sim.follow_tick_ns": return format(followTick())
        default: return String(format: "%.0f", transitionFramesPerSecond())
        }
    }

    /// Nanoseconds per `FlyToPath.camera(at:)`, median of 9 runs of 200,000 samples.
    static func flySample() -> Double {
        let path = FlyToPath(start: CameraState(center: .init(latitude: 37.7749, longitude: -122.4194), zoom: 10),
                             target: CameraState(center: .init(latitude: 40.7484, longitude: -73.9857), padding: .zero, zoom: 12, bearing: 30, pitch: 40),
                             size: ScreenSize(width: 1280, height: 720))
        var runs: [Double] = []
        var sink = 0.0
        let n = 200_000
        for _ in 0..<9 {
            let t0 = seconds()
            for i in 0..<n {
                let c = path.camera(at: Double(i) / Double(n))
                sink += c.zoom + c.center.latitude
            }
            runs.append((seconds() - t0) / Double(n) * 1e9)
        }
        if sink == 42 { print("") }  // keeps the work alive
        return median(runs)
    }

    /// Microseconds for one tick with 10,000 running animators, median of 31 ticks.
    static func tick10k() -> Double {
        let clock = ManualClock(fps: 60)
        let sim = MapSimulation(size: ScreenSize(width: 1280, height: 720),
                                camera: CameraState(center: .init(latitude: 60.17, longitude: 24.94), zoom: 10), clock: clock)
        var animators: [BasicCameraAnimator] = []
        for i in 0..<10_000 {
            let a = sim.camera.makeAnimator(duration: 1000, curve: .easeInOut) { t in
                switch i % 4 {
                case 0: t.zoom.toValue = 12
                case 1: t.bearing.toValue = 90
                case 2: t.pitch.toValue = 45
                default: t.center.toValue = .init(latitude: 60.2, longitude: 25)
                }
            }
            a.startAnimation()
            animators.append(a)
        }
        var runs: [Double] = []
        for _ in 0..<31 {
            let t0 = seconds()
            sim.tick()
            runs.append((seconds() - t0) * 1e6)
        }
        return median(runs)
    }

    /// Nanoseconds per tick while following the puck, median of 7 runs of 3,000 ticks.
    static func followTick() -> Double {
        guard let track = try? BuiltInTrack.helsinkiDrive.load() else { return .nan }
        var runs: [Double] = []
        for _ in 0..<7 {
            let clock = ManualClock(fps: 60)
            let sim = MapSimulation(size: ScreenSize(width: 1280, height: 720),
                                    camera: CameraState(center: .init(latitude: 60.17, longitude: 24.94), zoom: 15), clock: clock)
            sim.setLocation(SimulatedLocation(track: track))
            sim.viewport.transition(to: sim.viewport.makeFollowPuckViewportState(), transition: sim.viewport.makeImmediateViewportTransition())
            let t0 = seconds()
            for _ in 0..<3000 { sim.tick() }
            runs.append((seconds() - t0) / 3000 * 1e9)
        }
        return median(runs)
    }

    /// Ticks per second through default viewport transitions (followPuck → overview → followPuck
    /// on the drive), with the trace formatted and written to /dev/null; median of 5 runs.
    static func transitionFramesPerSecond() -> Double {
        guard let track = try? BuiltInTrack.helsinkiDrive.load() else { return .nan }
        let follow = ViewportStateDescriptor.followPuck(.init(zoom: 16, bearing: .course, pitch: 45))
        var script = FlightScript(file: "bench", steps: [
            .viewport(state: follow, transition: .default(maxDuration: 3.5), hold: 0),
            .viewport(state: .overview(.init(geometry: .multiPoint([]))), transition: .default(maxDuration: 3.5), hold: 0),
            .viewport(state: follow, transition: .default(maxDuration: 3.5), hold: 0),
        ])
        script.location = LocationSpec(track: track, speed: 1, loop: false, mode: .mapboxDefault, puckBearing: .course)
        return runFlight(script)
    }

    /// Ticks per second of a script with its trace written to /dev/null, median of 5 runs.
    static func runFlight(_ script: FlightScript) -> Double {
        let fd = open("/dev/null", O_WRONLY)
        defer { close(fd) }
        var runs: [Double] = []
        for _ in 0..<5 {
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 20)
            var frames = 0
            let t0 = seconds()
            let runner = FlightRunner(script: script, startCamera: CameraState(center: .init(latitude: 60.17, longitude: 24.94), zoom: 14))
            try? runner.run { r in
                TraceWriter.appendFrame(r, to: &buffer)
                frames += 1
                if buffer.count > 1 << 19 { _ = buffer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }; buffer.removeAll(keepingCapacity: true) }
            }
            _ = buffer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            runs.append(Double(frames) / (seconds() - t0))
        }
        return median(runs)
    }

    /// Ticks per second of a 60-second flight, trace lines formatted and written to /dev/null.
    static func framesPerSecond() -> Double {
        let script = FlightScript(file: "bench", steps: [
            .fly(to: CameraOptions(center: .init(latitude: 40.7, longitude: -74), zoom: 11), duration: 20, curve: .easeInOut, maxDuration: nil, minZoom: nil),
            .ease(to: CameraOptions(zoom: 14, bearing: 90, pitch: 50), duration: 20, curve: .easeOut),
            .fly(to: CameraOptions(center: .init(latitude: 60.17, longitude: 24.94), zoom: 12, bearing: 0, pitch: 0), duration: 20, curve: .linear,
                 maxDuration: nil, minZoom: nil),
        ])
        return runFlight(script)
    }
}

/// `flyby bench render`: frame times of one style and camera.
enum RenderBench {
    static func run(_ scene: RenderScene, frames: Int, loadMs: Double) throws -> [(String, String)] {
        var renderer = try scene.makeRenderer()
        var buffer = PixelBuffer(width: scene.width, height: scene.height)
        // Tiled styles: the frame's tiles read and decoded from the archives (cold: nothing is
        // cached yet), timed apart from drawing; then the first frame, which cuts, joins and
        // projects them, and draws.
        var tileFigures: [(String, String)] = []
        if scene.style.tileSets.contains(where: { $0 != nil }) {
            let c0 = RasterBench.threadCPUMilliseconds(), t0 = SimBench.seconds()
            let count = try scene.style.prefetchTiles(camera: scene.camera, width: scene.width, height: scene.height)
            let decodeMs = (SimBench.seconds() - t0) * 1000, decodeCPU = RasterBench.threadCPUMilliseconds() - c0
            let t1 = SimBench.seconds()
            renderer.render(camera: scene.camera, into: &buffer)
            tileFigures = [("render.tiles", String(count)), ("render.tile_decode_ms", SimBench.format(decodeMs)),
                           ("render.tile_decode_cpu_ms", SimBench.format(decodeCPU)),
                           ("render.first_frame_ms", SimBench.format((SimBench.seconds() - t1) * 1000))]
        }
        for _ in 0..<3 { renderer.render(camera: scene.camera, into: &buffer) }
        if let error = renderer.tileError { throw error }
        var wall: [Double] = [], cpu: [Double] = []
        wall.reserveCapacity(frames); cpu.reserveCapacity(frames)
        for _ in 0..<frames {
            let c0 = RasterBench.threadCPUMilliseconds(), t0 = SimBench.seconds()
            renderer.render(camera: scene.camera, into: &buffer)
            wall.append((SimBench.seconds() - t0) * 1000)
            cpu.append(RasterBench.threadCPUMilliseconds() - c0)
        }
        let sorted = wall.sorted()
        return [("render.median_ms", SimBench.format(SimBench.median(wall))),
                ("render.min_ms", SimBench.format(sorted[0])),
                ("render.p90_ms", SimBench.format(sorted[min(sorted.count - 1, sorted.count * 9 / 10)])),
                ("render.cpu_median_ms", SimBench.format(SimBench.median(cpu))),
                ("render.frames", String(frames)),
                ("render.size", "\(scene.width)x\(scene.height)"),
                ("render.load_ms", SimBench.format(loadMs)),
                ("render.labels", String(renderer.placedSymbolBoxes.count))] + tileFigures
    }

    /// Median thread CPU time of frames drawing one style layer at a time (and of frames drawing
    /// none: the base), so the costly layers stand out.
    static func perLayer(_ scene: RenderScene, frames: Int) throws -> [(String, String)] {
        var renderer = try scene.makeRenderer()
        var buffer = PixelBuffer(width: scene.width, height: scene.height)
        func median(_ range: Range<Int>) -> Double {
            renderer.layerRange = range
            renderer.render(camera: scene.camera, into: &buffer)
            var cpu: [Double] = []
            for _ in 0..<frames {
                let c0 = RasterBench.threadCPUMilliseconds()
                renderer.render(camera: scene.camera, into: &buffer)
                cpu.append(RasterBench.threadCPUMilliseconds() - c0)
            }
            return SimBench.median(cpu)
        }
        var figures = [("render.layer.base_cpu_ms", SimBench.format(median(0..<0)))]
        for (k, layer) in scene.style.style.layers.enumerated()
        where layer.type != .background && layer.isVisible(atZoom: scene.camera.zoom) {
            figures.append(("render.layer.\(layer.id)_cpu_ms", SimBench.format(median(k..<(k + 1)))))
        }
        return figures
    }
}
