/// A bad protocol-buffer encoding (truncated data, an over-long varint, a length past the end).
public struct ProtobufError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The wire types of the protocol-buffer encoding
/// (https://protobuf.dev/programming-guides/encoding/#structure).
public enum WireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5
}

/// Reads protocol-buffer wire format from memory, by hand (no generated code): field keys,
/// varints (at most 10 bytes, as the encoding allows for 64 bits), zigzag integers, fixed 32/64-bit
/// little-endian values and length-delimited ranges, every read bounds-checked against `end`.
/// Unknown fields are skipped by their wire type (``skip(_:)``).
///
/// The reader does not own its memory: it reads `buffer` between `position` and `end`, and the
/// caller keeps the bytes alive (`withUnsafeBufferPointer`).
public struct ProtobufReader {
    public let buffer: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    public var position: Int
    /// One past the last byte of this message.
    public let end: Int

    /// Deepest nesting of (deprecated) groups ``skip(_:)`` follows before refusing the input.
    static let maxGroupDepth = 32

    public init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer; position = 0; end = buffer.count
    }

    /// A reader of the sub-message `range` of the same buffer.
    public init(_ buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.buffer = buffer; position = range.lowerBound; end = range.upperBound
    }

    public var isAtEnd: Bool { position >= end }

    /// The next field's number and wire type, or nil at the end of the message.
    /// - Throws: on field number 0, a number above 2^29 − 1, or an unknown wire type (6, 7).
    @inline(__always)
    public mutating func nextField() throws(ProtobufError) -> (number: UInt32, wireType: WireType)? {
        guard position < end else { return nil }
        let key = try varint()
        guard let wire = WireType(rawValue: UInt8(key & 7)) else {
            throw ProtobufError("unknown wire type \(key & 7) at byte \(position)")
        }
        let number = key >> 3
        guard number > 0, number <= 0x1FFF_FFFF else { throw ProtobufError("invalid field number \(number) at byte \(position)") }
        return (UInt32(number), wire)
    }

    /// A base-128 varint of at most 10 bytes (the 10th may only carry the 64th bit).
    @inline(__always)
    public mutating func varint() throws(ProtobufError) -> UInt64 {
        // Fast path: one byte.
        if position < end, buffer[position] < 0x80 {
            let v = UInt64(buffer[position]); position += 1; return v
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw ProtobufError("truncated varint at byte \(position)") }
            let b = buffer[position]
            position += 1
            if shift == 63 && b > 1 { throw ProtobufError("varint longer than 64 bits at byte \(position - 1)") }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
            if shift > 63 { throw ProtobufError("varint longer than 10 bytes at byte \(position - 1)") }
        }
    }

    /// A varint that must fit 32 bits (proto `uint32` fields, packed geometry and tags).
    @inline(__always)
    public mutating func varint32() throws(ProtobufError) -> UInt32 {
        let v = try varint()
        guard v <= UInt64(UInt32.max) else { throw ProtobufError("value \(v) does not fit 32 bits at byte \(position)") }
        return UInt32(v)
    }

    /// Decodes a zigzag-encoded signed integer (proto `sint64`: 0, −1, 1, −2 … ↔ 0, 1, 2, 3 …).
    @inline(__always)
    public static func zigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }

    /// The 32-bit zigzag form (MVT geometry parameters, vector-tile-spec 2.1 §4.3.2).
    @inline(__always)
    public static func zigzag32(_ v: UInt32) -> Int32 { Int32(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }

    public mutating func fixed32() throws(ProtobufError) -> UInt32 {
        guard end - position >= 4 else { throw ProtobufError("truncated 32-bit value at byte \(position)") }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(buffer[position + i]) << (8 * UInt32(i)) }
        position += 4
        return v
    }

    public mutating func fixed64() throws(ProtobufError) -> UInt64 {
        guard end - position >= 8 else { throw ProtobufError("truncated 64-bit value at byte \(position)") }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(buffer[position + i]) << (8 * UInt64(i)) }
        position += 8
        return v
    }

    /// The byte range of a length-delimited field (its length checked against the message end).
    @inline(__always)
    public mutating func lengthDelimited() throws(ProtobufError) -> Range<Int> {
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw ProtobufError("length \(length) at byte \(position) runs past the end of the data (\(end - position) bytes left)")
        }
        let start = position
        position += Int(length)
        return start..<position
    }

    /// A length-delimited field read as UTF-8 text (invalid sequences become U+FFFD).
    public mutating func string() throws(ProtobufError) -> String {
        let r = try lengthDelimited()
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[r]), as: UTF8.self)
    }

    /// Skips the value of a field of wire type `wire` (unknown fields, §"Unknown fields").
    public mutating func skip(_ wire: WireType) throws(ProtobufError) {
        try skip(wire, depth: 0)
    }

    private mutating func skip(_ wire: WireType, depth: Int) throws(ProtobufError) {
        switch wire {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .fixed32: _ = try fixed32()
        case .lengthDelimited: _ = try lengthDelimited()
        case .startGroup:
            guard depth < ProtobufReader.maxGroupDepth else { throw ProtobufError("groups nested deeper than \(ProtobufReader.maxGroupDepth)") }
            while true {
                guard let (_, w) = try nextField() else { throw ProtobufError("unterminated group") }
                if w == .endGroup { return }
                try skip(w, depth: depth + 1)
            }
        case .endGroup: throw ProtobufError("unexpected end-group marker at byte \(position)")
        }
    }
}
