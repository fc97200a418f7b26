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
