import FlybyFlight

/// `flyby diff TRACE_A TRACE_B [--tolerance X]`.
enum DiffCommand {
    static let help = """
    usage: flyby diff TRACE_A TRACE_B [--tolerance X]

    Compares two traces. Exit 0 when every number matches within X (default 1e-9) and every string
    exactly; otherwise exit 1 and print the first differing frame and field.
    """

    static func run(_ args: [String], _ out: CommandOutput) throws {
        let o = try Options(args, command: "diff", valued: ["tolerance"])
        guard o.positional.count == 2 else { throw CommandError("'diff' takes two trace files (see 'flyby help diff')") }
        var tolerance = 1e-9
        if let t = o.values["tolerance"] {
            guard let v = Double(t), v.isFinite, v >= 0 else { throw CommandError("--tolerance must be a number ≥ 0, found '\(t)'") }
            tolerance = v
        }
        let a = o.positional[0], b = o.positional[1]
        if let d = try TraceDiff.compare(try readFile(a), fileA: a, try readFile(b), fileB: b, tolerance: tolerance) {
            // The mismatch is the result (stdout), printed once: exit 1 without an error line.
            out.print("traces differ: \(d)")
            throw CommandError("", exitCode: 1)
        }
        out.print("traces match within \(tolerance)")
    }
}
