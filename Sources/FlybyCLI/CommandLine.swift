import FlybyCore
import FlybyData
import FlybyFlight
import FlybyMedia
import FlybyTiles
import Foundation

/// A failure the command line reports as `flyby: error: …` with an exit code (docs/formats.md §1).
public struct CommandError: Error, CustomStringConvertible {
    public var message: String
    /// 1 check failed, 2 bad usage or input, 3 missing program or device.
    public var exitCode: Int32
    public init(_ message: String, exitCode: Int32 = 2) { self.message = message; self.exitCode = exitCode }
    public var description: String { message }
}

/// Where a command writes: real stdout/stderr, or buffers in tests.
public final class CommandOutput {
    public private(set) var stdoutBytes: [UInt8] = []
    public private(set) var stderrText = ""
    let captures: Bool
    /// The environment commands see (`PATH` for finding ffmpeg); tests may change it.
    public var environment: [String: String] = ProcessInfo.processInfo.environment

    /// - Parameter captures: true to keep output in memory (tests), false to write to the terminal.
    public init(captures: Bool) { self.captures = captures }

    /// The first failed write to standard output (the command then exits 2 naming it).
    public private(set) var stdoutError: MediaError?
    /// Standard output through the one output writer (written in place, never replaced).
    private lazy var stdout: AtomicFileWriter? = try? AtomicFileWriter(path: "-")

    public func write(_ bytes: [UInt8]) {
        if captures { stdoutBytes.append(contentsOf: bytes); return }
        guard stdoutError == nil, let stdout else { return }
        do { try stdout.write(bytes) } catch { stdoutError = error }
    }

    public func print(_ text: String) { write(Array((text + "\n").utf8)) }

    public func error(_ text: String) {
        if captures { stderrText += text + "\n"; return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A warning: valid input that is probably a mistake; the command goes on (exit status
    /// unchanged). One line on stderr, `flyby: warning: …`.
    public func warn(_ text: String) { error("flyby: warning: \(text)") }

    /// stdout as text (tests).
    public var stdoutText: String { String(decoding: stdoutBytes, as: UTF8.self) }
}

/// The `flyby` command (docs/formats.md §1). All logic is here so tests can run commands in-process.
public enum FlybyCommandLine {
    public static let version = "0.1.0"

    /// Runs `flyby` with `arguments` (without the program name) writing to the real terminal.
    public static func main(arguments: [String]) -> Int32 {
        Interruption.install()
        return run(arguments: arguments, output: CommandOutput(captures: false))
    }

    /// Runs a command; returns the exit code. Errors are printed as one `flyby: error:` line.
    public static func run(arguments: [String], output: CommandOutput) -> Int32 {
        do {
            try dispatch(arguments, output)
            if let e = output.stdoutError { throw CommandError(e.description) }
            return 0
        } catch let e as CommandError {
            if !e.message.isEmpty { output.error("flyby: error: \(InputError.escaped(e.message))") }  // empty: the command printed its result
            return e.exitCode
        } catch let e as InputError {
            output.error("flyby: error: \(e.description)")
            return 2
        } catch let e as TileError {
            output.error("flyby: error: \(e.description)")
            return 2
        } catch {
            output.error("flyby: error: \(InputError.escaped(String(describing: error)))")
            return 2
        }
    }

    /// `flyby ARGS`: the command named by the first word (``CommandRegistry``), `flyby` alone
    /// being `flyby window` on the world style (docs/formats.md §1).
    static func dispatch(_ args: [String], _ out: CommandOutput) throws {
        guard let first = args.first else { try CommandRegistry.run(WindowCommand.self, [], out); return }
        let rest = Array(args.dropFirst())
        switch first {
        case "--help", "-h": out.print(CommandHelp.usage()); return
        case "--version": out.print("flyby \(version)"); return
        case "help": try HelpCommand.show(rest, out); return
        default: break
        }
        guard let command = CommandRegistry.command(named: first) else {
            if first.hasPrefix("-") { throw CommandError("unknown option '\(first)' (see 'flyby help')") }
            throw CommandError("unknown command '\(first)' (see 'flyby help')")
        }
        // `flyby <command> … --help` answers for every command, as `flyby help <command>` does.
        if rest.contains("--help") || rest.contains("-h") {
            out.print(CommandHelp.help(for: command))
            return
        }
        try CommandRegistry.run(command, rest, out)
    }
}

/// Reads a whole file, or throws an `InputError` naming it (size-limited, see `FileInput`).
func readFile(_ path: String) throws -> [UInt8] { try FileInput.read(path) }

/// Writes `bytes` to `path` through the one output writer (``AtomicFileWriter``: a file is
/// replaced atomically, a device, FIFO or `-` is written in place); a failure names the output.
func writeOutput(_ path: String, _ bytes: [UInt8]) throws {
    do {
        try AtomicFileWriter.write(bytes, to: path)
    } catch {
        throw outputError(error, path)
    }
}

/// A media error about output `path` as a one-line command error (`io` errors already name it).
func outputError(_ error: MediaError, _ path: String) -> CommandError {
    CommandError(AtomicFileWriter.failureMessage(error, writing: path))
}
