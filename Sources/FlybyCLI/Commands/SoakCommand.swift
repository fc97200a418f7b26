import FlybyCore
import FlybyData
import FlybyFlight
import Foundation

/// `flyby soak [--seconds S] [--seed N]` (a Flyby extension for issue 8): a seeded random walk
/// through the engine with the invariants checked every tick; prints progress each simulated
/// minute and the resident memory, exit 1 when an invariant breaks or something leaks.
enum SoakCommand: FlybyCommand {
    static let name = "soak"
    static let summary = "run a seeded random walk through the engine, checking invariants every tick"
    static let about = """
    Runs a seeded random walk through the camera engine (eases, flies, animators with every curve,
    viewport transitions, gestures, cancellations) at 60 fps, checking after every tick that the
    camera is finite, inside its bounds and wrapped, and at the end that no animator, observer or
    counter leaked. Exit 1 on a failure.
    """
    static let positionals = Positionals(usage: "", count: 0...0, wrongCount: "takes no file")
    static let options = [
        OptionSpec("seconds", .double(0...86_400, openBelow: true), "S", help: "simulated seconds to run", default: "3600"),
        OptionSpec("seed", .string, "N", help: "seed of the random walk, a whole number ≥ 0", default: "1"),
    ]

    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
        let seconds = parsed.double("seconds")!
        let seedText = parsed.string("seed")!
        guard let seed = UInt64(seedText) else { throw CommandError("--seed must be a whole number ≥ 0, not '\(seedText)'") }
        let soak = SoakRunner(seed: seed, track: try BuiltInTrack.tram9.load())
        let start = WallClock.monotonicSeconds()
        let report = soak.run(seconds: seconds) { t in
            out.print(String(format: "soak: %.0f s simulated, %.1f s wall, rss %.1f MiB", t, WallClock.monotonicSeconds() - start, residentMiB()))
        }
        out.print("soak: \(report)")
        out.print(String(format: "soak: peak rss %.1f MiB", peakResidentMiB()))
        if report.failure != nil { throw CommandError("soak failed: \(report.failure!)", exitCode: 1) }
        if let leak = soak.finishAndCheckLeaks() { throw CommandError("soak leaked: \(leak)", exitCode: 1) }
        out.print("soak: no leaks")
    }

    /// Current resident set size (VmRSS from /proc/self/status), MiB.
    static func residentMiB() -> Double {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
        return kb / 1024
    }

    /// Peak resident set size (getrusage), MiB.
    static func peakResidentMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}
