import FlybyTiles

/// One glyph of a glyph PBF: a one-byte-per-pixel signed distance field and its metrics, all in
/// pixels of the format's fixed 24 px em.
///
/// The format (MapLibre Style Specification, "glyphs"; maplibre/font-maker, `glyphs.proto`):
/// `glyphs { repeated fontstack stacks = 1; }`, `fontstack { string name = 1; string range = 2;
/// repeated glyph glyphs = 3; }`, `glyph { uint32 id = 1; bytes bitmap = 2; uint32 width = 3;
/// uint32 height = 4; sint32 left = 5; sint32 top = 6; uint32 advance = 7; }`. The bitmap is
/// `(width + 6) × (height + 6)` bytes: the glyph's ink box with a 3 px border on every side.
public struct PBFGlyph: Sendable, Equatable {
    /// The Unicode code point.
    public var id: UInt32
    /// Ink box size in pixels at 24 px per em (the bitmap is 6 px wider and taller).
    public var width: Int, height: Int
    /// The ink box's left edge from the pen position, pixels (x right).
    public var left: Int
    /// The ink box's top edge relative to the format's line top, pixels, y **up**: the top edge
    /// is `top + PBFGlyph.ascent` px above the baseline.
    public var top: Int
    /// Horizontal advance, pixels.
    public var advance: Int
    /// `(width + 6) · (height + 6)` distance bytes row by row (empty when width or height is 0).
    public var bitmap: [UInt8]

    /// The em size of every glyph PBF (MapLibre renders glyphs "at 24 px").
    public static let emPixels: Float = 24
    /// The SDF border around each bitmap, pixels.
    public static let border = 3
    /// Pixels from the baseline up to `top = 0`. The format carries no line metrics; 25 is measured
    /// on the Noto Sans files in Resources/fonts/glyphs: with it the bottom of every flat-bottomed
    /// glyph (x, A, H, n, z …: `height − top = 25`) lands exactly on the baseline.
    public static let ascent = 25
    /// Largest ink width or height accepted, pixels (over 5 em; the largest Noto glyph is 27 px
    /// tall). Bounds every bitmap to (128 + 6)² bytes.
    public static let maxSide = 128
    /// Largest |left|, |top| and advance accepted, pixels.
    public static let maxMetric = 1024
}

/// The glyphs of one glyph PBF file (one 256-code-point range of one font), decoded and checked.
public struct PBFGlyphRange: Sendable {
    /// The stack name written inside the file (often not the folder name: see docs/text.md).
    public var name: String
    /// The `range` field (`"0-255"`), as written.
    public var range: String
    /// Glyphs in file order; a later glyph with the same id replaces an earlier one.
    public var glyphs: [PBFGlyph]

    /// The most glyph entries a file may hold: one per code point of its range.
    public static let maxGlyphs = 256

    /// Decodes a glyph PBF.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: its path, for messages.
    ///   - firstCodePoint: the range's first code point (a multiple of 256); glyph ids outside
    ///     `firstCodePoint ..< firstCodePoint + 256` are refused.
    /// - Throws: ``FontError`` naming `file`: a bad protobuf encoding, a glyph without id, a
    ///   bitmap whose length is not `(width + 6) · (height + 6)`, a size past ``PBFGlyph/maxSide``,
    ///   more than 256 glyphs, an id outside the range.
    public static func decode(_ bytes: [UInt8], file: String, firstCodePoint: UInt32) throws(FontError) -> PBFGlyphRange {
        var result = PBFGlyphRange(name: "", range: "", glyphs: [])
        var count = 0
        let failure: FontError? = bytes.withUnsafeBufferPointer { buffer in
            do throws(FontError) {
                var top = ProtobufReader(buffer)
                while let (number, wire) = try wrap(file, { () throws(ProtobufError) in try top.nextField() }) {
                    guard number == 1, wire == .lengthDelimited else {
                        try wrap(file) { () throws(ProtobufError) in try top.skip(wire) }
                        continue
                    }
                    let stackRange = try wrap(file) { () throws(ProtobufError) in try top.lengthDelimited() }
                    var stack = ProtobufReader(buffer, range: stackRange)
                    while let (n, w) = try wrap(file, { () throws(ProtobufError) in try stack.nextField() }) {
                        switch (n, w) {
                        case (1, .lengthDelimited):
                            result.name = try wrap(file) { () throws(ProtobufError) in try stack.string() }
                        case (2, .lengthDelimited):
                            result.range = try wrap(file) { () throws(ProtobufError) in try stack.string() }
                        case (3, .lengthDelimited):
                            count += 1
                            guard count <= maxGlyphs else {
                                throw FontError(font: file, message: "more than \(maxGlyphs) glyphs in one range file")
                            }
                            let r = try wrap(file) { () throws(ProtobufError) in try stack.lengthDelimited() }
                            result.glyphs.append(try glyph(ProtobufReader(buffer, range: r), file: file, firstCodePoint: firstCodePoint))
                        default:
                            try wrap(file) { () throws(ProtobufError) in try stack.skip(w) }
                        }
                    }
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return result
    }

    /// One `glyph` message, checked.
    private static func glyph(_ reader: ProtobufReader, file: String, firstCodePoint: UInt32) throws(FontError) -> PBFGlyph {
        var r = reader
        var id: UInt32?
        var bitmap: Range<Int>?
        var width: UInt32 = 0, height: UInt32 = 0, advance: UInt32 = 0
        var left: Int32 = 0, top: Int32 = 0
        while let (n, w) = try wrap(file, { () throws(ProtobufError) in try r.nextField() }) {
            switch (n, w) {
            case (1, .varint): id = try wrap(file) { () throws(ProtobufError) in try r.varint32() }
            case (2, .lengthDelimited): bitmap = try wrap(file) { () throws(ProtobufError) in try r.lengthDelimited() }
            case (3, .varint): width = try wrap(file) { () throws(ProtobufError) in try r.varint32() }
            case (4, .varint): height = try wrap(file) { () throws(ProtobufError) in try r.varint32() }
            case (5, .varint): left = ProtobufReader.zigzag32(try wrap(file) { () throws(ProtobufError) in try r.varint32() })
            case (6, .varint): top = ProtobufReader.zigzag32(try wrap(file) { () throws(ProtobufError) in try r.varint32() })
            case (7, .varint): advance = try wrap(file) { () throws(ProtobufError) in try r.varint32() }
            default: try wrap(file) { () throws(ProtobufError) in try r.skip(w) }
            }
        }
        guard let id else { throw FontError(font: file, message: "a glyph has no id") }
        guard id >= firstCodePoint && id - firstCodePoint < 256 else {
            throw FontError(font: file, message: "glyph id \(id) is outside the file's range \(firstCodePoint)-\(firstCodePoint + 255)")
        }
        let m = UInt32(PBFGlyph.maxSide), limit = PBFGlyph.maxMetric
        guard width <= m, height <= m else {
            throw FontError(font: file, message: "glyph \(id) is \(width)×\(height) px; at most \(m)×\(m) is accepted")
        }
        guard abs(Int(left)) <= limit, abs(Int(top)) <= limit, Int(advance) <= limit else {
            throw FontError(font: file, message: "glyph \(id) has metrics beyond ±\(limit) px (left \(left), top \(top), advance \(advance))")
        }
        let b = PBFGlyph.border
        let expected = width == 0 || height == 0 ? 0 : (Int(width) + 2 * b) * (Int(height) + 2 * b)
        let length = bitmap?.count ?? 0
        guard length == expected else {
            throw FontError(font: file, message: "glyph \(id): bitmap of \(length) bytes, expected (\(width)+6)×(\(height)+6) = \(expected)")
        }
        let pixels = bitmap.map { Array(UnsafeBufferPointer(rebasing: reader.buffer[$0])) } ?? []
        return PBFGlyph(id: id, width: Int(width), height: Int(height), left: Int(left), top: Int(top),
                        advance: Int(advance), bitmap: pixels)
    }

    /// Runs a protobuf read, turning its error into a ``FontError`` naming `file`.
    @inline(__always)
    private static func wrap<T>(_ file: String, _ body: () throws(ProtobufError) -> T) throws(FontError) -> T {
        do throws(ProtobufError) { return try body() } catch {
            throw FontError(font: file, message: "not a glyph PBF: \(error.message)")
        }
    }

    /// Makes the distance field of every glyph (as ``GlyphStackFont`` does on loading) and returns
    /// their total bytes: for fuzzing the conversion, and for memory accounting.
    public func fieldByteCount() -> Int {
        glyphs.reduce(0) { $0 + (GlyphDistanceField(pbf: $1)?.byteCount ?? 0) }
    }
}
