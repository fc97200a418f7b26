import FlybyCore
import FlybyData
import FlybyFlight
import FlybyMaps
import FlybyMedia
import FlybyRender

extension VideoExport {
    /// Records the next `seconds` of a FlybyMaps ``MapView`` as a video: each frame ticks the
    /// view's clock once (its animations, viewport, location and annotations move exactly as they
    /// would in the host) and writes ``MapView/snapshot()``, so the video shows everything the host
    /// put on the map — runtime layers, annotations, view annotations, ornaments, the puck.
    ///
    /// ```swift
    /// let mapView = try MapView(frame: ScreenSize(width: 640, height: 360), fps: 30)
    /// mapView.camera.fly(to: CameraOptions(center: helsinki, zoom: 12), duration: 4)
    /// try VideoExport.record(mapView, seconds: 5, options: VideoExport.Options(output: "fly.mp4"))
    /// ```
    ///
    /// Frames are drawn one after another on the calling thread (the view is not thread-safe);
    /// ``Options/threads``, ``Options/frames``, ``Options/tracePath``, the tile-cache and
    /// language options do not apply (the view's style is drawn as it is) and ``Options/pixelRatio``
    /// must be 1. The frame count is `seconds × fps` rounded to a whole number, at least 1; the
    /// rate is the view's ``MapView/fps``.
    /// - Throws: ``VideoExportError`` (the output, a frame rate that is not whole for a video
    ///   output, no ffmpeg, a signal); nothing is left half-written.
    public static func record(_ mapView: MapView, seconds: Double, options: Options,
                              progress: (Progress) -> Void = { _ in }) throws -> Summary {
        guard seconds.isFinite, seconds > 0, seconds <= 36_000 else {
            throw VideoExportError("record: seconds must be more than 0 and at most 36000, not \(seconds)")
        }
        guard options.pixelRatio == 1 else {
            throw VideoExportError("record: a map view is recorded at its own size; pixelRatio must be 1, not \(options.pixelRatio)")
        }
        let output: FrameOutput
        do { output = try FrameOutput(options.output) } catch { throw VideoExportError(error.description) }
        let fps = mapView.fps
        var sinkFPS = max(1, Int(exactly: fps) ?? Int(fps.rounded()))
        if output.needsWholeFPS {
            guard let f = Int(exactly: fps) else { throw VideoExportError("\(options.output): the map view's fps \(fps) must be a whole number") }
            sinkFPS = f
        }
        let count = max(1, Int((seconds * fps).rounded()))
        let first = mapView.snapshot()
        let size = PixelSize(width: first.width, height: first.height)
        var ffmpeg = FFmpegWriter.Options(crf: options.crf, preset: options.preset)
        ffmpeg.searchPath = options.searchPath
        let sink: any FrameSink
        do {
            sink = try output.makeSink(width: size.width, height: size.height, fps: sinkFPS, ffmpeg: ffmpeg)
        } catch {
            throw VideoExportError(error, output: options.output)
        }
        progress(Progress(done: 0, total: count, frame: 0))
        do {
            for index in 0..<count {
                if options.isCancelled() { throw PlaybackCancelled() }
                if index > 0 { mapView.tick() }
                let frame = index == 0 ? first : mapView.snapshot()
                try frame.pixels.withUnsafeBufferPointer { try sink.write(frame: $0, index: index) }
                progress(Progress(done: index + 1, total: count, frame: index))
            }
            try sink.finish()
        } catch {
            sink.cancel()
            if let interrupted = interruptedError(output: options.output, sink: sink) { throw interrupted }
            if error is PlaybackCancelled { throw VideoExportError("\(options.output): recording cancelled; nothing was written") }
            if let e = error as? MediaError { throw VideoExportError(e, output: options.output) }
            throw error
        }
        return Summary(frames: count, size: size, fps: fps)
    }

    /// Exports a recorded trace (docs/formats.md §3) held in memory, such as the window's
    /// recording: the frames `flyby play` draws for the same trace file. `name` names the trace in
    /// messages.
    public static func run(traceBytes: [UInt8], name: String, options: Options,
                           progress: (Progress) -> Void = { _ in }) throws -> Summary {
        let trace = try TraceReader.read(bytes: traceBytes, file: name)
        let plan = PlaybackPlan.trace(trace)
        guard plan.frameCount > 0 else { throw VideoExportError("\(name): no frames to export") }
        return try run(plan, input: name, options: options, progress: progress)
    }
}
