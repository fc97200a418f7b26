import FlybyCLI
import FlybyCore
import FlybyFlight
import FlybyRender
import FlybyTestSupport
import Foundation
import Testing

/// `flyby play` end to end, in-process, on tiny frames (64×36) and short flights.
@Suite struct PlayCommandTests {
    /// A 0.5 s linear ease at 10 fps: frames 0…5.
    static let shortFlight = #"""
    {"flyby": 1, "size": [64, 36], "fps": 10, "style": "world", "camera": {"center": [10, 50], "zoom": 3},
     "steps": [{"ease": {"to": {"center": [20, 40], "zoom": 4, "bearing": 30, "pitch": 40}, "duration": 0.5, "curve": "linear"}}]}
    """#

    /// Durations are multiples of 1/120 s, so steps end on a tick at 24, 30 and 60 fps alike.
    static let rateFlight = #"""
    {"flyby": 1, "size": [64, 36], "fps": 30, "style": "world", "camera": {"center": [24.94, 60.17], "zoom": 4},
     "steps": [
       {"wait": 0.5},
       {"ease": {"to": {"center": [2.35, 48.86], "zoom": 6, "bearing": 40, "pitch": 30}, "duration": 1.0, "curve": "easeInOut"}},
       {"fly": {"to": {"center": [13.4, 52.5], "zoom": 5, "bearing": 350, "pitch": 10}, "duration": 1.5}},
       {"animate": {"duration": 1.0, "to": {"zoom": 7, "pitch": 50}, "curve": {"spring": {"dampingRatio": 0.6}}}}
     ]}
    """#

    /// The repository root (this file is Tests/FlybyCLITests/Play/PlayCommandTests.swift).
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/")
    }()

    /// A fresh temporary folder.
    static func tempFolder() throws -> String {
        let path = NSTemporaryDirectory() + "flyby-play-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `text` to `folder/name` and returns the path.
    static func write(_ text: String, _ folder: String, _ name: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs `flyby args…`; returns the exit status and the captured output.
    @discardableResult
    static func flyby(_ args: [String], path: String? = nil) -> (status: Int32, out: CommandOutput) {
        let out = CommandOutput(captures: true)
        if let path { out.environment["PATH"] = path }
        return (FlybyCommandLine.run(arguments: args, output: out), out)
    }

    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    static func bytes(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }

    /// The frames of a trace written by `flyby trace`.
    static func traceFrames(_ flight: String) throws -> [FrameRecord] {
        let (status, out) = flyby(["trace", flight])
        try #require(status == 0, "\(out.stderrText)")
        return try TraceReader.read(bytes: out.stdoutBytes, file: "trace").frames
    }

    @Test func pngFolderHasOneFilePerTraceFrame() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.shortFlight, dir, "short.flight.json")
        let (status, out) = Self.flyby(["play", flight, "--out", dir + "/frames"])
        try #require(status == 0, "\(out.stderrText)")
        let count = try Self.traceFrames(flight).count
        #expect(count == 6)
        #expect(Self.files(dir + "/frames") == (0..<count).map { String(format: "frame-%06d.png", $0) })
        let png = Self.bytes(dir + "/frames/frame-000000.png")
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(out.stderrText.contains("6 frames 64x36 at 10 fps"))
    }

    @Test func twoRunsGiveByteIdenticalFrames() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.shortFlight, dir, "short.flight.json")
        #expect(Self.flyby(["play", flight, "--out", dir + "/a"]).status == 0)
        #expect(Self.flyby(["play", flight, "--out", dir + "/b"]).status == 0)
        let names = Self.files(dir + "/a")
        #expect(names.count == 6)
        #expect(names == Self.files(dir + "/b"))
        for n in names { #expect(Self.bytes(dir + "/a/" + n) == Self.bytes(dir + "/b/" + n), "\(n)") }
    }

    @Test func frameRangeEqualsTheSameFramesOfAFullRun() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.shortFlight, dir, "short.flight.json")
        #expect(Self.flyby(["play", flight, "--out", dir + "/full"]).status == 0)
        let (status, out) = Self.flyby(["play", flight, "--out", dir + "/part", "--frames", "2:4"])
        try #require(status == 0, "\(out.stderrText)")
        #expect(Self.files(dir + "/part") == ["frame-000002.png", "frame-000003.png"])
        for n in Self.files(dir + "/part") { #expect(Self.bytes(dir + "/part/" + n) == Self.bytes(dir + "/full/" + n), "\(n)") }
        // Differs from its neighbours (the camera moves), so the comparison means something.
        #expect(Self.bytes(dir + "/full/frame-000002.png") != Self.bytes(dir + "/full/frame-000003.png"))
    }

    @Test func anyThreadCountGivesTheSamePixels() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.shortFlight, dir, "short.flight.json")
        for t in [1, 2, 3] {
            let (status, out) = Self.flyby(["play", flight, "--out", dir + "/t\(t)", "--threads", String(t)])
            try #require(status == 0, "\(out.stderrText)")
        }
        let names = Self.files(dir + "/t1")
        #expect(names.count == 6)
        for n in names {
            let one = Self.bytes(dir + "/t1/" + n)
            #expect(one == Self.bytes(dir + "/t2/" + n), "\(n) 2 threads")
            #expect(one == Self.bytes(dir + "/t3/" + n), "\(n) 3 threads")
        }
    }

    @Test func pipelineDeliversInOrderAndMatchesOneThread() throws {
        let script = try FlightScriptParser.parse(bytes: Array(Self.shortFlight.utf8), file: "short")
        let start = CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 1)
        let plan = try PlaybackPlan.flight(script, startCamera: start)
        func render(_ threads: Int) throws -> [[UInt32]] {
            var frames: [[UInt32]] = []
            var order: [Int] = []
            try FramePipeline(threads: threads) { try makeFrameRenderer(style: "world", size: (64, 36)) }
                .run(plan, range: 0..<plan.frameCount) { i, buffer in order.append(i); frames.append(buffer.pixels.pixels) }
            #expect(order == Array(0..<plan.frameCount))
            return frames
        }
        #expect(try render(1) == render(2))
    }

    @Test func prefetchSeesFramesInOrderNeverBehindTheRenderThreadsNorPastTheWindow() throws {
        let script = try FlightScriptParser.parse(bytes: Array(Self.shortFlight.utf8), file: "short")
        let plan = try PlaybackPlan.flight(script, startCamera: CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 1))
        final class Log: @unchecked Sendable {  // guarded by lock
            let lock = NSLock()
            var delivered = 0
            var calls: [(index: Int, delivered: Int)] = []
        }
        let log = Log()
        let pipeline = FramePipeline(threads: 1, window: 3, prefetch: { i in
            log.lock.withLock { log.calls.append((i, log.delivered)) }
        }) { PlaceholderFrameRenderer(drawsOrnaments: false) }
        try pipeline.run(plan, range: 0..<plan.frameCount) { i, _ in log.lock.withLock { log.delivered = i + 1 } }
        let calls = log.lock.withLock { log.calls }
        let indexes = calls.map(\.index)
        #expect(indexes == indexes.sorted() && Set(indexes).count == indexes.count, "in order, each once: \(indexes)")
        #expect(indexes.allSatisfy { (0..<plan.frameCount).contains($0) })
        // The next frame taken is at most delivered + window, so the prefetcher is at most
        // 2 · window frames past the frame being delivered.
        #expect(calls.allSatisfy { $0.index < $0.delivered + 2 * 3 }, "\(calls)")
    }

    @Test func cameraPathIsIndependentOfTheFrameRate() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.rateFlight, dir, "rate.flight.json")
        var traces: [Double: Trace] = [:]
        for fps in [24.0, 30, 60] {
            let tracePath = dir + "/t\(Int(fps)).jsonl"
            let (status, out) = Self.flyby(["play", flight, "--out", "null", "--frames", "0:1", "--fps", String(Int(fps)), "--trace", tracePath])
            try #require(status == 0, "\(out.stderrText)")
            traces[fps] = try TraceReader.read(bytes: Self.bytes(tracePath), file: tracePath)
        }
        // 0.5 + 1.0 + 1.5 + 1.0 = 4 s: every rate has frames at t = 0, 0.5, … 4.0.
        for fps in [24.0, 30, 60] { #expect(traces[fps]!.frames.count == Int(4 * fps) + 1, "\(fps) fps") }
        for k in 0...8 {
            let t = Double(k) * 0.5
            let cams = [24.0, 30, 60].map { fps in traces[fps]!.frames[Int((t * fps).rounded())].camera }
            for c in cams.dropFirst() {
                expectClose(c.center, cams[0].center, 1e-9, "center at t=\(t)")
                expectClose(c.zoom, cams[0].zoom, 1e-9, "zoom at t=\(t)")
                expectClose(c.bearing, cams[0].bearing, 1e-9, "bearing at t=\(t)")
                expectClose(c.pitch, cams[0].pitch, 1e-9, "pitch at t=\(t)")
            }
        }
        // The frame of t is at exactly t = n / fps.
        for (fps, trace) in traces { for f in trace.frames { #expect(f.t == Double(f.frame) / fps) } }
    }

    @Test func aRecordedTracePlaysBack() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.shortFlight, dir, "short.flight.json")
        #expect(Self.flyby(["trace", flight, "--out", dir + "/short.trace.jsonl"]).status == 0)
        let (status, out) = Self.flyby(["play", dir + "/short.trace.jsonl", "--out", dir + "/frames"])
        try #require(status == 0, "\(out.stderrText)")
        #expect(Self.files(dir + "/frames").count == 6)
        // The trace's frames render as the flight's.
        #expect(Self.flyby(["play", flight, "--out", dir + "/direct"]).status == 0)
        for n in Self.files(dir + "/direct") { #expect(Self.bytes(dir + "/frames/" + n) == Self.bytes(dir + "/direct/" + n), "\(n)") }
        // At 20 fps the 0.5 s trace is interpolated to 11 frames; its trace keeps the recorded ends.
        #expect(Self.flyby(["play", dir + "/short.trace.jsonl", "--out", "null", "--fps", "20", "--trace", dir + "/t20.jsonl"]).status == 0)
        let t20 = try TraceReader.read(bytes: Self.bytes(dir + "/t20.jsonl"), file: "t20")
        let t10 = try TraceReader.read(bytes: Self.bytes(dir + "/short.trace.jsonl"), file: "t10")
        #expect(t20.frames.count == 11)
        expectClose(t20.frames[10].camera.zoom, t10.frames[5].camera.zoom, 1e-12)
        expectClose(t20.frames[2].camera.zoom, t10.frames[1].camera.zoom, 1e-12)
        expectClose(t20.frames[1].camera.zoom, (t10.frames[0].camera.zoom + t10.frames[1].camera.zoom) / 2, 1e-12)
    }

    @Test func withoutFFmpegExits3AndWritesNothing() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.shortFlight, dir, "short.flight.json")
        for out in ["movie.mp4", "movie.gif"] {
            let (status, o) = Self.flyby(["play", flight, "--out", dir + "/" + out, "--trace", dir + "/t.jsonl"], path: dir + "/nowhere")
            #expect(status == 3)
            #expect(o.stderrText.hasPrefix("flyby: error:") && o.stderrText.contains("ffmpeg"))
        }
        #expect(Self.files(dir) == ["short.flight.json"])
    }

    @Test func ffmpegFailingMidwayLeavesNoFile() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.shortFlight, dir, "short.flight.json")
        try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: true)
        // Reads part of the first frame, complains and dies.
        let fake = try Self.write("#!/bin/sh\nhead -c 1000 >/dev/null\necho 'disk full (simulated)' >&2\nexit 1\n", dir + "/bin", "ffmpeg")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
        let (status, out) = Self.flyby(["play", flight, "--out", dir + "/movie.mp4"], path: dir + "/bin:/usr/bin:/bin")
        #expect(status == 2)
        #expect(out.stderrText.hasPrefix("flyby: error:") && out.stderrText.contains("ffmpeg failed")
                && out.stderrText.contains("disk full (simulated)"), "\(out.stderrText)")
        #expect(Self.files(dir) == ["bin", "short.flight.json"])
    }

    @Test func unwritableOutputExits2() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.shortFlight, dir, "short.flight.json")
        for out in [dir + "/no/such/folder/movie.y4m", flight + "/frames", dir + "/no/such/folder/movie.mp4"] {
            let (status, o) = Self.flyby(["play", flight, "--out", out])
            #expect(status == 2, "\(out): \(o.stderrText)")
            #expect(o.stderrText.hasPrefix("flyby: error:"))
        }
        #expect(Self.files(dir) == ["short.flight.json"])
    }

    @Test func y4mHasOneFramePerTraceFrame() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.shortFlight, dir, "short.flight.json")
        let (status, out) = Self.flyby(["play", flight, "--out", dir + "/movie.y4m"])
        try #require(status == 0, "\(out.stderrText)")
        let y4m = Self.bytes(dir + "/movie.y4m")
        let header = String(decoding: y4m.prefix(while: { $0 != 0x0A }), as: UTF8.self)
        #expect(header.hasPrefix("YUV4MPEG2 W64 H36 F10:1"))
        let frameSize = 64 * 36 * 3 / 2
        let frames = (y4m.count - header.utf8.count - 1) / (6 + frameSize)
        #expect(frames == 6)
        #expect((y4m.count - header.utf8.count - 1) % (6 + frameSize) == 0)
        #expect(Self.files(dir).sorted() == ["movie.y4m", "short.flight.json"])
    }

    @Test(.enabled(if: PlayCommandTests.hasFFprobe)) func mp4HasExactlyTheTraceFrames() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.shortFlight, dir, "short.flight.json")
        let (status, out) = Self.flyby(["play", flight, "--out", dir + "/movie.mp4", "--crf", "30", "--preset", "ultrafast", "--progress", "json"])
        try #require(status == 0, "\(out.stderrText)")
        #expect(out.stderrText.contains(#""finished":true"#))
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                           "-show_entries", "stream=nb_read_frames,width,height,r_frame_rate", "-of", "csv=p=0", dir + "/movie.mp4"]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        probe.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "64,36,10/1,6")
        #expect(Self.files(dir).sorted() == ["movie.mp4", "short.flight.json"])
    }

    static var hasFFprobe: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/ffprobe") }
            && path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/ffmpeg") }
    }

    @Test(arguments: [
        (["--frames", "4:2"], "--frames"), (["--frames", "9:"], "starts past the end"), (["--size", "64"], "--size"),
        (["--fps", "0"], "--fps"), (["--crf", "99"], "--crf"), (["--preset", "warp"], "--preset"), (["--progress", "xml"], "--progress"),
        (["--bogus", "1"], "unknown option"),
    ])
    func badOptionsExit2(_ extra: [String], _ message: String) throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = try Self.write(Self.shortFlight, dir, "short.flight.json")
        let (status, out) = Self.flyby(["play", flight, "--out", dir + "/f"] + extra)
        #expect(status == 2)
        #expect(out.stderrText.hasPrefix("flyby: error:") && out.stderrText.contains(message), "\(out.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/f"))
    }

    @Test func badInputFileNamesIt() throws {
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bad = try Self.write(#"{"steps": [{"fly": {"to": {"zoom": "x"}}}]}"#, dir, "bad.flight.json")
        let (status, out) = Self.flyby(["play", bad, "--out", "null"])
        #expect(status == 2)
        #expect(out.stderrText.contains("bad.flight.json") && out.stderrText.contains("steps[0].fly.to.zoom"))
        #expect(Self.flyby(["play", dir + "/missing.json", "--out", "null"]).status == 2)
    }
}

/// `flyby plot`.
@Suite struct PlotCommandTests {
    @Test func plotWritesPNGAndSVG() throws {
        let dir = try PlayCommandTests.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = PlayCommandTests.root + "/Traces/camera/cancel-by-owner.flight.json"
        #expect(PlayCommandTests.flyby(["trace", flight, "--out", dir + "/t.jsonl"]).status == 0)
        let (s1, o1) = PlayCommandTests.flyby(["plot", dir + "/t.jsonl", "--out", dir + "/plot.png", "--size", "600x450"])
        try #require(s1 == 0, "\(o1.stderrText)")
        let png = PlayCommandTests.bytes(dir + "/plot.png")
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR width and height, big-endian.
        #expect(Array(png[16..<24]) == [0, 0, 0x02, 0x58, 0, 0, 0x01, 0xC2])
        let (s2, o2) = PlayCommandTests.flyby(["plot", dir + "/t.jsonl", "--out", dir + "/plot.svg"])
        try #require(s2 == 0, "\(o2.stderrText)")
        let svg = String(decoding: PlayCommandTests.bytes(dir + "/plot.svg"), as: UTF8.self)
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
        for label in ["zoom", "pitch (°)", "bearing (°)", "ground speed (m/s)", "time (s)", "viewport", "animator"] {
            #expect(svg.contains(label), "\(label)")
        }
        // Two runs: same bytes.
        #expect(PlayCommandTests.flyby(["plot", dir + "/t.jsonl", "--out", dir + "/plot2.png", "--size", "600x450"]).status == 0)
        #expect(png == PlayCommandTests.bytes(dir + "/plot2.png"))
    }

    @Test func groundSpeedIsHaversineOverTime() {
        let a = CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 1)
        var b = a
        b.center = LocationCoordinate2D(latitude: 0, longitude: 1)
        let v = TracePlot.groundSpeeds([FrameRecord(frame: 0, t: 0, camera: a), FrameRecord(frame: 1, t: 0.5, camera: b)])
        #expect(v[0] == 0)
        expectClose(v[1], 2 * .pi * 6_371_008.8 / 360 / 0.5, 1e-6)
    }

    @Test func plotRejectsNonTraceAndBadExtension() throws {
        let dir = try PlayCommandTests.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = PlayCommandTests.root + "/Traces/camera/fly-short.flight.json"
        #expect(PlayCommandTests.flyby(["plot", flight, "--out", dir + "/p.png"]).status == 2)
        #expect(PlayCommandTests.flyby(["trace", flight, "--out", dir + "/t.jsonl"]).status == 0)
        #expect(PlayCommandTests.flyby(["plot", dir + "/t.jsonl", "--out", dir + "/p.jpg"]).status == 2)
        #expect(PlayCommandTests.files(dir) == ["t.jsonl"])
    }
}
