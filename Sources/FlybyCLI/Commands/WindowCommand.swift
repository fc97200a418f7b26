import FlybyCore
import FlybyData
import FlybyFlight
import FlybyRender
import FlybyWindow
import Foundation

/// `flyby window` (and `flyby` with no arguments): the interactive SDL2 window.
enum WindowCommand {
    static let help = """
    usage: flyby window [--style S] [--size WxH] [--camera JSON] [--script FLIGHT] [--record TRACE]
                        [--stats FILE] [--duration SECONDS] [--threads N]

    Opens the interactive map window (SDL2, drawn on the CPU). With no display it exits 3.

      --style S         built-in style (world, city, optionally with a preset: world:night) or a
                        style JSON file; default world
      --size WxH        window size, default 1280x720 (the window is resizable)
      --camera JSON     start camera, a Camera object: '{"center":[24.94,60.17],"zoom":10}'
      --script FLIGHT   play a flight in real time: the same cameras as 'flyby trace' at the same
                        instants (the window stays open afterwards)
      --record TRACE    write the session's camera trace when the window closes (playable with
                        'flyby play'); R stops and restarts recording
      --stats FILE      write one line per shown frame (interval, whole-frame, map and overlay
                        times) and a summary
      --duration S      close the window after S seconds (benchmarks)
      --threads N       rasterize the map's layers in N row bands at once (1…64, default 1; the
                        pixels are the same for any N)

    keys and mouse:
    \(InputMapper.helpLines.map { "  " + $0 }.joined(separator: "\n"))
    """

    /// The exit-3 message when there is no display.
    static func noDisplayMessage(_ detail: String) -> String {
        "no display for the window (\(detail)); render headless with 'flyby play FLIGHT --out OUT' or 'flyby snapshot --out FILE.png'"
    }

    static func run(_ args: [String], _ out: CommandOutput) throws {
        let o = try Options(args, command: "window", valued: ["style", "size", "camera", "script", "record", "stats", "duration", "threads"])
        guard o.positional.isEmpty else { throw CommandError("unexpected argument '\(o.positional[0])' for 'window' (see 'flyby help window')") }
        var options = MapWindowOptions()
        if let s = o.values["size"] { options.size = try parseSize(s) }
        options.recordPath = o.values["record"]
        options.statsPath = o.values["stats"]
        if let d = o.values["duration"] {
            guard let v = Double(d), v.isFinite, v > 0 else { throw CommandError("--duration must be a positive number of seconds, found '\(d)'") }
            options.timeLimit = v
        }
        let threads = try RenderScene.parseThreads(o.values["threads"])
        for (name, path) in [("record", options.recordPath), ("stats", options.statsPath)] {
            if let path { try checkWritable(path, option: name) }
        }

        let session: WindowSession
        if let scriptPath = o.values["script"] {
            if o.values["camera"] != nil { throw CommandError("--camera and --script cannot be combined: the flight sets the camera") }
            var script = try FlightScriptParser.parse(bytes: try readFile(scriptPath), file: scriptPath)
            script.warnings.forEach(out.warn)
            if let s = o.values["style"] { script.style = s }
            let start = try StyleResolver.defaultCamera(for: script.style, relativeTo: script.file)
            if o.values["size"] == nil {
                guard script.size.width <= 8192, script.size.height <= 8192 else {
                    throw CommandError("\(scriptPath): the flight's size \(script.size) is too large for a window (at most 8192x8192); pass --size")
                }
                options.size = script.size
            }
            options.style = script.style
            session = WindowSession(script: script, startCamera: start, size: options.size)
        } else {
            let style = o.values["style"] ?? "world"
            var camera = try StyleResolver.defaultCamera(for: style, relativeTo: "./")
            if let json = o.values["camera"] { camera = try parseCamera(json, onto: camera) }
            options.style = style
            session = WindowSession(size: options.size, camera: camera, style: style)
        }
        options.title = "Flyby — \(options.style)"

        // The map renderer plugs in here (MapRendererHooks).
        let renderer = try MapRendererHooks.mapRenderer(style: options.style, threads: threads)

        if ProcessInfo.processInfo.environment["DISPLAY"] == nil && ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] == nil
            && ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] == nil {
            throw CommandError(noDisplayMessage("DISPLAY is not set"), exitCode: 3)
        }
        let window: MapWindow
        do {
            window = try MapWindow(session: session, options: options, renderer: renderer)
        } catch {
            throw CommandError(noDisplayMessage(error.description), exitCode: 3)
        }
        let messages: [String]
        do { messages = try window.run() } catch { throw CommandError("\(error)", exitCode: 2) }
        for m in messages { out.error(m) }
    }

    /// `WxH` with both sides 1…8192 (a window's frame buffer lives in memory).
    static func parseSize(_ s: String) throws -> ScreenSize {
        let (w, h) = try SizeOption.parse(s, maxSide: 8192)
        return ScreenSize(width: Double(w), height: Double(h))
    }

    /// A Camera object (docs/formats.md §2) applied over `base`.
    static func parseCamera(_ json: String, onto base: CameraState) throws -> CameraState {
        let doc = try JSONDocument(file: "--camera", bytes: Array(json.utf8))
        return base.applying(try FlightScriptParser.camera(doc.cursor))
    }

    /// Fails early (before a window opens) when `path`'s folder does not exist.
    static func checkWritable(_ path: String, option: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        var isDir: ObjCBool = false
        if !dir.isEmpty, !(FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue) {
            throw CommandError("cannot write '\(path)' (--\(option)): no such folder '\(dir)'")
        }
    }
}
