import FlybyCore

/// The one drawer of the map furniture: the scale bar (bottom left), the compass (top right, only
/// when the map is not north-up, as Mapbox's adaptive compass) and the attribution (bottom right,
/// on every frame: a licence requirement of OpenStreetMap, TrafficSense and Natural Earth).
///
/// `MapRenderer` draws it over every map frame; the window and frames drawn without the map
/// renderer (the placeholder renderer) draw it with an instance of this type, so a window frame,
/// a snapshot and a video frame of the same camera show the same ornaments. Sizes are in points:
/// at a device pixel ratio `scale` (``MapRenderer/pixelRatio``, `--pixel-ratio`) every length is
/// `scale` frame pixels per point, so a 2× frame shows the same ornaments as a 1× frame, twice as
/// sharp (as MapLibre and Mapbox draw their controls in CSS/UIKit points). Metres use
/// ``WebMercator/earthRadius`` (the mean radius, as GL JS does).
public struct MapOrnaments {
    /// Compass disc radius in pixels.
    public static let compassRadius = 17.0

    /// The compass centre in a frame `width` pixels wide at `scale` pixels per point (30 points
    /// from the top and the right edge).
    public static func compassCenter(width: Int, scale: Double = 1) -> ScreenPoint {
        ScreenPoint(x: Double(width) - 30 * scale, y: 30 * scale)
    }

    /// Whether the compass shows at `bearing` (degrees): whenever the map is not exactly north-up.
    public static func showsCompass(bearing: Double) -> Bool { abs(bearing.truncatingRemainder(dividingBy: 360)) > 1e-9 }

    /// Draw the scale bar (default true).
    public var showsScaleBar = true
    /// Draw the compass when the map is turned (default true).
    public var showsCompass = true
    private var painter = Painter(width: 1, height: 1)
    private var path = Path()
    private var text: TextRenderer

    /// - Throws: ``FontError`` when the built-in font cannot be loaded.
    public init() throws(FontError) { text = try TextRenderer() }

    /// Draws the ornaments of `camera` over `buffer` (source-over); an empty `attribution` draws
    /// none. `scale`: frame pixels per point (the device pixel ratio, 1…4).
    public mutating func draw(camera: CameraState, attribution: String, scale: Double = 1, into buffer: inout PixelBuffer) {
        if painter.width != buffer.width || painter.height != buffer.height { painter = Painter(width: buffer.width, height: buffer.height) }
        let (w, h, scaleBar, compass) = (buffer.width, buffer.height, showsScaleBar, showsCompass)
        buffer.withView { view in
            MapOrnaments.draw(camera: camera, width: w, height: h, scale: scale, scaleBar: scaleBar, compass: compass,
                              attribution: attribution, path: &path, painter: &painter, text: &text, view: view)
        }
    }

    /// The box of the attribution line in a `width × height` frame (nil for an empty line).
    public func attributionFrame(_ attribution: String, width: Int, height: Int) -> ScreenRect? {
        MapOrnaments.attributionLayout(attribution, width: width, height: height, text: text)?.box
    }

    /// Where the attribution goes (bottom-right): its text origin and size, and its backing box,
    /// in frame pixels of a `width × height` frame at `scale` pixels per point. The credit must
    /// be whole on every frame, so on a frame too narrow for it at 8.5 points (under about 440
    /// points) the type shrinks until the line and its box fit, 2 points from each side.
    static func attributionLayout(_ attribution: String, width: Int, height: Int, scale k: Double = 1,
                                  text: TextRenderer) -> (origin: ScreenPoint, size: Double, box: ScreenRect)? {
        guard !attribution.isEmpty else { return nil }
        let width = Double(width) / k, height = Double(height) / k   // points
        var size = width < 700 ? 8.5 : 10.0
        var m = text.measure(attribution, size: size)
        let room = width - 12  // the box is 4 points wider than the text each side, 2 point margins
        var tries = 0
        while m.width > room && m.width > 0 && size > 1 && tries < 8 {
            size = max(1, (size * room / m.width * 4).rounded(.down) / 4)  // quarter points, as the layout quantizes
            m = text.measure(attribution, size: size)
            tries += 1
        }
        let x = width - m.width - 6, y = height - m.height - 2
        return (ScreenPoint(x: x * k, y: y * k), size * k,
                ScreenRect(x: (x - 4) * k, y: (y - 1) * k, width: (m.width + 8) * k, height: (m.height + 2) * k))
    }

    /// The drawing itself, with the caller's scratch path, painter and text renderer; `scale`
    /// frame pixels per point (every length below is in points, times `k`).
    static func draw(camera: CameraState, width: Int, height: Int, scale k: Double = 1, scaleBar: Bool, compass: Bool,
                     attribution: String, path: inout Path, painter: inout Painter, text: inout TextRenderer, view: PixelBufferView) {
        let ink = Color(rgb: 0x333333)
        // Scale bar: the largest 1-2-5 distance that fits in 100 points, measured at the
        // principal point's latitude (under the camera centre).
        let metersPerPoint = WebMercator.metersPerPoint(latitude: camera.center.latitude, zoom: camera.zoom)
        if scaleBar && metersPerPoint.isFinite && metersPerPoint > 0 {
            let maxMeters = metersPerPoint * 100
            let exponent = mapLog10(maxMeters).rounded(.down)
            let base = mapPow(10, exponent)
            let nice = [5.0, 2, 1].first { $0 * base <= maxMeters }.map { $0 * base } ?? base
            let barWidth = nice / metersPerPoint
            let label = nice >= 1000 ? "\(MapRenderer.shortNumber(nice / 1000)) km" : "\(MapRenderer.shortNumber(nice)) m"
            let x0 = 10.0, y0 = Double(height) / k - 14
            func p(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x * k, y: y * k) }
            path.removeAll()
            path.addRect(x: (x0 - 1) * k, y: (y0 - 15) * k, width: (barWidth + 2) * k, height: 19 * k)
            painter.fill(path, color: Color(rgb: 0xFFFFFF, alpha: 170), into: view)
            path.removeAll()
            path.move(to: p(x0, y0 - 6)); path.line(to: p(x0, y0 + 1.5))
            path.line(to: p(x0 + barWidth, y0 + 1.5)); path.line(to: p(x0 + barWidth, y0 - 6))
            painter.stroke(path, style: StrokeStyle(width: 1.5 * k), color: ink, into: view)
            text.drawSimple(label, at: p(x0 + 3, y0 - 15), size: 11 * k, color: ink, painter: &painter, view: view)
        }
        if compass && showsCompass(bearing: camera.bearing) {
            let bearing = camera.bearing.truncatingRemainder(dividingBy: 360)
            let c = compassCenter(width: width, scale: k)
            path.removeAll()
            path.addCircle(center: c, radius: compassRadius * k)
            painter.fill(path, color: Color(rgb: 0xFFFFFF, alpha: 220), into: view)
            painter.stroke(path, style: StrokeStyle(width: k), color: Color(rgb: 0x000000, alpha: 60), into: view)
            let a = -bearing * Double.pi / 180
            let s = mapSin(a) * k, co = mapCos(a) * k
            func rot(_ dx: Double, _ dy: Double) -> ScreenPoint {
                ScreenPoint(x: c.x + co * dx - s * dy, y: c.y + s * dx + co * dy)
            }
            path.removeAll()
            path.move(to: rot(0, -13)); path.line(to: rot(5, 0)); path.line(to: rot(-5, 0)); path.close()
            painter.fill(path, color: Color(rgb: 0xE53935), into: view)
            path.removeAll()
            path.move(to: rot(0, 13)); path.line(to: rot(5, 0)); path.line(to: rot(-5, 0)); path.close()
            painter.fill(path, color: Color(rgb: 0x607080), into: view)
        }
        // Attribution. Empty only when the host draws the same credits itself (the window does,
        // with the track's credits added).
        guard let a = attributionLayout(attribution, width: width, height: height, scale: k, text: text) else { return }
        path.removeAll()
        path.addRect(x: a.box.x, y: a.box.y, width: a.box.width, height: a.box.height)
        painter.fill(path, color: Color(rgb: 0xFFFFFF, alpha: 160), into: view)
        text.drawSimple(attribution, at: a.origin, size: a.size, color: ink, painter: &painter, view: view)
    }
}
