import FlybyCore
import FlybyData

/// The built-in fonts (DejaVu Sans and DejaVu Sans Bold) with their glyph caches, and the drawing
/// of laid-out text as filled glyph outlines (with an optional halo) through the path filler.
///
/// Units: pixels, y down. Glyph outlines are cached per glyph and pixel size; sizes are rounded
/// to 1/4 px for the cache, so a zoom animation reuses outlines.
struct TextRenderer {
    var regular: GlyphCache
    var bold: GlyphCache
    var glyphPath = Path()
    /// Laid-out labels by text and settings, kept across frames: a label's layout does not depend
    /// on the camera, and laying it out again every frame was half the time of the labels.
    var layouts: [LayoutKey: TextBlock] = [:]
    /// Where ``appendBlock`` put each glyph since the last ``drawPath``, for the halo.
    var placedGlyphs: [PlacedGlyph] = []
    /// Halo outlines (a glyph's outline stroked with round joins) in glyph coordinates, by glyph,
    /// size and stroke width, so that no label is stroked again each frame (measured: 2.2 M of the
    /// 16 M instructions a city frame's halos cost at pitch 60). The stroker outlines each contour
    /// on its own, so moving the cached outlines into place gives the same polygons as stroking the
    /// placed glyphs, up to the rounding of the last bit (the city and world snapshots came out
    /// byte-identical).
    var haloOutlines: [HaloKey: Path] = [:]
    var haloPath = Path()
    var stroker = Stroker()

    /// One glyph of a label as placed by ``appendBlock``: pixel = `origin + R(c, s) · (p + offset)`.
    struct PlacedGlyph {
        var glyph: GlyphID
        var bold: Bool
        var pixelSize: Float
        var offset: (x: Double, y: Double)
        var origin: ScreenPoint
        var cos: Double, sin: Double
    }

    /// What a cached halo outline depends on (`strokeWidth` in pixels).
    struct HaloKey: Hashable {
        var glyph: GlyphID
        var bold: Bool
        var sizeBits: UInt32
        var strokeWidthBits: UInt64
    }

    /// What a layout depends on (`maxWidth` < 0: no wrapping).
    struct LayoutKey: Hashable {
        var text: String
        var bold: Bool
        var pixelSize: Float
        var maxWidth: Float
        var letterSpacing: Float
        var justification: TextJustification
    }

    /// Most layouts kept; past it the cache starts over (a bound on memory for styles with very
    /// many distinct labels; results never depend on what is cached).
    static let layoutCacheLimit = 4096

    /// Loads the fonts shipped in FlybyData's resources.
    init() throws(FontError) {
        func load(_ name: String) throws(FontError) -> TrueTypeFont {
            guard let p = BuiltinData.path("fonts/\(name)") else {
                throw FontError(font: name, message: "the built-in font is missing from the resources")
            }
            return try TrueTypeFont(contentsOfFile: p)
        }
        regular = GlyphCache(font: try load("DejaVuSans.ttf"))
        bold = GlyphCache(font: try load("DejaVuSans-Bold.ttf"))
    }

    /// The cache for a `text-font` stack: bold when the first name says Bold, else regular.
    static func isBold(_ fonts: [String]) -> Bool {
        guard let first = fonts.first else { return false }
        return first.contains("Bold") || first.contains("Black") || first.contains("Heavy")
    }

    /// The pixel size used for layout and the outline cache (rounded to 1/4 px, at least 1 px).
    static func quantized(_ size: Double) -> Float { max(1, Float((size * 4).rounded()) / 4) }

    /// Appends the glyphs of `block` (laid out at `pixelSize` with the chosen font) to ``glyphPath``,
    /// each point mapped by `origin + R(angle) · (p − pivot)` where `p` is in block coordinates.
    mutating func appendBlock(_ block: TextBlock, bold isBold: Bool, pixelSize: Float, origin: ScreenPoint,
                              pivot: SIMD2<Float>, cos c: Double, sin s: Double) {
        for line in block.lines {
            for glyph in line.glyphs {
                let outline: GlyphOutline
                do {
                    outline = isBold ? try bold.outline(glyph.glyph, pixelSize: pixelSize)
                        : try regular.outline(glyph.glyph, pixelSize: pixelSize)
                } catch { continue }  // a malformed glyph is left out, never a crash
                let dx = Double(glyph.position.x - pivot.x), dy = Double(glyph.position.y - pivot.y)
                if !outline.isEmpty {
                    placedGlyphs.append(PlacedGlyph(glyph: glyph.glyph, bold: isBold, pixelSize: pixelSize, offset: (dx, dy),
                                                    origin: origin, cos: c, sin: s))
                }
                for contour in outline.contours {
                    glyphPath.beginContour()
                    for p in contour {
                        let x = Double(p.x) + dx, y = Double(p.y) + dy
                        glyphPath.appendPoint(ScreenPoint(x: origin.x + c * x - s * y, y: origin.y + s * x + c * y))
                    }
                    glyphPath.endContour(closed: true, minimumCount: 3)
                }
            }
        }
    }

    /// ``layout(_:bold:pixelSize:maxWidth:letterSpacing:justification:)`` through the layout cache.
    mutating func cachedLayout(_ text: String, bold isBold: Bool, pixelSize: Float, maxWidth: Float?, letterSpacing: Float,
                               justification: TextJustification) -> TextBlock {
        let key = LayoutKey(text: text, bold: isBold, pixelSize: pixelSize, maxWidth: maxWidth ?? -1,
                            letterSpacing: letterSpacing, justification: justification)
        if let block = layouts[key] { return block }
        let block = layout(text, bold: isBold, pixelSize: pixelSize, maxWidth: maxWidth, letterSpacing: letterSpacing,
                           justification: justification)
        if layouts.count >= TextRenderer.layoutCacheLimit { layouts.removeAll(keepingCapacity: true) }
        layouts[key] = block
        return block
    }

    /// Lays out `text` with the chosen font.
    func layout(_ text: String, bold isBold: Bool, pixelSize: Float, maxWidth: Float?, letterSpacing: Float = 0,
                justification: TextJustification = .center) -> TextBlock {
        (isBold ? bold.font : regular.font).layout(text, pixelSize: pixelSize, maxWidth: maxWidth,
                                                   letterSpacing: letterSpacing, justification: justification)
    }

    /// Fills ``glyphPath`` with `color` after stroking it with a `halo`-wide border of `haloColor`
    /// (round joins), then empties it.
    ///
    /// The halo is filled from cached per-glyph halo outlines (see ``haloOutlines``); as with
    /// ``Painter/stroke(_:style:color:clip:into:)``, a halo under 1 px wide is drawn 1 px wide
    /// with its alpha scaled by the width.
    mutating func drawPath(color: Color, halo: Double, haloColor: Color, painter: inout Painter, view: PixelBufferView) {
        defer { glyphPath.removeAll(); placedGlyphs.removeAll(keepingCapacity: true) }
        guard !glyphPath.isEmpty else { return }
        let width = 2 * halo
        if width > 0 && width.isFinite && haloColor.alpha != 0 {
            let strokeWidth = max(width, 1)
            let paint = width < 1 ? haloColor.withAlphaScaled(by: width) : haloColor
            haloPath.removeAll()
            for placed in placedGlyphs { appendHalo(of: placed, strokeWidth: strokeWidth) }
            painter.fill(haloPath, color: paint, rule: .nonZero, into: view)
        }
        if color.alpha != 0 { painter.fill(glyphPath, color: color, rule: .nonZero, into: view) }
    }

    /// Appends the halo outline of `placed` (stroked `strokeWidth` px wide) to ``haloPath``.
    mutating func appendHalo(of placed: PlacedGlyph, strokeWidth: Double) {
        let key = HaloKey(glyph: placed.glyph, bold: placed.bold, sizeBits: placed.pixelSize.bitPattern,
                          strokeWidthBits: strokeWidth.bitPattern)
        let outline: Path
        if let cached = haloOutlines[key] {
            outline = cached
        } else {
            let glyphOutline: GlyphOutline
            do {
                glyphOutline = placed.bold ? try bold.outline(placed.glyph, pixelSize: placed.pixelSize)
                    : try regular.outline(placed.glyph, pixelSize: placed.pixelSize)
            } catch { return }
            var local = Path()
            for contour in glyphOutline.contours {
                local.beginContour()
                for p in contour { local.appendPoint(ScreenPoint(x: Double(p.x), y: Double(p.y))) }
                local.endContour(closed: true, minimumCount: 3)   // as appendBlock does
            }
            var stroked = Path()
            stroker.stroke(local, style: StrokeStyle(width: strokeWidth, join: .round, tolerance: 0.25), into: &stroked)
            if haloOutlines.count >= TextRenderer.layoutCacheLimit { haloOutlines.removeAll(keepingCapacity: true) }
            haloOutlines[key] = stroked
            outline = stroked
        }
        let (dx, dy) = placed.offset, o = placed.origin, c = placed.cos, s = placed.sin
        outline.points.withUnsafeBufferPointer { points in
            for contour in outline.contours {
                haloPath.beginContour()
                for i in contour.start..<contour.end {
                    let x = points[i].x + dx, y = points[i].y + dy
                    haloPath.appendPoint(ScreenPoint(x: o.x + c * x - s * y, y: o.y + s * x + c * y))
                }
                haloPath.endContour(closed: contour.isClosed, minimumCount: 1)
            }
        }
    }

    /// Draws one line of text with its top-left corner at `origin` (horizontal, no wrapping) and
    /// returns its size in pixels.
    @discardableResult
    mutating func drawSimple(_ text: String, at origin: ScreenPoint, size: Double, bold isBold: Bool = false,
                             color: Color, halo: Double = 0, haloColor: Color = .white,
                             painter: inout Painter, view: PixelBufferView) -> (width: Double, height: Double) {
        let px = TextRenderer.quantized(size)
        let block = layout(text, bold: isBold, pixelSize: px, maxWidth: nil)
        appendBlock(block, bold: isBold, pixelSize: px, origin: origin, pivot: .zero, cos: 1, sin: 0)
        drawPath(color: color, halo: halo, haloColor: haloColor, painter: &painter, view: view)
        return (Double(block.size.x), Double(block.size.y))
    }

    /// The size in pixels of `text` set on one line.
    func measure(_ text: String, size: Double, bold isBold: Bool = false) -> (width: Double, height: Double) {
        let px = TextRenderer.quantized(size)
        let block = layout(text, bold: isBold, pixelSize: px, maxWidth: nil)
        return (Double(block.size.x), Double(block.size.y))
    }
}
