/// How the lines of a multi-line label line up with each other.
public enum TextJustification: Sendable, Hashable {
    case left, center, right
}

/// One glyph placed by ``TrueTypeFont/layout(_:pixelSize:maxWidth:lineHeight:letterSpacing:justification:balanced:)``.
public struct PositionedGlyph: Sendable, Equatable {
    /// The glyph to draw.
    public var glyph: GlyphID
    /// The character it came from.
    public var scalar: Unicode.Scalar
    /// Pen position on the baseline, pixels, y down: draw the glyph's ``GlyphOutline`` translated by it.
    public var position: SIMD2<Float>
    /// Horizontal advance in pixels (kerning and letter spacing not included).
    public var advance: Float
}

/// One line of laid-out text.
public struct TextLine: Sendable, Equatable {
    /// The line's glyphs, left to right.
    public var glyphs: [PositionedGlyph]
    /// The text of the line (words joined by single spaces).
    public var text: String
    /// Width in pixels from the first glyph's pen position to the last glyph's advance end.
    public var width: Float
    /// Baseline y in pixels, y down, from the top of the block.
    public var baseline: Float
}

/// Laid-out text: lines stacked top to bottom, each justified within the widest line.
///
/// Coordinates are pixels, y down, origin at the block's top-left corner. Every line box is
/// `lineHeight` tall; the ascent–descent box of the font sits centred in it (CSS "half leading"), so
/// line i's baseline is at `i·lineHeight + (lineHeight + ascent − descent) / 2`.
public struct TextBlock: Sendable, Equatable {
    public var lines: [TextLine]
    /// Block size in pixels: the widest line × (lines · lineHeight).
    public var size: SIMD2<Float>

    /// Every glyph of every line, in reading order.
    public var glyphs: [PositionedGlyph] { lines.flatMap(\.glyphs) }
}

/// What label layout needs of a font: glyphs by character, their advances and kerning in pixels
/// at a size, and the line's ascent and descent. ``TrueTypeFont`` has it, and so does a glyph-PBF
/// font stack (``GlyphStackFont``), so both lay out labels the same way.
public protocol LabelFont {
    /// The glyph drawn for `scalar` (0 when the font has none).
    func glyphID(for scalar: Unicode.Scalar) -> GlyphID
    /// Horizontal advance of `glyph` in pixels at `pixelSize` px per em.
    func advance(of glyph: GlyphID, pixelSize: Float) -> Float
    /// Kerning between two glyphs in pixels at `pixelSize` (negative brings them closer).
    func kerning(_ left: GlyphID, _ right: GlyphID, pixelSize: Float) -> Float
    /// Typographic ascent above and descent below the baseline, pixels, both positive.
    func lineExtent(pixelSize: Float) -> (ascent: Float, descent: Float)
}

extension TrueTypeFont: LabelFont {
    public func advance(of glyph: GlyphID, pixelSize: Float) -> Float {
        Float(advanceWidth(of: glyph)) * scale(forPixelSize: pixelSize)
    }

    public func kerning(_ left: GlyphID, _ right: GlyphID, pixelSize: Float) -> Float {
        Float(kerning(left, right)) * scale(forPixelSize: pixelSize)
    }

    public func lineExtent(pixelSize: Float) -> (ascent: Float, descent: Float) {
        let s = scale(forPixelSize: pixelSize)
        return (Float(ascender) * s, Float(descender) * s)
    }
}

extension LabelFont {
    /// The width in pixels of `text` set on one line (advances, kerning, letter spacing; no shaping).
    /// Control characters take no space.
    /// - Parameters:
    ///   - pixelSize: em size in pixels.
    ///   - letterSpacing: extra pixels added after every glyph but the last.
    public func measure(_ text: some StringProtocol, pixelSize: Float, letterSpacing: Float = 0) -> Float {
        layoutLine(text, pixelSize: pixelSize, letterSpacing: letterSpacing).width
    }

    /// Lays `text` out on one line starting at pen position x = 0 on baseline y = 0 (pixels).
    public func layoutLine(_ text: some StringProtocol, pixelSize: Float, letterSpacing: Float = 0) -> TextLine {
        var glyphs: [PositionedGlyph] = []
        var x: Float = 0
        var previous: GlyphID?
        for scalar in text.unicodeScalars where scalar.value >= 0x20 && scalar.value != 0x7F {
            let glyph = glyphID(for: scalar)
            if let previous {
                x += kerning(previous, glyph, pixelSize: pixelSize) + letterSpacing
            }
            let advance = advance(of: glyph, pixelSize: pixelSize)
            glyphs.append(PositionedGlyph(glyph: glyph, scalar: scalar, position: SIMD2(x, 0), advance: advance))
            x += advance
            previous = glyph
        }
        return TextLine(glyphs: glyphs, text: String(text), width: x, baseline: 0)
    }

    /// Splits `text` into lines no wider than `maxWidth` pixels, breaking at spaces.
    ///
    /// Runs of white space collapse to one space; `\n` always breaks. A word wider than `maxWidth`
    /// gets a line of its own (words are never split). With `balanced` (the default, as Mapbox does
    /// for labels) the breaks make the lines as even as possible for the smallest number of lines a
    /// greedy fill needs — "Helsinki Central Station" becomes two similar lines rather than a long
    /// one and a short one; without it, each line is filled greedily.
    public func breakLines(_ text: String, pixelSize: Float, maxWidth: Float, letterSpacing: Float = 0,
                           balanced: Bool = true) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = paragraph.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if words.isEmpty { lines.append(""); continue }
            let widths = words.map { measure($0, pixelSize: pixelSize, letterSpacing: letterSpacing) }
            let space = measure(" ", pixelSize: pixelSize) + letterSpacing * 2
            // Width of words i..<j on one line.
            func width(_ i: Int, _ j: Int) -> Float {
                var w: Float = 0
                for k in i..<j { w += widths[k] }
                return w + Float(j - i - 1) * space
            }
            // Greedy fill.
            var greedy: [Range<Int>] = []
            var start = 0
            for j in 1...words.count where j == words.count || width(start, j + 1) > maxWidth {
                greedy.append(start..<j)
                start = j
            }
            var ranges = greedy
            if balanced && greedy.count > 1 {
                // Minimise Σ (lineWidth − target)² over breakings into greedy.count lines, each line
                // within maxWidth unless it is a single word (dynamic programming over break points).
                let n = words.count, lineCount = greedy.count
                let target = width(0, n) / Float(lineCount)
                var cost = [[Float]](repeating: [Float](repeating: .infinity, count: n + 1), count: lineCount + 1)
                var back = [[Int]](repeating: [Int](repeating: -1, count: n + 1), count: lineCount + 1)
                cost[0][0] = 0
                for l in 1...lineCount {
                    for j in 1...n {
                        for i in 0..<j where cost[l - 1][i].isFinite {
                            let w = width(i, j)
                            guard w <= maxWidth || j - i == 1 else { continue }
                            let c = cost[l - 1][i] + (w - target) * (w - target)
                            if c < cost[l][j] { cost[l][j] = c; back[l][j] = i }
                        }
                    }
                }
                if cost[lineCount][n].isFinite {
                    var j = n
                    ranges = []
                    for l in stride(from: lineCount, to: 0, by: -1) {
                        let i = back[l][j]
                        ranges.insert(i..<j, at: 0)
                        j = i
                    }
                }
            }
            lines += ranges.map { words[$0].joined(separator: " ") }
        }
        return lines
    }

    /// Lays out a label: breaks it into lines (when `maxWidth` is given), sets each line with
    /// kerning and justifies the lines within the widest one. See ``TextBlock`` for coordinates.
    /// - Parameters:
    ///   - pixelSize: em size in pixels.
    ///   - maxWidth: the widest a line may be, pixels (`nil`: only `\n` breaks). Mapbox's
    ///     `text-max-width` is in ems: pass `ems × pixelSize`.
    ///   - lineHeight: distance between baselines, pixels (`nil`: 1.2 × pixelSize, Mapbox's default).
    ///   - letterSpacing: extra pixels between glyphs.
    ///   - justification: line alignment within the block (default centre, as for point labels).
    ///   - balanced: even out line lengths (see ``breakLines(_:pixelSize:maxWidth:letterSpacing:balanced:)``).
    public func layout(_ text: String, pixelSize: Float, maxWidth: Float? = nil, lineHeight: Float? = nil,
                       letterSpacing: Float = 0, justification: TextJustification = .center,
                       balanced: Bool = true) -> TextBlock {
        let texts = maxWidth.map {
            breakLines(text, pixelSize: pixelSize, maxWidth: $0, letterSpacing: letterSpacing, balanced: balanced)
        } ?? text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let height = lineHeight ?? pixelSize * 1.2
        let extent = lineExtent(pixelSize: pixelSize)
        let firstBaseline = (height + extent.ascent - extent.descent) / 2
        var lines = texts.map { layoutLine($0, pixelSize: pixelSize, letterSpacing: letterSpacing) }
        let blockWidth = lines.map(\.width).max() ?? 0
        for i in lines.indices {
            let dx: Float
            switch justification {
            case .left: dx = 0
            case .center: dx = (blockWidth - lines[i].width) / 2
            case .right: dx = blockWidth - lines[i].width
            }
            let baseline = firstBaseline + Float(i) * height
            lines[i].baseline = baseline
            for k in lines[i].glyphs.indices { lines[i].glyphs[k].position += SIMD2(dx, baseline) }
        }
        return TextBlock(lines: lines, size: SIMD2(blockWidth, Float(lines.count) * height))
    }
}
