import Foundation
import Testing
@testable import FlybyMedia

/// True when `ffmpeg` and `ffprobe` are on PATH (Debian package `ffmpeg`).
let ffmpegAvailable = FFmpegWriter.isAvailable
    && FFmpegWriter.findExecutable("ffprobe", searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "") != nil

/// Runs a program and returns its standard output.
private func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

private func gradientFrame(_ i: Int, width: Int, height: Int) -> [UInt32] {
    (0..<(width * height)).map { p in
        let x = UInt32(p % width), y = UInt32(p / width)
        return 0xFF00_0000 | ((x * 4 + UInt32(i) * 8) & 0xFF) << 16 | ((y * 4) & 0xFF) << 8 | 0x80
    }
}

// Serialized: each test spawns processes, and the machine has 2 cores.
@Suite(.serialized) struct FFmpegWriterTests {
    @Test(.enabled(if: ffmpegAvailable, "ffmpeg/ffprobe not installed"))
    func encodesTenFramesToH264() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/clip.mp4"
        let writer = try FFmpegWriter(path: path, width: 64, height: 48,
                                      options: .init(crf: 23, preset: "ultrafast", fps: (30, 1)))
        // 1 MiB unless the system's pipe-max-size is lower.
        #expect(writer.pipeCapacity >= 65536)
        for i in 0..<10 { try writer.write(frame: gradientFrame(i, width: 64, height: 48), index: i) }
        #expect(!FileManager.default.fileExists(atPath: path))
        try writer.finish()
        #expect(folderContents(folder) == ["clip.mp4"])
        let ffprobe = try #require(FFmpegWriter.findExecutable("ffprobe", searchPath: ProcessInfo.processInfo.environment["PATH"] ?? ""))
        let probe = try run(ffprobe, ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                      "-show_entries", "stream=codec_name,pix_fmt,width,height,nb_read_frames",
                                      "-of", "default=noprint_wrappers=1", path])
        #expect(probe.contains("codec_name=h264"))
        #expect(probe.contains("pix_fmt=yuv420p"))
        #expect(probe.contains("width=64") && probe.contains("height=48"))
        #expect(probe.contains("nb_read_frames=10"), "\(probe)")
    }

    @Test(.enabled(if: ffmpegAvailable, "ffmpeg not installed"))
    func encodesOddSizesAndGIF() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mp4 = try FFmpegWriter(path: folder + "/odd.mp4", width: 33, height: 17, options: .init(preset: "ultrafast"))
        let gif = try FFmpegWriter(path: folder + "/anim.gif", width: 33, height: 17, options: .init(gifFPS: 20))
        #expect(gif.format == .gif)
        for i in 0..<5 {
            let frame = gradientFrame(i, width: 33, height: 17)
            try mp4.write(frame: frame, index: i)
            try gif.write(frame: frame, index: i)
        }
        try mp4.finish()
        try gif.finish()
        #expect(folderContents(folder) == ["anim.gif", "odd.mp4"])
        let head = try #require(FileManager.default.contents(atPath: folder + "/anim.gif")).prefix(6)
        #expect(String(decoding: head, as: UTF8.self) == "GIF89a")
    }

    /// Our Y4M is read by ffprobe as 4:2:0 raw video with the right size and frame count, and our
    /// BT.601/BT.709 conversion agrees with ffmpeg's own (swscale) within ±1 on solid 2×2 blocks.
    @Test(.enabled(if: ffmpegAvailable, "ffmpeg/ffprobe not installed"))
    func y4mMatchesFFmpegsConversion() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let colours: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FFFF, 0xFF00_0000, 0xFF80_4020, 0xFF33_99CC, 0xFFEE_EAE2]
        let (w, h) = (2 * colours.count, 2)
        let frame = (0..<(w * h)).map { colours[($0 % w) / 2] }
        let env = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let ffmpeg = try #require(FFmpegWriter.findExecutable("ffmpeg", searchPath: env))
        let ffprobe = try #require(FFmpegWriter.findExecutable("ffprobe", searchPath: env))
        let raw = folder + "/in.bgra"
        try frame.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: raw)) }
        for (matrix, name) in [(Y4MWriter.Matrix.bt601, "bt601"), (.bt709, "bt709")] {
            let yuv = folder + "/\(name).yuv"
            _ = try run(ffmpeg, ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(w)x\(h)", "-i", raw,
                                 "-vf", "scale=out_color_matrix=\(name):out_range=tv:flags=accurate_rnd+full_chroma_int",
                                 "-pix_fmt", "yuv420p", "-f", "rawvideo", yuv])
            let theirs = [UInt8](try #require(FileManager.default.contents(atPath: yuv)))
            var ours: [UInt8] = []
            frame.withUnsafeBufferPointer { Y4MWriter.convert($0, width: w, height: h, chroma: .c420jpeg, matrix: matrix, into: &ours) }
            #expect(theirs.count == ours.count)
            let worst = zip(theirs, ours).map { abs(Int($0) - Int($1)) }.max() ?? 99
            #expect(worst <= 1, "\(name): ours \(ours) vs ffmpeg \(theirs)")

            let path = folder + "/\(name).y4m"
            let writer = try Y4MWriter(path: path, width: w, height: h, fps: (25, 1), matrix: matrix)
            for i in 0..<7 { try writer.write(frame: frame, index: i) }
            try writer.finish()
            let probe = try run(ffprobe, ["-v", "error", "-count_frames", "-show_entries",
                                          "stream=codec_name,pix_fmt,width,height,nb_read_frames",
                                          "-of", "default=noprint_wrappers=1", path])
            #expect(probe.contains("codec_name=rawvideo") && probe.contains("nb_read_frames=7"), "\(probe)")
            #expect(probe.contains("pix_fmt=yuvj420p") || probe.contains("pix_fmt=yuv420p"), "\(probe)")
        }
    }

    /// x264 gets one thread per processor by default (not its own 1.5 per processor, which only
    /// adds overhead while Flyby renders on the same processors), and the count set when set.
    @Test func h264GetsOneEncoderThreadPerProcessorUnlessTold() {
        func threads(_ options: FFmpegWriter.Options, _ format: FFmpegWriter.Format) -> String? {
            let args = FFmpegWriter.arguments(width: 64, height: 36, format: format, options: options, output: "x")
            return args.firstIndex(of: "-threads").map { args[$0 + 1] }
        }
        let defaults = FFmpegWriter.Options()
        #expect(defaults.encoderThreads == ProcessInfo.processInfo.activeProcessorCount)
        #expect(threads(defaults, .mp4) == String(ProcessInfo.processInfo.activeProcessorCount))
        var three = FFmpegWriter.Options()
        three.encoderThreads = 3
        #expect(threads(three, .mp4) == "3")
        #expect(threads(three, .mkv) == "3")
        #expect(threads(three, .webm) == nil, "VP9 keeps its own row threads")
    }

    @Test func missingFFmpegIsADistinctError() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: MediaError.ffmpegNotFound(searchPath: folder + "/nowhere:/nonexistent")) {
            _ = try FFmpegWriter(path: folder + "/x.mp4", width: 8, height: 8,
                                 options: .init(searchPath: folder + "/nowhere:/nonexistent"))
        }
        #expect(folderContents(folder).isEmpty)
    }

    /// A fake ffmpeg that reads a little, complains and exits 1: the error carries its stderr and no
    /// file (final or temporary) is left. Needs no real ffmpeg.
    @Test func ffmpegFailingMidwayReportsStderrAndLeavesNothing() throws {
        let tools = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let fake = tools + "/ffmpeg"
        try "#!/bin/sh\nhead -c 1000 > /dev/null\necho 'first line' >&2\necho 'Error: disk on fire' >&2\nexit 1\n"
            .write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try FFmpegWriter(path: folder + "/out.mp4", width: 256, height: 256, options: .init(searchPath: tools))
        var caught: MediaError?
        do {
            for i in 0..<50 { try writer.write(frame: [UInt32](repeating: 0xFF00_0000, count: 256 * 256), index: i) }
            try writer.finish()
        } catch {
            caught = error
        }
        guard case .ffmpegFailed(let status, let tail) = caught else {
            Issue.record("expected ffmpegFailed, got \(String(describing: caught))")
            return
        }
        #expect(status == 1)
        #expect(tail.contains("Error: disk on fire"))
        #expect(folderContents(folder).isEmpty)
    }

    @Test(.enabled(if: ffmpegAvailable, "ffmpeg not installed"))
    func realFFmpegErrorIsReportedOnFinish() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try FFmpegWriter(path: folder + "/bad.mp4", width: 16, height: 16,
                                      options: .init(preset: "no-such-preset"))
        do {
            try writer.write(frame: [UInt32](repeating: 0xFFFF_FFFF, count: 256), index: 0)
            try writer.finish()
            Issue.record("an unknown preset should fail")
        } catch {
            guard case .ffmpegFailed(_, let tail) = error else { Issue.record("\(error)"); return }
            #expect(!tail.isEmpty)
        }
        #expect(folderContents(folder).isEmpty)
    }

    /// Throughput of 1280×720 frames into libx264 veryfast (opt-in: FLYBY_BENCH, release build).
    @Test(.enabled(if: ffmpegAvailable && ProcessInfo.processInfo.environment["FLYBY_BENCH"] != nil))
    func ffmpegThroughputBenchmark() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (w, h) = (1280, 720)
        let frame = mapLikeFrame(width: w, height: h)
        for preset in ["ultrafast", "veryfast"] {
            let writer = try FFmpegWriter(path: folder + "/\(preset).mp4", width: w, height: h, options: .init(preset: preset))
            print("ffmpeg pipe capacity: \(writer.pipeCapacity) bytes")
            let clock = ContinuousClock()
            let t0 = clock.now
            for i in 0..<120 {
                // Scroll the frame so the encoder sees motion.
                let shifted = Array(frame[(i * 4)...] + frame[..<(i * 4)])
                try writer.write(frame: shifted, index: i)
            }
            try writer.finish()
            let d = clock.now - t0
            let seconds = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/\(preset).mp4")[.size] as? Int) ?? 0
            print("ffmpeg \(preset) 1280x720 x120: \(String(format: "%.1f", 120 / seconds)) fps, \(size) bytes")
        }
        var out: [UInt8] = []
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<15 {
            let t0 = clock.now
            frame.withUnsafeBufferPointer { Y4MWriter.convert($0, width: w, height: h, chroma: .c420jpeg, matrix: .bt709, into: &out) }
            let d = clock.now - t0
            times.append(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
        }
        print("y4m convert 1280x720 C420jpeg: median \(times.sorted()[7]) ms")
    }
}

/// The ffmpeg formats beyond MP4 and GIF (issue 14): WebM (VP9), QuickTime and Matroska (H.264),
/// and JPEG snapshots; each checked by ffprobe.
@Suite(.serialized) struct FFmpegFormatTests {
    @Test(.enabled(if: ffmpegAvailable, "ffmpeg/ffprobe not installed"),
          arguments: [("clip.webm", "vp9"), ("clip.mov", "h264"), ("clip.mkv", "h264")])
    func videoFormatsAreEncodedWithTheirCodec(_ name: String, _ codec: String) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = FFmpegWriter.Options(preset: "ultrafast")
        options.input = .yuv420pBT709
        let sink = try FrameOutput(folder + "/" + name).makeSink(width: 32, height: 24, fps: 10, ffmpeg: options)
        var planes: [UInt8] = []
        for i in 0..<3 {
            let frame = gradientFrame(i, width: 32, height: 24)
            frame.withUnsafeBufferPointer { Y4MWriter.convert($0, width: 32, height: 24, chroma: .c420jpeg, matrix: .bt709, into: &planes) }
            try planes.withUnsafeBytes { try (sink as! FFmpegWriter).write(planes: $0) }
        }
        try sink.finish()
        #expect(folderContents(folder) == [name])
        let probe = try run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames",
                                                 "-show_entries", "stream=codec_name,nb_read_frames", "-of", "csv=p=0", folder + "/" + name])
        #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "\(codec),3")
    }

    @Test(.enabled(if: ffmpegAvailable, "ffmpeg/ffprobe not installed"))
    func jpegSnapshotIsOneJPEGImage() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = try ImageOutput(folder + "/shot.JPG")
        #expect(image == .jpeg(path: folder + "/shot.JPG"))
        try image.write(pixels: gradientFrame(0, width: 40, height: 30), width: 40, height: 30)
        let bytes = try #require(FileManager.default.contents(atPath: folder + "/shot.JPG"))
        #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(folderContents(folder) == ["shot.JPG"])
        #expect(throws: MediaError.self) { try ImageOutput(folder + "/shot.bmp") }
    }
}
