import FlybyCore
import FlybyData
import FlybyFlight
import FlybyMedia
import FlybyRender
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `flyby play FLIGHT_OR_TRACE --out OUT [--frames A:B] [--size WxH] [--fps N] …` (docs/formats.md §1).
enum PlayCommand {
    static let help = """
    usage: flyby play FLIGHT_OR_TRACE --out OUT [--frames A:B] [--size WxH] [--fps N]
                      [--crf N] [--preset P] [--trace FILE] [--progress json] [--threads N]
                      [--memory MiB] [--tile-cache MiB] [--pixel-ratio N] [--language CODE]

    Renders every frame of a flight script or of a recorded trace (told apart by content), headless.
    Frame n shows the camera at exactly t = n / fps seconds of the flight's own clock.

    OUT decides the output:
      *.mp4     H.264 (libx264, yuv420p, BT.709, faststart) through ffmpeg
      *.mov     H.264 in QuickTime, *.mkv H.264 in Matroska, *.webm VP9 (all through ffmpeg)
      *.gif     animated GIF through ffmpeg (palette per clip)
      *.y4m     YUV4MPEG2 (4:2:0); '-' writes it to standard output
      null      render and discard (for timing)
      a folder  an existing folder, or a new name without an extension: frame-000000.png, …
                named by absolute frame index. Any other extension is an error.

    options:
      --frames A:B     render frames A to B−1 only (B past the end is cut to the last frame; 'A:'
                       means to the end); they are byte for byte the same frames as in a full run,
                       because the simulation still runs from t = 0
      --size WxH       frame size in pixels (default: the flight's or trace's); a flight runs at this
                       size, so viewport fits follow it
      --fps N          output frame rate (default: the flight's or trace's). A flight runs its own
                       clock at this rate: camera paths are functions of time, so each frame samples
                       the same path at its own instant (steps start in the tick their predecessor
                       completed, so step boundaries land on the nearest later frame). A trace at
                       another rate is interpolated between its recorded frames by time (centre,
                       zoom, pitch, padding linearly; longitude and bearing the short way round)
      --crf N          x264 quality, 0 (lossless) … 51 (worst); default 20 (.mp4 only)
      --preset P       x264 preset, ultrafast … veryslow; default veryfast (.mp4 only)
      --trace FILE     also write the trace of the rendered flight (all frames, at the output rate
                       and size) to FILE, for compositing
      --progress json  print one JSON object per progress update to stderr:
                       {"done":D,"total":N,"frame":F,"fps":R,"eta":S} and a last one with "finished":true
      --threads N      render threads (default: one per core); output is identical for any N
      --pixel-ratio N  1…4 (default 1): N device pixels per point, as MapLibre's pixelRatio; the
                       video is N × --size in pixels with lines, text and icons N times as large
                       (the sprite's @2x sheet when N ≥ 2); the --trace keeps the size in points
      --language CODE  labels in that language where the data has it (name:CODE), else the name
      --memory MiB     memory budget for frames in flight (default a quarter of physical memory,
                       at most half of 'ulimit -v'); fewer frames are rendered ahead to fit it, and
                       a frame size that cannot fit is an error before rendering starts
    \(TileCacheOption.help)

    On a terminal, stderr shows frames done, frames per second and the time left; otherwise one
    summary line. The attribution of the map data is burned into every frame.
    Exit codes: 0 done; 2 bad input or an output that cannot be written (nothing this run made is
    left); 3 no ffmpeg on PATH for the ffmpeg outputs (nothing written); 130, 143, 129 interrupted
    by SIGINT, SIGTERM, SIGHUP (the temporary output and every frame this run made are removed).
    See docs/files-and-signals.md.
    """ + SegmentedPlay.help

    static func run(_ args: [String], _ out: CommandOutput) throws {
        let o = try Options(args, command: "play", valued: ["out", "frames", "size", "fps", "crf", "preset", "trace", "progress", "threads", "memory",
                                                            "segment-frames", "shard", "tile-cache", "pixel-ratio", "language"])
        guard o.positional.count == 1 else { throw CommandError("'play' takes one flight or trace file (see 'flyby help play')") }
        guard let outArg = o.values["out"], !outArg.isEmpty else { throw CommandError("'play' needs --out OUT (see 'flyby help play')") }
        let input = o.positional[0]
        let size = try o.values["size"].map { try parseSize($0) }
        let fps = try o.values["fps"].map { try parseFPS($0, option: "--fps") }
        let crf = try o.values["crf"].map { v -> Int in
            guard let n = Int(v), (0...51).contains(n) else { throw CommandError("--crf must be a whole number 0…51, not '\(v)'") }
            return n
        } ?? 20
        let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]
        let preset = o.values["preset"] ?? "veryfast"
        guard presets.contains(preset) else { throw CommandError("--preset must be one of \(presets.joined(separator: ", ")), not '\(preset)'") }
        let threads = try o.values["threads"].map { v -> Int in
            guard let n = Int(v), (1...256).contains(n) else { throw CommandError("--threads must be a whole number 1…256, not '\(v)'") }
            return n
        } ?? FramePipeline.defaultThreadCount
        let jsonProgress: Bool
        switch o.values["progress"] {
        case nil: jsonProgress = false
        case "json": jsonProgress = true
        case let v?: throw CommandError("--progress takes 'json', not '\(v)'")
        }

        let pixelRatio = try RenderScene.parsePixelRatio(o.values["pixel-ratio"])
        let tileCache = try TileCacheOption.parse(o.values["tile-cache"])
        let logicalPlan = try makePlan(input: input, fps: fps, size: size, warn: out.warn)
        guard logicalPlan.frameCount > 0 else { throw CommandError("\(input): no frames to play") }
        // --pixel-ratio: the same cameras drawn with ratio × the pixels (the trace keeps the size in points).
        var plan = logicalPlan
        plan.width *= pixelRatio; plan.height *= pixelRatio
        guard plan.width <= 16384, plan.height <= 16384 else {
            throw CommandError("\(input): \(logicalPlan.width)x\(logicalPlan.height) at --pixel-ratio \(pixelRatio) is more than 16384 pixels a side")
        }
        let range = try o.values["frames"].map { try parseRange($0, count: plan.frameCount) } ?? 0..<plan.frameCount
        if let n = o.values["segment-frames"] {  // render farms (issue 20): SegmentedPlay.swift
            guard pixelRatio == 1, o.values["language"] == nil else {
                throw CommandError("--pixel-ratio and --language are not supported with --segment-frames yet")
            }
            guard o.values["trace"] == nil else { throw CommandError("--trace cannot be combined with --segment-frames (write the trace with 'flyby trace')") }
            return try SegmentedPlay(plan: plan, input: input, directory: outArg, segmentFrames: n, shard: o.values["shard"],
                                     frames: o.values["frames"] == nil ? nil : range, crf: crf, preset: preset, threads: threads, tileCache: tileCache,
                                     tileCacheTiles: TileCacheOption.tiles(o.values["tile-cache"], width: plan.width, height: plan.height),
                                     jsonProgress: jsonProgress).run(out)
        }
        guard o.values["shard"] == nil else { throw CommandError("--shard needs --segment-frames N (see 'flyby help play')") }

        let output = try frameOutput(outArg)
        let fpsInt = Int(exactly: plan.fps)
        var sinkFPS = fpsInt ?? 0
        if output.needsWholeFPS {
            guard let f = fpsInt else { throw CommandError("\(input): fps \(plan.fps) must be a whole number for \(outArg) (use --fps)") }
            sinkFPS = f
        } else {
            sinkFPS = max(1, sinkFPS)
        }
        let style = plan.style
        // Load the style once (failing on a bad style before ffmpeg starts); every render thread
        // then makes its renderer from the loaded data.
        var loader = StyleLoader()
        loader.tileCacheBudget = tileCache
        loader.tileCacheTiles = TileCacheOption.tiles(o.values["tile-cache"], width: plan.width, height: plan.height)
        loader.spritePixelRatio = pixelRatio >= 2 ? 2 : 1
        var styleToDraw: LoadedStyle? = style == PlaceholderFrameRenderer.styleName ? nil : try loader.load(style)
        if let language = o.values["language"] { styleToDraw = try styleToDraw?.localized(into: language) }
        let loadedStyle = styleToDraw

        var ffmpeg = FFmpegWriter.Options(crf: crf, preset: preset)
        ffmpeg.searchPath = out.environment["PATH"] ?? "/usr/bin:/bin"
        // MP4: the render threads convert to 4:2:0 BT.709 themselves, in parallel, so ffmpeg only
        // encodes (its scaler runs on one thread and was the bottleneck).
        let planar = output.takesPlanes
        if planar { ffmpeg.input = .yuv420pBT709 }
        let budget = try renderBudget(o.values["memory"], width: plan.width, height: plan.height, threads: threads, planar: planar)
        let sink: any FrameSink
        do {
            sink = try output.makeSink(width: plan.width, height: plan.height, fps: sinkFPS, ffmpeg: ffmpeg)
        } catch {
            throw commandError(error, output: outArg)
        }

        var progress = Progress(total: range.count, json: jsonProgress, terminal: !out.captures && isatty(2) == 1,
                                logs: !out.captures && isatty(2) != 1, out: out)
        let (w, h) = (plan.width, plan.height)
        var convert: (@Sendable (UnsafeBufferPointer<UInt32>, inout [UInt8]) -> Void)?
        if planar {
            convert = { @Sendable (pixels: UnsafeBufferPointer<UInt32>, bytes: inout [UInt8]) in
                Y4MWriter.convert(pixels, width: w, height: h, chroma: .c420jpeg, matrix: .bt709, into: &bytes)
            }
        }
        let planarSink = planar ? sink as? FFmpegWriter : nil
        let pipeline = FramePipeline(threads: budget.threads, window: budget.window, encode: convert,
                                     prefetch: prefetcher(loadedStyle, plan: logicalPlan)) {
            if let loadedStyle { return try makeFrameRenderer(loadedStyle: loadedStyle, size: (w, h), pixelRatio: Double(pixelRatio)) }
            return try makeFrameRenderer(style: style, size: (w, h))
        }
        do {
            try pipeline.run(plan, range: range, isCancelled: { Interruption.isPending }) { index, buffer in
                try send(buffer, index: index, to: sink, planar: planarSink)
                progress.frameDone(index)
            }
            try sink.finish()
        } catch {
            sink.cancel()
            progress.clearLine()
            // Ctrl-C on a terminal reaches ffmpeg too, which then fails first: still an interruption.
            if let interrupted = interruptedError(output: outArg, sink: sink) { throw interrupted }
            throw commandError(error, output: outArg)
        }
        if let tracePath = o.values["trace"] {
            var bytes = TraceWriter.header(fps: plan.fps, size: ScreenSize(width: Double(logicalPlan.width), height: Double(logicalPlan.height)),
                                           style: plan.style)
            for r in plan.records { TraceWriter.appendFrame(r, to: &bytes) }
            try writeOutput(tracePath, bytes)
        }
        progress.finish(output: outArg, width: plan.width, height: plan.height, fps: plan.fps)
    }

    /// Hands one frame to the sink: its Y′CbCr planes to a planar ffmpeg writer, else its pixels.
    static func send(_ frame: FramePipeline.Frame, index: Int, to sink: any FrameSink, planar: FFmpegWriter?) throws {
        if let planar {
            try frame.encoded.withUnsafeBytes { try planar.write(planes: $0) }
        } else {
            try frame.pixels.pixels.withUnsafeBufferPointer { try sink.write(frame: $0, index: index) }
        }
    }

    /// The frames to play: a trace (first line `"kind":"trace"`) or a flight script.
    static func makePlan(input: String, fps: Double?, size: (width: Int, height: Int)?, warn: (String) -> Void = { _ in }) throws -> PlaybackPlan {
        let bytes = try readFile(input)
        if TraceReader.isTrace(bytes) {
            let trace = try TraceReader.read(bytes: bytes, file: input)
            return PlaybackPlan.trace(trace, fps: fps, size: size, style: StyleResolver.resolve(trace.style, relativeTo: input))
        }
        let script = try FlightScriptParser.parse(bytes: bytes, file: input)
        script.warnings.forEach(warn)
        let start = try StyleResolver.defaultCamera(of: script)
        return try PlaybackPlan.flight(script, startCamera: start, fps: fps, size: size,
                                       style: StyleResolver.resolve(script.style, relativeTo: script.file))
    }

    /// Maps media errors to exit codes: no ffmpeg → 3, everything else → 2.
    static func commandError(_ error: any Error, output: String) -> any Error {
        guard let e = error as? MediaError else { return error }
        switch e {
        case .ffmpegNotFound:
            return CommandError("\(output): ffmpeg was not found on PATH (install ffmpeg, or write .y4m or a PNG folder); nothing was written", exitCode: 3)
        case .ffmpegFailed:
            return CommandError("\(output): ffmpeg failed: \(e.description); nothing was written")
        case .io:
            return CommandError(e.description)
        default:
            return CommandError("\(output): \(e.description)")
        }
    }

    /// The tile prefetch of a flight's frames (``FramePipeline``): decodes each frame's tiles
    /// ahead of the render threads. Nil for a style without tiled sources. A tile that cannot be
    /// read is left for the render thread that draws it to report.
    static func prefetcher(_ style: LoadedStyle?, plan: PlaybackPlan) -> (@Sendable (Int) -> Void)? {
        guard let style, style.tileSets.contains(where: { $0 != nil }) else { return nil }
        return { @Sendable index in
            _ = try? style.prefetchTiles(camera: plan.records[index].camera, width: plan.width, height: plan.height)
        }
    }

    static func parseSize(_ v: String) throws -> (width: Int, height: Int) { try SizeOption.parse(v) }

    static func parseFPS(_ v: String, option: String) throws -> Double {
        guard let f = Double(v), f.isFinite, f > 0, f <= 1000 else { throw CommandError("\(option) must be a number in (0, 1000], not '\(v)'") }
        return f
    }

    /// `A:B` (B cut to `count`) or `A:`; A < B, A < count.
    static func parseRange(_ v: String, count: Int) throws -> Range<Int> {
        let parts = v.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), a >= 0 else {
            throw CommandError("--frames must be A:B with whole numbers 0 ≤ A < B, like 100:200, not '\(v)'")
        }
        let b: Int
        if parts[1].isEmpty { b = count } else {
            guard let n = Int(parts[1]), n > a else { throw CommandError("--frames must be A:B with whole numbers 0 ≤ A < B, like 100:200, not '\(v)'") }
            b = n
        }
        guard a < count else { throw CommandError("--frames \(v) starts past the end: the flight has \(count) frames (0:\(count))") }
        return a..<min(b, count)
    }

    /// Progress reporting: a live line on a terminal, JSON lines on request, a summary at the end.
    /// Without a terminal (a log file, a CI job, a batch engine) and without JSON, one plain line
    /// every ``logInterval`` seconds, so a long render shows it is alive.
    struct Progress {
        let total: Int
        let json: Bool
        let terminal: Bool
        /// Plain progress lines for a log (stderr is not a terminal).
        var logs = false
        let out: CommandOutput
        /// Seconds between the plain lines of a log.
        static let logInterval = 10.0
        let start = ProcessInfo.processInfo.systemUptime
        var done = 0
        var lastReport = -1.0
        var lineShown = false

        init(total: Int, json: Bool, terminal: Bool, logs: Bool = false, out: CommandOutput) {
            self.total = total; self.json = json; self.terminal = terminal; self.logs = logs && !json; self.out = out
        }

        var elapsed: Double { ProcessInfo.processInfo.systemUptime - start }

        mutating func frameDone(_ index: Int) {
            done += 1
            let now = elapsed
            if logs {
                // A log line every interval (the first one after an interval, not at frame 1); the
                // summary line of `finish` ends the log.
                guard done < total, now - max(0, lastReport) >= Progress.logInterval else { return }
            } else {
                guard json || terminal, now - lastReport >= 0.25 || done == total else { return }
            }
            lastReport = now
            let rate = now > 0 ? Double(done) / now : 0
            let eta = rate > 0 ? Double(total - done) / rate : 0
            if logs {
                let pct = total > 0 ? 100 * done / total : 100
                out.error("flyby play: \(done)/\(total) frames (\(pct)%), \(round1(rate)) fps, ETA \(Int(eta.rounded())) s")
            } else if json {
                out.error(#"{"done":\#(done),"total":\#(total),"frame":\#(index),"fps":\#(round1(rate)),"eta":\#(round1(eta))}"#)
            } else if terminal {
                let pct = total > 0 ? 100 * done / total : 100
                let line = "\rflyby play: \(done)/\(total) frames (\(pct)%)  \(round1(rate)) fps  ETA \(Int(eta.rounded())) s   "
                FileHandle.standardError.write(Data(line.utf8))
                lineShown = true
            }
        }

        mutating func clearLine() {
            if lineShown { FileHandle.standardError.write(Data("\n".utf8)); lineShown = false }
        }

        mutating func finish(output: String, width: Int, height: Int, fps: Double) {
            clearLine()
            let t = elapsed
            let rate = t > 0 ? Double(done) / t : 0
            if json {
                out.error(#"{"done":\#(done),"total":\#(total),"fps":\#(round1(rate)),"seconds":\#(round1(t)),"finished":true}"#)
            }
            let fpsText = fps == fps.rounded() ? String(Int(fps)) : String(fps)
            out.error("flyby play: \(done) frames \(width)x\(height) at \(fpsText) fps to \(output) in \(round1(t)) s (\(round1(rate)) frames/s)")
        }

        func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }
    }
}
