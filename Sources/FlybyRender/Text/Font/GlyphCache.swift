/// A cache of flattened glyph outlines keyed by glyph and pixel size, so a label drawn every frame
/// flattens each glyph once. A value type: keep one per renderer (or per thread).
public struct GlyphCache: Sendable {
    struct Key: Hashable, Sendable {
        var glyph: GlyphID
        var sizeBits: UInt32
    }

    /// The font whose glyphs are cached.
    public let font: TrueTypeFont
    /// Flattening tolerance in pixels for every outline in the cache.
    public let tolerance: Float
    /// The most outlines kept; past it the cache is cleared (simple and deterministic).
    public let capacity: Int
    private var outlines: [Key: GlyphOutline] = [:]

    public init(font: TrueTypeFont, tolerance: Float = 0.2, capacity: Int = 4096) {
        self.font = font
        self.tolerance = tolerance
        self.capacity = max(1, capacity)
    }

    /// Number of cached outlines.
    public var count: Int { outlines.count }

    /// The outline of `glyph` at `pixelSize` (em size in pixels), flattened on first use.
    public mutating func outline(_ glyph: GlyphID, pixelSize: Float) throws(FontError) -> GlyphOutline {
        let key = Key(glyph: glyph, sizeBits: pixelSize.bitPattern)
        if let cached = outlines[key] { return cached }
        let outline = try font.outline(of: glyph, pixelSize: pixelSize, tolerance: tolerance)
        if outlines.count >= capacity { outlines.removeAll(keepingCapacity: true) }
        outlines[key] = outline
        return outline
    }
}

extension GlyphCache {
    /// The outlines of every glyph of a laid-out block, each moved to its position plus `origin`
    /// (pixels, y down), ready to fill. Blank glyphs (spaces) are left out.
    /// - Parameters:
    ///   - block: text laid out by ``TrueTypeFont/layout(_:pixelSize:maxWidth:lineHeight:letterSpacing:justification:balanced:)``
    ///     with this cache's font.
    ///   - pixelSize: the pixel size the block was laid out at.
    ///   - origin: where the block's top-left corner goes.
    public mutating func placedOutlines(of block: TextBlock, pixelSize: Float,
                                        at origin: SIMD2<Float> = .zero) throws(FontError) -> [GlyphOutline] {
        var result: [GlyphOutline] = []
        for line in block.lines {
            for glyph in line.glyphs {
                let outline = try outline(glyph.glyph, pixelSize: pixelSize)
                if !outline.isEmpty { result.append(outline.translated(by: glyph.position + origin)) }
            }
        }
        return result
    }
}
