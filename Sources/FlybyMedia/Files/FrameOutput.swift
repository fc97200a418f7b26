#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `flyby play --out OUT` sends frames (CONTRACTS.md §1), decided from `OUT`.
public enum FrameOutput: Sendable, Equatable {
    /// `*.mp4`: H.264 through ffmpeg.
    case mp4(path: String)
    /// `*.gif`: animated GIF through ffmpeg.
    case gif(path: String)
    /// `*.y4m`: YUV4MPEG2, written by ``Y4MWriter``.
    case y4m(path: String)
    /// Anything else: a folder (existing or new) of `frame-NNNNNN.png` files.
    case pngFolder(path: String)
    /// The word `null`: render and discard (for timing).
    case null

    /// Classifies an `--out` argument by its extension (case-insensitive).
    public init(_ out: String) {
        let lower = out.lowercased()
        if out == "null" {
            self = .null
        } else if lower.hasSuffix(".mp4") {
            self = .mp4(path: out)
        } else if lower.hasSuffix(".gif") {
            self = .gif(path: out)
        } else if lower.hasSuffix(".y4m") {
            self = .y4m(path: out)
        } else {
            self = .pngFolder(path: out)
        }
    }

    /// Opens the sink for this output.
    /// - Parameters:
    ///   - width: frame width in pixels.
    ///   - height: frame height in pixels.
    ///   - fps: frames per second (whole number, as in flight scripts).
    ///   - ffmpeg: options for the ffmpeg outputs (its `fps` and `format` are replaced).
    ///   - png: the encoder for PNG folders.
    /// - Throws: ``MediaError``; ``MediaError/ffmpegNotFound(searchPath:)`` for MP4/GIF without ffmpeg.
    public func makeSink(width: Int, height: Int, fps: Int, ffmpeg: FFmpegWriter.Options = .init(),
                         png: PNGEncoder = PNGEncoder()) throws(MediaError) -> any FrameSink {
        switch self {
        case .mp4(let path), .gif(let path):
            var options = ffmpeg
            options.fps = (fps, 1)
            options.format = { if case .gif = self { return .gif } else { return .mp4 } }()
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
