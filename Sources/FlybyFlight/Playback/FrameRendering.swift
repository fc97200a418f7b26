import FlybyCore
import FlybyData
import FlybyRender

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws one frame of a flight. Implementations must be deterministic and must give identical
/// pixels whichever thread calls them (make one instance per thread if they keep scratch state).
public protocol FrameRendering {
    /// Draws the map seen by `camera` into `buffer` (which has `size`, in pixels; every pixel is
    /// overwritten). `puck` is the location puck when a location track is active.
    mutating func render(camera: CameraState, puck: PuckState?, size: (width: Int, height: Int), into buffer: inout PixelBuffer)
    /// Draws frame `index` of `plan` as a frame of the flight's sequence (labels fade; the
    /// default draws it as ``render(camera:puck:size:into:)`` does). Its pixels must depend only
    /// on the plan and the index, never on which frames this renderer drew before, so any thread
    /// count and any segmentation give the same frames.
    mutating func render(frame index: Int, of plan: PlaybackPlan, size: (width: Int, height: Int), into buffer: inout PixelBuffer)
    /// The first input that could not be read while drawing (a tile of an archive that is
    /// corrupt), or nil. A frame drawn after such an error lacks that tile, so a pipeline stops
    /// with this error rather than deliver it (CONTRACTS.md §1: bad input is exit 2).
    var inputError: InputError? { get }
}

extension FrameRendering {
    /// Renderers that read nothing while drawing never fail.
    public var inputError: InputError? { nil }

    public mutating func render(frame index: Int, of plan: PlaybackPlan, size: (width: Int, height: Int), into buffer: inout PixelBuffer) {
        render(camera: plan.records[index].camera, puck: plan.pucks[index], size: size, into: &buffer)
    }
}

/// The one place where `flyby play` gets its frame renderers: each render thread calls this once.
///
/// Swap in the real map renderer here (it must throw for a bad style and be cheap enough to make
/// one per thread).
/// - Parameters:
///   - style: the style as given by the flight or trace (built-in name or resolved path).
///   - size: frame size in pixels.
public func makeFrameRenderer(style: String, size: (width: Int, height: Int)) throws -> any FrameRendering {
    if style == PlaceholderFrameRenderer.styleName { return try PlaceholderFrameRenderer(style: style, size: size) }
    var loader = StyleLoader()
    return try makeFrameRenderer(loadedStyle: loader.load(style), size: size)
}

/// The map renderer for an already loaded style (load once, then one renderer per thread).
/// - Parameters:
///   - pixelRatio: device pixels per point (``MapRenderer/pixelRatio``); `size` is in pixels.
///   - puck3D: draw the puck as this model (``MapRenderer/puck3D``); nil: the 2D puck.
public func makeFrameRenderer(loadedStyle: LoadedStyle, size: (width: Int, height: Int), pixelRatio: Double = 1,
                              puck3D: Puck3D? = nil) throws -> any FrameRendering {
    var renderer = try MapRenderer(style: loadedStyle, width: size.width, height: size.height, pixelRatio: pixelRatio)
    renderer.puck3D = puck3D
    return MapFrameRenderer(renderer: renderer)
}

/// `FrameRendering` over the real `MapRenderer`; the attribution is part of its frame.
///
/// **Fading in playback** (``render(frame:of:size:into:)``): labels and icons fade over the
/// renderer's `fadeDuration` of the flight's time, and raster tiles over their layer's
/// `raster-fade-duration`, as in the window, and the frames stay
/// deterministic for any thread count and segmentation. The render threads take frames in turn,
/// so no renderer draws every frame; instead the history a frame is drawn with is defined by
/// its index alone (``FadeSequence``): the symbols of frames ``FadeSequence/start(of:)`` … i − 1
/// are placed in order (placement only, nothing drawn), starting from no history, and frame i
/// is drawn after them. A renderer that drew frame j of the same sequence before places only
/// j + 1 … i − 1 (with two threads, the one frame the other thread drew).
public struct MapFrameRenderer: FrameRendering {
    public var renderer: MapRenderer
    /// The sequence the renderer's symbol history holds (its first frame) and the last frame
    /// placed in it; nil: none.
    private var sequence: (start: Int, last: Int)?

    public init(renderer: MapRenderer) { self.renderer = renderer }
    public mutating func render(camera: CameraState, puck: PuckState?, size: (width: Int, height: Int), into buffer: inout PixelBuffer) {
        sequence = nil
        renderer.render(camera: camera, puck: puck, into: &buffer)
    }

    public mutating func render(frame index: Int, of plan: PlaybackPlan, size: (width: Int, height: Int), into buffer: inout PixelBuffer) {
        let records = plan.records
        let fadeDuration = renderer.sequenceFadeDuration
        guard fadeDuration > 0 else {
            return render(camera: records[index].camera, puck: plan.pucks[index], size: size, into: &buffer)
        }
        let fades = FadeSequence(fps: plan.fps, fadeDuration: fadeDuration)
        let start = fades.start(of: index)
        var from = start
        if let s = sequence, s.start == start, s.last < index {
            from = s.last + 1
        } else {
            renderer.forgetSymbolHistory()
        }
        for k in from..<index { renderer.placeSymbols(camera: records[k].camera, time: records[k].t) }
        renderer.render(camera: records[index].camera, puck: plan.pucks[index], time: records[index].t, into: &buffer)
        sequence = (start, index)
    }

    public var inputError: InputError? { renderer.tileError }
}

/// Where the symbol history of a playback frame begins (``MapFrameRenderer``): frames are cut
/// into chunks of ``chunk`` frames on a fixed grid from frame 0, and the history of a frame in
/// the chunk starting at c begins ``warmUp`` frames before c (at 0 for the first chunk). The
/// warm-up is twice the fade in frames, so by the chunk's first frame every symbol whose
/// collision state held for one fade has the opacity a history from frame 0 would give it; a
/// symbol that changed state within the warm-up can differ slightly at the chunk's first frame
/// (once every ``chunk`` frames). Placement costs (chunk + warm-up) / chunk of one pass.
public struct FadeSequence: Sendable {
    /// Frames in a chunk.
    public static let chunk = 256
    /// Frames placed before a chunk's first frame: ⌈2 · fadeDuration · fps⌉.
    public let warmUp: Int

    public init(fps: Double, fadeDuration: Double) {
        let frames = (2 * max(0, fadeDuration) * max(0, fps)).rounded(.up)
        warmUp = Int(min(frames.isFinite ? frames : 0, Double(FadeSequence.chunk)))
    }

    /// The first frame of the history that frame `index` is drawn with.
    public func start(of index: Int) -> Int {
        let chunkStart = index - index % FadeSequence.chunk
        return max(0, chunkStart - warmUp)
    }
}

/// The one stand-in map (`--style placeholder`, the window's stand-in, fast debug tests): a flat
/// background, a graticule (every 10° when zoomed out, finer as the camera zooms in) projected
/// through ``MapTransform`` (so pitch, bearing and zoom show), the puck as a dot, and the
/// ornaments of every map frame (``MapOrnaments``).
public struct PlaceholderFrameRenderer: FrameRendering {
    /// The style name that selects it (`--style placeholder`; also keeps debug tests fast).
    public static let styleName = "placeholder"
    /// Scale bar, compass and attribution, as the map renderer draws them (nil: the host draws its own).
    var ornaments: MapOrnaments?
    /// Background (the water/land-neutral colour of the built-in styles).
    public var background = Color(rgb: 0xD3D8EE)
    /// Graticule lines.
    public var lineColor = Color(rgb: 0x6A7391, alpha: 200)
    /// Every 30° the line is drawn heavier.
    public var majorLineColor = Color(rgb: 0x394263, alpha: 230)
    private var painter: Painter
    private var path = Path()
    private var line: [ScreenPoint] = []

    /// Checks that `style` can be read (a built-in name or a style file), so a bad style fails
    /// here as it will with the real renderer.
    public init(style: String, size: (width: Int, height: Int)) throws {
        if style != PlaceholderFrameRenderer.styleName { _ = try StyleLoader.parseStyle(style) }
        painter = Painter(width: size.width, height: size.height)
        ornaments = try MapOrnaments()
    }

    /// The graticule alone, for a host that draws its own ornaments (the window).
    public init(drawsOrnaments: Bool) {
        painter = Painter(width: 1, height: 1)
        ornaments = drawsOrnaments ? try? MapOrnaments() : nil
    }

    public mutating func render(camera: CameraState, puck: PuckState?, size: (width: Int, height: Int), into buffer: inout PixelBuffer) {
        if painter.width != size.width || painter.height != size.height { painter = Painter(width: size.width, height: size.height) }
        drawGrid(camera: camera, puck: puck, size: size, into: &buffer)
        ornaments?.draw(camera: camera, attribution: MapRenderer.defaultAttribution, into: &buffer)
    }

    mutating func drawGrid(camera: CameraState, puck: PuckState?, size: (width: Int, height: Int), into buffer: inout PixelBuffer) {
        buffer.clear(to: background)
        let transform = MapTransform(size: ScreenSize(width: Double(size.width), height: Double(size.height)), state: camera)
        let horizon = max(0, transform.horizonY)
        if horizon > 0 {
            buffer.fill(PixelRect(minX: 0, minY: 0, maxX: size.width, maxY: Int(horizon.rounded(.down))), color: Color(rgb: 0xF2F4FA))
        }
        let thin = StrokeStyle(width: 1), thick = StrokeStyle(width: 2)
        // Lines every 10° when the frame shows much of the world, halving until about eight
        // cells span the frame width (so tiny test frames and city zooms still show a grid);
        // every third line is heavier.
        let degreesAcross = 360 / transform.worldSize * Double(size.width)
        let k = min(max(Int(log2(10 * 8 / max(degreesAcross, 1e-9)).rounded(.up)), 0), 30)
        let spacing = 10 / Double(1 << k)
        let lng0 = (camera.center.longitude / spacing).rounded(), lat0 = (camera.center.latitude / spacing).rounded()
        let span = k == 0 ? 18 : 16
        let samples = stride(from: -Double(span), through: Double(span), by: 0.25)
        for i in -span...span {
            let lng = (lng0 + Double(i)) * spacing
            let major = Int(lng0 + Double(i)) % 3 == 0
            drawLine(transform, samples.compactMap { s in
                let lat = (lat0 + s) * spacing
                return abs(lat) <= 85 ? LocationCoordinate2D(latitude: lat, longitude: lng) : nil
            }, style: major ? thick : thin, color: major ? majorLineColor : lineColor, into: &buffer)
        }
        for j in -span...span {
            let lat = (lat0 + Double(j)) * spacing
            guard abs(lat) <= 85 else { continue }
            let major = Int(lat0 + Double(j)) % 3 == 0
            drawLine(transform, samples.map { s in LocationCoordinate2D(latitude: lat, longitude: (lng0 + s) * spacing) },
                     style: major ? thick : thin, color: major ? majorLineColor : lineColor, into: &buffer)
        }
        if let puck, let p = transform.point(for: puck.coordinate) {
            painter.fillCircle(center: p, radius: 9, color: .white, into: &buffer)
            painter.fillCircle(center: p, radius: 6, color: Color(rgb: 0x1E6FE8), into: &buffer)
        }
    }

    /// Strokes the visible runs of a polyline of coordinates.
    private mutating func drawLine(_ t: MapTransform, _ coords: [LocationCoordinate2D], style: StrokeStyle, color: Color,
                                   into buffer: inout PixelBuffer) {
        path.removeAll()
        line.removeAll(keepingCapacity: true)
        let limit = 4 * max(t.size.width, t.size.height)
        for c in coords {
            if let p = t.point(for: c), abs(p.x) < limit, abs(p.y) < limit {
                line.append(p)
            } else {
                if line.count > 1 { path.addPolyline(line) }
                line.removeAll(keepingCapacity: true)
            }
        }
        if line.count > 1 { path.addPolyline(line) }
        if !path.isEmpty { painter.stroke(path, style: style, color: color, into: &buffer) }
    }
}
