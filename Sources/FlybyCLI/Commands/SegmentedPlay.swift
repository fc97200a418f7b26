import FlybyCore
import FlybyData
import FlybyExport
import FlybyFlight
import FlybyMedia
import FlybyRender
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `flyby play FLIGHT --out DIR --segment-frames N [--shard I/K] [--frames A:B]` (docs/formats.md §1,
/// issue 20): renders the flight as MP4 segments plus `DIR/manifest.json`, skipping segments that
/// are already finished. See docs/scale-out.md.
struct SegmentedPlay {
    var plan: PlaybackPlan
    /// The flight or trace file.
    var input: String
    /// The output folder.
    var directory: String
    /// `--segment-frames N` (1…1,080,000, checked by the parser).
    var segmentFrames: Int
    var shard: String?
    /// `--frames A:B` when given (must lie on segment boundaries).
    var frames: Range<Int>?
    var crf: Int
    var preset: String
    var threads: Int
    /// `--tile-cache` in bytes.
    var tileCache: Int
    /// The most tiles each tiled source keeps (``TileCacheOption/tiles(_:width:height:)``).
    var tileCacheTiles: Int?
    var jsonProgress: Bool

    /// Set by the SIGINT/SIGTERM handlers (the signal number); polled between frames.
    static let signalled = Atomic<Int32>(0)

    func run(_ out: CommandOutput) throws {
        guard case .pngFolder? = try? FrameOutput(directory) else {
            throw CommandError("--segment-frames writes segments into a folder: --out must name a folder, not '\(directory)'")
        }
        let n = segmentFrames
        var shard = Shard.all
        if let text = self.shard {
            do throws(FarmError) { shard = try Shard(parsing: text) } catch { throw CommandError(error.message) }
        }
        guard let fps = Int(exactly: plan.fps) else {
            throw CommandError("\(input): fps \(plan.fps) must be a whole number for MP4 segments (use --fps)")
        }
        let layout: SegmentLayout
        var selected: [Int]
        do throws(FarmError) {
            layout = try SegmentLayout(frameCount: plan.frameCount, segmentFrames: n)
            selected = layout.segments(of: shard)
            if let frames {
                let inRange = Set(try layout.segments(in: frames))
                selected = selected.filter(inRange.contains)
            }
        } catch {
            throw CommandError("\(input): \(error.message)")
        }
        let searchPath = out.environment["PATH"] ?? "/usr/bin:/bin"
        guard FFmpegWriter.findExecutable("ffmpeg", searchPath: searchPath) != nil,
              FFmpegWriter.findExecutable("ffprobe", searchPath: searchPath) != nil else {
            throw CommandError("\(directory): ffmpeg and ffprobe are needed for MP4 segments and were not found on PATH; nothing was written", exitCode: 3)
        }
        let header = FarmManifest.Header(
            flightFile: input, flightSHA256: try SHA256.hex(contentsOfFile: input),
            styleName: plan.style, styleSHA256: try Self.styleHash(plan.style),
            width: plan.width, height: plan.height, fps: fps, frameCount: plan.frameCount, segmentFrames: n,
            encoder: "libx264 crf=\(crf) preset=\(preset) yuv420p bt709/tv closed-gop timescale=\(fps * 1000)")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandError("\(directory): cannot create the output folder: \(error.localizedDescription)")
        }
        let store = ManifestStore(directory: directory)
        var manifest = try store.open(header)

        // Load the style once; every render thread makes its renderer from it.
        let style = plan.style
        var loader = StyleLoader()
        loader.tileCacheBudget = tileCache
        loader.tileCacheTiles = tileCacheTiles
        let loadedStyle: LoadedStyle? = style == PlaceholderFrameRenderer.styleName ? nil : try loader.load(style)
        let (w, h) = (plan.width, plan.height)
        let pipeline = FramePipeline(threads: threads, encode: { @Sendable (pixels, bytes) in
            Y4MWriter.convert(pixels, width: w, height: h, chroma: .c420jpeg, matrix: .bt709, into: &bytes)
        }, prefetch: VideoExport.prefetcher(loadedStyle, plan: plan)) {
            if let loadedStyle { return try makeFrameRenderer(loadedStyle: loadedStyle, size: (w, h)) }
            return try makeFrameRenderer(style: style, size: (w, h))
        }

        let installsHandlers = !out.captures
        if installsHandlers {
            Self.signalled.store(0, ordering: .relaxed)
            _ = signal(SIGINT) { s in SegmentedPlay.signalled.store(s, ordering: .relaxed) }
            _ = signal(SIGTERM) { s in SegmentedPlay.signalled.store(s, ordering: .relaxed) }
            // A parent may have started us with them blocked (spawned from a worker thread).
            var set = sigset_t()
            sigemptyset(&set); sigaddset(&set, SIGINT); sigaddset(&set, SIGTERM)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
        defer { if installsHandlers { _ = signal(SIGINT, SIG_DFL); _ = signal(SIGTERM, SIG_DFL) } }
        let isCancelled = { installsHandlers && SegmentedPlay.signalled.load(ordering: .relaxed) != 0 }

        var progress = ShardProgress(shard: shard, total: selected.reduce(0) { $0 + layout.frames(ofSegment: $1).count },
                                     json: jsonProgress, out: out)
        for index in selected {
            let range = layout.frames(ofSegment: index)
            let name = layout.fileName(ofSegment: index)
            let path = store.path(name)
            // Re-read: another run of this shard may have finished it meanwhile.
            if let fresh = try? store.read() { manifest = fresh }
            if let entry = manifest.segment(startingAt: range.lowerBound), FileInput.isFile(path),
               (try? SHA256.hex(contentsOfFile: path)) == entry.sha256 {
                progress.segment(name, frames: range, rendered: false)
                continue
            }
            Self.removeStaleTemporaries(of: name, in: directory)
            do {
                let sha = try renderSegment(range, to: path, fps: fps, header: header, pipeline: pipeline, searchPath: searchPath,
                                            isCancelled: isCancelled)
                try store.record(FarmManifest.Segment(file: name, frames: range, sha256: sha), header: header)
            } catch is PlaybackCancelled {
                let s = SegmentedPlay.signalled.load(ordering: .relaxed)
                throw CommandError("interrupted (\(s == SIGTERM ? "SIGTERM" : "SIGINT")); \(name) was not written, finished segments stay in \(directory)",
                                   exitCode: s == SIGTERM ? 143 : 130)
            } catch let e as MediaError {
                if isCancelled() {
                    let s = SegmentedPlay.signalled.load(ordering: .relaxed)
                    throw CommandError("interrupted; \(name) was not written", exitCode: s == SIGTERM ? 143 : 130)
                }
                throw PlayCommand.commandError(e, output: path)
            }
            progress.segment(name, frames: range, rendered: true)
        }
        progress.finish(directory: directory)
    }

    /// Encodes frames `range` to `path` (atomically), checks the result with ffprobe, and returns
    /// the file's SHA-256.
    func renderSegment(_ range: Range<Int>, to path: String, fps: Int, header: FarmManifest.Header, pipeline: FramePipeline,
                       searchPath: String, isCancelled: () -> Bool) throws -> String {
        var options = FFmpegWriter.Options(crf: crf, preset: preset)
        options.searchPath = searchPath
        options.input = .yuv420pBT709
        options.fps = (fps, 1)
        options.format = .mp4
        options.extraOutputArguments = SegmentVideo.outputArguments(fps: fps, tag: Self.tag(header, range))
        let writer = try FFmpegWriter(path: path, width: plan.width, height: plan.height, options: options)
        do {
            try pipeline.run(plan, range: range, isCancelled: isCancelled) { _, frame in
                try frame.encoded.withUnsafeBytes { try writer.write(planes: $0) }
            }
            if isCancelled() { throw PlaybackCancelled() }
            try writer.finish()
        } catch {
            writer.cancel()
            throw error
        }
        let probe = try SegmentVideo.probe(path, searchPath: searchPath)
        guard probe.frameCount == range.count, probe.startsWithKeyFrame else {
            unlink(path)
            throw CommandError("\(path): ffmpeg wrote \(probe.frameCount) frames (expected \(range.count)); the segment was removed")
        }
        return try SHA256.hex(contentsOfFile: path)
    }

    /// The MP4 `comment` tag of a segment: which flight and frames it holds (checked by `join`).
    static func tag(_ header: FarmManifest.Header, _ range: Range<Int>) -> String {
        "flyby segment flight=\(header.flightSHA256) frames=\(range.lowerBound):\(range.upperBound)"
    }

    /// SHA-256 of the style document and preset (the placeholder style hashes its name).
    static func styleHash(_ style: String) throws -> String {
        if style == PlaceholderFrameRenderer.styleName { return SHA256.hex(Array(style.utf8)) }
        let doc = try StyleLoader.readDocument(style)
        return SHA256.hex(doc.bytes + Array("\npreset=\(doc.preset ?? "")".utf8))
    }

    /// Removes `.NAME.tmp-*` files a killed run of this segment left behind (only this shard
    /// writes this segment, so they are not another process's work in progress).
    static func removeStaleTemporaries(of name: String, in directory: String) {
        let prefix = "." + name + ".tmp-"
        for f in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where f.hasPrefix(prefix) {
            unlink(ManifestStore(directory: directory).path(f))
        }
    }

    /// Per-shard progress: a JSON line per segment on request, and a summary line.
    struct ShardProgress {
        let shard: Shard
        let total: Int
        let json: Bool
        let out: CommandOutput
        let start = ProcessInfo.processInfo.systemUptime
        var done = 0, rendered = 0, skipped = 0

        init(shard: Shard, total: Int, json: Bool, out: CommandOutput) {
            self.shard = shard; self.total = total; self.json = json; self.out = out
        }

        mutating func segment(_ name: String, frames: Range<Int>, rendered isRendered: Bool) {
            done += frames.count
            if isRendered { rendered += 1 } else { skipped += 1 }
            if json {
                out.error(#"{"shard":"\#(shard)","segment":"\#(name)","frames":[\#(frames.lowerBound),\#(frames.upperBound)],"status":"\#(isRendered ? "rendered" : "skipped")","done":\#(done),"total":\#(total)}"#)
            }
        }

        mutating func finish(directory: String) {
            let t = (ProcessInfo.processInfo.systemUptime - start)
            let seconds = (t * 10).rounded() / 10
            if json {
                out.error(#"{"shard":"\#(shard)","rendered":\#(rendered),"skipped":\#(skipped),"done":\#(done),"total":\#(total),"seconds":\#(seconds),"finished":true}"#)
            }
            out.error("flyby play: shard \(shard): rendered \(rendered) segments, skipped \(skipped) already finished, \(done) frames to \(directory) in \(seconds) s")
        }
    }
}
