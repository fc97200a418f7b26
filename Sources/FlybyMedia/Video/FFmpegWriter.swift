import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes frames to H.264 MP4 (or an animated GIF) by piping raw frames into an `ffmpeg` process.
///
/// `ffmpeg` runs as a separate process, found on `PATH` (or at ``Options/executable``). Each frame's
/// premultiplied ARGB `UInt32`s are written unchanged to its standard input as `-pix_fmt bgra`
/// (that is their little-endian byte order, so no swizzle pass is needed; alpha is ignored, i.e.
/// translucent pixels appear over black). The pipe is enlarged to 1 MiB with `F_SETPIPE_SZ` where
/// the kernel allows it, which cuts the number of ffmpeg wake-ups per 720p frame from ~60 to ~4.
///
/// MP4 output: libx264, `yuv420p`, ``Options/crf`` and ``Options/preset``, BT.709 limited range
/// (converted by ffmpeg's scaler and tagged in the stream), `-movflags +faststart`. Odd frame sizes
/// are padded by one black column/row (4:2:0 needs even sizes). GIF output: a per-clip palette
/// (`palettegen` with `stats_mode=diff`, then `paletteuse` with Bayer dithering), looping forever.
///
/// ffmpeg writes to a hidden temporary file in the destination's folder; ``finish()`` renames it into
/// place only when ffmpeg exits with status 0. On any failure the temporary file is removed and the
/// error carries the tail of ffmpeg's standard error. `SIGPIPE` is set to be ignored for the whole
/// process (a dying ffmpeg must become an error, not kill us).
public final class FFmpegWriter: FrameSink {
    /// Container/codec of the output.
    public enum Format: Sendable, Equatable {
        /// H.264 (libx264) in MP4.
        case mp4
        /// Animated GIF with a generated palette.
        case gif
        /// VP9 (libvpx-vp9, constant quality) in WebM.
        case webm
        /// H.264 (libx264) in a QuickTime `.mov`.
        case mov
        /// H.264 (libx264) in Matroska `.mkv`.
        case mkv
        /// One JPEG image (MJPEG encoder, `-frames:v 1`), for snapshots.
        case jpeg

        /// Whether the encoder takes 4:2:0 BT.709 limited-range planes (the video formats but GIF).
        public var takesPlanes: Bool { self != .gif && self != .jpeg }
    }

    /// Encoding options.
    public struct Options: Sendable {
        /// Output format; by default taken from the file extension (`.gif` → GIF, else MP4).
        public var format: Format?
        /// x264 constant rate factor, 0 (lossless) … 51 (worst). 20 is visually clean for map frames.
        public var crf: Int
        /// x264 preset (`ultrafast` … `veryslow`); `veryfast` balances speed and size.
        public var preset: String
        /// Frames per second as `numerator / denominator`.
        public var fps: (numerator: Int, denominator: Int)
        /// GIF only: drop frames down to this rate (GIF delays are in 1/100 s; 25 or 20 work well).
        public var gifFPS: Int?
        /// An explicit path to the ffmpeg executable; `nil` searches ``searchPath``.
        public var executable: String?
        /// A colon-separated list of folders to search for `ffmpeg`; `nil` uses this process's `PATH`.
        public var searchPath: String?
        /// What goes down the pipe: premultiplied ARGB frames (``write(frame:index:)``, converted by
        /// ffmpeg's scaler) or, for MP4, frames already converted by ``Y4MWriter/convert(_:width:height:chroma:matrix:into:)``
        /// to 4:2:0 BT.709 limited range (``write(planes:)``), which lets the caller convert on
        /// its own threads and sends 2.7× fewer bytes.
        public var input: InputFormat = .bgra
        /// MP4 only: more output options, placed after the codec options (see ``SegmentVideo``).
        public var extraOutputArguments: [String] = []
        /// H.264 only: libx264's threads. By default one per processor, where x264 on its own
        /// takes one and a half per processor: Flyby renders the frames on the same processors
        /// while x264 encodes, and x264's extra threads only add overhead then (the Jacksboro
        /// ridge flight on two cores: 37 s of CPU and 19–19.5 s of wall time with 2 threads,
        /// 42–44 s and 22–23 s with x264's default; docs/benchmarks.md). A fixed count also
        /// makes the encoded bytes depend on it alone, not on how x264 counts processors.
        public var encoderThreads = ProcessInfo.processInfo.activeProcessorCount

        public init(format: Format? = nil, crf: Int = 20, preset: String = "veryfast",
                    fps: (numerator: Int, denominator: Int) = (60, 1), gifFPS: Int? = nil,
                    executable: String? = nil, searchPath: String? = nil) {
            self.format = format
            self.crf = crf
            self.preset = preset
            self.fps = fps
            self.gifFPS = gifFPS
            self.executable = executable
            self.searchPath = searchPath
        }
    }

    /// The pixel layout fed to ffmpeg.
    public enum InputFormat: Sendable {
        /// Premultiplied ARGB `UInt32`s (`bgra` in memory).
        case bgra
        /// Planar Y′, Cb, Cr bytes, 4:2:0 (chroma `(w+1)/2 × (h+1)/2`), BT.709, limited range. MP4 only.
        case yuv420pBT709
    }

    public let path: String
    public let width: Int, height: Int
    public let format: Format
    /// The pixel layout ``write(planes:)`` or ``write(frame:index:)`` must be given.
    public let input: InputFormat
    private let process: Process
    /// The hidden temporary output ffmpeg writes (empty when it writes the destination in place).
    private let temporaryPath: String
    /// Where the temporary output is renamed to (a symlink's target for a link to a file).
    private let renameTarget: String
    private let stderrPath: String
    private var pipeFD: Int32
    private var finished = false

    /// Starts ffmpeg.
    /// - Parameters:
    ///   - path: the output file (its folder must exist).
    ///   - width: frame width in pixels (> 0).
    ///   - height: frame height in pixels (> 0).
    /// - Throws: ``MediaError/ffmpegNotFound(searchPath:)`` when there is no ffmpeg;
    ///   ``MediaError/ffmpegFailed(status:stderrTail:)`` when it cannot be started;
    ///   ``MediaError/io(operation:path:errno:)`` when the output folder is not writable.
    public init(path: String, width: Int, height: Int, options: Options = Options()) throws(MediaError) {
        guard width > 0, height > 0 else { throw .invalidArgument("frame size \(width)×\(height) must be positive") }
        guard options.fps.numerator > 0, options.fps.denominator > 0 else {
            throw .invalidArgument("frame rate \(options.fps.numerator)/\(options.fps.denominator) must be positive")
        }
        guard (0...51).contains(options.crf) else { throw .invalidArgument("CRF \(options.crf) is outside 0…51") }
        let searchPath = options.searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let executable = options.executable ?? FFmpegWriter.findExecutable("ffmpeg", searchPath: searchPath) else {
            throw .ffmpegNotFound(searchPath: searchPath)
        }
        guard access(executable, X_OK) == 0 else { throw .ffmpegNotFound(searchPath: executable) }
        self.path = path
        self.width = width
        self.height = height
        format = options.format ?? FFmpegWriter.format(forPath: path) ?? .mp4
        input = options.input
        guard input == .bgra || format.takesPlanes else { throw .invalidArgument("Y′CbCr input is not for GIF or JPEG output") }

        // A device, FIFO or standard output is written in place (ffmpeg opens it itself); a file
        // goes through a hidden temporary name renamed on success (see AtomicFileWriter).
        let destination = try AtomicFileWriter.classify(path)
        let ffmpegOutput: String, temporary: String
        switch destination {
        case .replace(let target):
            let (made, tempFD) = try AtomicFileWriter.makeTemporary(for: target)
            close(tempFD)  // ffmpeg opens it by name and overwrites it (-y)
            temporary = made
            renameTarget = target
            ffmpegOutput = made
        case .special:
            temporary = ""; renameTarget = path; ffmpegOutput = path
        case .standardOutput:
            temporary = ""; renameTarget = path; ffmpegOutput = "pipe:1"
        }
        temporaryPath = temporary
        var stderrTemplate = Array(((ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/flyby-ffmpeg-XXXXXX").utf8CString)
        let stderrFD = stderrTemplate.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        stderrPath = String(decoding: stderrTemplate.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard stderrFD >= 0 else {
            let e = errno
            FFmpegWriter.removeTemporary(temporary)
            throw .io(operation: "create temporary file", path: stderrPath, errno: e)
        }
        CleanupRegistry.shared.add(path: stderrPath)
        var fds: [Int32] = [-1, -1]
        // pipe2(O_CLOEXEC) is not exported to Swift; set close-on-exec right after pipe(). The write end
        // must not leak into ffmpeg, or ffmpeg would never see end-of-file.
        guard pipe(&fds) == 0, fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0 else {
            let e = errno
            FFmpegWriter.removeTemporary(temporary); close(stderrFD); FFmpegWriter.removeTemporary(stderrPath)
            throw .io(operation: "pipe", path: path, errno: e)
        }
        pipeFD = fds[1]
        _ = fcntl(fds[1], 1031 /* F_SETPIPE_SZ, not exported by Glibc */, Int32(1 << 20))
        _ = signal(SIGPIPE, SIG_IGN)

        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = FFmpegWriter.arguments(width: width, height: height, format: format, options: options,
                                                   output: ffmpegOutput)
        process.standardInput = FileHandle(fileDescriptor: fds[0], closeOnDealloc: false)
        process.standardOutput = destination == .standardOutput ? FileHandle.standardOutput : FileHandle.nullDevice
        process.standardError = FileHandle(fileDescriptor: stderrFD, closeOnDealloc: false)
        do {
            try process.run()
        } catch {
            close(fds[0]); close(fds[1]); close(stderrFD)
            FFmpegWriter.removeTemporary(temporary); FFmpegWriter.removeTemporary(stderrPath)
            finished = true
            throw .ffmpegFailed(status: -1, stderrTail: "could not start \(executable): \(error)")
        }
        CleanupRegistry.shared.add(child: process.processIdentifier)
        // The child has its own copies now; ours must go so that ffmpeg sees end-of-file.
        close(fds[0])
        close(stderrFD)
    }

    deinit {
        cancel()
    }

    /// The capacity of the pipe into ffmpeg in bytes (`F_GETPIPE_SZ`), or -1 once it is closed.
    public var pipeCapacity: Int {
        pipeFD >= 0 ? Int(fcntl(pipeFD, 1032 /* F_GETPIPE_SZ */)) : -1
    }

    /// The ffmpeg command-line arguments (without the program name).
    static func arguments(width: Int, height: Int, format: Format, options: Options, output: String) -> [String] {
        #if _endian(little)
        var pixelFormat = "bgra"
        #else
        var pixelFormat = "argb"
        #endif
        let planar = options.input == .yuv420pBT709
        if planar { pixelFormat = "yuv420p" }
        var args = ["-hide_banner", "-loglevel", "error", "-y",
                    "-f", "rawvideo", "-pix_fmt", pixelFormat, "-s", "\(width)x\(height)",
                    "-framerate", "\(options.fps.numerator)/\(options.fps.denominator)", "-i", "pipe:0", "-an"]
        switch format {
        case .mp4, .mov, .mkv, .webm:
            var filters: [String] = []
            if width % 2 != 0 || height % 2 != 0 { filters.append("pad=ceil(iw/2)*2:ceil(ih/2)*2") }
            if !planar {
                filters.append("scale=out_color_matrix=bt709:out_range=tv")
                filters.append("format=yuv420p")
            }
            if !filters.isEmpty { args += ["-vf", filters.joined(separator: ",")] }
            if format == .webm {
                // VP9 constant quality: its CRF scale is 0…63; x264's 0…51 maps onto it linearly.
                let vp9CRF = (options.crf * 63 + 25) / 51
                args += ["-c:v", "libvpx-vp9", "-crf", String(vp9CRF), "-b:v", "0", "-row-mt", "1",
                         "-deadline", "good", "-cpu-used", "4"]
            } else {
                args += ["-c:v", "libx264", "-preset", options.preset, "-crf", String(options.crf),
                         "-threads", String(max(1, options.encoderThreads))]
            }
            args += ["-pix_fmt", "yuv420p",
                     "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
            args += options.extraOutputArguments
            switch format {
            case .mp4: args += ["-movflags", "+faststart", "-f", "mp4"]
            case .mov: args += ["-movflags", "+faststart", "-f", "mov"]
            case .mkv: args += ["-f", "matroska"]
            default: args += ["-f", "webm"]
            }
            args.append(output)
        case .jpeg:
            args += ["-vf", "scale=out_color_matrix=bt601:out_range=pc,format=yuvj444p", "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "2",
                     "-f", "image2", "-update", "1", output]
        case .gif:
            let rate = options.gifFPS.map { "fps=\($0)," } ?? ""
            args += ["-vf", "\(rate)split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=3",
                     "-loop", "0", "-f", "gif", output]
        }
        return args
    }

    /// The format for a file name's extension (case-insensitive), or nil when ffmpeg output does
    /// not cover it: `.mp4`, `.gif`, `.webm`, `.mov`, `.mkv`, `.jpg`/`.jpeg`.
    public static func format(forPath path: String) -> Format? {
        let lower = path.lowercased()
        let table: [(String, Format)] = [(".mp4", .mp4), (".gif", .gif), (".webm", .webm), (".mov", .mov),
                                         (".mkv", .mkv), (".jpg", .jpeg), (".jpeg", .jpeg)]
        return table.first { lower.hasSuffix($0.0) }?.1
    }

    /// The first executable file named `name` in the colon-separated folder list `searchPath`.
    public static func findExecutable(_ name: String, searchPath: String) -> String? {
        for folder in searchPath.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = String(folder) + (folder.hasSuffix("/") ? "" : "/") + name
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Whether an `ffmpeg` executable is on this process's `PATH`.
    public static var isAvailable: Bool {
        findExecutable("ffmpeg", searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "") != nil
    }

    /// Writes one frame already converted to planar 4:2:0 (``InputFormat/yuv420pBT709``).
    public func write(planes: UnsafeRawBufferPointer) throws(MediaError) {
        precondition(!finished, "FFmpegWriter used after finish() or cancel()")
        guard input == .yuv420pBT709 else { throw .invalidArgument("this writer takes ARGB frames") }
        let expected = Y4MWriter.planeBytes(width: width, height: height, chroma: .c420jpeg)
        guard planes.count == expected else { throw .invalidArgument("frame has \(planes.count) bytes, expected \(expected)") }
        do {
            try AtomicFileWriter.writeAll(pipeFD, planes, path: "ffmpeg stdin")
        } catch {
            throw fail(fallback: error.description)
        }
    }

    /// True for a writer made with ``InputFormat/yuv420pBT709`` (see ``FrameSink/takesPlanes``).
    public var takesPlanes: Bool { input == .yuv420pBT709 }

    /// ``write(planes:)`` for the ``FrameSink`` protocol (a stream takes frames in call order).
    public func write(planes: UnsafeRawBufferPointer, index: Int) throws(MediaError) { try write(planes: planes) }

    public func write(frame: UnsafeBufferPointer<UInt32>, index: Int) throws(MediaError) {
        precondition(!finished, "FFmpegWriter used after finish() or cancel()")
        guard input == .bgra else { throw .invalidArgument("this writer takes Y′CbCr planes") }
        try checkFrame(frame, width: width, height: height)
        do {
            try AtomicFileWriter.writeAll(pipeFD, UnsafeRawBufferPointer(frame), path: "ffmpeg stdin")
        } catch {
            // Most likely EPIPE: ffmpeg has exited. Report what it said.
            throw fail(fallback: error.description)
        }
    }

    /// Closes ffmpeg's input, waits for it to finish and renames the output into place.
    public func finish() throws(MediaError) {
        guard !finished else { return }
        close(pipeFD)
        pipeFD = -1
        process.waitUntilExit()
        let status = process.terminationStatus
        guard process.terminationReason == .exit, status == 0 else {
            throw fail(fallback: "")
        }
        finished = true
        CleanupRegistry.shared.remove(child: process.processIdentifier)
        FFmpegWriter.removeTemporary(stderrPath)
        guard !temporaryPath.isEmpty else { return }
        CleanupRegistry.shared.remove(path: temporaryPath)
        try AtomicFileWriter.rename(temporaryPath, to: renameTarget)
    }

    /// Stops ffmpeg and removes the temporary output.
    public func cancel() {
        guard !finished else { return }
        finished = true
        if pipeFD >= 0 { close(pipeFD); pipeFD = -1 }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        CleanupRegistry.shared.remove(child: process.processIdentifier)
        FFmpegWriter.removeTemporary(temporaryPath)
        FFmpegWriter.removeTemporary(stderrPath)
    }

    /// Removes a temporary file this writer made and forgets it in ``CleanupRegistry``.
    static func removeTemporary(_ path: String) {
        guard !path.isEmpty else { return }
        unlink(path)
        CleanupRegistry.shared.remove(path: path)
    }

    /// Stops ffmpeg, cleans up and builds the error from ffmpeg's stderr.
    private func fail(fallback: String) -> MediaError {
        if pipeFD >= 0 { close(pipeFD); pipeFD = -1 }
        process.waitUntilExit()
        let status = process.terminationStatus
        var tail = FFmpegWriter.tail(ofFile: stderrPath)
        if tail.isEmpty { tail = fallback }
        finished = true
        CleanupRegistry.shared.remove(child: process.processIdentifier)
        FFmpegWriter.removeTemporary(temporaryPath)
        FFmpegWriter.removeTemporary(stderrPath)
        return .ffmpegFailed(status: status == 0 ? -1 : status, stderrTail: tail)
    }

    /// The last (at most) 10 lines / 2000 characters of a text file, lines joined with " | ".
    static func tail(ofFile path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        let text = String(decoding: data.suffix(4000), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return String(lines.suffix(10).joined(separator: " | ").suffix(2000))
    }
}
