import FlybyCore

/// The drawing front end: fills, strokes and circles with scratch storage reused across calls.
///
/// One painter per thread. For parallel rendering make one painter per row band
/// (`Painter(width:height:rows:)`) and draw the same calls into the same ``PixelBufferView``:
/// each band writes only its rows and the result equals one whole-frame painter, pixel for pixel.
/// No call allocates once the scratch paths and the filler have grown to the scene's needs.
public struct Painter: Sendable {
    public private(set) var filler: PathFiller
    var stroker = Stroker()
    var dasher = Dasher()
    var outline = Path()
    var dashed = Path()
    var shape = Path()

    /// A painter for `width × height` frames drawing rows `rows` (default: all).
    public init(width: Int, height: Int, rows: Range<Int>? = nil) {
        filler = PathFiller(width: width, height: height, rows: rows)
    }

    public var width: Int { filler.width }
    public var height: Int { filler.height }
    public var rows: Range<Int> { filler.rows }

    /// Draws rows `rows` from now on (see ``PathFiller/setRows(_:)``).
    public mutating func setRows(_ rows: Range<Int>) { filler.setRows(rows) }
    /// The rectangle of the frame this painter draws: full width × ``rows``.
    public var rowRect: PixelRect { PixelRect(minX: 0, minY: rows.lowerBound, maxX: width, maxY: rows.upperBound) }

    /// Fills `path` (contours closed implicitly) with `color` under `rule`, only inside `clip`.
    public mutating func fill(_ path: Path, color: Color, rule: FillRule = .nonZero, clip: PixelRect? = nil,
                              into buffer: inout PixelBuffer) {
        buffer.withView { fill(path, color: color, rule: rule, clip: clip, into: $0) }
    }

    /// ``fill(_:color:rule:clip:into:)`` onto a view (for band rendering).
    public mutating func fill(_ path: Path, color: Color, rule: FillRule = .nonZero, clip: PixelRect? = nil,
                              into view: PixelBufferView) {
        filler.fill(path, premultiplied: color.premultipliedARGB, rule: rule, clip: clip, into: view)
    }

    /// Strokes every contour of `path` with `style` in `color`.
    ///
    /// Dashes are cut first, then each piece is outlined (``Stroker``) and the outline filled
    /// non-zero, so overlaps within one call never double-blend. Widths under 1 px are drawn 1 px
    /// wide with alpha × width, which keeps thin lines continuous and of the right average darkness.
    public mutating func stroke(_ path: Path, style: StrokeStyle, color: Color, clip: PixelRect? = nil,
                                into buffer: inout PixelBuffer) {
        buffer.withView { stroke(path, style: style, color: color, clip: clip, into: $0) }
    }

    /// ``stroke(_:style:color:clip:into:)`` onto a view (for band rendering).
    public mutating func stroke(_ path: Path, style: StrokeStyle, color: Color, clip: PixelRect? = nil,
                                into view: PixelBufferView) {
        guard style.width > 0, style.width.isFinite else { return }
        var effective = style
        var paint = color
        if style.width < 1 {
            effective.width = 1
            paint = color.withAlphaScaled(by: style.width)
        }
        // Skip paths whose stroke cannot reach this painter's rows or the clip (off-screen
        // features, other bands): the outline lies within width/2 · max(miter limit, √2) + 1 px
        // of the path (miter tips, square-cap corners).
        guard let b = path.finiteBounds else { return }
        let reach = effective.width / 2 * max(effective.miterLimit, 1.5) + 1
        var box = PixelRect(minX: 0, minY: rows.lowerBound, maxX: width, maxY: rows.upperBound)
        if let clip { box = box.intersection(clip) }
        guard !box.isEmpty, b.maxX + reach > Double(box.minX), b.minX - reach < Double(box.maxX),
              b.maxY + reach > Double(box.minY), b.minY - reach < Double(box.maxY) else { return }
        outline.removeAll()
        if let coverage = Dasher.subpixelCoverage(style.dashes) {
            // A pattern finer than a pixel: its average coverage, drawn solid.
            paint = paint.withAlphaScaled(by: coverage)
            stroker.stroke(path, style: effective, into: &outline)
        } else if Dasher.isValidPattern(style.dashes) {
            dashed.removeAll()
            let d = dashBox(clip)
            let v = (Double(d.minX) - reach, Double(d.minY) - reach, Double(d.maxX) + reach, Double(d.maxY) + reach)
            dasher.dash(path, pattern: style.dashes, offset: style.dashOffset, visible: v, into: &dashed)
            stroker.stroke(dashed, style: effective, into: &outline)
        } else {
            stroker.stroke(path, style: effective, into: &outline)
        }
        filler.fill(outline, premultiplied: paint.premultipliedARGB, rule: .nonZero, clip: clip, into: view)
    }

    /// Strokes every contour of `path` as a ``Hairline`` `width` ≤ 1 px wide, dashed by `dashes`
    /// when it is a valid pattern (lengths in pixels, see ``Dasher/isValidPattern(_:)``).
    ///
    /// Far cheaper than ``stroke(_:style:color:clip:into:)`` for thin lines: the hairline walks
    /// the dash pattern itself (a dash of a footpath is a few pixels long: cutting, outlining and
    /// area-filling each one cost ~20× more); as with solid hairlines, pixels where two segments
    /// cross are blended twice.
    public mutating func strokeHairline(_ path: Path, width: Double, dashes: [Double], color: Color, clip: PixelRect? = nil,
                                        into view: PixelBufferView) {
        var box = PixelRect(minX: 0, minY: rows.lowerBound, maxX: self.width, maxY: rows.upperBound)
        if let clip { box = box.intersection(clip) }
        guard !box.isEmpty else { return }
        Hairline.stroke(path, width: width, dashes: dashes, color: color, clip: box, into: view)
    }

    /// Where dashes are cut: the frame ∩ `clip`, never this painter's band. Dashes are cut with the
    /// pattern skipped over invisible stretches, which rounds differently from walking it, so a
    /// band-dependent box would move dashes by rounding and band pixels would differ from one
    /// whole-frame painter's.
    func dashBox(_ clip: PixelRect?) -> PixelRect {
        let frame = PixelRect(minX: 0, minY: 0, maxX: width, maxY: height)
        return clip.map { frame.intersection($0) } ?? frame
    }

    /// Fills the disc of `radius` pixels around `center` (a polygon of the circle's area, see
    /// ``Path/addCircle(center:radius:tolerance:)``).
    public mutating func fillCircle(center: ScreenPoint, radius: Double, color: Color, clip: PixelRect? = nil,
                                    into buffer: inout PixelBuffer) {
        buffer.withView { fillCircle(center: center, radius: radius, color: color, clip: clip, into: $0) }
    }

    /// ``fillCircle(center:radius:color:clip:into:)`` onto a view (for band rendering).
    public mutating func fillCircle(center: ScreenPoint, radius: Double, color: Color, clip: PixelRect? = nil,
                                    into view: PixelBufferView) {
        shape.removeAll()
        shape.addCircle(center: center, radius: radius)
        filler.fill(shape, premultiplied: color.premultipliedARGB, rule: .nonZero, clip: clip, into: view)
    }

    /// Strokes the circle of `radius` pixels around `center` (a ring `style.width` wide centred on it).
    public mutating func strokeCircle(center: ScreenPoint, radius: Double, style: StrokeStyle, color: Color,
                                      clip: PixelRect? = nil, into buffer: inout PixelBuffer) {
        buffer.withView { strokeCircle(center: center, radius: radius, style: style, color: color, clip: clip, into: $0) }
    }

    /// ``strokeCircle(center:radius:style:color:clip:into:)`` onto a view (for band rendering).
    public mutating func strokeCircle(center: ScreenPoint, radius: Double, style: StrokeStyle, color: Color,
                                      clip: PixelRect? = nil, into view: PixelBufferView) {
        var circle = Path()
        swap(&circle, &shape)
        circle.removeAll()
        circle.addCircle(center: center, radius: radius, tolerance: style.tolerance)
        stroke(circle, style: style, color: color, clip: clip, into: view)
        swap(&circle, &shape)
    }
}
