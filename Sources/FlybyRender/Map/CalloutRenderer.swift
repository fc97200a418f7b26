import FlybyCore

/// Draws small callouts ("view annotations" on Linux, where there are no UIViews): a rounded
/// box with a one-line text (and an optional second, smaller line), a soft shadow, a border and
/// a tail pointing at the annotated point. Screen points = pixels, origin top-left, y down.
///
/// Drawn onto a finished map frame, so callouts sit above the map, as Mapbox's view annotations
/// sit above the map view's layers. Deterministic: the same calls give the same pixels.
public struct CalloutRenderer {
    /// How a callout looks.
    public struct Appearance: Sendable, Hashable {
        public var fill: Color
        public var border: Color
        public var textColor: Color
        public var detailColor: Color
        /// Text size in points (the detail line is 80 % of it).
        public var textSize: Double
        public var cornerRadius: Double
        /// Padding between the box edge and the text.
        public var padding: Double

        public init(fill: Color = .white, border: Color = Color(rgb: 0x000000, alpha: 60), textColor: Color = Color(rgb: 0x202020),
                    detailColor: Color = Color(rgb: 0x6A6A6A), textSize: Double = 13, cornerRadius: Double = 6, padding: Double = 7) {
            self.fill = fill; self.border = border; self.textColor = textColor; self.detailColor = detailColor
            self.textSize = textSize; self.cornerRadius = cornerRadius; self.padding = padding
        }

        public static let standard = Appearance()
        /// A highlighted (selected) callout: blue with white text.
        public static let selected = Appearance(fill: Color(rgb: 0x1E6FD9), border: Color(rgb: 0x0F3F80, alpha: 140),
                                                textColor: .white, detailColor: Color(rgb: 0xDCE9FF))
    }

    var text: TextRenderer
    var painter: Painter
    var path = Path()

    /// A renderer for frames of `width × height` pixels.
    /// - Throws: ``FontError`` when the built-in font cannot be read.
    public init(width: Int, height: Int) throws(FontError) {
        text = try TextRenderer()
        painter = Painter(width: width, height: height)
    }

    /// The size in points of a callout showing `title` (and `detail`).
    public func size(title: String, detail: String? = nil, appearance: Appearance = .standard) -> ScreenSize {
        let t = text.measure(title, size: appearance.textSize, bold: true)
        var w = t.width, h = t.height
        if let detail, !detail.isEmpty {
            let d = text.measure(detail, size: appearance.textSize * 0.8)
            w = max(w, d.width); h += d.height + 2
        }
        return ScreenSize(width: (w + 2 * appearance.padding).rounded(.up), height: (h + 2 * appearance.padding).rounded(.up))
    }

    /// Draws a callout in `frame`, with a tail towards `pointer` when the point lies outside the
    /// box (the tail leaves the edge nearest the point).
    public mutating func draw(title: String, detail: String? = nil, in frame: ScreenRect, pointer: ScreenPoint? = nil,
                              appearance: Appearance = .standard, into buffer: inout PixelBuffer) {
        buffer.withView { view in
            // Shadow, then box (with tail) filled and outlined.
            addBox(frame.offsetBy(dx: 0, dy: 1.5), pointer: pointer.map { ScreenPoint(x: $0.x, y: $0.y + 1.5) }, radius: appearance.cornerRadius)
            painter.fill(path, color: Color(rgb: 0x000000, alpha: 45), into: view)
            addBox(frame, pointer: pointer, radius: appearance.cornerRadius)
            painter.fill(path, color: appearance.fill, into: view)
            painter.stroke(path, style: StrokeStyle(width: 1, join: .round), color: appearance.border, into: view)
            path.removeAll()
            let origin = ScreenPoint(x: frame.x + appearance.padding, y: frame.y + appearance.padding)
            let t = text.drawSimple(title, at: origin, size: appearance.textSize, bold: true, color: appearance.textColor,
                                    painter: &painter, view: view)
            if let detail, !detail.isEmpty {
                text.drawSimple(detail, at: ScreenPoint(x: origin.x, y: origin.y + t.height + 2), size: appearance.textSize * 0.8,
                                color: appearance.detailColor, painter: &painter, view: view)
            }
        }
    }

    /// Replaces ``path`` with a rounded rectangle and, when `pointer` is outside it, a tail.
    mutating func addBox(_ r: ScreenRect, pointer: ScreenPoint?, radius: Double) {
        path.removeAll()
        let rad = min(radius, r.width / 2, r.height / 2)
        var ring: [ScreenPoint] = []
        // Corners clockwise from the top-left, each a quarter circle of 4 segments.
        let corners = [(r.x + rad, r.y + rad, Double.pi), (r.maxX - rad, r.y + rad, 1.5 * Double.pi),
                       (r.maxX - rad, r.maxY - rad, 0), (r.x + rad, r.maxY - rad, 0.5 * Double.pi)]
        for (cx, cy, start) in corners {
            for k in 0...4 {
                let a = start + Double(k) / 4 * Double.pi / 2
                ring.append(ScreenPoint(x: cx + rad * mapCos(a), y: cy + rad * mapSin(a)))
            }
        }
        path.addPolygon(ring)
        guard let p = pointer, !r.contains(p) else { return }
        // Tail: a triangle from the nearest edge's middle stretch to the point.
        let half = min(7, r.width / 4, r.height / 4)
        let cx = min(max(p.x, r.x + rad + half), r.maxX - rad - half)
        let cy = min(max(p.y, r.y + rad + half), r.maxY - rad - half)
        let tail: [ScreenPoint]
        if p.y >= r.maxY {
            tail = [ScreenPoint(x: cx - half, y: r.maxY - 1), ScreenPoint(x: cx + half, y: r.maxY - 1), p]
        } else if p.y <= r.y {
            tail = [ScreenPoint(x: cx + half, y: r.y + 1), ScreenPoint(x: cx - half, y: r.y + 1), p]
        } else if p.x >= r.maxX {
            tail = [ScreenPoint(x: r.maxX - 1, y: cy + half), ScreenPoint(x: r.maxX - 1, y: cy - half), p]
        } else {
            tail = [ScreenPoint(x: r.x + 1, y: cy - half), ScreenPoint(x: r.x + 1, y: cy + half), p]
        }
        path.addPolygon(tail)
    }
}

extension ScreenRect {
    func offsetBy(dx: Double, dy: Double) -> ScreenRect { ScreenRect(x: x + dx, y: y + dy, width: width, height: height) }
}
