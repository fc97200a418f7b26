import FlybyCore
import FlybyData
import FlybyRender

#if canImport(Glibc)
import Glibc
#endif

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

    /// Fills a disc.
    public mutating func fillDisc(center: ScreenPoint, radius: Double, color: Color, into buffer: inout PixelBuffer) {
        fit(buffer)
        painter.fillCircle(center: center, radius: radius, color: color, into: &buffer)
    }

    /// Fills a polygon.
    public mutating func polygon(_ points: [ScreenPoint], color: Color, into buffer: inout PixelBuffer) {
        fit(buffer)
        path.removeAll()
        path.addPolygon(points)
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

extension OverlayPainter {
    /// Corner radius, pointer height and padding of a callout, in pixels.
    static let calloutRadius = 6.0, calloutPointer = 9.0, calloutPadding = 8.0

    /// A callout: `text` in a small rounded box whose pointer tip touches `tip` (pixels). The box
    /// sits above the tip, or below when there is no room above, and is kept inside the frame.
    public mutating func callout(_ text: String, pointingAt tip: ScreenPoint, into buffer: inout PixelBuffer) {
        guard tip.isFinite, tip.x >= 0, tip.y >= 0, tip.x <= Double(buffer.width), tip.y <= Double(buffer.height) else { return }
        let w = width(of: text) + 2 * Self.calloutPadding, h = lineHeight + Self.calloutPadding
        let above = tip.y - Self.calloutPointer - h >= 0
        let x = min(max(tip.x - w / 2, 2), max(2, Double(buffer.width) - w - 2))
        let y = above ? tip.y - Self.calloutPointer - h : tip.y + Self.calloutPointer
        let outline = Self.calloutOutline(x: x, y: y, width: w, height: h, tip: tip, above: above)
        polygon(outline.map { ScreenPoint(x: $0.x + 1, y: $0.y + 1.5) }, color: Color(red: 0, green: 0, blue: 0, alpha: 60), into: &buffer)
        polygon(outline, color: Color(red: 255, green: 255, blue: 255, alpha: 240), into: &buffer)
        self.text(text, x: x + Self.calloutPadding, y: y + h - Self.calloutPadding / 2 - Double(pixelSize) * 0.35,
                  color: Color(rgb: 0x222222), into: &buffer)
    }

    /// The outline of a rounded box with a pointer on its bottom (`above`) or top edge, clockwise:
    /// corners as quarter circles of 4 segments, the pointer 8 px wide at its base, clamped to
    /// the straight part of the edge.
    static func calloutOutline(x: Double, y: Double, width w: Double, height h: Double, tip: ScreenPoint, above: Bool) -> [ScreenPoint] {
        let r = min(calloutRadius, w / 2, h / 2)
        let baseX = min(max(tip.x, x + r + 4), x + w - r - 4)
        var points: [ScreenPoint] = []
        func corner(_ cx: Double, _ cy: Double, from a0: Double) {
            for k in 0...4 {
                let a = (a0 + Double(k) * 22.5) * .pi / 180
                points.append(ScreenPoint(x: cx + r * cos(a), y: cy + r * sin(a)))
            }
        }
        // y grows downwards, so angles run clockwise on screen: top-left corner from 180°.
        corner(x + r, y + r, from: 180)
        if !above { points += [ScreenPoint(x: baseX - 4, y: y), tip, ScreenPoint(x: baseX + 4, y: y)] }
        corner(x + w - r, y + r, from: 270)
        corner(x + w - r, y + h - r, from: 0)
        if above { points += [ScreenPoint(x: baseX + 4, y: y + h), tip, ScreenPoint(x: baseX - 4, y: y + h)] }
        corner(x + r, y + h - r, from: 90)
        return points
    }
}

extension OverlayPainter {
    /// Compass radius in pixels.
    public static let compassRadius = 22.0

    /// Whether the compass shows: only when the map is not north-up (Mapbox's adaptive compass).
    public static func showsCompass(bearing: Double) -> Bool {
        let b = wrapBearing(bearing)
        return min(b, 360 - b) > 0.05
    }

    /// The map ornaments: a scale bar (bottom left), a compass (top right, only when the map is
    /// not north-up, as Mapbox's adaptive compass) and the attribution (bottom right).
    public mutating func ornaments(camera: CameraState, attribution: String, compass: ScreenPoint, into buffer: inout PixelBuffer) {
        let w = Double(buffer.width), h = Double(buffer.height)
        // Scale bar: the longest 1-2-5 length that fits in 100 px at the centre's latitude.
        let metersPerPixel = 40_075_016.686 * cos(camera.center.latitude * .pi / 180) / (512 * exp2(camera.zoom))
        if metersPerPixel.isFinite, metersPerPixel > 0 {
            let maxMeters = metersPerPixel * 100
            var unit = pow(10, (log10(maxMeters)).rounded(.down))
            for m in [5.0, 2.0, 1.0] where unit * m <= maxMeters { unit *= m; break }
            let px = unit / metersPerPixel
            let label = unit >= 1000 ? "\(fmt(unit / 1000, unit >= 10_000 ? 0 : (unit.truncatingRemainder(dividingBy: 1000) == 0 ? 0 : 1))) km" : "\(fmt(unit, 0)) m"
            box(x: 10, y: h - 30, width: px + 8, height: 22, color: Color(red: 255, green: 255, blue: 255, alpha: 190), into: &buffer)
            box(x: 14, y: h - 14, width: px, height: 3, color: Color(rgb: 0x222222), into: &buffer)
            let saved = pixelSize
            pixelSize = 11
            text(label, x: 15, y: h - 17, color: Color(rgb: 0x222222), into: &buffer)
            pixelSize = saved
        }
        if !attribution.isEmpty {
            let saved = pixelSize
            pixelSize = 11
            let tw = width(of: attribution)
            box(x: w - tw - 12, y: h - 18, width: tw + 12, height: 18, color: Color(red: 255, green: 255, blue: 255, alpha: 170), into: &buffer)
            text(attribution, x: w - tw - 6, y: h - 5, color: Color(rgb: 0x333333), into: &buffer)
            pixelSize = saved
        }
        let bearing = wrapBearing(camera.bearing)
        if Self.showsCompass(bearing: bearing) {
            fillDisc(center: compass, radius: Self.compassRadius, color: Color(red: 255, green: 255, blue: 255, alpha: 220), into: &buffer)
            // The needle points to north on the map: rotated by −bearing.
            let a = -bearing * .pi / 180
            func rot(_ x: Double, _ y: Double) -> ScreenPoint {
                ScreenPoint(x: compass.x + x * cos(a) - y * sin(a), y: compass.y + x * sin(a) + y * cos(a))
            }
            polygon([rot(0, -16), rot(6, 0), rot(-6, 0)], color: Color(rgb: 0xE53935), into: &buffer)
            polygon([rot(0, 16), rot(6, 0), rot(-6, 0)], color: Color(rgb: 0x555555), into: &buffer)
        }
    }
}

/// The stand-in map drawing used until the real `MapRenderer` is plugged in: a background, a
/// graticule projected through the camera's `MapTransform` (so pan, zoom, bearing and pitch all
/// show) every 10°, finer when zoomed in so that lines stay about 100–250 px apart, the equator
/// and prime meridian brighter, and the puck as a dot.
public struct PlaceholderMap {
    private var painter = Painter(width: 1, height: 1)
    private var path = Path()
    private var strong = Path()
    /// Graticule steps in degrees, coarse to fine.
    static let steps: [Double] = [10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001]

    public init() {}

    /// Draws the placeholder map of `camera` (and `puck`) into `buffer`.
    public mutating func draw(camera: CameraState, puck: PuckState?, into buffer: inout PixelBuffer) {
        if painter.width != buffer.width || painter.height != buffer.height {
            painter = Painter(width: buffer.width, height: buffer.height)
        }
        buffer.clear(to: Color(rgb: 0x1D3557))
        let w = Double(buffer.width), h = Double(buffer.height)
        let t = MapTransform(size: ScreenSize(width: w, height: h), state: camera)
        path.removeAll()
        strong.removeAll()
        // The visible ground: the screen border, clamped below the horizon.
        var minLng = Double.infinity, maxLng = -Double.infinity, minLat = 85.0, maxLat = -85.0
        for i in 0...8 {
            let f = Double(i) / 8
            for q in [ScreenPoint(x: f * w, y: 0), ScreenPoint(x: f * w, y: h), ScreenPoint(x: 0, y: f * h), ScreenPoint(x: w, y: f * h)] {
                let c = t.coordinate(for: q)
                guard c.latitude.isFinite, c.longitude.isFinite else { continue }
                minLng = min(minLng, c.longitude); maxLng = max(maxLng, c.longitude)
                minLat = min(minLat, c.latitude); maxLat = max(maxLat, c.latitude)
            }
        }
        if !(maxLng > minLng) || maxLng - minLng > 360 { minLng = camera.center.longitude - 180; maxLng = camera.center.longitude + 180 }
        if !(maxLat > minLat) { minLat = -85; maxLat = 85 }
        let degreesPer150px = 150 * 360 / (512 * exp2(camera.zoom))
        var step = Self.steps.last { $0 >= degreesPer150px } ?? 10
        while (maxLng - minLng) / step > 150 || (maxLat - minLat) / step > 150 { step *= 2 }
        func addLine(_ points: [LocationCoordinate2D], to p: inout Path) {
            var open = false
            for c in points {
                if let s = t.point(for: c), s.isFinite, abs(s.x) < 1e5, abs(s.y) < 1e5 {
                    if open { p.line(to: s) } else { p.move(to: s); open = true }
                } else { open = false }
            }
        }
        let samples = 64
        let lat0 = max(-85, (minLat / step).rounded(.down) * step), lat1 = min(85, (maxLat / step).rounded(.up) * step)
        let lng0 = (minLng / step).rounded(.down) * step, lng1 = (maxLng / step).rounded(.up) * step
        var lng = lng0
        while lng <= lng1 + step * 1e-6 {
            let pts = (0...samples).map { LocationCoordinate2D(latitude: lat0 + (lat1 - lat0) * Double($0) / Double(samples), longitude: lng) }
            let wrapped = lng.truncatingRemainder(dividingBy: 360)
            if abs(wrapped) < step * 1e-6 { addLine(pts, to: &strong) } else { addLine(pts, to: &path) }
            lng += step
        }
        var lat = lat0
        while lat <= lat1 + step * 1e-6 {
            let pts = (0...samples).map { LocationCoordinate2D(latitude: lat, longitude: lng0 + (lng1 - lng0) * Double($0) / Double(samples)) }
            if abs(lat) < step * 1e-6 { addLine(pts, to: &strong) } else { addLine(pts, to: &path) }
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
