import FlybyCore
import FlybyData
import FlybyFlight
import Foundation

/// `flyby soak [--seconds S] [--seed N]` (a Flyby extension for issue 8): a seeded random walk
/// through the engine with the invariants checked every tick; prints progress each simulated
/// minute and the resident memory, exit 1 when an invariant breaks or something leaks.
enum SoakCommand {
    static let help = """
    usage: flyby soak [--seconds S] [--seed N]

    Runs a seeded random walk through the camera engine (eases, flies, animators with every curve,
    viewport transitions, gestures, cancellations) for S seconds of simulated time at 60 fps
    (default 3600), checking after every tick that the camera is finite, inside its bounds and
    wrapped, and at the end that no animator, observer or counter leaked. Exit 1 on a failure.
    """

    static func run(_ args: [String], _ out: CommandOutput) throws {
        let o = try Options(args, command: "soak", valued: ["seconds", "seed"])
        guard o.positional.isEmpty else { throw CommandError("'soak' takes no file (see 'flyby help soak')") }
        let seconds: Double = try o.values["seconds"].map { (s: String) throws -> Double in
            guard let v = Double(s), v > 0, v <= 86_400 else { throw CommandError("--seconds must be a number in 0…86400, found '\(s)'") }
            return v
        } ?? 3600
        let seed: UInt64 = try o.values["seed"].map { (s: String) throws -> UInt64 in
            guard let v = UInt64(s) else { throw CommandError("--seed must be a whole number ≥ 0, found '\(s)'") }
            return v
        } ?? 1
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
