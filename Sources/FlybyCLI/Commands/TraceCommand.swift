import FlybyCore
import FlybyData
import FlybyFlight
import FlybyRender

/// `flyby trace FLIGHT [--out TRACE]`.
enum TraceCommand {
    static let help = """
    usage: flyby trace FLIGHT [--out TRACE]

    Runs a flight script (docs/formats.md §2) with a fixed-step clock and no rendering, and writes its
    camera trace as JSON Lines (one header line, then one line per tick). Without --out the trace
    goes to stdout. The same flight always gives the same bytes.
    """

    static func run(_ args: [String], _ out: CommandOutput) throws {
        let o = try Options(args, command: "trace", valued: ["out"])
        guard o.positional.count == 1 else { throw CommandError("'trace' takes one flight file (see 'flyby help trace')") }
        let path = o.positional[0]
        let script = try FlightScriptParser.parse(bytes: try readFile(path), file: path)
        script.warnings.forEach(out.warn)
        let bytes = try trace(script)
        if let dest = o.values["out"] { try writeOutput(dest, bytes) } else { out.write(bytes) }
    }

    /// The whole trace of a script, as bytes.
    static func trace(_ script: FlightScript) throws -> [UInt8] {
        var bytes = TraceWriter.header(fps: script.fps, size: script.size, style: script.style)
        let runner = FlightRunner(script: script, startCamera: try StyleResolver.defaultCamera(of: script))
        try runner.run { TraceWriter.appendFrame($0, to: &bytes) }
        return bytes
    }
}

/// Finds a flight's style: built-in names as they are, file paths relative to the flight file.
enum StyleResolver {
    /// The style spec with a relative file path resolved against the flight file's folder.
    static func resolve(_ style: String, relativeTo file: String) -> String {
        let base = style.split(separator: ":", maxSplits: 1).first.map(String.init) ?? style
        let isPath = base.contains("/") || base.hasSuffix(".json")
        if StyleLoader.builtinStyles.contains(base) || style.hasPrefix("/") || !isPath { return style }
        guard let slash = file.lastIndex(of: "/") else { return style }
        return String(file[...slash]) + style
    }

    /// The root camera of a flight's style; an error in the style file is reported at the
    /// flight's `style` field (`FLIGHT:LINE:COLUMN: style: … (while reading STYLE)`).
    static func defaultCamera(of script: FlightScript) throws -> CameraState {
        do {
            return try defaultCamera(for: script.style, relativeTo: script.file)
        } catch let e as InputError {
            guard let location = script.styleLocation else { throw e }
            throw location.referring(to: e)
        }
    }

    /// The style's root camera (docs/formats.md §2: a flight without `camera` starts there).
    static func defaultCamera(for style: String, relativeTo file: String) throws -> CameraState {
        let parsed = try StyleLoader.parseStyle(resolve(style, relativeTo: file))
        return parsed.camera.applied(to: CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 1))
    }
}
