#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `flyby play --out OUT` sends frames (docs/formats.md §1), decided from `OUT`.
///
/// The format policy lives here, not in the command line: a known extension picks a stream, an
/// existing folder, a trailing `/` or a name without an extension is a PNG folder, `-` is a Y4M
/// stream on standard output, and any other extension is refused naming the supported ones —
/// never a folder of PNGs by surprise.
public enum FrameOutput: Sendable, Equatable {
    /// `*.mp4`: H.264 through ffmpeg.
    case mp4(path: String)
    /// `*.gif`: animated GIF through ffmpeg.
    case gif(path: String)
    /// `*.y4m`, `-` (standard output), or an existing FIFO or device without a known extension:
    /// YUV4MPEG2, written by ``Y4MWriter``.
    case y4m(path: String)
    /// `*.webm`, `*.mov`, `*.mkv`: VP9 in WebM, H.264 in QuickTime or Matroska, through ffmpeg.
    case video(path: String, format: FFmpegWriter.Format)
    /// An existing folder, a path ending in `/`, or a new name without an extension: a folder of
    /// `frame-NNNNNN.png` files.
    case pngFolder(path: String)
    /// The word `null`: render and discard (for timing).
    case null

    /// What `--out` accepts, for error messages.
    public static let supported = "a video (.mp4, .webm, .mov, .mkv, .gif), a .y4m stream ('-' for standard output), "
        + "a folder of PNG frames (an existing folder, or a name without an extension), or 'null'"

    /// Classifies an `--out` argument by its extension (case-insensitive).
    /// - Throws: ``MediaError/invalidArgument(_:)`` for an extension no output covers (a `.jpg` or
    ///   `.png` is one image: `flyby snapshot` writes those).
    public init(_ out: String) throws(MediaError) {
        let lower = out.lowercased()
        var info = stat()
        if out == "null" {
            self = .null
        } else if out == "-" || lower.hasSuffix(".y4m") {
            self = .y4m(path: out)
        } else if let format = FFmpegWriter.format(forPath: out), format != .jpeg {
            switch format {
            case .mp4: self = .mp4(path: out)
            case .gif: self = .gif(path: out)
            default: self = .video(path: out, format: format)
            }
        } else if out.hasSuffix("/") || (stat(out, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR) {
            self = .pngFolder(path: out)
        } else if AtomicFileWriter.writesInPlace(out) {
            // A FIFO or device (`>(ffplay -)`, /dev/null): a Y4M stream, written in place.
            self = .y4m(path: out)
        } else if let ext = FrameOutput.fileExtension(out) {
            let image = ["jpg", "jpeg", "png"].contains(ext.lowercased()) ? " ('flyby snapshot' writes one .png or .jpg image)" : ""
            throw .invalidArgument("'\(out)': flyby cannot write .\(ext) frames\(image); --out takes \(FrameOutput.supported)")
        } else {
            self = .pngFolder(path: out)
        }
    }

    /// The extension of the last path component (`clip.mov` → `mov`), nil when there is none.
    static func fileExtension(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// Whether the output is a stream with one frame rate (a whole number of frames per second).
    public var needsWholeFPS: Bool {
        switch self {
        case .mp4, .gif, .y4m, .video: return true
        case .pngFolder, .null: return false
        }
    }

    /// Whether the sink takes 4:2:0 BT.709 planes converted by the render threads (see
    /// ``FFmpegWriter/InputFormat/yuv420pBT709``): the ffmpeg video outputs but GIF.
    public var takesPlanes: Bool {
        switch self {
        case .mp4, .video: return true
        default: return false
        }
    }

    /// Opens the sink for this output.
    /// - Parameters:
    ///   - width: frame width in pixels.
    ///   - height: frame height in pixels.
    ///   - fps: frames per second (whole number, as in flight scripts).
    ///   - ffmpeg: options for the ffmpeg outputs (its `fps` and `format` are replaced).
    ///   - png: the encoder for PNG folders.
    /// - Throws: ``MediaError``; ``MediaError/ffmpegNotFound(searchPath:)`` for ffmpeg outputs without ffmpeg.
    public func makeSink(width: Int, height: Int, fps: Int, ffmpeg: FFmpegWriter.Options = .init(),
                         png: PNGEncoder = PNGEncoder()) throws(MediaError) -> any FrameSink {
        var options = ffmpeg
        options.fps = (fps, 1)
        switch self {
        case .mp4(let path):
            options.format = .mp4
            return try FFmpegWriter(path: path, width: width, height: height, options: options)
        case .gif(let path):
            options.format = .gif
            options.input = .bgra
            return try FFmpegWriter(path: path, width: width, height: height, options: options)
        case .video(let path, let format):
            options.format = format
            return try FFmpegWriter(path: path, width: width, height: height, options: options)
        case .y4m(let path):
            return try Y4MWriter(path: path, width: width, height: height, fps: (fps, 1))
        case .pngFolder(let path):
            return try PNGFolderWriter(directory: path, width: width, height: height, encoder: png)
        case .null:
            return NullFrameSink()
        }
    }
}

/// What `flyby snapshot --out FILE` writes: a PNG (encoded here) or a JPEG (through ffmpeg).
public enum ImageOutput: Sendable, Equatable {
    case png(path: String)
    case jpeg(path: String)

    /// Classifies by extension; anything but `.png`, `.jpg`, `.jpeg` (or `-`, a PNG on standard
    /// output) is refused naming those.
    public init(_ out: String) throws(MediaError) {
        let lower = out.lowercased()
        if out == "-" || lower.hasSuffix(".png") {
            self = .png(path: out)
        } else if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") {
            self = .jpeg(path: out)
        } else {
            throw .invalidArgument("'\(out)': a snapshot is a .png or .jpg (.jpeg) file, or '-' for a PNG on standard output")
        }
    }

    /// Writes one premultiplied ARGB frame.
    /// - Throws: ``MediaError``; ``MediaError/ffmpegNotFound(searchPath:)`` for JPEG without ffmpeg.
    public func write(pixels: [UInt32], width: Int, height: Int, searchPath: String? = nil) throws(MediaError) {
        switch self {
        case .png(let path):
            let png = try PNGEncoder(compressionLevel: 9).encode(pixels: pixels, width: width, height: height)
            try AtomicFileWriter.write(png, to: path)
        case .jpeg(let path):
            var options = FFmpegWriter.Options(format: .jpeg)
            options.searchPath = searchPath
            let writer = try FFmpegWriter(path: path, width: width, height: height, options: options)
            do {
                try writer.write(frame: pixels, index: 0)
                try writer.finish()
            } catch {
                writer.cancel()
                throw error
            }
        }
    }
}

/// Discards frames (for `--out null` timing runs). Counts them.
public final class NullFrameSink: FrameSink {
    /// Frames received so far.
    public private(set) var frameCount = 0

    public init() {}

    public func write(frame: UnsafeBufferPointer<UInt32>, index: Int) throws(MediaError) {
        frameCount += 1
    }

    public func finish() throws(MediaError) {}

    public func cancel() {}
}

extension PNGDecoder {
    /// Reads and decodes a PNG file.
    /// - Throws: ``MediaError/io(operation:path:errno:)`` if the file cannot be read, else as ``decode(_:)-([UInt8])``.
    public static func decode(contentsOfFile path: String) throws(MediaError) -> PNGImage {
        guard let file = fopen(path, "rb") else { throw .io(operation: "open", path: path, errno: errno) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { bytes += chunk[0..<n] }
            if n < chunk.count {
                if ferror(file) != 0 { throw .io(operation: "read", path: path, errno: EIO) }
                break
            }
        }
        do {
            return try decode(bytes)
        } catch .invalidPNG(let reason) {
            throw .invalidPNG("\(path): \(reason)")
        } catch .unsupportedPNG(let reason) {
            throw .unsupportedPNG("\(path): \(reason)")
        } catch {
            throw error
        }
    }
}
