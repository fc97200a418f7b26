import FlybyCore
import FlybyData

/// The built-in fonts (DejaVu Sans and DejaVu Sans Bold) with their glyph distance fields, the
/// style's glyph-PBF font stacks (``GlyphStackFont``, when the style has `glyphs`), and the drawing
/// of laid-out text (with an optional halo) from those fields (``GlyphFieldPainter``).
///
/// Units: pixels, y down. Layout sizes are rounded to 1/4 px (``quantized(_:)``) so a zoom
/// animation reuses layouts; the distance fields do not depend on the size at all.
struct TextRenderer {
    var regular: GlyphFieldCache
    var bold: GlyphFieldCache
    /// The style's glyph PBFs (nil: every label uses the built-in fonts).
    var glyphSource: GlyphSource?
    /// The `text-font` stacks met so far, drawn from glyph PBFs (see ``font(for:)``).
    var stacks: [GlyphStackFont] = []
    var stackIndex: [[String]: Int] = [:]
    /// Problems with the glyph source itself (see ``MapRenderer/textWarnings``).
    var warnings: [String] = []
    /// Laid-out labels by text and settings, kept across frames: a label's layout does not depend
    /// on the camera, and laying it out again every frame was half the time of the labels.
    var layouts: [LayoutKey: TextBlock] = [:]
    /// The glyphs put by ``appendBlock`` since the last ``drawPlacedGlyphs``, and the drawing.
    var glyphPainter = GlyphFieldPainter()
    /// Fields of the regular font being made in the background (``prewarm(_:)``), taken into
    /// ``regular`` when a built-in glyph is first drawn.
    var pendingRegular: GlyphFieldPrewarm?

    /// What a layout depends on (`maxWidth` < 0: no wrapping).
    struct LayoutKey: Hashable {
        var text: String
        var font: LabelFontID
        var pixelSize: Float
        var maxWidth: Float
        var lineHeight: Float
        var letterSpacing: Float
        var justification: TextJustification
    }

    /// Most layouts kept; past it the cache starts over (a bound on memory for styles with very
    /// many distinct labels; results never depend on what is cached).
    static let layoutCacheLimit = 4096
    /// Most distinct PBF stacks (a data-driven `text-font` could name any number); later stacks
    /// use the built-in fonts.
    static let stackLimit = 64

    /// Loads the fonts shipped in FlybyData's resources; `glyphs` is the style's glyph PBFs.
    init(glyphs: GlyphSource? = nil) throws(FontError) {
        regular = GlyphFieldCache(font: try TrueTypeFont.builtin())
        bold = GlyphFieldCache(font: try TrueTypeFont.builtin("DejaVuSans-Bold.ttf"))
        glyphSource = glyphs
    }

    /// The font of a `text-font` stack: its glyph PBFs when the style has `glyphs`, else the
    /// built-in regular or bold font (``isBold(_:)``).
    mutating func font(for names: [String]) -> LabelFontID {
        let isBold = TextRenderer.isBold(names)
        guard let glyphSource, !names.isEmpty else { return isBold ? .bold : .regular }
        if let k = stackIndex[names] { return .stack(k) }
        guard stacks.count < TextRenderer.stackLimit else { return isBold ? .bold : .regular }
        stacks.append(GlyphStackFont(names: names, source: glyphSource, fallback: isBold ? bold.font : regular.font,
                                     fallbackIsBold: isBold))
        stackIndex[names] = stacks.count - 1
        return .stack(stacks.count - 1)
    }

    /// Starts making the regular font's fields of the glyphs of `text` (the attribution) on a
    /// background thread, so they are ready when the frame's ornaments draw it.
    mutating func prewarm(_ text: String) {
        guard pendingRegular == nil, !text.isEmpty else { return }
        let glyphs = regular.font.layout(text, pixelSize: 12, maxWidth: nil).lines.flatMap { $0.glyphs.map(\.glyph) }
        pendingRegular = GlyphFieldPrewarm(glyphs: glyphs, font: regular.font)
    }

    /// Takes the background fields (``prewarm(_:)``) into ``regular``, waiting for them.
    mutating func adoptPrewarmed() {
        guard let pending = pendingRegular else { return }
        pendingRegular = nil
        regular.adopt(pending.glyphs, pending.fields())
    }

    /// The distance field of `glyph` of `font` (nil: no ink, or malformed).
    mutating func field(_ glyph: GlyphID, font: LabelFontID) -> GlyphDistanceField? {
        if pendingRegular != nil && font != .bold { adoptPrewarmed() }
        switch font {
        case .regular: return regular.field(glyph)
        case .bold: return bold.field(glyph)
        case .stack(let k):
            guard glyph < 0x8000 else { return stacks[k].field(glyph) }
            return stacks[k].fallbackIsBold ? bold.field(glyph) : regular.field(glyph)
        }
    }

    /// The cache for a `text-font` stack: bold when the first name says Bold, else regular.
    static func isBold(_ fonts: [String]) -> Bool {
        guard let first = fonts.first else { return false }
        return first.contains("Bold") || first.contains("Black") || first.contains("Heavy")
    }

    /// The pixel size used for layout (rounded to 1/4 px, at least 1 px).
    static func quantized(_ size: Double) -> Float { max(1, Float((size * 4).rounded()) / 4) }

    /// Queues the glyphs of `block` (laid out at `pixelSize` with the chosen font) for
    /// ``drawPlacedGlyphs``, a point `p` of the block (pixels) going to `origin + R(angle) · (p − pivot)`.
    /// Glyphs without ink (spaces) and malformed ones are left out.
    mutating func appendBlock(_ block: TextBlock, font: LabelFontID, pixelSize: Float, origin: ScreenPoint,
                              pivot: SIMD2<Float>, cos c: Double, sin s: Double) {
        for line in block.lines {
            for glyph in line.glyphs {
                guard let field = field(glyph.glyph, font: font) else { continue }
                let dx = Double(glyph.position.x - pivot.x), dy = Double(glyph.position.y - pivot.y)
                glyphPainter.glyphs.append(PlacedGlyph(field: field, pixelSize: pixelSize, offset: (dx, dy),
                                                       origin: origin, cos: c, sin: s))
            }
        }
    }

    /// ``layout(_:font:pixelSize:maxWidth:letterSpacing:justification:)`` through the layout cache
    /// (loading the glyph ranges a PBF stack needs first).
    mutating func cachedLayout(_ text: String, font: LabelFontID, pixelSize: Float, maxWidth: Float?, lineHeight: Float? = nil,
                               letterSpacing: Float, justification: TextJustification) -> TextBlock {
        let key = LayoutKey(text: text, font: font, pixelSize: pixelSize, maxWidth: maxWidth ?? -1, lineHeight: lineHeight ?? -1,
                            letterSpacing: letterSpacing, justification: justification)
        if let block = layouts[key] { return block }
        if case .stack(let k) = font { stacks[k].prepare(text) }
        let block = layout(text, font: font, pixelSize: pixelSize, maxWidth: maxWidth, lineHeight: lineHeight,
                           letterSpacing: letterSpacing, justification: justification)
        if layouts.count >= TextRenderer.layoutCacheLimit { layouts.removeAll(keepingCapacity: true) }
        layouts[key] = block
        return block
    }

    /// Lays out `text` with the chosen font (a PBF stack's ranges must have been prepared).
    func layout(_ text: String, font: LabelFontID, pixelSize: Float, maxWidth: Float?, lineHeight: Float? = nil,
                letterSpacing: Float = 0, justification: TextJustification = .center) -> TextBlock {
        switch font {
        case .regular, .bold:
            return (font == .bold ? bold.font : regular.font).layout(text, pixelSize: pixelSize, maxWidth: maxWidth, lineHeight: lineHeight,
                                                                     letterSpacing: letterSpacing, justification: justification)
        case .stack(let k):
            return stacks[k].layout(text, pixelSize: pixelSize, maxWidth: maxWidth, lineHeight: lineHeight,
                                    letterSpacing: letterSpacing, justification: justification)
        }
    }

    /// Draws the glyphs queued by ``appendBlock`` in `color` over a `halo`-px halo of `haloColor`
    /// (see ``GlyphFieldPainter/draw(color:halo:haloColor:clip:into:)``) within the painter's rows,
    /// then forgets them.
    mutating func drawPlacedGlyphs(color: Color, halo: Double, haloBlur: Double = 0, haloColor: Color, painter: Painter,
                                   view: PixelBufferView) {
        glyphPainter.draw(color: color, halo: halo, haloBlur: haloBlur, haloColor: haloColor, clip: painter.rowRect, into: view)
    }

    /// Draws one line of text with its top-left corner at `origin` (horizontal, no wrapping) and
    /// returns its size in pixels.
    @discardableResult
    mutating func drawSimple(_ text: String, at origin: ScreenPoint, size: Double, bold isBold: Bool = false,
                             color: Color, halo: Double = 0, haloColor: Color = .white,
                             painter: inout Painter, view: PixelBufferView) -> (width: Double, height: Double) {
        let px = TextRenderer.quantized(size)
        let block = layout(text, font: isBold ? .bold : .regular, pixelSize: px, maxWidth: nil)
        let glyphs = block.lines.flatMap { $0.glyphs.map(\.glyph) }
        if isBold { bold.prepare(glyphs) } else { adoptPrewarmed(); regular.prepare(glyphs) }
        appendBlock(block, font: isBold ? .bold : .regular, pixelSize: px, origin: origin, pivot: .zero, cos: 1, sin: 0)
        drawPlacedGlyphs(color: color, halo: halo, haloColor: haloColor, painter: painter, view: view)
        return (Double(block.size.x), Double(block.size.y))
    }

    /// The size in pixels of `text` set on one line.
    func measure(_ text: String, size: Double, bold isBold: Bool = false) -> (width: Double, height: Double) {
        let px = TextRenderer.quantized(size)
        let block = layout(text, font: isBold ? .bold : .regular, pixelSize: px, maxWidth: nil)
        return (Double(block.size.x), Double(block.size.y))
    }
}

/// Which font a label is laid out and drawn with: a built-in one or a glyph-PBF stack (an index
/// into ``TextRenderer/stacks``).
enum LabelFontID: Hashable, Sendable {
    case regular, bold
    case stack(Int)
}
