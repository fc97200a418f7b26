import FlybyData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A glyph index in a font (`0` is `.notdef`, the "missing glyph" box).
public typealias GlyphID = UInt16

/// A TrueType font (`glyf` outlines) read from memory: metrics, character map, kerning and glyph
/// outlines. Written from Apple's *TrueType Reference Manual* and the OpenType specification
/// (tables `head`, `hhea`, `hmtx`, `maxp`, `cmap` formats 4 and 12, `loca`, `glyf`, `kern` format 0).
///
/// There is no hinting and no shaping (no GSUB/GPOS): one Unicode scalar maps to one glyph, and
/// kerning comes from the `kern` table only. Values are in **font units** (``unitsPerEm`` per em,
/// y up) unless a method takes a pixel size; a *pixel size* is the em size in pixels (what CSS and
/// Mapbox call the font size), so one font unit is `pixelSize / unitsPerEm` pixels.
///
/// All parsing checks bounds: a malformed or truncated file throws a ``FontError`` naming the table,
/// never traps. `TrueTypeFont` is an immutable value and safe to share across threads.
public struct TrueTypeFont: Sendable {
    /// The name used in error messages (usually the file name).
    public let name: String
    /// Font units per em (2048 for DejaVu Sans).
    public let unitsPerEm: Int
    /// Typographic ascent above the baseline, font units, positive (`hhea.ascender`).
    public let ascender: Int
    /// Typographic descent below the baseline, font units, **positive** (minus `hhea.descender`).
    public let descender: Int
    /// Extra line gap, font units (`hhea.lineGap`).
    public let lineGap: Int
    /// Number of glyphs (`maxp.numGlyphs`).
    public let glyphCount: Int

    let data: [UInt8]
    let glyf: FontTable
    let hmtx: FontTable
    let numberOfHMetrics: Int
    /// `glyphCount + 1` byte offsets into `glyf`.
    let glyphOffsets: [UInt32]
    let characterMap: CharacterMap
    /// Kerning pairs `left << 16 | right` → adjustment in font units.
    let kerningPairs: [UInt32: Int16]
    /// The raw `cmap` table (kept for tests that compare subtables).
    let cmapTable: FontTable

    /// Reads a font from the bytes of a `.ttf` file.
    /// - Parameters:
    ///   - data: the whole file.
    ///   - name: a name for error messages, e.g. `DejaVuSans.ttf`.
    /// - Throws: ``FontError`` if a required table is missing or malformed, or the font has
    ///   PostScript (CFF) outlines.
    public init(data: [UInt8], name: String = "font") throws(FontError) {
        self.name = name
        self.data = data
        let file = FontTable(data: data, font: name, tag: "offset table", start: 0, count: data.count)
        let version = try file.u32(0)
        if version == 0x4F54_544F {  // 'OTTO'
            throw FontError(font: name, message: "PostScript (CFF) outlines are not supported; use a TrueType (glyf) font")
        }
        guard version == 0x0001_0000 || version == 0x7472_7565 else {  // 1.0 or 'true'
            throw FontError(font: name, message: "not a TrueType font (sfnt version 0x\(String(version, radix: 16)))")
        }
        let tableCount = Int(try file.u16(4))
        var tables: [String: FontTable] = [:]
        for i in 0..<tableCount {
            let record = 12 + 16 * i
            let tagValue = try file.u32(record)
            let tag = String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tagValue >> $0) }, as: UTF8.self)
            let offset = Int(try file.u32(record + 8))
            let length = Int(try file.u32(record + 12))
            guard offset <= data.count, length <= data.count - offset else {
                throw FontError(font: name, message: "table '\(tag)' (bytes \(offset)..<\(offset + length)) runs past the end of the \(data.count)-byte file")
            }
            tables[tag] = FontTable(data: data, font: name, tag: tag, start: offset, count: length)
        }
        func required(_ tag: String) throws(FontError) -> FontTable {
            guard let table = tables[tag] else { throw FontError(font: name, message: "required table '\(tag)' is missing") }
            return table
        }

        let head = try required("head")
        guard try head.u32(12) == 0x5F0F_3CF5 else { throw FontError(font: name, message: "table 'head' has a bad magic number") }
        unitsPerEm = Int(try head.u16(18))
        guard (16...16384).contains(unitsPerEm) else {
            throw FontError(font: name, message: "unitsPerEm \(unitsPerEm) is outside 16…16384")
        }
        let longOffsets = try head.i16(50) != 0

        let hhea = try required("hhea")
        ascender = Int(try hhea.i16(4))
        descender = -Int(try hhea.i16(6))
        lineGap = Int(try hhea.i16(8))
        numberOfHMetrics = Int(try hhea.u16(34))

        glyphCount = Int(try required("maxp").u16(4))
        guard glyphCount > 0 else { throw FontError(font: name, message: "the font has no glyphs") }
        guard numberOfHMetrics >= 1, numberOfHMetrics <= glyphCount else {
            throw FontError(font: name, message: "hhea.numberOfHMetrics \(numberOfHMetrics) is outside 1…\(glyphCount)")
        }
        hmtx = try required("hmtx")
        try hmtx.check(0, 4 * numberOfHMetrics)

        glyf = try required("glyf")
        let loca = try required("loca")
        var offsets: [UInt32] = []
        offsets.reserveCapacity(glyphCount + 1)
        for g in 0...glyphCount {
            let offset = longOffsets ? try loca.u32(4 * g) : UInt32(try loca.u16(2 * g)) * 2
            guard offset <= glyf.count, offset >= (offsets.last ?? 0) else {
                throw FontError(font: name, message: "table 'loca' entry \(g) (\(offset)) is out of order or past the \(glyf.count)-byte 'glyf' table")
            }
            offsets.append(offset)
        }
        glyphOffsets = offsets

        cmapTable = try required("cmap")
        characterMap = try CharacterMap(cmapTable)
        kerningPairs = try tables["kern"].map { table throws(FontError) in try TrueTypeFont.readKerning(table) } ?? [:]
    }

    /// Reads a `.ttf` file (through FlybyData's ``FileInput``, the one input-file reader). The
    /// error names the file if it cannot be opened or read.
    public init(contentsOfFile path: String) throws(FontError) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let bytes: [UInt8]
        do { bytes = try FileInput.read(path, maxBytes: TrueTypeFont.maxFileBytes) } catch {
            throw FontError(font: name, message: "cannot read \(path): \(error.message)")
        }
        try self.init(data: bytes, name: name)
    }

    /// The largest font file read (64 MiB; DejaVu Sans is 740 KB).
    public static let maxFileBytes = 64 << 20

    /// The glyph for a Unicode scalar, or `0` (`.notdef`) when the font has none.
    public func glyphID(for scalar: Unicode.Scalar) -> GlyphID {
        let glyph = characterMap.lookup(scalar.value)
        return Int(glyph) < glyphCount ? glyph : 0
    }

    /// Whether the font has a glyph for `scalar`.
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool { glyphID(for: scalar) != 0 }

    /// The horizontal advance of `glyph` in font units (`hmtx`; glyphs past `numberOfHMetrics`
    /// share the last advance). `0` for an out-of-range glyph.
    public func advanceWidth(of glyph: GlyphID) -> Int {
        guard Int(glyph) < glyphCount else { return 0 }
        let index = min(Int(glyph), numberOfHMetrics - 1)
        return Int((try? hmtx.u16(4 * index)) ?? 0)
    }

    /// The kerning adjustment between two glyphs in font units (negative brings them closer), from
    /// the `kern` table (format 0, horizontal). `0` when the pair is not listed.
    public func kerning(_ left: GlyphID, _ right: GlyphID) -> Int {
        Int(kerningPairs[UInt32(left) << 16 | UInt32(right)] ?? 0)
    }

    /// Pixels per font unit at `pixelSize` (em size in pixels).
    public func scale(forPixelSize pixelSize: Float) -> Float {
        pixelSize / Float(unitsPerEm)
    }

    /// Reads the `kern` table: version 0 (OpenType/Microsoft) with format-0 horizontal subtables.
    /// Apple's version-1 tables and other formats are ignored (no kerning), not errors.
    static func readKerning(_ kern: FontTable) throws(FontError) -> [UInt32: Int16] {
        guard try kern.u16(0) == 0 else { return [:] }
        var pairs: [UInt32: Int16] = [:]
        var offset = 4
        for _ in 0..<Int(try kern.u16(2)) {
            let length = Int(try kern.u16(offset + 2))
            let coverage = try kern.u16(offset + 4)
            let format = coverage >> 8
            var size = length
            if format == 0 {
                let count = Int(try kern.u16(offset + 6))
                // The 16-bit length overflows for big subtables (DejaVu's is 16 376 bytes, close);
                // the pair count is authoritative.
                size = 14 + 6 * count
                let horizontal = coverage & 1 != 0, minimum = coverage & 2 != 0, crossStream = coverage & 4 != 0
                let override = coverage & 8 != 0
                if horizontal && !minimum && !crossStream {
                    for i in 0..<count {
                        let p = offset + 14 + 6 * i
                        let key = try kern.u32(p)
                        let value = try kern.i16(p + 4)
                        pairs[key] = override ? value : (pairs[key] ?? 0) &+ value
                    }
                }
            }
            guard size >= 6 else { throw FontError(font: kern.font, message: "table 'kern' has a subtable of length \(size)") }
            offset += size
        }
        return pairs
    }
}

/// The `cmap` subtable used to map Unicode scalars to glyphs: format 12 (full Unicode) when
/// present, else format 4 (BMP). Parsed and validated once; lookups never throw.
struct CharacterMap: Sendable {
    /// Format 4 segments.
    struct Segment: Sendable {
        var start: UInt32, end: UInt32
        var delta: UInt16
        var rangeOffset: UInt16
        /// Offset in `table` of this segment's idRangeOffset entry.
        var rangeOffsetPosition: Int
    }
    /// Format 12 groups.
    struct Group: Sendable {
        var start: UInt32, end: UInt32, glyph: UInt32
    }

    let table: FontTable
    let segments: [Segment]
    let groups: [Group]

    /// Picks the best Unicode subtable; `onlyFormat` restricts the choice (for tests).
    init(_ cmap: FontTable, onlyFormat: UInt16? = nil) throws(FontError) {
        var best: (rank: Int, offset: Int)?
        for i in 0..<Int(try cmap.u16(2)) {
            let platform = try cmap.u16(4 + 8 * i), encoding = try cmap.u16(6 + 8 * i)
            let offset = Int(try cmap.u32(8 + 8 * i))
            let format = try cmap.u16(offset)
            // Prefer full-Unicode format 12, then BMP format 4; Unicode (0) or Windows (3) platforms.
            let unicode = platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10))
            guard unicode, format == 12 || format == 4, onlyFormat.map({ $0 == format }) ?? true else { continue }
            let rank = format == 12 ? 2 : 1
            if rank > (best?.rank ?? 0) { best = (rank, offset) }
        }
        guard let best else { throw FontError(font: cmap.font, message: "table 'cmap' has no Unicode subtable of format 4 or 12") }
        var segments: [Segment] = []
        var groups: [Group] = []
        if try cmap.u16(best.offset) == 12 {
            let length = Int(try cmap.u32(best.offset + 4))
            table = try cmap.slice(best.offset, length, tag: "cmap format 12")
            let count = Int(try table.u32(12))
            try table.check(16, 12 * count)
            for i in 0..<count {
                let g = Group(start: try table.u32(16 + 12 * i), end: try table.u32(20 + 12 * i), glyph: try table.u32(24 + 12 * i))
                guard g.start <= g.end, UInt64(g.start) >= (groups.last.map { UInt64($0.end) + 1 } ?? 0) else {
                    throw FontError(font: cmap.font, message: "table 'cmap' format 12 group \(i) is out of order")
                }
                groups.append(g)
            }
        } else {
            let length = Int(try cmap.u16(best.offset + 2))
            // Some fonts store a wrong 16-bit length; clamp to the cmap table.
            table = try cmap.slice(best.offset, min(max(length, 14), cmap.count - best.offset), tag: "cmap format 4")
            let segCount = Int(try table.u16(6)) / 2
            let ends = 14, starts = 16 + 2 * segCount, deltas = starts + 2 * segCount, ranges = deltas + 2 * segCount
            try table.check(14, 8 * segCount + 2)
            for i in 0..<segCount {
                segments.append(Segment(start: UInt32(try table.u16(starts + 2 * i)), end: UInt32(try table.u16(ends + 2 * i)),
                                        delta: try table.u16(deltas + 2 * i), rangeOffset: try table.u16(ranges + 2 * i),
                                        rangeOffsetPosition: ranges + 2 * i))
            }
        }
        self.segments = segments
        self.groups = groups
    }

    func lookup(_ c: UInt32) -> GlyphID {
        if !groups.isEmpty {
            var lo = 0, hi = groups.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if groups[mid].end < c { lo = mid + 1 } else { hi = mid }
            }
            guard lo < groups.count, groups[lo].start <= c else { return 0 }
            let glyph = UInt64(groups[lo].glyph) + UInt64(c - groups[lo].start)
            return glyph <= 0xFFFF ? GlyphID(glyph) : 0
        }
        guard c <= 0xFFFF else { return 0 }
        // First segment whose end ≥ c (segments are sorted by end code).
        var lo = 0, hi = segments.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if segments[mid].end < c { lo = mid + 1 } else { hi = mid }
        }
        guard lo < segments.count, segments[lo].start <= c else { return 0 }
        let s = segments[lo]
        if s.rangeOffset == 0 { return GlyphID(truncatingIfNeeded: c &+ UInt32(s.delta)) }
        let position = s.rangeOffsetPosition + Int(s.rangeOffset) + 2 * Int(c - s.start)
        guard let glyph = try? table.u16(position), glyph != 0 else { return 0 }
        return glyph &+ s.delta
    }
}
