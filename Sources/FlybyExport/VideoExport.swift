import FlybyCore
import FlybyData
import FlybyFlight
import FlybyMedia
import FlybyRender

/// Renders the frames of a ``PlaybackPlan`` (a flight or a recorded trace) to a video, a Y4M
/// stream, a folder of PNG frames or nowhere (docs/formats.md §1, `flyby play`), in one call that
/// the command line, a FlybyMaps host or the window can make:
///
/// ```swift
/// let plan = try PlaybackPlan.load("tour.flight.json")
/// var options = VideoExport.Options(output: "tour.mp4")
/// options.threads = 4
/// let summary = try VideoExport.run(plan, options: options) { progress in print(progress.done, "of", progress.total) }
/// ```
///
/// What it does, in order: checks the output kind (``FrameOutput``) and the frame rate it needs,
/// loads the style once (its tiles bounded by ``Options/tileCacheBytes``), plans threads and the
/// render-ahead window within ``Options/memory``, opens the sink, renders the frames on a
/// ``FramePipeline`` (converting to Y′CbCr 4:2:0 BT.709 on the render threads when the sink
/// takes planes, ``FrameSink/takesPlanes``), and finishes the output; on any failure or signal
/// the sink is cancelled, so no half-written output is left.
public enum VideoExport {
    /// How to export.
    public struct Options: Sendable {
        /// Where the frames go, as `flyby play --out` takes it (see ``FrameOutput``).
        public var output: String
        /// Frames to render (absolute indices, within the plan); nil for all of them. They are
        /// byte for byte the same frames as in a full run.
        public var frames: Range<Int>?
        /// x264 quality 0 (lossless) … 51 (worst).
        public var crf = 20
        /// x264 preset (`ultrafast` … `placebo`).
        public var preset = "veryfast"
        /// Render threads; the output is identical for any count.
        public var threads = FramePipeline.defaultThreadCount
        /// The memory frames in flight may take; fewer frames are rendered ahead to fit it.
        public var memory = MemoryBudget.default
        /// Decoded tiles kept per tiled source, in bytes (never changes a pixel).
        public var tileCacheBytes = 256 << 20
        /// Also bound each tiled source by a tile count sized from the frame
        /// (``StyleLoader/viewportTileCount(width:height:tileSize:)``, MapLibre's rule; the
        /// default), so memory stays flat over a long flight; false: ``tileCacheBytes`` alone.
        public var tileCacheSizedFromFrame = true
        /// Device pixels per point, 1…4: frames are this many times the plan's size each way.
        public var pixelRatio = 1
        /// Labels in this language where the data has it (`name:CODE`), else the local name.
        public var language: String?
        /// Where to look for ffmpeg (a `PATH` value).
        public var searchPath = "/usr/bin:/bin"
        /// Also write the trace of the rendered frames (at the plan's rate, the size in points) here.
        public var tracePath: String?
        /// Polled between frames; true stops the export (``VideoExportError/Kind/interrupted(signal:)``
        /// when a signal caused it). Default: a SIGINT, SIGTERM or SIGHUP has arrived.
        public var isCancelled: @Sendable () -> Bool = { Interruption.isPending }

        public init(output: String) { self.output = output }
    }

    /// Progress, on the calling thread: once with `done` 0 when rendering starts (the style is
    /// loaded and the output open), then after each frame.
    public struct Progress: Sendable {
        /// Frames written so far, and of how many.
        public var done: Int, total: Int
        /// The absolute index of the frame just written (the first frame's, with `done` 0).
        public var frame: Int
    }

    /// What was written.
    public struct Summary: Sendable, Equatable {
        /// Frames written.
        public var frames: Int
        /// Frame size in pixels (the plan's size times the pixel ratio).
        public var size: PixelSize
        /// Frames per second of the plan.
        public var fps: Double

        public init(frames: Int, size: PixelSize, fps: Double) { self.frames = frames; self.size = size; self.fps = fps }
    }

    /// The largest frame side, in pixels.
    public static let maxSide = PixelSize.maxSide

    /// Exports `plan`. `input` names the flight or trace in messages.
    /// - Throws: ``VideoExportError`` for the export's own failures (output kind, frame rate,
    ///   memory, ffmpeg, a signal); the style's and the tiles' errors (``InputError``, …) as they are.
    public static func run(_ logicalPlan: PlaybackPlan, input: String, options: Options,
                           progress: (Progress) -> Void = { _ in }) throws -> Summary {
        let ratio = options.pixelRatio
        var plan = logicalPlan
        plan.width *= ratio; plan.height *= ratio
        guard plan.width <= maxSide, plan.height <= maxSide else {
            throw VideoExportError("\(input): \(logicalPlan.width)x\(logicalPlan.height) at --pixel-ratio \(ratio) is more than \(maxSide) pixels a side")
        }
        let range = options.frames ?? 0..<plan.frameCount
        let output: FrameOutput
        do { output = try FrameOutput(options.output) } catch { throw VideoExportError(error.description) }
        let fpsInt = Int(exactly: plan.fps)
        var sinkFPS = max(1, fpsInt ?? 0)
        if output.needsWholeFPS {
            guard let f = fpsInt else { throw VideoExportError("\(input): fps \(plan.fps) must be a whole number for \(options.output) (use --fps)") }
            sinkFPS = f
        }
        // The style is loaded once (a bad style fails before ffmpeg starts); every render thread
        // then makes its renderer from the loaded data.
        let styleName = plan.style
        let loadedStyle = try loadStyle(styleName, tileCacheBytes: options.tileCacheBytes,
                                        tileCacheTiles: options.tileCacheSizedFromFrame
                                            ? StyleLoader.viewportTileCount(width: plan.width, height: plan.height) : nil,
                                        pixelRatio: ratio, language: options.language)

        var ffmpeg = FFmpegWriter.Options(crf: options.crf, preset: options.preset)
        ffmpeg.searchPath = options.searchPath
        // Video outputs: the render threads convert to 4:2:0 BT.709 themselves, in parallel, so
        // ffmpeg only encodes (its scaler runs on one thread and was the bottleneck).
        if output.takesPlanes { ffmpeg.input = .yuv420pBT709 }
        let size = PixelSize(width: plan.width, height: plan.height)
        let budget = try renderBudget(options.memory, size: size, threads: options.threads, planar: output.takesPlanes)
        let sink: any FrameSink
        do {
            sink = try output.makeSink(width: plan.width, height: plan.height, fps: sinkFPS, ffmpeg: ffmpeg)
        } catch {
            throw VideoExportError(error, output: options.output)
        }
        let (w, h) = (plan.width, plan.height)
        let planar = sink.takesPlanes
        var convert: (@Sendable (UnsafeBufferPointer<UInt32>, inout [UInt8]) -> Void)?
        if planar {
            convert = { @Sendable (pixels: UnsafeBufferPointer<UInt32>, bytes: inout [UInt8]) in
                Y4MWriter.convert(pixels, width: w, height: h, chroma: .c420jpeg, matrix: .bt709, into: &bytes)
            }
        }
        let puck3D = plan.puck3D
        let pipeline = FramePipeline(threads: budget.threads, window: budget.window, encode: convert,
                                     prefetch: prefetcher(loadedStyle, plan: logicalPlan)) {
            if let loadedStyle {
                return try makeFrameRenderer(loadedStyle: loadedStyle, size: (w, h), pixelRatio: Double(ratio), puck3D: puck3D)
            }
            return try makeFrameRenderer(style: styleName, size: (w, h))
        }
        var done = 0
        progress(Progress(done: 0, total: range.count, frame: range.lowerBound))
        do {
            try pipeline.run(plan, range: range, isCancelled: options.isCancelled) { index, frame in
                if planar {
                    try frame.encoded.withUnsafeBytes { try sink.write(planes: $0, index: index) }
                } else {
                    try frame.pixels.pixels.withUnsafeBufferPointer { try sink.write(frame: $0, index: index) }
                }
                done += 1
                progress(Progress(done: done, total: range.count, frame: index))
            }
            try sink.finish()
        } catch {
            sink.cancel()
            // Ctrl-C on a terminal reaches ffmpeg too, which then fails first: still an interruption.
            if let interrupted = interruptedError(output: options.output, sink: sink) { throw interrupted }
            if let e = error as? MediaError { throw VideoExportError(e, output: options.output) }
            throw error
        }
        if let tracePath = options.tracePath {
            var bytes = TraceWriter.header(fps: plan.fps, size: ScreenSize(width: Double(logicalPlan.width), height: Double(logicalPlan.height)),
                                           style: plan.style, puck3D: plan.puck3D)
            for r in plan.records { TraceWriter.appendFrame(r, to: &bytes) }
            do { try AtomicFileWriter.write(bytes, to: tracePath) } catch {
                throw VideoExportError(AtomicFileWriter.failureMessage(error, writing: tracePath))
            }
        }
        return Summary(frames: done, size: size, fps: plan.fps)
    }

    /// Loads the style a plan names once, for every render thread to draw from: nil for the
    /// placeholder style. `tileCacheTiles` bounds each tiled source by a tile count as well as by
    /// `tileCacheBytes`; sprites are the `@2x` sheet from a pixel ratio of 2 up.
    static func loadStyle(_ name: String, tileCacheBytes: Int, tileCacheTiles: Int?, pixelRatio: Int = 1,
                          language: String? = nil) throws -> LoadedStyle? {
        guard name != PlaceholderFrameRenderer.styleName else { return nil }
        var loader = StyleLoader()
        loader.tileCacheBudget = tileCacheBytes
        loader.tileCacheTiles = tileCacheTiles
        loader.spritePixelRatio = pixelRatio >= 2 ? 2 : 1
        let style = try loader.load(name)
        if let language { return try style.localized(into: language) }
        return style
    }

    /// Threads and render-ahead window for frames of `size` within `memory`.
    static func renderBudget(_ memory: MemoryBudget, size: PixelSize, threads: Int, planar: Bool) throws(VideoExportError) -> MemoryBudget.Plan {
        let encoded = planar ? Y4MWriter.planeBytes(width: size.width, height: size.height, chroma: .c420jpeg) : 0
        do {
            return try memory.plan(width: size.width, height: size.height, threads: threads, encodedBytes: encoded)
        } catch {
            throw VideoExportError("\(size): \(error.description)")
        }
    }

    /// The tile prefetch of a plan's frames (``FramePipeline``): decodes each frame's tiles
    /// ahead of the render threads. Nil for a style without tiled sources. A tile that cannot be
    /// read is left for the render thread that draws it to report.
    public static func prefetcher(_ style: LoadedStyle?, plan: PlaybackPlan) -> (@Sendable (Int) -> Void)? {
        guard let style, style.tileSets.contains(where: { $0 != nil }) else { return nil }
        return { @Sendable index in
            _ = try? style.prefetchTiles(camera: plan.records[index].camera, width: plan.width, height: plan.height)
        }
    }

    /// The error for a run stopped by a signal, true about what is left once `sink` has been
    /// cancelled; nil when no signal came.
    static func interruptedError(output: String, sink: any FrameSink) -> VideoExportError? {
        guard let signal = Interruption.signal else { return nil }
        let left: String
        if let folder = sink as? PNGFolderWriter, folder.folderExisted {
            left = "the \(folder.createdFiles.count) frame(s) this run wrote to \(output) were removed; what was there before is kept"
        } else if sink is NullFrameSink {
            left = "nothing was written"
        } else if AtomicFileWriter.writesInPlace(output) {
            left = "\(AtomicFileWriter.displayName(output)) received the frames written before the signal (it is not a file Flyby can remove)"
        } else {
            left = "\(output) was not written"
        }
        return VideoExportError("interrupted by \(Interruption.name(signal)); \(left)", kind: .interrupted(signal: signal))
    }
}
