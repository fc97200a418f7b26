import FlybyFlight

/// `flyby diff TRACE_A TRACE_B [--tolerance X]`.
enum DiffCommand: FlybyCommand {
    static let name = "diff"
    static let summary = "compare two traces within a tolerance"
    static let about = """
    Compares two traces. Exit 0 when every number matches within X and every string exactly;
    otherwise exit 1 and print the first differing frame and field.
    """
    static let positionals = Positionals.exactly("TRACE_A TRACE_B", "takes two trace files")
    static let options = [
        OptionSpec("tolerance", .double(0...Double.infinity), "X", help: "the largest difference of two numbers that still matches", default: "1e-9"),
    ]

    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
        let tolerance = parsed.double("tolerance")!
        let a = parsed.positional[0], b = parsed.positional[1]
        if let d = try TraceDiff.compare(try readFile(a), fileA: a, try readFile(b), fileB: b, tolerance: tolerance) {
            // The mismatch is the result (stdout), printed once: exit 1 without an error line.
            out.print("traces differ: \(d)")
            throw CommandError("", exitCode: 1)
        }
        out.print("traces match within \(tolerance)")
    }
}
