import FlybyCore
import FlybyData
import FlybyFlight
import FlybyMedia
import FlybyRender

/// `flyby snapshot --out FILE.png [--style S] [--size WxH] [--camera JSON] [--threads N] [--pixel-ratio N] [--language CODE]`.
enum SnapshotCommand {
    static let help = """
    usage: flyby snapshot --out FILE.png|FILE.jpg [--style S] [--size WxH] [--camera JSON] [--threads N]
                          [--tile-cache MiB] [--pixel-ratio N] [--language CODE]

    Renders one frame of a style to a PNG. --style is a built-in style (world, city, optionally
    with a light preset: world:night) or a style JSON file (default world). --size is WxH or a
    preset (720p, 1080p, 4k, square), default 1280x720. --camera is a Camera object as JSON text, e.g.
      --camera '{"center": [24.94, 60.17], "zoom": 14, "pitch": 60, "bearing": 30}'
    Fields it leaves out come from the style's default camera. --threads N (1…64, default 1)
    rasterizes the layers in N row bands at once; the pixels are the same for every N. The PNG is
    written atomically; a .jpg (.jpeg) is encoded by ffmpeg (exit 3 without it). A tile of the
    style's archives that cannot be read is an error (exit 2, naming the archive and z/x/y).
    \(TileCacheOption.help)
    \(RenderScene.pixelRatioHelp)
    """

    static func run(_ args: [String], _ out: CommandOutput) throws {
        let o = try Options(args, command: "snapshot", valued: ["out", "style", "size", "camera", "threads", "tile-cache", "pixel-ratio", "language"])
        guard o.positional.isEmpty else { throw CommandError("unexpected argument '\(o.positional[0])' for 'snapshot' (see 'flyby help snapshot')") }
        guard let dest = o.values["out"] else { throw CommandError("'snapshot' needs --out FILE.png (see 'flyby help snapshot')") }
        let image: ImageOutput
        do { image = try ImageOutput(dest) } catch { throw CommandError(error.description) }
        let scene = try RenderScene(o)
        var renderer = try scene.makeRenderer()
        var frame = PixelBuffer(width: renderer.width, height: renderer.height)
        renderer.render(camera: scene.camera, into: &frame)
        for warning in renderer.textWarnings { out.error("flyby: warning: \(warning)") }
        if let error = renderer.tileError { throw error }  // a frame missing a tile is not written
        do {
            try image.write(pixels: frame.pixels, width: frame.width, height: frame.height, searchPath: out.environment["PATH"])
        } catch {
            throw PlayCommand.commandError(error, output: dest)
        }
    }
}

/// The style, size and camera shared by `snapshot` and `bench render`.
struct RenderScene {
    var style: LoadedStyle
    var width: Int
    var height: Int
    var camera: CameraState
    /// Threads rasterizing the layers (``MapRenderer/threads``).
    var threads = 1
    /// Device pixels per point (`--pixel-ratio`, ``MapRenderer/pixelRatio``): the frame is
    /// `width × height` points, `ratio` times as many pixels each way.
    var pixelRatio = 1

    static let pixelRatioHelp = """
    --pixel-ratio N (1…4, default 1) draws at N device pixels per point, as MapLibre's pixelRatio:
    the image is N × the size in pixels, with lines, text and icons N times as large, and the
    sprite's @2x sheet when N ≥ 2. --language CODE shows labels in that language where the data
    has it (name:CODE, e.g. fi, sv, en), else in the local name.
    """

    init(_ o: Options) throws {
        // Cheap checks first, so a typo is reported before the data is loaded.
        (width, height) = try SizeOption.parse(o.values["size"] ?? "1280x720")
        threads = try RenderScene.parseThreads(o.values["threads"])
        pixelRatio = try RenderScene.parsePixelRatio(o.values["pixel-ratio"])
        guard width * pixelRatio <= 16384, height * pixelRatio <= 16384 else {
            throw CommandError("--size \(width)x\(height) at --pixel-ratio \(pixelRatio) is \(width * pixelRatio)x\(height * pixelRatio) pixels (at most 16384 a side)")
        }
        var options: CameraOptions?
        if let json = o.values["camera"] {
            let doc = try JSONDocument(file: "--camera", bytes: Array(json.utf8))
            options = try FlightScriptParser.camera(doc.cursor)
        }
        var loader = StyleLoader()
        loader.tileCacheBudget = try TileCacheOption.parse(o.values["tile-cache"])
        loader.tileCacheTiles = TileCacheOption.tiles(o.values["tile-cache"], width: width * pixelRatio, height: height * pixelRatio)
        loader.spritePixelRatio = pixelRatio >= 2 ? 2 : 1
        style = try loader.load(o.values["style"] ?? "world")
        if let language = o.values["language"] { style = try style.localized(into: language) }
        var camera = style.camera.applied(to: CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 1))
        if let options { camera = camera.applying(options) }
        camera.pitch = min(max(camera.pitch, 0), 85)
        camera.zoom = min(max(camera.zoom, 0), 24)
        self.camera = camera
    }

    func makeRenderer() throws -> MapRenderer {
        do {
            var renderer = try MapRenderer(style: style, width: width * pixelRatio, height: height * pixelRatio,
                                           pixelRatio: Double(pixelRatio))
            renderer.threads = threads
            return renderer
        } catch {
            throw CommandError("cannot load the built-in font: \(error)", exitCode: 2)
        }
    }

    /// `--pixel-ratio N`: a whole number 1…4; 1 when not given.
    static func parsePixelRatio(_ value: String?) throws -> Int {
        guard let value else { return 1 }
        guard let n = Int(value), (1...4).contains(n) else { throw CommandError("--pixel-ratio '\(value)' must be a whole number from 1 to 4") }
        return n
    }

    /// `--threads N` for the map renderer: a whole number 1…64; 1 when not given.
    static func parseThreads(_ value: String?) throws -> Int {
        guard let value else { return 1 }
        guard let n = Int(value), (1...64).contains(n) else { throw CommandError("--threads '\(value)' must be a whole number from 1 to 64") }
        return n
    }
}
