import FlybyCore
import FlybyData
import FlybyRender

/// Finds a flight's style: built-in names as they are, file paths relative to the flight file
/// (docs/formats.md §2 `style`), and the rule that a flight without `camera` starts at its
/// style's root camera.
public enum StyleResolver {
    /// The style spec with a relative file path resolved against the folder of `file` (the
    /// flight or trace that names it). Built-in names (`world`, `city:night`) and absolute paths
    /// are returned as they are.
    public static func resolve(_ style: String, relativeTo file: String) -> String {
        let base = style.split(separator: ":", maxSplits: 1).first.map(String.init) ?? style
        let isPath = base.contains("/") || base.hasSuffix(".json")
        if StyleLoader.builtinStyles.contains(base) || style.hasPrefix("/") || !isPath { return style }
        guard let slash = file.lastIndex(of: "/") else { return style }
        return String(file[...slash]) + style
    }

    /// The root camera of a flight's style; an error in the style file is reported at the
    /// flight's `style` field (`FLIGHT:LINE:COLUMN: style: … (while reading STYLE)`).
    public static func defaultCamera(of script: FlightScript) throws -> CameraState {
        do {
            return try defaultCamera(for: script.style, relativeTo: script.file)
        } catch let e as InputError {
            guard let location = script.styleLocation else { throw e }
            throw location.referring(to: e)
        }
    }

    /// The terrain of a style named as a flight or `--style` names it (a built-in name, or a
    /// path relative to `base`), or nil without a root `terrain`; only a style with one is loaded.
    public static func terrain(ofStyle style: String, relativeTo base: String) throws -> TerrainElevation? {
        let spec = resolve(style, relativeTo: base)
        guard try StyleLoader.parseStyle(spec).terrain != nil else { return nil }
        var loader = StyleLoader()
        return try loader.load(spec).terrainElevation
    }

    /// The terrain of a flight's style (its root `terrain`, read from its `raster-dem` source),
    /// or nil for a style without one. Only a style with `terrain` is loaded (its DEM archive
    /// opened); errors are reported at the flight's `style` field as for ``defaultCamera(of:)``.
    public static func terrain(of script: FlightScript) throws -> TerrainElevation? {
        do {
            return try terrain(ofStyle: script.style, relativeTo: script.file)
        } catch let e as InputError {
            guard let location = script.styleLocation else { throw e }
            throw location.referring(to: e)
        }
    }

    /// The style's root camera (docs/formats.md §2: a flight without `camera` starts there); a
    /// style without one starts at (0, 0), zoom 1.
    public static func defaultCamera(for style: String, relativeTo file: String) throws -> CameraState {
        let parsed = try StyleLoader.parseStyle(resolve(style, relativeTo: file))
        return parsed.camera.applied(to: CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 1))
    }
}

extension TraceWriter {
    /// The whole trace of a flight (docs/formats.md §3) as bytes: the header, then one line per
    /// tick of the script's fixed-step clock, starting at the style's root camera where the
    /// script gives none. The same script always gives the same bytes.
    public static func trace(of script: FlightScript) throws -> [UInt8] {
        var bytes = header(fps: script.fps, size: script.size, style: script.style, puck3D: script.location?.puck3D)
        let runner = FlightRunner(script: script, startCamera: try StyleResolver.defaultCamera(of: script),
                                  terrain: try StyleResolver.terrain(of: script))
        try runner.run { appendFrame($0, to: &bytes) }
        return bytes
    }
}

extension PlaybackPlan {
    /// The frames of a flight script or of a recorded trace, told apart by content (a trace's
    /// first line is a header with `"kind":"trace"`), with the style resolved against the file.
    /// - Parameters:
    ///   - input: the file's path; its bytes are read here (bounded by ``FileInput``).
    ///   - fps: output frames per second; nil keeps the file's.
    ///   - size: frame size in points; nil keeps the file's.
    ///   - warn: receives each warning of a flight script (valid input that is probably a mistake).
    /// - Throws: ``InputError`` naming the file, line and column or JSON path.
    public static func load(_ input: String, fps: Double? = nil, size: PixelSize? = nil,
                            warn: (String) -> Void = { _ in }) throws -> PlaybackPlan {
        let bytes = try FileInput.read(input)
        let sides = size.map { (width: $0.width, height: $0.height) }
        if TraceReader.isTrace(bytes) {
            let trace = try TraceReader.read(bytes: bytes, file: input)
            return PlaybackPlan.trace(trace, fps: fps, size: sides, style: StyleResolver.resolve(trace.style, relativeTo: input))
        }
        let script = try FlightScriptParser.parse(bytes: bytes, file: input)
        script.warnings.forEach(warn)
        let start = try StyleResolver.defaultCamera(of: script)
        return try PlaybackPlan.flight(script, startCamera: start, fps: fps, size: sides,
                                       style: StyleResolver.resolve(script.style, relativeTo: script.file),
                                       terrain: try StyleResolver.terrain(of: script))
    }
}
