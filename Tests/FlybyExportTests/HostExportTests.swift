import FlybyCore
import FlybyData
import FlybyExport
import FlybyFlight
import FlybyMaps
import FlybyMedia
import FlybyRender
import Foundation
import Testing

/// The one-call exports of a host: a FlybyMaps ``MapView`` recorded as it animates, a trace held
/// in memory (the window's recording), and render-farm segments, all without the command line.
@Suite struct HostExportTests {
    static func frames(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    }

    @Test func aMapViewRecordingIsOneSnapshotPerTickOfTheViewsClock() throws {
        let dir = try VideoExportTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let size = ScreenSize(width: 64, height: 36)
        let start = CameraOptions(center: LocationCoordinate2D(latitude: 50, longitude: 10), zoom: 3)
        let to = CameraOptions(center: LocationCoordinate2D(latitude: 40, longitude: 20), zoom: 4, bearing: 30)
        let recorded = try MapView(frame: size, mapInitOptions: MapInitOptions(cameraOptions: start), fps: 10)
        recorded.camera.ease(to: to, duration: 0.5, curve: .linear)
        var options = VideoExport.Options(output: dir + "/frames")
        options.isCancelled = { false }
        var done: [Int] = []
        let summary = try VideoExport.record(recorded, seconds: 0.6, options: options) { done.append($0.done) }
        #expect(summary == VideoExport.Summary(frames: 6, size: PixelSize(width: 64, height: 36), fps: 10))
        #expect(done == Array(0...6))
        #expect(recorded.now == 0.5, "five ticks after the first frame")

        // The same calls on a second view, snapshot by snapshot, give the recorded frames.
        let reference = try MapView(frame: size, mapInitOptions: MapInitOptions(cameraOptions: start), fps: 10)
        reference.camera.ease(to: to, duration: 0.5, curve: .linear)
        let names = try Self.frames(dir + "/frames")
        #expect(names == (0..<6).map { PNGFolderWriter.fileName(frameIndex: $0) })
        var distinct: Set<[UInt32]> = []
        for (i, name) in names.enumerated() {
            if i > 0 { reference.tick() }
            let want = reference.snapshot().pixels.map { $0 | 0xFF00_0000 }
            let got = try PNGDecoder.decode(contentsOfFile: dir + "/frames/" + name).pixels.map { $0 | 0xFF00_0000 }
            #expect(got == want, "frame \(i)")
            distinct.insert(got)
        }
        #expect(distinct.count == 6, "the camera moved every frame, so the comparison means something")
    }

    @Test func aMapViewRecordingRefusesBadSecondsAndPixelRatiosWithoutWriting() throws {
        let dir = try VideoExportTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let view = try MapView(frame: ScreenSize(width: 32, height: 32), fps: 10)
        for seconds in [0, -1, .nan, .infinity, 1e9] {
            #expect(throws: VideoExportError.self) { try VideoExport.record(view, seconds: seconds, options: .init(output: dir + "/a")) }
        }
        var options = VideoExport.Options(output: dir + "/b")
        options.pixelRatio = 2
        #expect(throws: VideoExportError.self) { try VideoExport.record(view, seconds: 1, options: options) }
        #expect(try Self.frames(dir).isEmpty)
        #expect(view.now == 0, "a refused recording does not tick the view")
    }

    @Test func traceBytesInMemoryExportTheFramesOfTheSameTraceFile() throws {
        let dir = try VideoExportTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try VideoExportTests.plan(in: dir)
        var first = VideoExportTests.options(dir + "/flight")
        first.tracePath = dir + "/t.trace.jsonl"
        _ = try VideoExport.run(plan, input: "f", options: first)
        let fromFile = try PlaybackPlan.load(dir + "/t.trace.jsonl")
        _ = try VideoExport.run(fromFile, input: "t", options: VideoExportTests.options(dir + "/file"))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/t.trace.jsonl")))
        let summary = try VideoExport.run(traceBytes: bytes, name: "the recording", options: VideoExportTests.options(dir + "/memory"))
        #expect(summary.frames == 6)
        let names = try Self.frames(dir + "/file")
        let memory = try Self.frames(dir + "/memory")
        #expect(names.count == 6 && memory == names)
        for n in names {
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/memory/" + n)) == Data(contentsOf: URL(fileURLWithPath: dir + "/file/" + n)), "\(n)")
        }
        #expect(throws: InputError.self) { try VideoExport.run(traceBytes: Array("not a trace\n".utf8), name: "junk", options: VideoExportTests.options(dir + "/junk")) }
        #expect(!FileManager.default.fileExists(atPath: dir + "/junk"))
    }

    @Test func segmentsAreRenderedOnceAndSkippedWhenTheRunIsRepeated() throws {
        let dir = try VideoExportTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try VideoExportTests.plan(in: dir)
        guard FFmpegWriter.findExecutable("ffmpeg", searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "") != nil else {
            Issue.record("ffmpeg is needed (Tools/install-deps installs it)"); return
        }
        var options = SegmentExport.Options(directory: dir + "/farm", segmentFrames: 4)
        options.threads = 2
        options.searchPath = ProcessInfo.processInfo.environment["PATH"] ?? options.searchPath
        options.isCancelled = { false }
        var events: [SegmentExport.Event] = []
        let first = try SegmentExport.run(plan, input: dir + "/f.flight.json", options: options) { events.append($0) }
        #expect(first == SegmentExport.Summary(rendered: 2, skipped: 0, frames: 6))
        #expect(events == [.started(totalFrames: 6), .segment(file: "segment-000000.mp4", frames: 0..<4, rendered: true),
                           .segment(file: "segment-000004.mp4", frames: 4..<6, rendered: true)])
        let again = try SegmentExport.run(plan, input: dir + "/f.flight.json", options: options)
        #expect(again == SegmentExport.Summary(rendered: 0, skipped: 2, frames: 6))

        // A cancelled run writes no segment and says so.
        var cancelled = options
        cancelled.directory = dir + "/cancelled"
        cancelled.isCancelled = { true }
        do {
            _ = try SegmentExport.run(plan, input: dir + "/f.flight.json", options: cancelled)
            Issue.record("a cancelled run must throw")
        } catch let e as VideoExportError {
            #expect(e.message.hasPrefix("cancelled; segment-000000.mp4 was not written"), "\(e.message)")
        }
        #expect(try Self.frames(dir + "/cancelled").filter { $0.hasSuffix(".mp4") }.isEmpty)
        // A file is not a folder of segments.
        var file = options
        file.directory = dir + "/x.mp4"
        #expect(throws: VideoExportError.self) { try SegmentExport.run(plan, input: dir + "/f.flight.json", options: file) }
    }
}
