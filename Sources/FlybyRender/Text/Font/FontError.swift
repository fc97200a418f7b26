/// A font file that cannot be read: missing or truncated tables, impossible values, a glyph that
/// refers to itself. The message names the font and the table; reading never traps on bad input.
public struct FontError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The font's name as given to ``TrueTypeFont/init(data:name:)`` (usually its file name).
    public var font: String
    /// What is wrong, e.g. `table 'glyf' is truncated: needs bytes 120..<124 of 100`.
    public var message: String

    public init(font: String, message: String) {
        self.font = font
        self.message = message
    }

    public var description: String { "\(font): \(message)" }
}

/// A table of a TrueType file: its tag and byte range, with big-endian reads that check bounds
/// against the table (TrueType reference manual, "Data types": all values are big-endian). A read
/// outside the table throws a ``FontError`` naming the table.
struct FontTable: Sendable {
    let data: [UInt8]
    let font: String
    let tag: String
    let start: Int
    let count: Int

    @inline(__always)
    func check(_ offset: Int, _ size: Int) throws(FontError) {
        guard offset >= 0, size >= 0, offset <= count - size else {
            throw FontError(font: font, message: "table '\(tag)' is truncated: needs bytes \(offset)..<\(offset + size) of \(count)")
        }
    }

    func u8(_ offset: Int) throws(FontError) -> UInt8 {
        try check(offset, 1)
        return data[start + offset]
    }

    func i8(_ offset: Int) throws(FontError) -> Int8 {
        Int8(bitPattern: try u8(offset))
    }

    func u16(_ offset: Int) throws(FontError) -> UInt16 {
        try check(offset, 2)
        return UInt16(data[start + offset]) << 8 | UInt16(data[start + offset + 1])
    }

    func i16(_ offset: Int) throws(FontError) -> Int16 {
        Int16(bitPattern: try u16(offset))
    }

    func u32(_ offset: Int) throws(FontError) -> UInt32 {
        try check(offset, 4)
        let s = start + offset
        return UInt32(data[s]) << 24 | UInt32(data[s + 1]) << 16 | UInt32(data[s + 2]) << 8 | UInt32(data[s + 3])
    }

    /// A sub-range of this table as its own table (for cmap subtables), bounds-checked.
    func slice(_ offset: Int, _ size: Int, tag: String) throws(FontError) -> FontTable {
        try check(offset, size)
        return FontTable(data: data, font: font, tag: tag, start: start + offset, count: size)
    }
}
