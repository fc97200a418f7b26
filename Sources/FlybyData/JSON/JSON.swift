/// A parsed JSON value with the byte offset where it starts in its document, so that errors can
/// name a line and column. Objects keep their members in document order (deterministic output,
/// duplicate keys detectable).
public struct JSONNode: Sendable {
    public enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        case object([(key: String, value: JSONNode)])
    }

    public var value: Value
    /// Byte offset of the value's first character in its document.
    public var offset: Int

    public init(_ value: Value, offset: Int = 0) {
        self.value = value
        self.offset = offset
    }

    /// A short name of the value's type, for error messages ("a string", "an object").
    public var typeDescription: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The member named `key` when this is an object (the last one when the key repeats).
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    public var arrayValue: [JSONNode]? { if case .array(let a) = value { return a } else { return nil } }
    public var objectValue: [(key: String, value: JSONNode)]? { if case .object(let o) = value { return o } else { return nil } }
    public var stringValue: String? { if case .string(let s) = value { return s } else { return nil } }
    public var doubleValue: Double? { if case .number(let d) = value { return d } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = value { return b } else { return nil } }
    public var isNull: Bool { if case .null = value { return true } else { return false } }
}

/// A JSON syntax error at a byte offset of a document.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Line and column (both from 1) of a byte offset in UTF-8 text. Columns count bytes.
public func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    let end = min(offset, bytes.count)
    var i = 0
    while i < end {
        if bytes[i] == UInt8(ascii: "\n") { line += 1; lineStart = i + 1 }
        i += 1
    }
    return (line, end - lineStart + 1)
}

/// Limits that keep a hostile document from exhausting the stack or memory.
public struct JSONLimits: Sendable {
    /// Deepest nesting of arrays and objects accepted.
    public var maxDepth: Int = 512
    public init() {}
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes that records the offset of every value.
///
/// Strict: no comments, no trailing commas, no NaN/Infinity, no leading zeros, and numbers that
/// overflow a `Double` are errors (a camera value can never come out infinite).
public struct JSONParser {
    @usableFromInline let bytes: [UInt8]
    @usableFromInline var i = 0
    let limits: JSONLimits
    var depth = 0

    public init(bytes: [UInt8], limits: JSONLimits = JSONLimits()) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Parses one complete document (a single value with only whitespace around it).
    public static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes, limits: limits)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.i = 3 }  // a UTF-8 byte order mark
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.i < bytes.count { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    public static func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONSyntaxError) -> JSONNode {
        try parse(Array(text.utf8), limits: limits)
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let o = offset ?? i
        let (line, column) = lineAndColumn(of: o, in: bytes)
        return JSONSyntaxError(offset: o, line: line, column: column, message: message)
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { return }
        }
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        guard i < bytes.count else { throw error("unexpected end of input: expected a value") }
        let start = i
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(.bool(true), offset: start)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(.bool(false), offset: start)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(.null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(.number(try parseNumber()), offset: start)
        default:
            throw error("unexpected character '\(printable(bytes[i]))': expected a value")
        }
    }

    func printable(_ c: UInt8) -> String {
        c >= 0x20 && c < 0x7F ? String(UnicodeScalar(c)) : "\\u{\(String(c, radix: 16))}"
    }

    mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let start = i
        var ok = true
        word.withUTF8Buffer { w in
            if i + w.count > bytes.count { ok = false; return }
            for k in 0..<w.count where bytes[i + k] != w[k] { ok = false; break }
        }
        let n = word.utf8CodeUnitCount
        if !ok { throw error("invalid literal: expected '\(word)'", at: start) }
        i += n
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > limits.maxDepth { throw error("nesting deeper than \(limits.maxDepth) levels") }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONNode {
        let start = i
        try enter()
        i += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; depth -= 1; return JSONNode(.array(items), offset: start) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input: expected ',' or ']' in an array") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw error("unexpected character '\(printable(bytes[i]))': expected ',' or ']' in an array")
        }
        depth -= 1
        return JSONNode(.array(items), offset: start)
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONNode {
        let start = i
        try enter()
        i += 1
        var members: [(key: String, value: JSONNode)] = []
        skipWhitespace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; depth -= 1; return JSONNode(.object(members), offset: start) }
        while true {
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input: expected a member name") }
            guard bytes[i] == UInt8(ascii: "\"") else {
                throw error("unexpected character '\(printable(bytes[i]))': expected a member name in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after the member name \"\(key)\"") }
            i += 1
            skipWhitespace()
            let value = try parseValue()
            members.append((key, value))
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input: expected ',' or '}' in an object") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; break }
            throw error("unexpected character '\(printable(bytes[i]))': expected ',' or '}' in an object")
        }
        depth -= 1
        return JSONNode(.object(members), offset: start)
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = i
        i += 1
        let contentStart = i
        // Fast path: no escapes.
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: bytes[contentStart..<i], as: UTF8.self)
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw error("control character in a string") }
            i += 1
        }
        guard i < bytes.count else { throw error("unterminated string", at: start) }
        var out = Array(bytes[contentStart..<i])
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
            if c < 0x20 { throw error("control character in a string") }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("lone high surrogate in a \\u escape")
                    }
                    i += 2
                    let low = try parseHex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw error("invalid low surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw error("lone low surrogate in a \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw error("invalid escape '\\\(printable(e))' in a string", at: i - 2)
            }
        }
        throw error("unterminated string", at: start)
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    /// Powers of ten that are exact in a `Double` (Clinger's fast path).
    static let exactPowersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = i
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        guard i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 else { throw error("invalid number: expected a digit", at: start) }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { throw error("invalid number: leading zero", at: start) }
        } else {
            while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] - 0x30); if mantissa != 0 { digits += 1 } } else { exponent += 1 }
                i += 1
            }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 else { throw error("invalid number: expected a digit after '.'", at: start) }
            while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] - 0x30); if mantissa != 0 { digits += 1 }; exponent -= 1 }
                i += 1
            }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var expNegative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { expNegative = bytes[i] == UInt8(ascii: "-"); i += 1 }
            guard i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 else { throw error("invalid number: expected a digit in the exponent", at: start) }
            var e = 0
            while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
                if e < 100_000 { e = e * 10 + Int(bytes[i] - 0x30) }
                i += 1
            }
            exponent += expNegative ? -e : e
        }
        // Clinger's fast path: an exact mantissa times an exact power of ten rounds once.
        if digits <= 15 && exponent >= -22 && exponent <= 22 {
            var v = Double(mantissa)
            if exponent < 0 { v /= JSONParser.exactPowersOfTen[-exponent] } else { v *= JSONParser.exactPowersOfTen[exponent] }
            return negative ? -v : v
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text) else { throw error("invalid number '\(text)'", at: start) }
        if !v.isFinite { throw error("number '\(text)' is too large for a double", at: start) }
        return v
    }
}
