import FlybyFlight

/// `flyby trace FLIGHT [--out TRACE]`.
enum TraceCommand: FlybyCommand {
    static let name = "trace"
    static let summary = "run a flight script without rendering and write its camera trace"
    static let about = """
    Runs a flight script (docs/formats.md §2) with a fixed-step clock and no rendering, and writes its
    camera trace as JSON Lines (one header line, then one line per tick). The same flight always
    gives the same bytes.
    """
    static let positionals = Positionals.exactly("FLIGHT", "takes one flight file")
    static let options = [OptionSpec("out", .string, "TRACE", help: "write the trace to TRACE (atomically)", defaultText: "standard output")]

    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
        let path = parsed.positional[0]
        let script = try FlightScriptParser.parse(bytes: try readFile(path), file: path)
        script.warnings.forEach(out.warn)
        let bytes = try TraceWriter.trace(of: script)
        if let dest = parsed.string("out") { try writeOutput(dest, bytes) } else { out.write(bytes) }
    }
}
