import FlybyCore
import FlybyData
import FlybyExport
import FlybyFlight
import FlybyMedia
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `flyby play FLIGHT_OR_TRACE --out OUT [--frames A:B] [--size WxH] [--fps N] …` (docs/formats.md §1):
/// argument parsing over ``VideoExport/run(_:input:options:progress:)`` (and ``SegmentedPlay``
/// for render farms).
enum PlayCommand: FlybyCommand {
    static let name = "play"
    static let summary = "render every frame of a flight or trace to MP4, GIF, Y4M or PNG frames"
    static let about = """
    Renders every frame of a flight script or of a recorded trace (told apart by content), headless.
    Frame n shows the camera at exactly t = n / fps seconds of the flight's own clock.

    OUT decides the output:
      *.mp4     H.264 (libx264, yuv420p, BT.709, faststart; one encoder thread per processor)
                through ffmpeg
      *.mov     H.264 in QuickTime, *.mkv H.264 in Matroska, *.webm VP9 (all through ffmpeg)
      *.gif     animated GIF through ffmpeg (palette per clip)
      *.y4m     YUV4MPEG2 (4:2:0); '-' writes it to standard output
      null      render and discard (for timing)
      a folder  an existing folder, or a new name without an extension: frame-000000.png, …
                named by absolute frame index. Any other extension is an error.
    """
    static let notes = """
    On a terminal, stderr shows frames done, frames per second and the time left; otherwise a line
    every few seconds and a summary line. The attribution of the map data is burned into every frame.
    Exit codes: 0 done; 2 bad input or an output that cannot be written (nothing this run made is
    left); 3 no ffmpeg on PATH for the ffmpeg outputs (nothing written); 130, 143, 129 interrupted
    by SIGINT, SIGTERM, SIGHUP (the temporary output and every frame this run made are removed).
    See docs/files-and-signals.md.

    Segments (render farms, see docs/scale-out.md): with --segment-frames N and --out DIR, write
    DIR/segment-NNNNNN.mp4 (NNNNNN = its first frame), N frames each, every one starting with a key
    frame, and DIR/manifest.json; a rerun skips segments already finished (manifest entry and
    checksum match). With --frames A:B, only the segments inside A:B (A and B on segment
    boundaries, as 'flyby plan' prints them). Exit 130 on SIGINT and 143 on SIGTERM: finished
    segments stay, the one being written is removed.
    """
    static let positionals = Positionals.exactly("FLIGHT_OR_TRACE", "takes one flight or trace file")
    static let options = [
        OptionSpec("out", .string, "OUT", help: "the output (see above)", required: true),
        OptionSpec("frames", .string, "A:B", help: """
            render frames A to B−1 only (B past the end is cut to the last frame; 'A:' means to the end); they are \
            byte for byte the same frames as in a full run, because the simulation still runs from t = 0
            """, defaultText: "all"),
        OptionSpec.size(help: """
            frame size in points (WxH or a preset); a flight runs at this size, so viewport fits follow it
            """, defaultText: "the flight's or trace's"),
        OptionSpec.fps(help: """
            output frame rate. A flight runs its own clock at this rate: camera paths are functions of time, so each \
            frame samples the same path at its own instant (steps start in the tick their predecessor completed, so \
            step boundaries land on the nearest later frame). A trace at another rate is interpolated between its \
            recorded frames by time (centre, zoom, pitch, padding linearly; longitude and bearing the short way round)
            """),
        OptionSpec("crf", .int(0...51), "N", help: "x264 quality, 0 lossless … 51 worst (video outputs)", default: "20"),
        OptionSpec("preset", .words(presets), "P", help: "x264 preset (video outputs)", default: "veryfast"),
        OptionSpec("trace", .string, "FILE", help: """
            also write the trace of the rendered flight (all frames, at the output rate, the size in points) to FILE, \
            for compositing
            """),
        OptionSpec("progress", .words(["json"]), "json", help: """
            print one JSON object per progress update to stderr: {"done":D,"total":N,"frame":F,"fps":R,"eta":S} and \
            a last one with "finished":true
            """),
        OptionSpec("threads", .int(1...256), "N", help: "render threads; output is identical for any N", defaultText: "one per core"),
        OptionSpec("memory", .int(16...(1 << 24), unit: "MiB"), "MiB", help: """
            memory budget for frames in flight; fewer frames are rendered ahead to fit it, and a frame size that \
            cannot fit is an error before rendering starts
            """, defaultText: "a quarter of physical memory, at most half of 'ulimit -v'"),
        OptionSpec.tileCache,
        OptionSpec.pixelRatio,
        OptionSpec.language,
        OptionSpec.segmentFrames(help: "with --out DIR: render MP4 segments of N frames and DIR/manifest.json (see below)"),
        OptionSpec("shard", .string, "I/K", help: """
            with --segment-frames: only the segments i with i mod K = I (0-based), for batch engines; shards may run \
            at the same time on the same DIR (the manifest is updated under a lock)
            """),
    ]

    /// The x264 presets `--preset` takes.
    static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
        let input = parsed.positional[0]
        let outArg = parsed.string("out")!
        let jsonProgress = parsed.has("progress")
        let plan = try PlaybackPlan.load(input, fps: parsed.double("fps"), size: parsed.size("size"), warn: out.warn)
        guard plan.frameCount > 0 else { throw CommandError("\(input): no frames to play") }
        let frames = try parsed.string("frames").map { try parseRange($0, count: plan.frameCount) }
        var options = VideoExport.Options(output: outArg)
        options.frames = frames
        options.crf = parsed.int("crf")!
        options.preset = parsed.string("preset")!
        options.threads = parsed.int("threads") ?? FramePipeline.defaultThreadCount
        options.tileCacheBytes = parsed.tileCacheBytes
        options.tileCacheSizedFromFrame = !parsed.has("tile-cache")
        options.pixelRatio = parsed.int("pixel-ratio")!
        options.language = parsed.string("language")
        options.tracePath = parsed.string("trace")
        options.searchPath = out.environment["PATH"] ?? "/usr/bin:/bin"
        if let mib = parsed.int("memory") { options.memory = MemoryBudget(mebibytes: mib) }

        if let n = parsed.int("segment-frames") {  // render farms (issue 20): SegmentedPlay.swift
            guard options.pixelRatio == 1, options.language == nil else {
                throw CommandError("--pixel-ratio and --language are not supported with --segment-frames yet")
            }
            guard options.tracePath == nil else { throw CommandError("--trace cannot be combined with --segment-frames (write the trace with 'flyby trace')") }
            return try SegmentedPlay(plan: plan, input: input, directory: outArg, segmentFrames: n, shard: parsed.string("shard"),
                                     frames: frames, crf: options.crf, preset: options.preset, threads: options.threads,
                                     tileCache: options.tileCacheBytes,
                                     tileCacheTiles: parsed.tileCacheTiles(width: plan.width, height: plan.height),
                                     jsonProgress: jsonProgress).run(out)
        }
        guard !parsed.has("shard") else { throw CommandError("--shard needs --segment-frames N (see 'flyby help play')") }

        let range = frames ?? 0..<plan.frameCount
        var progress = Progress(total: range.count, json: jsonProgress, terminal: !out.captures && isatty(2) == 1,
                                logs: !out.captures && isatty(2) != 1, out: out)
        let summary: VideoExport.Summary
        do {
            summary = try VideoExport.run(plan, input: input, options: options) { p in
                if p.done == 0 { progress.restartClock() } else { progress.frameDone(p.frame) }
            }
        } catch {
            progress.clearLine()
            throw commandError(error)
        }
        progress.finish(output: outArg, width: summary.size.width, height: summary.size.height, fps: summary.fps)
    }

    /// An export failure as a command error: exit 2, 3 without ffmpeg, 128 + the signal.
    static func commandError(_ error: any Error) -> any Error {
        guard let e = error as? VideoExportError else { return error }
        switch e.kind {
        case .failed: return CommandError(e.message)
        case .missingProgram: return CommandError(e.message, exitCode: 3)
        case .interrupted(let signal): return CommandError(e.message, exitCode: 128 + signal)
        }
    }

    /// Maps media errors about `output` to exit codes: no ffmpeg → 3, everything else → 2.
    static func commandError(_ error: any Error, output: String) -> any Error {
        guard let e = error as? MediaError else { return error }
        return commandError(VideoExportError(e, output: output))
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
        /// When rendering started (``restartClock()``): the rates and the summary time exclude loading.
        var start = ProcessInfo.processInfo.systemUptime
        var done = 0
        var lastReport = -1.0
        var lineShown = false

        init(total: Int, json: Bool, terminal: Bool, logs: Bool = false, out: CommandOutput) {
            self.total = total; self.json = json; self.terminal = terminal; self.logs = logs && !json; self.out = out
        }

        var elapsed: Double { ProcessInfo.processInfo.systemUptime - start }

        /// Starts the clock again: rendering begins now (the style is loaded, the output open).
        mutating func restartClock() { start = ProcessInfo.processInfo.systemUptime }

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
