import FlybyCore
import FlybyData
import FlybyRender

/// Draws the window's own overlays (HUD line, help panel, notices) with the built-in DejaVu Sans
/// and the software `Painter`. Glyph outlines are cached, and the painter and path are reused, so
/// an overlay costs a few fills per frame.
public struct OverlayPainter {
    private var cache: GlyphCache?
    private var painter: Painter
    private var path = Path()
    /// Text size in pixels.
    public var pixelSize: Float = 14

    /// - Parameter width/height: the frame size (the painter is rebuilt when it changes).
    public init(width: Int, height: Int) {
        painter = Painter(width: width, height: height)
        if let p = BuiltinData.path("fonts/DejaVuSans.ttf"), let font = try? TrueTypeFont(contentsOfFile: p) {
            cache = GlyphCache(font: font)
        }
    }

    private mutating func fit(_ buffer: PixelBuffer) {
        if painter.width != buffer.width || painter.height != buffer.height {
            painter = Painter(width: buffer.width, height: buffer.height)
        }
    }

    /// The width of `text` in pixels at ``pixelSize``.
    public func width(of text: String) -> Double {
        guard let cache else { return Double(text.count) * Double(pixelSize) * 0.6 }
        return Double(cache.font.measure(text, pixelSize: pixelSize))
    }

    /// Line height in pixels.
    public var lineHeight: Double { Double(pixelSize) * 1.35 }

    /// Draws `text` with its baseline-left at (`x`, `y`).
    public mutating func text(_ text: String, x: Double, y: Double, color: Color, into buffer: inout PixelBuffer) {
        guard var cache else { return }
        fit(buffer)
        path.removeAll()
        let line = cache.font.layoutLine(text, pixelSize: pixelSize)
        for g in line.glyphs {
            guard let outline = try? cache.outline(g.glyph, pixelSize: pixelSize) else { continue }
            let ox = x + Double(g.position.x), oy = y + Double(g.position.y)
            for contour in outline.contours where contour.count >= 3 {
                path.move(to: ScreenPoint(x: ox + Double(contour[0].x), y: oy + Double(contour[0].y)))
                for p in contour.dropFirst() { path.line(to: ScreenPoint(x: ox + Double(p.x), y: oy + Double(p.y))) }
                path.close()
            }
        }
        self.cache = cache
        if !path.isEmpty { painter.fill(path, color: color, into: &buffer) }
    }

    /// Fills a rectangle (blended).
    public mutating func box(x: Double, y: Double, width: Double, height: Double, color: Color, into buffer: inout PixelBuffer) {
        fit(buffer)
        path.removeAll()
        path.addRect(x: x, y: y, width: width, height: height)
        painter.fill(path, color: color, into: &buffer)
    }

    /// A panel of lines on a translucent dark box with its top-left at (`x`, `y`).
    public mutating func panel(_ lines: [String], x: Double, y: Double, into buffer: inout PixelBuffer) {
        guard !lines.isEmpty else { return }
        let w = lines.map { width(of: $0) }.max()! + 16
        let h = Double(lines.count) * lineHeight + 10
        box(x: x, y: y, width: w, height: h, color: Color(red: 0, green: 0, blue: 0, alpha: 170), into: &buffer)
        for (i, l) in lines.enumerated() {
            text(l, x: x + 8, y: y + 5 + Double(i + 1) * lineHeight - Double(pixelSize) * 0.35, color: .white, into: &buffer)
        }
    }
}

/// The stand-in map drawing used until the real `MapRenderer` is plugged in: a background, a
/// graticule every 10° projected through the camera's `MapTransform` (so pan, zoom, bearing and
/// pitch all show), the equator and prime meridian brighter, and the puck as a dot.
public struct PlaceholderMap {
    private var painter = Painter(width: 1, height: 1)
    private var path = Path()
    private var strong = Path()

    public init() {}

    /// Draws the placeholder map of `camera` (and `puck`) into `buffer`.
    public mutating func draw(camera: CameraState, puck: PuckState?, into buffer: inout PixelBuffer) {
        if painter.width != buffer.width || painter.height != buffer.height {
            painter = Painter(width: buffer.width, height: buffer.height)
        }
        buffer.clear(to: Color(rgb: 0x1D3557))
        let t = MapTransform(size: ScreenSize(width: Double(buffer.width), height: Double(buffer.height)), state: camera)
        path.removeAll()
        strong.removeAll()
        let step = 10.0
        // Lines are sampled every 2° so they bend correctly near the horizon; segments behind the
        // camera (no screen point) break the line.
        func addLine(_ points: [LocationCoordinate2D], to p: inout Path) {
            var open = false
            for c in points {
                if let s = t.point(for: c), s.isFinite, abs(s.x) < 1e5, abs(s.y) < 1e5 {
                    if open { p.line(to: s) } else { p.move(to: s); open = true }
                } else { open = false }
            }
        }
        var lon = -180.0
        while lon <= 180 {
            let pts = stride(from: -85.0, through: 85.0, by: 2.5).map { LocationCoordinate2D(latitude: $0, longitude: lon) }
            if lon == 0 { addLine(pts, to: &strong) } else { addLine(pts, to: &path) }
            lon += step
        }
        var lat = -80.0
        while lat <= 80 {
            let pts = stride(from: -180.0, through: 180.0, by: 2.5).map { LocationCoordinate2D(latitude: lat, longitude: $0) }
            if lat == 0 { addLine(pts, to: &strong) } else { addLine(pts, to: &path) }
            lat += step
        }
        painter.stroke(path, style: StrokeStyle(width: 1), color: Color(rgb: 0x8DA9C4, alpha: 160), into: &buffer)
        painter.stroke(strong, style: StrokeStyle(width: 2), color: Color(rgb: 0xF1FAEE), into: &buffer)
        if let puck, let p = t.point(for: puck.coordinate) {
            painter.fillCircle(center: p, radius: 9, color: .white, into: &buffer)
            painter.fillCircle(center: p, radius: 6.5, color: Color(rgb: 0x1E88E5), into: &buffer)
        }
    }
}
