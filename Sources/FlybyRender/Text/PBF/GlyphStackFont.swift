import FlybyData

/// A `text-font` stack drawn from glyph PBFs (``GlyphSource``), falling back glyph by glyph along
/// the stack and then to a built-in TrueType font.
///
/// Ranges load lazily: ``prepare(_:)`` reads, for every 256-code-point range a text needs and
/// that was not tried before, each font of the stack's file of that range (a font with no file
/// tries its `fontstacks.json` folder). A glyph's distance field is made from its bitmap the first
/// time a text prepared uses it (a range holds 256 glyphs, a city's labels use a few dozen: making
/// every field on loading was a third of the first frame's instructions). A character is drawn
/// from the first font whose file has it, else from ``fallback`` (the built-in DejaVu Sans, Bold when the stack's first name says so).
/// A missing file for the whole stack, or a corrupt file, is reported once in ``warnings`` (the
/// file named) and its characters come from the fallback; nothing traps.
///
/// Glyph ids: below `0x8000` they are the fallback font's; `0x8000 | slot << 8 | low byte` is the
/// glyph of a loaded range (``slots``). At most ``maxRanges`` ranges are kept per stack, never
/// evicted (a laid-out label keeps valid ids); past the cap further ranges fall back, with a warning.
///
/// Units: pixels; a PBF glyph's metrics are at 24 px per em and scale with the size. The format
/// has no line metrics or kerning: ascent and descent are Noto Sans's (`hhea` 1069 and 293 per
/// 1000), kerning is zero, as MapLibre lays PBF glyphs out.
public struct GlyphStackFont: Sendable {
    /// The stack as the style names it.
    public let names: [String]
    let source: GlyphSource
    /// The font used for characters no PBF of the stack has.
    let fallback: TrueTypeFont
    /// True when ``fallback`` is the bold built-in font.
    let fallbackIsBold: Bool
    /// Decoded ranges: each holds 256 entries (by low byte), nil where the file has no such glyph.
    var slots: [[PBFEntry?]] = []
    /// The slots of each range index (`code point >> 8`), in stack order (empty: none loaded).
    var rangeSlots: [Int: [Int]] = [:]
    /// Messages about missing or corrupt files, each once, in the order met.
    public private(set) var warnings: [String] = []

    /// The most ranges one stack keeps.
    static let maxRanges = 127
    /// The largest glyph PBF read, bytes (the Noto files are under 140 KB; 256 glyphs at the size cap
    /// are under 4.6 MB).
    static let maxFileBytes = 8 << 20

    /// A glyph of a loaded range: its advance, and its bitmap until its field is made.
    struct PBFEntry: Sendable {
        var advance: Float
        /// The glyph as read, until ``makeField()`` turns it into ``field``.
        var pending: PBFGlyph?
        var made: GlyphDistanceField?

        /// The distance field (nil for a glyph without ink), made now if ``makeField()`` has not run.
        var field: GlyphDistanceField? {
            if let pending { return GlyphDistanceField(pbf: pending) }
            return made
        }

        mutating func makeField() {
            guard let g = pending else { return }
            made = GlyphDistanceField(pbf: g)
            pending = nil
        }
    }

    public init(names: [String], source: GlyphSource, fallback: TrueTypeFont, fallbackIsBold: Bool) {
        self.names = names
        self.source = source
        self.fallback = fallback
        self.fallbackIsBold = fallbackIsBold
    }

    /// Loads every range `text` needs that was not tried before, and makes the distance fields of
    /// the glyphs `text` is drawn with (those ``glyphID(for:)`` picks).
    public mutating func prepare(_ text: String) {
        var last = -1
        var pending: [(slot: Int, low: Int)] = []
        for scalar in text.unicodeScalars where scalar.value >= 0x20 {
            let r = Int(scalar.value >> 8)
            if r != last {
                last = r
                if rangeSlots[r] == nil { load(range: r) }
            }
            let low = Int(scalar.value & 0xFF)
            for slot in rangeSlots[r] ?? [] where slots[slot][low] != nil {
                if slots[slot][low]?.pending != nil && !pending.contains(where: { $0 == (slot, low) }) { pending.append((slot, low)) }
                break
            }
        }
        guard pending.count > 1 else {
            for p in pending { slots[p.slot][p.low]?.makeField() }
            return
        }
        // Several new glyphs: their fields on every core at once (same fields on any thread).
        let glyphs = pending.map { slots[$0.slot][$0.low].unsafelyUnwrapped.pending.unsafelyUnwrapped }
        let made = GlyphDistanceField.concurrently(glyphs.count) { GlyphDistanceField(pbf: glyphs[$0]) }
        for (k, p) in pending.enumerated() {
            slots[p.slot][p.low]?.made = made[k]
            slots[p.slot][p.low]?.pending = nil
        }
    }

    /// Reads range `r` of every font of the stack (each file once).
    mutating func load(range r: Int) {
        var found: [Int] = []
        var tried: [String] = []
        for name in names {
            var path = source.path(font: name, range: r)
            if !FileInput.isFile(path), let folder = source.fallback[name] { path = source.path(font: folder, range: r) }
            guard !tried.contains(path) else { continue }
            tried.append(path)
            guard FileInput.isFile(path) else { continue }
            guard slots.count < GlyphStackFont.maxRanges else {
                warnings.append("\(path): not loaded, the font stack already holds \(GlyphStackFont.maxRanges) glyph ranges; using the built-in font")
                break
            }
            do throws(FontError) {
                let bytes: [UInt8]
                do throws(InputError) { bytes = try FileInput.read(path, maxBytes: GlyphStackFont.maxFileBytes) } catch {
                    throw FontError(font: path, message: error.message)
                }
                let decoded = try PBFGlyphRange.decode(bytes, file: path, firstCodePoint: UInt32(r * 256))
                var entries = [PBFEntry?](repeating: nil, count: 256)
                for g in decoded.glyphs {
                    entries[Int(g.id & 255)] = PBFEntry(advance: Float(g.advance), pending: g)
                }
                found.append(slots.count)
                slots.append(entries)
            } catch {
                warnings.append("\(error); using the built-in font for its characters")
            }
        }
        if found.isEmpty && tried.allSatisfy({ !FileInput.isFile($0) }) {
            let list = names.map { "'\($0)'" }.joined(separator: ", ")
            warnings.append("\(tried.first ?? source.template): no glyph file for text-font [\(list)] range \(r * 256)-\(r * 256 + 255); using the built-in font")
        }
        rangeSlots[r] = found
    }

    /// The distance field of a PBF glyph id (nil for a fallback id or a glyph without ink).
    func field(_ glyph: GlyphID) -> GlyphDistanceField? {
        guard glyph >= 0x8000 else { return nil }
        let slot = Int(glyph >> 8) & 0x7F
        guard slot < slots.count else { return nil }
        return slots[slot][Int(glyph & 0xFF)]?.field
    }

    /// The pixels per 24-px-em unit at `pixelSize`.
    static func scale(_ pixelSize: Float) -> Float { pixelSize / PBFGlyph.emPixels }
}

extension GlyphStackFont: LabelFont {
    public func glyphID(for scalar: Unicode.Scalar) -> GlyphID {
        let low = Int(scalar.value & 0xFF)
        for slot in rangeSlots[Int(scalar.value >> 8)] ?? [] where slots[slot][low] != nil {
            return GlyphID(0x8000 | slot << 8 | low)
        }
        let g = fallback.glyphID(for: scalar)
        return g < 0x8000 ? g : 0
    }

    public func advance(of glyph: GlyphID, pixelSize: Float) -> Float {
        guard glyph >= 0x8000 else { return fallback.advance(of: glyph, pixelSize: pixelSize) }
        let slot = Int(glyph >> 8) & 0x7F
        guard slot < slots.count else { return 0 }
        return (slots[slot][Int(glyph & 0xFF)]?.advance ?? 0) * GlyphStackFont.scale(pixelSize)
    }

    public func kerning(_ left: GlyphID, _ right: GlyphID, pixelSize: Float) -> Float {
        left < 0x8000 && right < 0x8000 ? fallback.kerning(left, right, pixelSize: pixelSize) : 0
    }

    public func lineExtent(pixelSize: Float) -> (ascent: Float, descent: Float) {
        (1.069 * pixelSize, 0.293 * pixelSize)
    }
}
