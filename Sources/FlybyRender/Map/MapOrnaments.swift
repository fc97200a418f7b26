import FlybyCore

/// The one drawer of the map furniture: the scale bar (bottom left), the compass (top right, only
/// when the map is not north-up, as Mapbox's adaptive compass) and the attribution (bottom right,
/// on every frame: a licence requirement of OpenStreetMap, TrafficSense and Natural Earth).
///
/// `MapRenderer` draws it over every map frame; the window and frames drawn without the map
/// renderer (the placeholder renderer) draw it with an instance of this type, so a window frame,
/// a snapshot and a video frame of the same camera show the same ornaments. Screen pixels
/// (= points); metres use ``WebMercator/earthRadius`` (the mean radius, as GL JS does).
public struct MapOrnaments {
    /// Compass disc radius in pixels.
    public static let compassRadius = 17.0

    /// The compass centre in a frame `width` pixels wide.
    public static func compassCenter(width: Int) -> ScreenPoint { ScreenPoint(x: Double(width) - 30, y: 30) }

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

    /// Draws the ornaments of `camera` over `buffer` (source-over); an empty `attribution` draws none.
    public mutating func draw(camera: CameraState, attribution: String, into buffer: inout PixelBuffer) {
        if painter.width != buffer.width || painter.height != buffer.height { painter = Painter(width: buffer.width, height: buffer.height) }
        let (w, h, scaleBar, compass) = (buffer.width, buffer.height, showsScaleBar, showsCompass)
        buffer.withView { view in
            MapOrnaments.draw(camera: camera, width: w, height: h, scaleBar: scaleBar, compass: compass, attribution: attribution,
                              path: &path, painter: &painter, text: &text, view: view)
        }
    }

    /// The box of the attribution line in a `width × height` frame (nil for an empty line).
    public func attributionFrame(_ attribution: String, width: Int, height: Int) -> ScreenRect? {
        MapOrnaments.attributionLayout(attribution, width: width, height: height, text: text)?.box
    }

    /// Where the attribution goes (bottom-right): its text origin and size, and its backing box.
    /// The credit must be whole on every frame, so on a frame too narrow for it at 8.5 px
    /// (under about 440 px) the type shrinks until the line and its box fit, 2 px from each side.
    static func attributionLayout(_ attribution: String, width: Int, height: Int,
                                  text: TextRenderer) -> (origin: ScreenPoint, size: Double, box: ScreenRect)? {
        guard !attribution.isEmpty else { return nil }
        var size = width < 700 ? 8.5 : 10.0
        var m = text.measure(attribution, size: size)
        let room = Double(width) - 12  // the box is 4 px wider than the text each side, 2 px margins
        var tries = 0
        while m.width > room && m.width > 0 && size > 1 && tries < 8 {
            size = max(1, (size * room / m.width * 4).rounded(.down) / 4)  // quarter pixels, as the layout quantizes
            m = text.measure(attribution, size: size)
            tries += 1
        }
        let x = Double(width) - m.width - 6, y = Double(height) - m.height - 2
        return (ScreenPoint(x: x, y: y), size, ScreenRect(x: x - 4, y: y - 1, width: m.width + 8, height: m.height + 2))
    }

    /// The drawing itself, with the caller's scratch path, painter and text renderer.
    static func draw(camera: CameraState, width: Int, height: Int, scaleBar: Bool, compass: Bool, attribution: String,
                     path: inout Path, painter: inout Painter, text: inout TextRenderer, view: PixelBufferView) {
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
            let x0 = 10.0, y0 = Double(height) - 14
            path.removeAll()
            path.addRect(x: x0 - 1, y: y0 - 15, width: barWidth + 2, height: 19)
            painter.fill(path, color: Color(rgb: 0xFFFFFF, alpha: 170), into: view)
            path.removeAll()
            path.move(to: ScreenPoint(x: x0, y: y0 - 6)); path.line(to: ScreenPoint(x: x0, y: y0 + 1.5))
            path.line(to: ScreenPoint(x: x0 + barWidth, y: y0 + 1.5)); path.line(to: ScreenPoint(x: x0 + barWidth, y: y0 - 6))
            painter.stroke(path, style: StrokeStyle(width: 1.5), color: ink, into: view)
            text.drawSimple(label, at: ScreenPoint(x: x0 + 3, y: y0 - 15), size: 11, color: ink, painter: &painter, view: view)
        }
        if compass && showsCompass(bearing: camera.bearing) {
            let bearing = camera.bearing.truncatingRemainder(dividingBy: 360)
            let c = compassCenter(width: width)
            path.removeAll()
            path.addCircle(center: c, radius: compassRadius)
            painter.fill(path, color: Color(rgb: 0xFFFFFF, alpha: 220), into: view)
            painter.stroke(path, style: StrokeStyle(width: 1), color: Color(rgb: 0x000000, alpha: 60), into: view)
            let a = -bearing * Double.pi / 180
            let s = mapSin(a), co = mapCos(a)
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
        guard let a = attributionLayout(attribution, width: width, height: height, text: text) else { return }
        path.removeAll()
        path.addRect(x: a.box.x, y: a.box.y, width: a.box.width, height: a.box.height)
        painter.fill(path, color: Color(rgb: 0xFFFFFF, alpha: 160), into: view)
        text.drawSimple(attribution, at: a.origin, size: a.size, color: ink, painter: &painter, view: view)
    }
}
