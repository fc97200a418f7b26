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
    /// Frame pixels per point (the window's `--pixel-ratio`): text, panels and callouts are this
    /// many times their 1× size.
    public var scale = 1.0
    /// Text size in pixels (14 points).
    public var pixelSize: Float { Float(14 * scale) }

    /// - Parameter width/height: the frame size (the painter is rebuilt when it changes).
    public init(width: Int, height: Int) {
        painter = Painter(width: width, height: height)
        // Without the font the overlay draws no text (the map and ornaments still show).
        if let font = try? TrueTypeFont.builtin() { cache = GlyphCache(font: font) }
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
        let w = lines.map { width(of: $0) }.max()! + 16 * scale
        let h = Double(lines.count) * lineHeight + 10 * scale
        box(x: x, y: y, width: w, height: h, color: Color(red: 0, green: 0, blue: 0, alpha: 170), into: &buffer)
        for (i, l) in lines.enumerated() {
            text(l, x: x + 8 * scale, y: y + 5 * scale + Double(i + 1) * lineHeight - Double(pixelSize) * 0.35, color: .white, into: &buffer)
        }
    }
}

extension OverlayPainter {
    /// Corner radius, pointer height and padding of a callout, in points.
    static let calloutRadius = 6.0, calloutPointer = 9.0, calloutPadding = 8.0

    /// A callout: `text` in a small rounded box whose pointer tip touches `tip` (pixels). The box
    /// sits above the tip, or below when there is no room above, and is kept inside the frame.
    public mutating func callout(_ text: String, pointingAt tip: ScreenPoint, into buffer: inout PixelBuffer) {
        guard tip.isFinite, tip.x >= 0, tip.y >= 0, tip.x <= Double(buffer.width), tip.y <= Double(buffer.height) else { return }
        let padding = Self.calloutPadding * scale, pointer = Self.calloutPointer * scale
        let w = width(of: text) + 2 * padding, h = lineHeight + padding
        let above = tip.y - pointer - h >= 0
        let x = min(max(tip.x - w / 2, 2), max(2, Double(buffer.width) - w - 2))
        let y = above ? tip.y - pointer - h : tip.y + pointer
        let outline = Self.calloutOutline(x: x, y: y, width: w, height: h, tip: tip, above: above, scale: scale)
        polygon(outline.map { ScreenPoint(x: $0.x + 1, y: $0.y + 1.5) }, color: Color(red: 0, green: 0, blue: 0, alpha: 60), into: &buffer)
        polygon(outline, color: Color(red: 255, green: 255, blue: 255, alpha: 240), into: &buffer)
        self.text(text, x: x + padding, y: y + h - padding / 2 - Double(pixelSize) * 0.35,
                  color: Color(rgb: 0x222222), into: &buffer)
    }

    /// The outline of a rounded box with a pointer on its bottom (`above`) or top edge, clockwise:
    /// corners as quarter circles of 4 segments, the pointer 8 points wide at its base, clamped to
    /// the straight part of the edge; `scale` pixels per point.
    static func calloutOutline(x: Double, y: Double, width w: Double, height h: Double, tip: ScreenPoint, above: Bool,
                               scale: Double = 1) -> [ScreenPoint] {
        let r = min(calloutRadius * scale, w / 2, h / 2), half = 4 * scale
        let baseX = min(max(tip.x, x + r + half), x + w - r - half)
        var points: [ScreenPoint] = []
        func corner(_ cx: Double, _ cy: Double, from a0: Double) {
            for k in 0...4 {
                let a = (a0 + Double(k) * 22.5) * .pi / 180
                points.append(ScreenPoint(x: cx + r * cos(a), y: cy + r * sin(a)))
            }
        }
        // y grows downwards, so angles run clockwise on screen: top-left corner from 180°.
        corner(x + r, y + r, from: 180)
        if !above { points += [ScreenPoint(x: baseX - half, y: y), tip, ScreenPoint(x: baseX + half, y: y)] }
        corner(x + w - r, y + r, from: 270)
        corner(x + w - r, y + h - r, from: 0)
        if above { points += [ScreenPoint(x: baseX + half, y: y + h), tip, ScreenPoint(x: baseX - half, y: y + h)] }
        corner(x + r, y + h - r, from: 90)
        return points
    }
}
