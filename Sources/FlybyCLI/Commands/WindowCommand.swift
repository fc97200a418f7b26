import FlybyCore
import FlybyData
import FlybyFlight
import FlybyMedia
import FlybyRender
import FlybyWindow
import Foundation

/// `flyby window` (and `flyby` with no arguments): the interactive SDL2 window.
enum WindowCommand: FlybyCommand {
    static let name = "window"
    static let summary = "the interactive map window (the default command)"
    static let about = "Opens the interactive map window (SDL2, drawn on the CPU). With no display it exits 3."
    static var notes: String {
        "keys and mouse:\n" + InputMapper.helpLines.map { "  " + $0 }.joined(separator: "\n")
    }
    static let options = [
        OptionSpec.style,
        OptionSpec.size(help: "window size in pixels (the window is resizable)", defaultText: "1280x720, or the flight's with --script",
                        maxSide: 8192),
        OptionSpec("camera", .string, "JSON", help: "start camera, a Camera object: '{\"center\":[24.94,60.17],\"zoom\":10}'"),
        OptionSpec("script", .string, "FLIGHT", help: """
            play a flight in real time: the same cameras as 'flyby trace' at the same instants (the window stays open afterwards)
            """),
        OptionSpec("record", .string, "TRACE", help: """
            write the session's camera trace when the window closes (playable with 'flyby play'); R stops and restarts recording
            """),
        OptionSpec("video", .string, "OUT", help: """
            when the window closes, render the session's recording to OUT as 'flyby play' would (.mp4, .y4m, .gif or a PNG folder); R restarts the recording
            """),
        OptionSpec("stats", .string, "FILE", help: "write one line per shown frame (interval, whole-frame, map and overlay times) and a summary"),
        OptionSpec("duration", .double(0...Double.infinity, openBelow: true, unit: "seconds"), "S",
                   help: "close the window after S seconds (benchmarks)"),
        OptionSpec.bandThreads,
        OptionSpec.pixelRatio,
    ]

    /// The exit-3 message when there is no display.
    static func noDisplayMessage(_ detail: String) -> String {
        "no display for the window (\(detail)); render headless with 'flyby play FLIGHT --out OUT' or 'flyby snapshot --out FILE.png'"
    }

    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
        var options = MapWindowOptions()
        if let s = parsed.size("size") { options.size = s.screenSize }
        options.recordPath = parsed.string("record")
        options.statsPath = parsed.string("stats")
        options.videoPath = parsed.string("video")
        if let d = parsed.double("duration") { options.timeLimit = d }
        let threads = parsed.int("threads")!
        options.videoThreads = threads
        options.pixelRatio = parsed.int("pixel-ratio")!
        if let video = options.videoPath {
            do { _ = try FrameOutput(video) } catch { throw CommandError("--video: \(error.description)") }
        }
        for (name, path) in [("record", options.recordPath), ("stats", options.statsPath), ("video", options.videoPath)] {
            if let path { try checkWritable(path, option: name) }
        }

        let session: WindowSession
        var puck3D: Puck3D?
        if let scriptPath = parsed.string("script") {
            if parsed.has("camera") { throw CommandError("--camera and --script cannot be combined: the flight sets the camera") }
            var script = try FlightScriptParser.parse(bytes: try readFile(scriptPath), file: scriptPath)
            script.warnings.forEach(out.warn)
            if parsed.has("style") { script.style = parsed.string("style")! }
            let start = try StyleResolver.defaultCamera(for: script.style, relativeTo: script.file)
            if !parsed.has("size") {
                guard script.size.width <= 8192, script.size.height <= 8192 else {
                    throw CommandError("\(scriptPath): the flight's size \(script.size) is too large for a window (at most 8192x8192); pass --size")
                }
                options.size = script.size
            }
            options.style = script.style
            puck3D = script.location?.puck3D
            session = WindowSession(script: script, startCamera: start, size: options.size, terrain: try StyleResolver.terrain(of: script))
        } else {
            let style = parsed.string("style")!
            var camera = try StyleResolver.defaultCamera(for: style, relativeTo: "./")
            if let json = parsed.string("camera") { camera = try parseCamera(json, onto: camera) }
            options.style = style
            session = WindowSession(size: options.size, camera: camera, style: style,
                                    terrain: try StyleResolver.terrain(ofStyle: style, relativeTo: "./"))
        }
        options.title = "Flyby — \(options.style)"
        let k = Double(options.pixelRatio)
        guard options.size.width * k <= 8192, options.size.height * k <= 8192 else {
            throw CommandError("--size \(Int(options.size.width))x\(Int(options.size.height)) at --pixel-ratio \(options.pixelRatio) is more than 8192 pixels a side")
        }

        // The map renderer plugs in here (MapRendererHooks).
        let renderer = try MapRendererHooks.mapRenderer(style: options.style, threads: threads, pixelRatio: options.pixelRatio, puck3D: puck3D)

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
