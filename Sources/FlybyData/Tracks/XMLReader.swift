/// A parsed XML element with the byte offset of its `<`, for positioned errors.
struct XMLElement: Sendable {
    var name: String
    /// Attributes in document order: name, unescaped value, byte offset of the name.
    var attributes: [(name: String, value: String, offset: Int)]
    var children: [XMLElement]
    /// The element's own character data (text and CDATA directly inside it), unescaped.
    var text: String
    var offset: Int

    /// The name without a namespace prefix (`gpxtpx:course` → `course`).
    var localName: Substring {
        if let colon = name.lastIndex(of: ":") { return name[name.index(after: colon)...] }
        return name[...]
    }

    func attribute(_ name: String) -> (value: String, offset: Int)? {
        attributes.first { $0.name == name }.map { ($0.value, $0.offset) }
    }

    func children(named local: String) -> [XMLElement] { children.filter { $0.localName == local } }
    func child(named local: String) -> XMLElement? { children.first { $0.localName == local } }

    /// The first descendant (depth first, document order) with this local name.
    func descendant(named local: String) -> XMLElement? {
        for c in children {
            if c.localName == local { return c }
            if let d = c.descendant(named: local) { return d }
        }
        return nil
    }
}

struct XMLSyntaxError: Error, Sendable {
    var offset: Int
    var message: String
}

/// A small non-validating XML 1.0 reader, enough for GPX: elements, attributes, character data,
/// CDATA, comments, processing instructions, a skipped DOCTYPE, the five predefined entities and
/// numeric character references. Namespaces are not resolved (names keep their prefix; see
/// ``XMLElement/localName``). Iterative, so deep nesting cannot overflow the stack; nesting
/// deeper than `maxDepth` is an error.
struct XMLReader {
    private let b: [UInt8]
    private var i = 0
    private let maxDepth: Int

    private init(_ bytes: [UInt8], maxDepth: Int) {
        b = bytes
        self.maxDepth = maxDepth
    }

    static func parse(_ bytes: [UInt8], maxDepth: Int = 256) throws(XMLSyntaxError) -> XMLElement {
        var r = XMLReader(bytes, maxDepth: maxDepth)
        return try r.document()
    }

    private func fail(_ message: String, at offset: Int? = nil) -> XMLSyntaxError {
        XMLSyntaxError(offset: min(offset ?? i, b.count), message: message)
    }

    private func starts(with s: String) -> Bool {
        let u = Array(s.utf8)
        guard i + u.count <= b.count else { return false }
        for k in 0..<u.count where b[i + k] != u[k] { return false }
        return true
    }

    private mutating func skip(past s: String, what: String) throws(XMLSyntaxError) {
        let start = i
        while i < b.count {
            if starts(with: s) {
                i += s.utf8.count
                return
            }
            i += 1
        }
        throw fail("unterminated \(what)", at: start)
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    private static func isNameChar(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
            || c == 0x5F || c == 0x3A || c == 0x2D || c == 0x2E || c >= 0x80
    }

    private mutating func skipSpace() { while i < b.count, Self.isSpace(b[i]) { i += 1 } }

    private mutating func name() throws(XMLSyntaxError) -> String {
        let start = i
        while i < b.count, Self.isNameChar(b[i]) { i += 1 }
        guard i > start else { throw fail("expected a name") }
        return String(decoding: b[start..<i], as: UTF8.self)
    }

    /// Skips prolog or epilog material: whitespace, comments, PIs, DOCTYPE.
    private mutating func misc(allowDoctype: Bool) throws(XMLSyntaxError) {
        while true {
            skipSpace()
            if starts(with: "<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "comment")
            } else if allowDoctype && starts(with: "<!DOCTYPE") {
                try doctype()
            } else {
                return
            }
        }
    }

    private mutating func doctype() throws(XMLSyntaxError) {
        let start = i
        var bracket = 0
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "["): bracket += 1
            case UInt8(ascii: "]"): bracket -= 1
            case UInt8(ascii: ">") where bracket <= 0:
                i += 1
                return
            default: break
            }
            i += 1
        }
        throw fail("unterminated DOCTYPE", at: start)
    }

    private mutating func document() throws(XMLSyntaxError) -> XMLElement {
        if starts(with: "\u{FEFF}") { i += 3 }
        try misc(allowDoctype: true)
        guard i < b.count, b[i] == UInt8(ascii: "<") else {
            throw fail(i < b.count ? "expected the root element" : "empty document: expected the root element")
        }
        let root = try element()
        try misc(allowDoctype: false)
        if i < b.count { throw fail("unexpected content after the root element") }
        return root
    }

    /// Reads a start tag at `<`; returns the element and whether it was self-closing.
    private mutating func startTag() throws(XMLSyntaxError) -> (XMLElement, Bool) {
        let offset = i
        i += 1
        let n = try name()
        var e = XMLElement(name: n, attributes: [], children: [], text: "", offset: offset)
        while true {
            let hadSpace = i < b.count && Self.isSpace(b[i])
            skipSpace()
            guard i < b.count else { throw fail("unterminated start tag <\(n)>", at: offset) }
            if b[i] == UInt8(ascii: ">") {
                i += 1
                return (e, false)
            }
            if starts(with: "/>") {
                i += 2
                return (e, true)
            }
            guard hadSpace else { throw fail("expected whitespace, '>' or '/>' in <\(n)>") }
            let attrOffset = i
            let an = try name()
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "=") else { throw fail("expected '=' after attribute \(an)") }
            i += 1
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                throw fail("expected a quoted value for attribute \(an)")
            }
            let quote = b[i]
            i += 1
            let start = i
            while i < b.count, b[i] != quote {
                if b[i] == UInt8(ascii: "<") { throw fail("'<' in the value of attribute \(an)") }
                i += 1
            }
            guard i < b.count else { throw fail("unterminated value of attribute \(an)", at: start) }
            let value = try unescape(start, i)
            i += 1
            if e.attributes.contains(where: { $0.name == an }) {
                throw fail("duplicate attribute \(an)", at: attrOffset)
            }
            e.attributes.append((an, value, attrOffset))
        }
    }

    private func unescape(_ start: Int, _ end: Int) throws(XMLSyntaxError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var k = start
        while k < end {
            guard b[k] == UInt8(ascii: "&") else {
                out.append(b[k])
                k += 1
                continue
            }
            var semi = k + 1
            while semi < end, b[semi] != UInt8(ascii: ";"), semi - k < 12 { semi += 1 }
            guard semi < end, b[semi] == UInt8(ascii: ";") else { throw fail("unterminated entity reference", at: k) }
            let ref = String(decoding: b[(k + 1)..<semi], as: UTF8.self)
            switch ref {
            case "amp": out.append(UInt8(ascii: "&"))
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                var scalar: Unicode.Scalar? = nil
                if ref.hasPrefix("#x") {
                    scalar = UInt32(ref.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if ref.hasPrefix("#") {
                    scalar = UInt32(ref.dropFirst(1), radix: 10).flatMap(Unicode.Scalar.init)
                }
                guard let scalar else { throw fail("unknown entity &\(ref);", at: k) }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            k = semi + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func element() throws(XMLSyntaxError) -> XMLElement {
        let (root, closed) = try startTag()
        if closed { return root }
        var stack: [XMLElement] = [root]
        while true {
            guard i < b.count else {
                throw fail("unterminated element <\(stack[stack.count - 1].name)>", at: stack[stack.count - 1].offset)
            }
            if starts(with: "</") {
                let closeOffset = i
                i += 2
                let n = try name()
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: ">") else { throw fail("expected '>' to end </\(n)>") }
                i += 1
                let done = stack.removeLast()
                guard done.name == n else {
                    throw fail("</\(n)> does not match the open element <\(done.name)>", at: closeOffset)
                }
                if stack.isEmpty { return done }
                stack[stack.count - 1].children.append(done)
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "comment")
            } else if starts(with: "<![CDATA[") {
                let start = i + 9
                try skip(past: "]]>", what: "CDATA section")
                stack[stack.count - 1].text += String(decoding: b[start..<(i - 3)], as: UTF8.self)
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if b[i] == UInt8(ascii: "<") {
                let (child, closed) = try startTag()
                if closed {
                    stack[stack.count - 1].children.append(child)
                } else {
                    guard stack.count < maxDepth else {
                        throw fail("elements nested deeper than \(maxDepth)", at: child.offset)
                    }
                    stack.append(child)
                }
            } else {
                let start = i
                while i < b.count, b[i] != UInt8(ascii: "<") { i += 1 }
                stack[stack.count - 1].text += try unescape(start, i)
            }
        }
    }
}
