import FlybyCore
import FlybyData
import FlybyFlight
import FlybyMedia
import FlybyRender

/// `flyby snapshot --out FILE.png [--style S] [--size WxH] [--camera JSON] [--threads N] [--pixel-ratio N] [--language CODE]`.
enum SnapshotCommand: FlybyCommand {
    static let name = "snapshot"
    static let summary = "render one frame to a PNG"
    static let about = """
    Renders one frame of a style to a PNG, written atomically; a .jpg (.jpeg) is encoded by ffmpeg
    (exit 3 without it). A tile of the style's archives that cannot be read is an error (exit 2,
    naming the archive and z/x/y).
    """
    static let options = [
        OptionSpec("out", .string, "FILE.png|FILE.jpg", help: "the image: .png, .jpg or .jpeg ('-' for a PNG on standard output)",
                   required: true),
        OptionSpec.style, OptionSpec.size(help: "image size in points (WxH or a preset)", default: "1280x720"), OptionSpec.camera,
        OptionSpec.bandThreads, OptionSpec.tileCache, OptionSpec.pixelRatio, OptionSpec.language,
    ]

    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
        let dest = parsed.string("out")!
        let image: ImageOutput
        do { image = try ImageOutput(dest) } catch { throw CommandError(error.description) }
        let scene = try RenderScene(parsed)
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
    /// Drape the map on the style's terrain (`bench render --no-terrain` turns it off, to compare).
    var drawsTerrain = true
    /// ``MapRenderer/reusesTerrainFrame`` (off in benchmarks).
    var reusesTerrainFrame = true

    /// The scene of `--style`, `--size`, `--camera`, `--threads`, `--tile-cache` and, where the
    /// command takes them, `--pixel-ratio` and `--language` (all checked by the parser already).
    init(_ o: ParsedOptions) throws {
        let size = o.size("size") ?? PixelSize(width: 1280, height: 720)
        (width, height) = (size.width, size.height)
        threads = o.int("threads") ?? 1
        pixelRatio = o.int("pixel-ratio") ?? 1
        guard width * pixelRatio <= 16384, height * pixelRatio <= 16384 else {
            throw CommandError("--size \(width)x\(height) at --pixel-ratio \(pixelRatio) is \(width * pixelRatio)x\(height * pixelRatio) pixels (at most 16384 a side)")
        }
        var options: CameraOptions?
        if let json = o.string("camera") {
            let doc = try JSONDocument(file: "--camera", bytes: Array(json.utf8))
            options = try FlightScriptParser.camera(doc.cursor)
        }
        var loader = StyleLoader()
        loader.tileCacheBudget = o.tileCacheBytes
        loader.tileCacheTiles = o.tileCacheTiles(width: width * pixelRatio, height: height * pixelRatio)
        loader.spritePixelRatio = pixelRatio >= 2 ? 2 : 1
        style = try loader.load(o.string("style") ?? "world")
        if let language = o.string("language") { style = try style.localized(into: language) }
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
            renderer.drawsTerrain = drawsTerrain
            renderer.reusesTerrainFrame = reusesTerrainFrame
            return renderer
        } catch {
            throw CommandError("cannot load the built-in font: \(error)", exitCode: 2)
        }
    }
}
