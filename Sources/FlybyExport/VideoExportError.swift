import FlybyMedia

/// Why a video export stopped: one line naming the output (or the input), and what kind of
/// failure it is, so a command line can pick its exit code (docs/formats.md §1).
public struct VideoExportError: Error, Sendable, CustomStringConvertible {
    /// The kinds a caller tells apart.
    public enum Kind: Sendable, Equatable {
        /// Bad input or an output that cannot be written (the CLI's exit 2).
        case failed
        /// No ffmpeg on the search path for an ffmpeg output (exit 3); nothing was written.
        case missingProgram
        /// Stopped by a signal (exit 128 + signal); the message says what is left.
        case interrupted(signal: Int32)
    }

    public var message: String
    public var kind: Kind

    public init(_ message: String, kind: Kind = .failed) { self.message = message; self.kind = kind }

    /// A media error about `output`: no ffmpeg is ``Kind/missingProgram``, the rest
    /// ``Kind/failed``, each message naming the output and saying that nothing was written
    /// where that is so.
    public init(_ error: MediaError, output: String) {
        switch error {
        case .ffmpegNotFound:
            self.init("\(output): ffmpeg was not found on PATH (install ffmpeg, or write .y4m or a PNG folder); nothing was written",
                      kind: .missingProgram)
        case .ffmpegFailed:
            self.init("\(output): ffmpeg failed: \(error.description); nothing was written")
        case .io:
            self.init(error.description)
        default:
            self.init("\(output): \(error.description)")
        }
    }

    public var description: String { message }
}
