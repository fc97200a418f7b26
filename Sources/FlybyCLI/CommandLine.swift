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

    static let commands: [(name: String, summary: String)] = [
        ("window", "the interactive map window (the default command)"),
        ("trace", "run a flight script without rendering and write its camera trace"),
        ("play", "render every frame of a flight or trace to MP4, GIF, Y4M or PNG frames"),
        ("snapshot", "render one frame to a PNG"),
        ("diff", "compare two traces within a tolerance"),
        ("plot", "chart zoom, pitch, bearing, speed and viewport of a trace (PNG or SVG)"),
        ("bench", "print benchmark figures (bench sim, bench render)"),
        ("soak", "run a seeded random walk through the engine, checking invariants every tick"),
        ("tiles", "inspect a tile archive (tiles info) or print one vector tile as GeoJSON (tiles decode)"),
        ("join", "join the MP4 segments of a render farm into one video (no re-encoding)"),
        ("plan", "print a render farm's shards as JSON lines, balanced by estimated cost"),
        ("farm-status", "how many frames and segments of a segmented render are done"),
        ("help", "show help for a command"),
    ]

    static func dispatch(_ args: [String], _ out: CommandOutput) throws {
        // `flyby` alone is `flyby window` on the world style (docs/formats.md §1).
        guard let first = args.first else { try WindowCommand.run([], out); return }
        let rest = Array(args.dropFirst())
        // `flyby <command> --help` answers for every command, as `flyby help <command>` does.
        if first != "help" && commands.contains(where: { $0.name == first }) && (rest.contains("--help") || rest.contains("-h")) {
            out.print(try help(for: first))
            return
        }
        switch first {
        case "--help", "-h": out.print(usage())
        case "--version": out.print("flyby \(version)")
        case "help":
            if let c = rest.first, c != "--help", c != "-h" { out.print(try help(for: c)) } else { out.print(usage()) }
        case "trace": try TraceCommand.run(rest, out)
        case "diff": try DiffCommand.run(rest, out)
        case "bench": try BenchCommand.run(rest, out)
        case "soak": try SoakCommand.run(rest, out)
        case "tiles": try TilesCommand.run(rest, out)
        case "play": try PlayCommand.run(rest, out)
        case "plot": try PlotCommand.run(rest, out)
        case "snapshot": try SnapshotCommand.run(rest, out)
        case "window": try WindowCommand.run(rest, out)
        case "join": try JoinCommand.run(rest, out)
        case "plan": try PlanCommand.run(rest, out)
        case "farm-status": try FarmStatusCommand.run(rest, out)
        default:
            if first.hasPrefix("-") { throw CommandError("unknown option '\(first)' (see 'flyby help')") }
            throw CommandError("unknown command '\(first)' (see 'flyby help')")
        }
    }

    static func usage() -> String {
        var s = """
        flyby \(version) — camera animation and viewport simulation for maps

        usage: flyby <command> [options]

        commands:

        """
        for c in commands { s += "  " + c.name.padding(toLength: 10, withPad: " ", startingAt: 0) + c.summary + "\n" }
        s += """

        'flyby help <command>' shows a command's options. Exit codes: 0 success, 1 a check failed,
        2 bad usage or input, 3 a missing program or device.
        """
        return s
    }

    static func help(for command: String) throws -> String {
        switch command {
        case "trace": return TraceCommand.help
        case "diff": return DiffCommand.help
        case "bench": return BenchCommand.help
        case "soak": return SoakCommand.help
        case "tiles": return TilesCommand.help
        case "window": return WindowCommand.help
        case "play": return PlayCommand.help
        case "snapshot": return SnapshotCommand.help
        case "plot": return PlotCommand.help
        case "join": return JoinCommand.help
        case "plan": return PlanCommand.help
        case "farm-status": return FarmStatusCommand.help
        case "help": return "usage: flyby help [COMMAND]"
        default: throw CommandError("unknown command '\(command)' (see 'flyby help')")
        }
    }
}

/// Parsed options of one command: positional arguments and `--name value` / `--name=value` pairs.
struct Options {
    var positional: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    /// - Parameters: `valued` options take a value; `flags` take none. Anything else is an error.
    init(_ args: [String], command: String, valued: Set<String>, flags allowedFlags: Set<String> = []) throws {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a.hasPrefix("--") && a.count > 2 {
                var name = String(a.dropFirst(2)), value: String?
                if let eq = name.firstIndex(of: "=") { value = String(name[name.index(after: eq)...]); name = String(name[..<eq]) }
                if valued.contains(name) {
                    if value == nil {
                        i += 1
                        guard i < args.count else { throw CommandError("option '--\(name)' needs a value (see 'flyby help \(command)')") }
                        value = args[i]
                    }
                    values[name] = value
                } else if allowedFlags.contains(name) && value == nil {
                    flags.insert(name)
                } else {
                    throw CommandError("unknown option '--\(name)' for '\(command)' (see 'flyby help \(command)')")
                }
            } else if a.hasPrefix("-") && a.count > 1 && Double(a) == nil {
                throw CommandError("unknown option '\(a)' for '\(command)' (see 'flyby help \(command)')")
            } else {
                positional.append(a)
            }
            i += 1
        }
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
    let name = AtomicFileWriter.displayName(path)
    if case .io(let operation, _, let code) = error {
        return CommandError("cannot write '\(name)': \(operation) failed: \(String(cString: strerror(code)))")
    }
    return CommandError("cannot write '\(name)': \(error)")
}
