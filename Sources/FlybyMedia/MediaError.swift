#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An error raised while encoding, decoding or writing images and video.
///
/// Every case carries enough context for the command-line tool to print it as one line
/// (`flyby: error: <description>`). ``ffmpegNotFound(searchPath:)`` is kept distinct so that the
/// tool can map it to exit code 3 ("missing external program").
public enum MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A zlib call failed. `function` is the C function name, `code` its return value.
    case zlib(function: String, code: Int32, message: String)
    /// The PNG data is malformed (bad signature, bad CRC, truncated chunk, inconsistent sizes…).
    case invalidPNG(String)
    /// The PNG is well formed but uses a feature this decoder does not read (for example interlacing).
    case unsupportedPNG(String)
    /// A JPEG or WebP image (or data of no known image format) could not be decoded; the text
    /// names the format and the reason (``TileImageDecoder``).
    case invalidImage(String)
    /// A file-system call failed. `errno` is the C error number.
    case io(operation: String, path: String, errno: Int32)
    /// A caller passed an argument the encoder cannot represent (zero size, pixel count mismatch…).
    case invalidArgument(String)
    /// No executable named `ffmpeg` was found (in `searchPath`, a colon-separated `PATH`).
    case ffmpegNotFound(searchPath: String)
    /// `ffmpeg` could not be started, stopped early or exited with a non-zero status.
    /// `stderrTail` is the last lines ffmpeg wrote to its standard error.
    case ffmpegFailed(status: Int32, stderrTail: String)

    public var description: String {
        switch self {
        case .zlib(let function, let code, let message):
            return "zlib \(function) failed (code \(code)): \(message)"
        case .invalidPNG(let reason):
            return "invalid PNG: \(reason)"
        case .unsupportedPNG(let reason):
            return "unsupported PNG: \(reason)"
        case .invalidImage(let reason):
            return "invalid image: \(reason)"
        case .io(let operation, let path, let code):
            return "\(path): \(operation) failed: \(MediaError.systemMessage(code))"
        case .invalidArgument(let reason):
            return "invalid argument: \(reason)"
        case .ffmpegNotFound(let searchPath):
            return "ffmpeg not found in PATH (\(searchPath)); install ffmpeg (Debian: apt-get install ffmpeg)"
        case .ffmpegFailed(let status, let tail):
            let trimmed = tail.isEmpty ? "no output on stderr" : tail
            return "ffmpeg failed (status \(status)): \(trimmed)"
        }
    }

    /// The C library's message for an `errno` value.
    static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}

/// `array.withUnsafeBytes` for a body with typed throws (the standard library's version rethrows
/// `any Error`).
func withBytes<R>(_ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(MediaError) -> R) throws(MediaError) -> R {
    var result: Result<R, MediaError>?
    array.withUnsafeBytes { raw in result = Result { () throws(MediaError) in try body(raw) } }
    return try result!.get()
}
