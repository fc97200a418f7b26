/// Appends JSON text to a byte buffer, with numbers in Swift's shortest round-trip form.
///
/// Integral values print without a fraction (`3`, not `3.0`), which is still the shortest text
/// that reads back as the same `Double`; `-0` prints as `0`. Non-finite values cannot occur in a
/// camera (they are refused at the API boundary) and print as `null` if they ever do.
public enum JSONWriter {
    public static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var w = JSONLineWriter(buffer)
            w.number(value)
            out.append(contentsOf: w.bytes)
        }
    }

    /// Appends a JSON string literal with the required escapes.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONLineWriter.maxLength(ofString: s)) { buffer in
            var w = JSONLineWriter(buffer)
            w.string(s)
            out.append(contentsOf: w.bytes)
        }
    }
}

/// Writes JSON text into caller-provided memory (e.g. from `withUnsafeTemporaryAllocation`), for
/// hot paths such as trace lines: no per-token array growth, one append per line. The caller sizes
/// the memory: a number takes at most 32 bytes, a string at most 6 bytes per UTF-8 byte plus 2.
public struct JSONLineWriter: TextOutputStream {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    /// Bytes written so far.
    @usableFromInline var count = 0

    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    /// The bytes written so far.
    public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inlinable @inline(__always)
    public mutating func byte(_ b: UInt8) {
        precondition(count < capacity, "JSONLineWriter overflow")
        base[count] = b
        count += 1
    }

    public mutating func ascii(_ s: StaticString) {
        s.withUTF8Buffer { src in
            precondition(count + src.count <= capacity, "JSONLineWriter overflow")
            (base + count).update(from: src.baseAddress!, count: src.count)
            count += src.count
        }
    }

    public mutating func write(_ string: String) {
        var s = string
        s.withUTF8 { src in
            precondition(count + src.count <= capacity, "JSONLineWriter overflow")
            (base + count).update(from: src.baseAddress!, count: src.count)
            count += src.count
        }
    }

    public mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        precondition(count + buffer.count <= capacity, "JSONLineWriter overflow")
        (base + count).update(from: buffer.baseAddress!, count: buffer.count)
        count += buffer.count
    }

    /// A number in the same form as `JSONWriter.appendNumber`.
    public mutating func number(_ value: Double) {
        if !value.isFinite { ascii("null"); return }
        if value == value.rounded(.towardZero) && abs(value) < 1e15 { integer(Int64(value)); return }
        value.write(to: &self)
    }

    public mutating func integer(_ value: Int64) {
        if value == 0 { byte(0x30); return }
        var v = value.magnitude
        if value < 0 { byte(0x2D) }
        var digits = 0
        var t = v
        while t > 0 { digits += 1; t /= 10 }
        precondition(count + digits <= capacity, "JSONLineWriter overflow")
        var i = count + digits - 1
        while v > 0 { base[i] = UInt8(v % 10) + 0x30; v /= 10; i -= 1 }
        count += digits
    }

    /// A JSON string literal with the required escapes.
    public mutating func string(_ s: String) {
        byte(0x22)
        let hex: StaticString = "0123456789abcdef"
        for c in s.utf8 {
            switch c {
            case 0x22: byte(0x5C); byte(0x22)
            case 0x5C: byte(0x5C); byte(0x5C)
            case 0x0A: byte(0x5C); byte(0x6E)
            case 0x0D: byte(0x5C); byte(0x72)
            case 0x09: byte(0x5C); byte(0x74)
            case 0..<0x20:
                ascii("\\u00")
                hex.withUTF8Buffer { h in byte(h[Int(c >> 4)]); byte(h[Int(c & 15)]) }
            default: byte(c)
            }
        }
        byte(0x22)
    }

    /// Bytes that `string(s)` may need at most.
    public static func maxLength(ofString s: String) -> Int { s.utf8.count * 6 + 2 }
}
