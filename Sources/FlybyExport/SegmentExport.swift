import FlybyCore
import FlybyData
import FlybyFlight
import FlybyMedia
import FlybyRender
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Renders a ``PlaybackPlan`` as closed-GOP MP4 segments of a fixed frame count plus a
/// `manifest.json` in one folder, for render farms (docs/scale-out.md, docs/formats.md §1
/// `flyby play --segment-frames`): one call that the command line and a host can make.
///
/// ```swift
/// var options = SegmentExport.Options(directory: "out/farm", segmentFrames: 300)
/// options.shard = try Shard(parsing: "2/8")
/// let summary = try SegmentExport.run(plan, input: "tour.flight.json", options: options) { event in print(event) }
/// ```
///
/// Segments already in the manifest whose file still has the recorded SHA-256 are skipped, so a
/// killed run resumes where it stopped; each segment is written atomically and checked with
/// `ffprobe` (frame count, first frame a key frame) before it is recorded. `flyby join` checks
/// each segment's ``tag(_:_:)`` and concatenates them without re-encoding.
public enum SegmentExport {
    /// How to export.
    public struct Options: Sendable {
        /// The output folder (created when missing).
        public var directory: String
        /// Frames per segment, 1…1,080,000.
        public var segmentFrames: Int
        /// The segments this run renders.
        public var shard = Shard.all
        /// Only the segments within these frames (the range must lie on segment boundaries).
        public var frames: Range<Int>?
        /// x264 quality 0 (lossless) … 51 (worst), and preset.
        public var crf = 20
        public var preset = "veryfast"
        /// Render threads; the segments are identical for any count.
        public var threads = FramePipeline.defaultThreadCount
        /// Decoded tiles kept per tiled source, in bytes, and at most this many tiles (nil: bytes alone).
        public var tileCacheBytes = 256 << 20
        public var tileCacheTiles: Int?
        /// Where to look for ffmpeg and ffprobe (a `PATH` value).
        public var searchPath = "/usr/bin:/bin"
        /// Polled between frames; true stops the export. Default: a SIGINT, SIGTERM or SIGHUP has arrived.
        public var isCancelled: @Sendable () -> Bool = { Interruption.isPending }

        public init(directory: String, segmentFrames: Int) {
            self.directory = directory
            self.segmentFrames = segmentFrames
        }
    }

    /// Progress, on the calling thread.
    public enum Event: Sendable, Equatable {
        /// Rendering starts: this many frames belong to the selected segments.
        case started(totalFrames: Int)
        /// A segment is done: rendered now, or skipped because a finished copy was already there.
        case segment(file: String, frames: Range<Int>, rendered: Bool)
    }

    /// What the run did.
    public struct Summary: Sendable, Equatable {
        public var rendered: Int, skipped: Int
        /// Frames of the selected segments (rendered or skipped).
        public var frames: Int

        public init(rendered: Int, skipped: Int, frames: Int) { self.rendered = rendered; self.skipped = skipped; self.frames = frames }
    }

    /// Exports the shard's segments of `plan`. `input` is the flight or trace file (hashed into the
    /// manifest, named in messages).
    /// - Throws: ``VideoExportError`` (``VideoExportError/Kind/missingProgram`` without ffmpeg or
    ///   ffprobe, ``VideoExportError/Kind/interrupted(signal:)`` on a signal, finished segments
    ///   kept); the style's and the tiles' errors as they are.
    public static func run(_ plan: PlaybackPlan, input: String, options: Options,
                           progress: (Event) -> Void = { _ in }) throws -> Summary {
        let directory = options.directory
        guard case .pngFolder? = try? FrameOutput(directory) else {
            throw VideoExportError("--segment-frames writes segments into a folder: --out must name a folder, not '\(directory)'")
        }
        guard let fps = Int(exactly: plan.fps) else {
            throw VideoExportError("\(input): fps \(plan.fps) must be a whole number for MP4 segments (use --fps)")
        }
        let layout: SegmentLayout
        var selected: [Int]
        do throws(FarmError) {
            layout = try SegmentLayout(frameCount: plan.frameCount, segmentFrames: options.segmentFrames)
            selected = layout.segments(of: options.shard)
            if let frames = options.frames {
                let inRange = Set(try layout.segments(in: frames))
                selected = selected.filter(inRange.contains)
            }
        } catch {
            throw VideoExportError("\(input): \(error.message)")
        }
        guard FFmpegWriter.findExecutable("ffmpeg", searchPath: options.searchPath) != nil,
              FFmpegWriter.findExecutable("ffprobe", searchPath: options.searchPath) != nil else {
            throw VideoExportError("\(directory): ffmpeg and ffprobe are needed for MP4 segments and were not found on PATH; nothing was written",
                                   kind: .missingProgram)
        }
        let header = FarmManifest.Header(
            flightFile: input, flightSHA256: try SHA256.hex(contentsOfFile: input),
            styleName: plan.style, styleSHA256: try styleHash(plan.style),
            width: plan.width, height: plan.height, fps: fps, frameCount: plan.frameCount, segmentFrames: options.segmentFrames,
            encoder: "libx264 crf=\(options.crf) preset=\(options.preset) yuv420p bt709/tv closed-gop timescale=\(fps * 1000)")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw VideoExportError("\(directory): cannot create the output folder: \(error.localizedDescription)")
        }
        let store = ManifestStore(directory: directory)
        var manifest = try store.open(header)

        let style = plan.style
        let loadedStyle = try VideoExport.loadStyle(style, tileCacheBytes: options.tileCacheBytes, tileCacheTiles: options.tileCacheTiles)
        let (w, h) = (plan.width, plan.height)
        let puck3D = plan.puck3D
        let pipeline = FramePipeline(threads: options.threads, encode: { @Sendable (pixels, bytes) in
            Y4MWriter.convert(pixels, width: w, height: h, chroma: .c420jpeg, matrix: .bt709, into: &bytes)
        }, prefetch: VideoExport.prefetcher(loadedStyle, plan: plan)) {
            if let loadedStyle { return try makeFrameRenderer(loadedStyle: loadedStyle, size: (w, h), puck3D: puck3D) }
            return try makeFrameRenderer(style: style, size: (w, h))
        }

        var summary = Summary(rendered: 0, skipped: 0, frames: selected.reduce(0) { $0 + layout.frames(ofSegment: $1).count })
        progress(.started(totalFrames: summary.frames))
        for index in selected {
            let range = layout.frames(ofSegment: index)
            let name = layout.fileName(ofSegment: index)
            let path = store.path(name)
            // Re-read: another run of this shard may have finished it meanwhile.
            if let fresh = try? store.read() { manifest = fresh }
            if let entry = manifest.segment(startingAt: range.lowerBound), FileInput.isFile(path),
               (try? SHA256.hex(contentsOfFile: path)) == entry.sha256 {
                summary.skipped += 1
                progress(.segment(file: name, frames: range, rendered: false))
                continue
            }
            removeStaleTemporaries(of: name, in: directory)
            do {
                let sha = try renderSegment(range, of: plan, to: path, fps: fps, header: header, pipeline: pipeline, options: options)
                try store.record(FarmManifest.Segment(file: name, frames: range, sha256: sha), header: header)
            } catch is PlaybackCancelled {
                throw interrupted("\(name) was not written, finished segments stay in \(directory)")
            } catch let e as MediaError {
                if options.isCancelled() { throw interrupted("\(name) was not written") }
                throw VideoExportError(e, output: path)
            }
            summary.rendered += 1
            progress(.segment(file: name, frames: range, rendered: true))
        }
        return summary
    }

    /// The error for a run stopped between frames: by a signal (exit 128 + it), or by the host's
    /// ``Options/isCancelled`` alone.
    static func interrupted(_ left: String) -> VideoExportError {
        guard let signal = Interruption.signal else { return VideoExportError("cancelled; \(left)") }
        return VideoExportError("interrupted (\(Interruption.name(signal))); \(left)", kind: .interrupted(signal: signal))
    }

    /// Encodes frames `range` to `path` (atomically), checks the result with ffprobe, and returns
    /// the file's SHA-256.
    static func renderSegment(_ range: Range<Int>, of plan: PlaybackPlan, to path: String, fps: Int, header: FarmManifest.Header,
                              pipeline: FramePipeline, options: Options) throws -> String {
        var ffmpeg = FFmpegWriter.Options(crf: options.crf, preset: options.preset)
        ffmpeg.searchPath = options.searchPath
        ffmpeg.input = .yuv420pBT709
        ffmpeg.fps = (fps, 1)
        ffmpeg.format = .mp4
        ffmpeg.extraOutputArguments = SegmentVideo.outputArguments(fps: fps, tag: tag(header, range))
        let writer = try FFmpegWriter(path: path, width: plan.width, height: plan.height, options: ffmpeg)
        do {
            try pipeline.run(plan, range: range, isCancelled: options.isCancelled) { _, frame in
                try frame.encoded.withUnsafeBytes { try writer.write(planes: $0) }
            }
            if options.isCancelled() { throw PlaybackCancelled() }
            try writer.finish()
        } catch {
            writer.cancel()
            throw error
        }
        let probe = try SegmentVideo.probe(path, searchPath: options.searchPath)
        guard probe.frameCount == range.count, probe.startsWithKeyFrame else {
            unlink(path)
            throw VideoExportError("\(path): ffmpeg wrote \(probe.frameCount) frames (expected \(range.count)); the segment was removed")
        }
        return try SHA256.hex(contentsOfFile: path)
    }

    /// The MP4 `comment` tag of a segment: which flight and frames it holds (checked by `join`).
    public static func tag(_ header: FarmManifest.Header, _ range: Range<Int>) -> String {
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
}
