/// Bad input: a file that cannot be read or whose content is wrong. The message names the file
/// and, for JSON, the line and column and the JSON path of the offending value, e.g.
/// `trip.flight.json:12:24: steps[3].fly.to.zoom: expected a number, found a string`.
public struct InputError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var path: String?
    public var message: String
    /// The other file this error happened in, when this error's place (a field such as a
    /// flight's `style`) names that file: shown as `(while reading OTHER:LINE:COLUMN)`.
    public var whileReading: String?

    public init(file: String, line: Int? = nil, column: Int? = nil, path: String? = nil, message: String) {
        self.file = file; self.line = line; self.column = column; self.path = path; self.message = message
    }

    public var description: String {
        var s = file == "-" ? "standard input" : InputError.escaped(file)
        if let line { s += ":\(line)"; if let column { s += ":\(column)" } }
        s += ": "
        if let path, !path.isEmpty { s += "\(path): " }
        s += InputError.escaped(message)
        if let whileReading { s += " (while reading \(InputError.escaped(whileReading)))" }
        return s
    }

    /// `inner`, an error in a file that this error's place names (a flight's `style` or `track`, a
    /// style's `data`), reported at this place:
    /// `FILE:LINE:COLUMN: PATH: INNER.PATH: inner message (while reading INNER.FILE:LINE:COLUMN)`.
    public func referring(to inner: InputError) -> InputError {
        var e = self
        var text = ""
        if let p = inner.path, !p.isEmpty { text += p + ": " }
        text += inner.message
        if let nested = inner.whileReading { text += " (while reading \(nested))" }
        e.message = text
        var other = inner.file == "-" ? "standard input" : inner.file
        if let line = inner.line { other += ":\(line)"; if let column = inner.column { other += ":\(column)" } }
        e.whileReading = other
        return e
    }

    /// `text` with line breaks, other control characters and U+FFFD (what undecodable bytes of a
    /// file name become) written as escapes (`\n`, `\u{7}`, `\u{FFFD}`), so an error is always one line.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsEscape(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Control characters (C0, DEL, C1), line and paragraph separators and the replacement character.
    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029 || s.value == 0xFFFD
    }
}

/// A parsed JSON document with its name and bytes, so errors can point into it.
public struct JSONDocument: Sendable {
    public let file: String
    public let bytes: [UInt8]
    public let root: JSONNode

    /// Parses `bytes`; a syntax error becomes an `InputError` naming `file`, line and column.
    public init(file: String, bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(InputError) {
        self.file = file
        self.bytes = bytes
        do {
            root = try JSONParser.parse(bytes, limits: limits)
        } catch {
            throw InputError(file: file, line: error.line, column: error.column, message: error.message)
        }
    }

    /// A cursor at the root, for reading with paths.
    public var cursor: JSONCursor { JSONCursor(node: root, path: "", document: self) }
}

/// A position in a JSON document: a node and the JSON path that leads to it. Reading through a
/// cursor turns every type or range problem into an `InputError` that names the path.
public struct JSONCursor: Sendable {
    public let node: JSONNode
    /// The JSON path, e.g. `steps[3].fly.to.zoom` (empty at the root).
    public let path: String
    public let document: JSONDocument

    public init(node: JSONNode, path: String, document: JSONDocument) {
        self.node = node; self.path = path; self.document = document
    }

    /// An error at this value.
    public func error(_ message: String) -> InputError {
        let (line, column) = lineAndColumn(of: node.offset, in: document.bytes)
        return InputError(file: document.file, line: line, column: column, path: path.isEmpty ? nil : path, message: message)
    }

    func childPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The member `key`, or nil when absent. Throws when this value is not an object.
    public func member(_ key: String) throws(InputError) -> JSONCursor? {
        guard case .object(let members) = node.value else { throw error("expected an object, found \(node.typeDescription)") }
        guard let m = members.last(where: { $0.key == key }) else { return nil }
        return JSONCursor(node: m.value, path: childPath(key), document: document)
    }

    /// The member `key`; throws when it is absent.
    public func required(_ key: String) throws(InputError) -> JSONCursor {
        guard let m = try member(key) else { throw error("missing required field '\(key)'") }
        return m
    }

    /// The members of an object, in document order.
    public func members() throws(InputError) -> [(key: String, value: JSONCursor)] {
        guard case .object(let members) = node.value else { throw error("expected an object, found \(node.typeDescription)") }
        return members.map { ($0.key, JSONCursor(node: $0.value, path: childPath($0.key), document: document)) }
    }

    /// Throws on the first member whose name is not in `allowed` (unknown fields are errors, never ignored).
    public func rejectUnknownKeys(_ allowed: Set<String>, what: String = "field") throws(InputError) {
        for (key, value) in try members() where !allowed.contains(key) {
            let known = allowed.sorted().joined(separator: ", ")
            throw JSONCursor(node: value.node, path: value.path, document: document)
                .error("unknown \(what) '\(key)' (known: \(known))")
        }
    }

    /// The elements of an array.
    public func elements() throws(InputError) -> [JSONCursor] {
        guard case .array(let items) = node.value else { throw error("expected an array, found \(node.typeDescription)") }
        var out: [JSONCursor] = []
        out.reserveCapacity(items.count)
        for (k, item) in items.enumerated() { out.append(JSONCursor(node: item, path: "\(path)[\(k)]", document: document)) }
        return out
    }

    /// A finite number (JSON cannot spell NaN or infinity; overflow is refused by the parser).
    public func double() throws(InputError) -> Double {
        guard case .number(let d) = node.value else { throw error("expected a number, found \(node.typeDescription)") }
        guard d.isFinite else { throw error("expected a finite number") }
        return d
    }

    /// A number in a closed range.
    public func double(in range: ClosedRange<Double>, what: String = "value") throws(InputError) -> Double {
        let d = try double()
        guard range.contains(d) else { throw error("\(what) \(d) is out of range \(range.lowerBound)…\(range.upperBound)") }
        return d
    }

    /// A number ≥ 0 (durations, distances).
    public func nonNegative(what: String = "value") throws(InputError) -> Double {
        let d = try double()
        guard d >= 0 else { throw error("\(what) must not be negative, found \(d)") }
        return d
    }

    /// An integral number.
    public func int() throws(InputError) -> Int {
        let d = try double()
        guard d == d.rounded(), abs(d) < 9.0e15 else { throw error("expected a whole number, found \(d)") }
        return Int(d)
    }

    public func string() throws(InputError) -> String {
        guard case .string(let s) = node.value else { throw error("expected a string, found \(node.typeDescription)") }
        return s
    }

    public func bool() throws(InputError) -> Bool {
        guard case .bool(let b) = node.value else { throw error("expected true or false, found \(node.typeDescription)") }
        return b
    }

    /// `[a, b]` of two finite numbers.
    public func pair() throws(InputError) -> (Double, Double) {
        let items = try elements()
        guard items.count == 2 else { throw error("expected an array of 2 numbers, found \(items.count) elements") }
        return (try items[0].double(), try items[1].double())
    }

    public var isObject: Bool { if case .object = node.value { return true } else { return false } }
    public var isArray: Bool { if case .array = node.value { return true } else { return false } }
    public var isString: Bool { if case .string = node.value { return true } else { return false } }
    public var isNumber: Bool { if case .number = node.value { return true } else { return false } }
}
