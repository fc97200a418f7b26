import FlybyRender
import FlybyCore

/// Options several commands share, declared once (docs/cli.md).
extension OptionSpec {
    /// `--style S` of `snapshot`, `bench render` and `window`.
    static let style = OptionSpec("style", .string, "S", help: """
        a built-in style (world, city, optionally with a light preset: world:night) or a style JSON file
        """, default: "world")

    /// `--camera JSON`: a Camera object (docs/formats.md §2) over the style's default camera.
    static let camera = OptionSpec("camera", .string, "JSON", help: """
        the camera, a Camera object as JSON text: '{"center":[24.94,60.17],"zoom":14,"pitch":60,"bearing":30}'; \
        fields it leaves out come from the style's default camera
        """)

    /// `--size WxH` in pixels (``PixelSize``), each side at most `maxSide`.
    static func size(help: String = "frame size in pixels", default value: String? = nil, defaultText: String? = nil,
                     maxSide: Int = PixelSize.maxSide) -> OptionSpec {
        OptionSpec("size", .size(maxSide: maxSide), "WxH", help: help, default: value, defaultText: defaultText)
    }

    /// `--fps N`: frames per second of a flight's clock or of an output.
    static func fps(help: String) -> OptionSpec {
        OptionSpec("fps", .double(0...1000, openBelow: true), "N", help: help, defaultText: "the flight's or trace's")
    }

    /// `--threads N` of the map renderer (``MapRenderer/threads``): row bands drawn at once.
    static let bandThreads = OptionSpec("threads", .int(1...64), "N", help: """
        rasterize the layers in N row bands at once; the pixels are the same for every N
        """, default: "1")

    /// `--tile-cache MiB`: the most memory the decoded tiles of each tiled source may hold
    /// (``VectorTileSet/cacheBudget``). Without it a source keeps as many tiles as five views of
    /// the frame hold (``StyleLoader/viewportTileCount(width:height:tileSize:)``, MapLibre's rule),
    /// at most 256 MiB (docs/tiles.md). What the cache holds never changes a pixel.
    static let tileCache = OptionSpec("tile-cache", .int(0...65_536, unit: "MiB"), "MiB", help: """
        decoded tiles kept per tiled source, in MiB; by default as many tiles as five views of the frame hold \
        (MapLibre's rule), at most 256 MiB; frames are the same for any size, a smaller cache only decodes tiles again
        """, default: "256")

    /// `--pixel-ratio N` (``MapRenderer/pixelRatio``).
    static let pixelRatio = OptionSpec("pixel-ratio", .int(1...4), "N", help: """
        N device pixels per point, as MapLibre's pixelRatio: the image is N × --size in pixels, with lines, \
        text and icons N times as large (the sprite's @2x sheet when N ≥ 2)
        """, default: "1")

    /// `--language CODE` (``LoadedStyle/localized(into:)``).
    static let language = OptionSpec("language", .string, "CODE", help: """
        labels in that language where the data has it (name:CODE, e.g. fi, sv, en), else the local name
        """)

    /// `--segment-frames N` of `play` and `plan` (render farms).
    static func segmentFrames(help: String) -> OptionSpec {
        OptionSpec("segment-frames", .int(1...1_080_000), "N", help: help)
    }
}

extension ParsedOptions {
    /// `--tile-cache` in bytes.
    var tileCacheBytes: Int { int("tile-cache")! << 20 }

    /// The most tiles each tiled source keeps: nil when `--tile-cache` is given (its MiB alone
    /// bound the cache), else sized from a `width × height` pixel frame, so a long flight's cache
    /// fills to its size within the first frames instead of growing for minutes (docs/tiles.md).
    func tileCacheTiles(width: Int, height: Int) -> Int? {
        has("tile-cache") ? nil : StyleLoader.viewportTileCount(width: width, height: height)
    }
}
