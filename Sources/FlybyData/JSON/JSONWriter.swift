/// Appends JSON text to a byte buffer, with numbers in Swift's shortest round-trip form.
///
/// Integral values print without a fraction (`3`, not `3.0`), which is still the shortest text
/// that reads back as the same `Double`; `-0` prints as `0`. Non-finite values cannot occur in a
/// camera (they are refused at the API boundary) and print as `null` if they ever do.
public enum JSONWriter {
    @inlinable
    public static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        if !value.isFinite { out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]); return }
        if value == value.rounded(.towardZero) && abs(value) < 1e15 {
            appendInteger(Int64(value), to: &out)
            return
        }
        // `write(to:)` formats into a stack buffer and hands the ASCII bytes to the sink, with no
        // String allocation (unlike `description` for texts longer than 15 bytes).
        var sink = ByteSink()
        swap(&sink.bytes, &out)
        value.write(to: &sink)
        swap(&sink.bytes, &out)
    }

    /// A text sink over a byte array; `_writeASCII` receives the formatted number directly.
    @usableFromInline
    struct ByteSink: TextOutputStream {
        @usableFromInline var bytes: [UInt8] = []
        @usableFromInline init() {}
        @usableFromInline mutating func write(_ string: String) {
            var s = string
            s.withUTF8 { bytes.append(contentsOf: $0) }
        }
        @usableFromInline mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            bytes.append(contentsOf: buffer)
        }
    }

    @inlinable
    public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value == 0 { out.append(0x30); return }
        var v = value.magnitude
        if value < 0 { out.append(0x2D) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { buf in
            while v > 0 { buf[n] = UInt8(v % 10) + 0x30; v /= 10; n += 1 }
            for k in stride(from: n - 1, through: 0, by: -1) { out.append(buf[k]) }
        }
    }

    /// Appends a JSON string literal with the required escapes.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        for c in s.utf8 {
            switch c {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: out.append(contentsOf: [0x5C, 0x72])
            case 0x09: out.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 15)]])
            default: out.append(c)
            }
        }
        out.append(0x22)
    }
}
