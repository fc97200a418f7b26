import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encoding, probing and joining the MP4 segments of a render farm (issue 20).
///
/// Every segment is its own ffmpeg run with the same settings, so it starts with an IDR frame;
/// `-flags +cgop` keeps every GOP closed, and a fixed MP4 time scale of fps × 1000 gives every
/// segment the same time base. Segments are then joined by ffmpeg's concat demuxer
/// (https://ffmpeg.org/ffmpeg-formats.html#concat-1) with stream copy: no re-encoding, and the
/// demuxer shifts each file's timestamps to follow the previous one.
public enum SegmentVideo {
    /// ffmpeg output options added to a segment's MP4 encode (after the codec options).
    /// - Parameters:
    ///   - fps: frames per second (whole).
    ///   - tag: text stored as the MP4 `comment` tag, read back by ``probe(_:searchPath:)``.
    public static func outputArguments(fps: Int, tag: String) -> [String] {
        ["-flags", "+cgop", "-video_track_timescale", String(fps * 1000), "-metadata", "comment=\(tag)"]
    }

    /// What ffprobe says about one video file's first video stream.
    public struct Probe: Sendable, Equatable {
        public var codec = ""
        public var width = 0, height = 0
        public var pixelFormat = ""
        /// `r_frame_rate`, e.g. `30/1`.
        public var frameRate = ""
        /// Stream time base, e.g. `1/30000`.
        public var timeBase = ""
        /// Frames recorded in the container (`nb_frames`), -1 when absent.
        public var frameCount = -1
        /// Whether the first packet is a key frame.
        public var startsWithKeyFrame = false
        /// The container's `comment` tag.
        public var comment = ""
        /// What ffprobe printed on stderr (damage it noticed); empty for a clean file.
        public var problems = ""
    }

    /// Probes `path` with ffprobe (found on `searchPath`).
    /// - Throws: ``MediaError/ffmpegNotFound(searchPath:)`` without ffprobe.
    public static func probe(_ path: String, searchPath: String) throws(MediaError) -> Probe {
        let r = try runTool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1",
                                        "-show_entries", "stream=codec_name,width,height,pix_fmt,r_frame_rate,time_base,nb_frames:format_tags=comment:packet=flags",
                                        "-of", "default=nw=1", path], searchPath: searchPath)
        var p = Probe()
        p.problems = r.status == 0 ? r.stderr : "ffprobe exit \(r.status): " + r.stderr
        var sawPacket = false
        for line in r.stdout.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq], value = String(line[line.index(after: eq)...])
            switch key {
            case "codec_name": p.codec = value
            case "width": p.width = Int(value) ?? 0
            case "height": p.height = Int(value) ?? 0
            case "pix_fmt": p.pixelFormat = value
            case "r_frame_rate": p.frameRate = value
            case "time_base": p.timeBase = value
            case "nb_frames": p.frameCount = Int(value) ?? -1
            case "TAG:comment": p.comment = value
            case "flags" where !sawPacket:
                sawPacket = true
                p.startsWithKeyFrame = value.hasPrefix("K")
            default: break
            }
        }
        return p
    }

    /// Probes several files at once (one ffprobe per core at a time: ffprobe's start-up, not
    /// its reading, is most of its time). Results are in the order of `paths`.
    public static func probeAll(_ paths: [String], searchPath: String) -> [Result<Probe, MediaError>] {
        let results = Mutex([Result<Probe, MediaError>?](repeating: nil, count: paths.count))
        DispatchQueue.concurrentPerform(iterations: paths.count) { i in
            let r = Result { () throws(MediaError) in try probe(paths[i], searchPath: searchPath) }
            results.withLock { $0[i] = r }
        }
        return results.withLock { $0.map { $0! } }
    }

    /// Joins MP4 files into `output` with the concat demuxer and stream copy. The output is
    /// written to a temporary name beside it and renamed into place only when ffmpeg succeeds and
    /// the result has `expectedFrames` frames; otherwise nothing is left under `output`.
    /// - Parameters:
    ///   - inputs: absolute or relative paths, in play order.
    ///   - tag: the joined file's `comment` tag.
    public static func join(_ inputs: [String], to output: String, expectedFrames: Int, tag: String,
                            searchPath: String) throws(MediaError) {
        let (temporary, fd) = try AtomicFileWriter.makeTemporary(for: output)
        close(fd)
        var list = "ffconcat version 1.0\n"
        for input in inputs {
            let absolute = input.hasPrefix("/") ? input : FileManager.default.currentDirectoryPath + "/" + input
            list += "file '" + absolute.replacingOccurrences(of: "'", with: "'\\''") + "'\n"
        }
        let listPath = temporary + ".ffconcat"
        do {
            try AtomicFileWriter.write(Array(list.utf8), to: listPath)
        } catch {
            unlink(temporary)
            throw error
        }
        defer { unlink(listPath) }
        do throws(MediaError) {
            let r = try runTool("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", listPath,
                                           "-map", "0:v:0", "-c", "copy", "-map_metadata", "-1", "-metadata", "comment=\(tag)",
                                           "-movflags", "+faststart", "-f", "mp4", temporary], searchPath: searchPath)
            guard r.status == 0 else { throw MediaError.ffmpegFailed(status: r.status, stderrTail: lastLines(r.stderr)) }
            let probe = try SegmentVideo.probe(temporary, searchPath: searchPath)
            guard probe.frameCount == expectedFrames else {
                throw MediaError.invalidArgument("the joined video has \(probe.frameCount) frames, expected \(expectedFrames)")
            }
            try AtomicFileWriter.rename(temporary, to: output)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// The last ten lines of a tool's stderr, joined with " | ".
    static func lastLines(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).suffix(10).joined(separator: " | ")
    }

    /// Runs a tool found on `searchPath` to completion; returns its status, stdout and stderr
    /// (each read through a temporary file, so a chatty tool never blocks on a full pipe).
    static func runTool(_ name: String, _ arguments: [String], searchPath: String) throws(MediaError) -> (status: Int32, stdout: String, stderr: String) {
        guard let executable = FFmpegWriter.findExecutable(name, searchPath: searchPath) else { throw .ffmpegNotFound(searchPath: searchPath) }
        let tmp = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let (outPath, outFD) = try AtomicFileWriter.makeTemporary(for: tmp + "/flyby-\(name)-stdout")
        let errPath: String, errFD: Int32
        do { (errPath, errFD) = try AtomicFileWriter.makeTemporary(for: tmp + "/flyby-\(name)-stderr") } catch {
            close(outFD); unlink(outPath)
            throw error
        }
        let outHandle = FileHandle(fileDescriptor: outFD, closeOnDealloc: true)
        let errHandle = FileHandle(fileDescriptor: errFD, closeOnDealloc: true)
        defer { unlink(outPath); unlink(errPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle
        do {
            try process.run()
        } catch {
            throw .ffmpegFailed(status: -1, stderrTail: "could not start \(executable): \(error)")
        }
        process.waitUntilExit()
        let out = FileManager.default.contents(atPath: outPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let err = FileManager.default.contents(atPath: errPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return (process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus, out, err)
    }
}
