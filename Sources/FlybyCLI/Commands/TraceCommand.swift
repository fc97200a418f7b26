import FlybyCore
import FlybyData
import FlybyFlight

/// `flyby trace FLIGHT [--out TRACE]`.
enum TraceCommand {
    static let help = """
    usage: flyby trace FLIGHT [--out TRACE]

    Runs a flight script (CONTRACTS.md §2) with a fixed-step clock and no rendering, and writes its
    camera trace as JSON Lines (one header line, then one line per tick). Without --out the trace
    goes to stdout. The same flight always gives the same bytes.
    """

    static func run(_ args: [String], _ out: CommandOutput) throws {
        let o = try Options(args, command: "trace", valued: ["out"])
        guard o.positional.count == 1 else { throw CommandError("'trace' takes one flight file (see 'flyby help trace')") }
        let path = o.positional[0]
        let script = try FlightScriptParser.parse(bytes: try readFile(path), file: path)
        let bytes = try trace(script)
        if let dest = o.values["out"] { try writeFileAtomically(dest, bytes) } else { out.write(bytes) }
    }

    /// The whole trace of a script, as bytes.
    static func trace(_ script: FlightScript) throws -> [UInt8] {
        var bytes = TraceWriter.header(fps: script.fps, size: script.size, style: script.style)
        let runner = FlightRunner(script: script, startCamera: BuiltInStyles.defaultCamera(for: script.style))
        try runner.run { TraceWriter.appendFrame($0, to: &bytes) }
        return bytes
    }
}

/// Default cameras of the built-in styles (the styles' root cameras) until the renderer's style
/// loader provides them; a style given as a path uses the world camera.
enum BuiltInStyles {
    static func defaultCamera(for style: String) -> CameraState {
        let base = style.split(separator: ":").first.map(String.init) ?? style
        switch base {
        case "city": return CameraState(center: LocationCoordinate2D(latitude: 60.1699, longitude: 24.9445), zoom: 15)
        default: return CameraState(center: LocationCoordinate2D(latitude: 30, longitude: 10), zoom: 1.5)
        }
    }
}
