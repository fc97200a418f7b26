import FlybyData

/// Compiles style JSON (literals and expression arrays) into ``StyleExpression`` trees,
/// type-checking as it goes. Every error is an ``InputError`` at the offending JSON value, whose
/// path names the layer and the property (`layers[5] (id "roads").paint.line-width[3]`).
enum ExpressionCompiler {
    static let operators = [
        "get", "has", "zoom", "literal", "==", "!=", "<", "<=", ">", ">=", "all", "any", "!", "case", "match",
        "coalesce", "step", "interpolate", "feature-state", "to-string", "to-number", "concat",
    ]

    // MARK: properties and filters

    /// Compiles a property value (a literal of the property's type or an expression).
    static func compileProperty(_ c: JSONCursor, _ property: StyleProperty) throws(InputError) -> StyleExpression {
        let type = property.valueType
        let node: ExprNode
        if isExpression(c) {
            let n: ExprNode
            switch type {
            case .formatted:
                let (m, t) = try compile(c, expected: .string)
                n = t == .string ? m : .toString(m)
            case .enumeration(let allowed):
                n = try compile(c, as: .string)
                if case .constant(.string(let s)) = n, !allowed.contains(s) {
                    throw c.error("'\(s)' is not a valid value of \(property.rawValue) (expected one of: \(allowed.joined(separator: ", ")))")
                }
            default:
                n = try compile(c, as: type.styleType)
            }
            node = n
        } else if type == .formatted, let text = c.node.stringValue, let tokens = tokenExpression(text) {
            node = tokens
        } else {
            node = .constant(try literal(c, property))
        }
        return fold(StyleExpression(node, type: type.styleType))
    }

    /// The legacy token syntax of `text-field` strings: `"{name} ({iso_a3})"` reads the named
    /// properties (a missing one gives ""). Nil when the text has no `{…}` token.
    static func tokenExpression(_ text: String) -> ExprNode? {
        var parts: [ExprNode] = []
        var literal = ""
        var rest = Substring(text)
        var found = false
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}"), rest.index(after: open) < close else { break }
            literal += rest[..<open]
            if !literal.isEmpty { parts.append(.constant(.string(literal))); literal = "" }
            parts.append(.toString(.get(String(rest[rest.index(after: open)..<close]))))
            rest = rest[rest.index(after: close)...]
            found = true
        }
        guard found else { return nil }
        literal += rest
        if !literal.isEmpty { parts.append(.constant(.string(literal))) }
        return .concat(parts)
    }

    /// Compiles a layer filter: a boolean expression.
    static func compileFilter(_ c: JSONCursor) throws(InputError) -> StyleExpression {
        if let items = c.node.arrayValue, items.count == 3, let op = items[0].stringValue,
           ["==", "!=", "<", "<=", ">", ">="].contains(op), items[1].stringValue != nil {
            throw c.error("legacy filter syntax is not supported: write [\"\(op)\", [\"get\", \"\(items[1].stringValue ?? "")\"], …]")
        }
        guard isExpression(c) || c.node.boolValue != nil else { throw c.error("expected a filter expression, found \(c.node.typeDescription)") }
        let (n, t) = try compile(c, expected: .boolean)
        guard t == .boolean || t == .value else { throw c.error("a filter must be a boolean expression, found \(t.rawValue)") }
        return fold(StyleExpression(n, type: .boolean))
    }

    /// Replaces an expression that depends on nothing by its value.
    static func fold(_ e: StyleExpression) -> StyleExpression {
        if e.dependsOnZoom || e.dependsOnFeature { return e }
        if case .constant = e.root { return e }
        guard let v = e.evaluate(zoom: 0) else { return e }
        return StyleExpression(.constant(v), type: e.type)
    }

    static func isExpression(_ c: JSONCursor) -> Bool {
        guard let items = c.node.arrayValue, let op = items.first?.stringValue else { return false }
        return operators.contains(op) || !(items.allSatisfy { $0.stringValue != nil })
    }

    /// A literal property value, checked against the property's type.
    static func literal(_ c: JSONCursor, _ property: StyleProperty) throws(InputError) -> StyleValue {
        switch property.valueType {
        case .color:
            guard let s = c.node.stringValue else { throw c.error("expected a colour, found \(c.node.typeDescription)") }
            guard let color = StyleColor(css: s) else { throw c.error("invalid colour '\(s)'") }
            return .color(color)
        case .number:
            let d = try c.double()
            if let r = property.range, !r.contains(d) {
                throw c.error("\(property.rawValue) must be \(r.upperBound == .greatestFiniteMagnitude ? "at least \(PropertyFormatting.number(r.lowerBound))" : "in \(PropertyFormatting.number(r.lowerBound))…\(PropertyFormatting.number(r.upperBound))"), found \(PropertyFormatting.number(d))")
            }
            return .number(d)
        case .boolean:
            return .bool(try c.bool())
        case .string, .image:
            return .string(try c.string())
        case .formatted:
            switch c.node.value {
            case .string(let s): return .string(s)
            case .number(let d): return .string(PropertyFormatting.number(d))
            case .bool(let b): return .string(b ? "true" : "false")
            default: throw c.error("expected a string or an expression, found \(c.node.typeDescription)")
            }
        case .enumeration(let allowed):
            let s = try c.string()
            guard allowed.contains(s) else {
                throw c.error("'\(s)' is not a valid value of \(property.rawValue) (expected one of: \(allowed.joined(separator: ", ")))")
            }
            return .string(s)
        case .numberArray(let count):
            var out: [StyleValue] = []
            for e in try c.elements() { out.append(.number(try e.double())) }
            if let count, out.count != count { throw c.error("expected an array of \(count) numbers, found \(out.count) elements") }
            if property == .lineDasharray {
                for e in try c.elements() where (try e.double()) < 0 { throw e.error("dash lengths must not be negative") }
            }
            return .array(out)
        case .stringArray:
            var out: [StyleValue] = []
            for e in try c.elements() { out.append(.string(try e.string())) }
            return .array(out)
        }
    }

    // MARK: expressions

    /// Compiles any JSON value as an expression; `expected` (when concrete) propagates into
    /// literals and branches, so `"red"` in a colour position becomes a colour.
    static func compile(_ c: JSONCursor, expected: StyleType?) throws(InputError) -> (ExprNode, StyleType) {
        switch c.node.value {
        case .null: return (.constant(.null), .null)
        case .bool(let b): return (.constant(.bool(b)), .boolean)
        case .number(let d): return (.constant(.number(d)), .number)
        case .string(let s):
            if expected == .color {
                guard let color = StyleColor(css: s) else { throw c.error("invalid colour '\(s)'") }
                return (.constant(.color(color)), .color)
            }
            return (.constant(.string(s)), .string)
        case .object:
            throw c.error("an object must be wrapped in [\"literal\", …]")
        case .array(let items):
            guard !items.isEmpty else { throw c.error("empty expression: expected [\"operator\", …]") }
            guard let op = items[0].stringValue else {
                if expected == .array { return (.constant(constantValue(c.node)), .array) }
                throw c.error("an array must be wrapped in [\"literal\", …], or start with an operator name")
            }
            let all = try c.elements()
            return try compileOperator(op, args: Array(all.dropFirst()), at: c, expected: expected)
        }
    }

    /// Compiles `c` and makes its type `expected` (inserting a run-time coercion from `value`).
    static func compile(_ c: JSONCursor, as expected: StyleType) throws(InputError) -> ExprNode {
        let (n, t) = try compile(c, expected: expected)
        if t == expected || t == .null || expected == .value { return n }
        if t == .value {
            switch expected {
            case .number: return .coerce(.number, n)
            case .string: return .coerce(.string, n)
            case .boolean: return .coerce(.boolean, n)
            case .color: return .coerce(.color, n)
            case .array: return .coerce(.array, n)
            default: return n
            }
        }
        throw c.error("expected \(article(expected)), found \(article(t))")
    }

    static func article(_ t: StyleType) -> String {
        switch t {
        case .value: return "a value"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        default: return "a \(t.rawValue)"
        }
    }

    static func constantValue(_ node: JSONNode) -> StyleValue {
        switch node.value {
        case .array(let items): return .array(items.map(constantValue))
        default: return StyleValue(PropertyValue(node))
        }
    }

    static func arity(_ op: String, _ args: [JSONCursor], _ c: JSONCursor, _ counts: ClosedRange<Int>) throws(InputError) {
        guard counts.contains(args.count) else {
            let want = counts.lowerBound == counts.upperBound ? "\(counts.lowerBound)" :
                (counts.upperBound == Int.max ? "at least \(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)")
            throw c.error("'\(op)' expects \(want) argument\(want == "1" ? "" : "s"), found \(args.count)")
        }
    }

    static func keyArgument(_ op: String, _ a: JSONCursor) throws(InputError) -> String {
        guard let s = a.node.stringValue else {
            throw a.error("'\(op)' needs a property name string literal, found \(a.node.typeDescription)")
        }
        return s
    }

    /// The type of branches that must agree: the expected type, or the first concrete branch type.
    static func branchType(_ expected: StyleType?, _ branches: [JSONCursor]) throws(InputError) -> StyleType {
        if let expected, expected != .value { return expected }
        var t: StyleType?
        for b in branches {
            let (_, bt) = try compile(b, expected: nil)
            if bt == .null || bt == .value { continue }
            if t == nil { t = bt } else if t != bt { return .value }
        }
        return t ?? .value
    }

    static func compileOperator(_ op: String, args: [JSONCursor], at c: JSONCursor, expected: StyleType?) throws(InputError) -> (ExprNode, StyleType) {
        switch op {
        case "get":
            if args.count == 2 { throw c.error("the two-argument form of 'get' (with an object) is not supported") }
            try arity(op, args, c, 1...1)
            return (.get(try keyArgument(op, args[0])), .value)
        case "has":
            if args.count == 2 { throw c.error("the two-argument form of 'has' (with an object) is not supported") }
            try arity(op, args, c, 1...1)
            return (.has(try keyArgument(op, args[0])), .boolean)
        case "feature-state":
            try arity(op, args, c, 1...1)
            return (.featureState(try keyArgument(op, args[0])), .value)
        case "zoom":
            try arity(op, args, c, 0...0)
            return (.zoom, .number)
        case "literal":
            try arity(op, args, c, 1...1)
            let v = constantValue(args[0].node)
            if expected == .color, case .string(let s) = v {
                guard let color = StyleColor(css: s) else { throw args[0].error("invalid colour '\(s)'") }
                return (.constant(.color(color)), .color)
            }
            return (.constant(v), v.type)
        case "==", "!=", "<", "<=", ">", ">=":
            if args.count == 3 { throw c.error("the collator argument of '\(op)' is not supported") }
            try arity(op, args, c, 2...2)
            let (a, ta) = try compile(args[0], expected: nil)
            let (b, tb) = try compile(args[1], expected: nil)
            let ordered = op != "==" && op != "!="
            if ordered {
                for (t, arg) in [(ta, args[0]), (tb, args[1])] where ![.number, .string, .value].contains(t) {
                    throw arg.error("'\(op)' compares numbers or strings, found \(article(t))")
                }
            }
            if ta != .value && tb != .value && ta != tb && ta != .null && tb != .null {
                throw c.error("'\(op)' cannot compare \(article(ta)) with \(article(tb))")
            }
            let cmp: CompareOp = ["==": .eq, "!=": .ne, "<": .lt, "<=": .le, ">": .gt][op] ?? .ge
            return (.compare(cmp, a, b), .boolean)
        case "all", "any":
            var xs: [ExprNode] = []
            for a in args { xs.append(try compile(a, as: .boolean)) }
            return (op == "all" ? .all(xs) : .any(xs), .boolean)
        case "!":
            try arity(op, args, c, 1...1)
            return (.not(try compile(args[0], as: .boolean)), .boolean)
        case "case":
            guard args.count >= 3, args.count % 2 == 1 else {
                throw c.error("'case' expects condition/output pairs and a fallback (an odd number of at least 3 arguments), found \(args.count)")
            }
            var outs: [JSONCursor] = []
            for k in stride(from: 1, to: args.count, by: 2) { outs.append(args[k]) }
            outs.append(args[args.count - 1])
            let t = try branchType(expected, outs)
            var branches: [(ExprNode, ExprNode)] = []
            for k in stride(from: 0, to: args.count - 1, by: 2) {
                branches.append((try compile(args[k], as: .boolean), try compile(args[k + 1], as: t)))
            }
            return (.caseOf(branches, fallback: try compile(args[args.count - 1], as: t)), t)
        case "match":
            guard args.count >= 4, args.count % 2 == 0 else {
                throw c.error("'match' expects an input, label/output pairs and a fallback (an even number of at least 4 arguments), found \(args.count)")
            }
            let (input, inputType) = try compile(args[0], expected: nil)
            guard [.string, .number, .value].contains(inputType) else {
                throw args[0].error("'match' input must be a string or a number, found \(article(inputType))")
            }
            var outs: [JSONCursor] = []
            for k in stride(from: 2, to: args.count - 1, by: 2) { outs.append(args[k]) }
            outs.append(args[args.count - 1])
            let t = try branchType(expected, outs)
            var table: [MatchKey: Int] = [:]
            var outputs: [ExprNode] = []
            var labelType: StyleType?
            for k in stride(from: 1, to: args.count - 1, by: 2) {
                let labelCursor = args[k]
                let labels = labelCursor.isArray ? try labelCursor.elements() : [labelCursor]
                if labels.isEmpty { throw labelCursor.error("a 'match' label array must not be empty") }
                for l in labels {
                    let key: MatchKey, lt: StyleType
                    switch l.node.value {
                    case .string(let s): key = .string(s); lt = .string
                    case .number(let d):
                        guard d == d.rounded() else { throw l.error("numeric 'match' labels must be integers, found \(d)") }
                        key = .number(d); lt = .number
                    default: throw l.error("a 'match' label must be a string or number literal, found \(l.node.typeDescription)")
                    }
                    if let labelType, labelType != lt { throw l.error("'match' labels must all be of one type") }
                    labelType = lt
                    if inputType != .value && inputType != lt { throw l.error("'match' label is \(article(lt)) but the input is \(article(inputType))") }
                    if table[key] != nil { throw l.error("duplicate 'match' label") }
                    table[key] = outputs.count
                }
                outputs.append(try compile(args[k + 1], as: t))
            }
            return (.match(input, table: table, outputs: outputs, fallback: try compile(args[args.count - 1], as: t)), t)
        case "coalesce":
            try arity(op, args, c, 1...Int.max)
            let t = try branchType(expected, args)
            var xs: [ExprNode] = []
            for a in args {
                // coalesce skips nulls, so its branches keep their own (possibly null) values.
                let (n, bt) = try compile(a, expected: t)
                if bt != t && bt != .null && bt != .value && t != .value { throw a.error("expected \(article(t)), found \(article(bt))") }
                xs.append(n)
            }
            return (.coalesce(xs), t)
        case "step":
            guard args.count >= 2, args.count % 2 == 0 else {
                throw c.error("'step' expects an input, a first output and stop/output pairs (an even number of at least 2 arguments), found \(args.count)")
            }
            let input = try compile(args[0], as: .number)
            var outs = [args[1]]
            for k in stride(from: 3, to: args.count, by: 2) { outs.append(args[k]) }
            let t = try branchType(expected, outs)
            let first = try compile(args[1], as: t)
            var stops: [Double] = [], outputs: [ExprNode] = []
            for k in stride(from: 2, to: args.count, by: 2) {
                guard let s = args[k].node.doubleValue else { throw args[k].error("a 'step' stop must be a number literal") }
                if let last = stops.last, s <= last { throw args[k].error("'step' stops must be strictly ascending (\(PropertyFormatting.number(s)) after \(PropertyFormatting.number(last)))") }
                stops.append(s)
                outputs.append(try compile(args[k + 1], as: t))
            }
            return (.step(input, first: first, stops: stops, outputs: outputs), t)
        case "interpolate":
            guard args.count >= 4, args.count % 2 == 0 else {
                throw c.error("'interpolate' expects an interpolation type, an input and stop/output pairs (an even number of at least 4 arguments), found \(args.count)")
            }
            let kind = args[0]
            guard let kindItems = kind.node.arrayValue, let kindName = kindItems.first?.stringValue else {
                throw kind.error("expected an interpolation type: [\"linear\"] or [\"exponential\", base]")
            }
            let base: Double
            switch kindName {
            case "linear":
                guard kindItems.count == 1 else { throw kind.error("[\"linear\"] takes no arguments") }
                base = 1
            case "exponential":
                guard kindItems.count == 2, let b = kindItems[1].doubleValue else { throw kind.error("expected [\"exponential\", base] with a number base") }
                guard b > 0 else { throw kind.error("the exponential base must be positive, found \(PropertyFormatting.number(b))") }
                base = b
            default:
                throw kind.error("unsupported interpolation type '\(kindName)' (supported: linear, exponential)")
            }
            let input = try compile(args[1], as: .number)
            var outs: [JSONCursor] = []
            for k in stride(from: 3, to: args.count, by: 2) { outs.append(args[k]) }
            let t = try branchType(expected, outs)
            guard [.number, .color, .array].contains(t) else {
                throw c.error("'interpolate' outputs numbers, colours or arrays of numbers, not \(article(t))")
            }
            var stops: [Double] = [], outputs: [ExprNode] = []
            for k in stride(from: 2, to: args.count, by: 2) {
                guard let s = args[k].node.doubleValue else { throw args[k].error("an 'interpolate' stop must be a number literal") }
                if let last = stops.last, s <= last { throw args[k].error("'interpolate' stops must be strictly ascending (\(PropertyFormatting.number(s)) after \(PropertyFormatting.number(last)))") }
                stops.append(s)
                outputs.append(try compile(args[k + 1], as: t))
            }
            return (.interpolate(input, base: base, stops: stops, outputs: outputs), t)
        case "to-string":
            try arity(op, args, c, 1...1)
            return (.toString(try compile(args[0], expected: nil).0), .string)
        case "to-number":
            try arity(op, args, c, 1...Int.max)
            var xs: [ExprNode] = []
            for a in args { xs.append(try compile(a, expected: nil).0) }
            return (.toNumber(xs), .number)
        case "concat":
            try arity(op, args, c, 1...Int.max)
            var xs: [ExprNode] = []
            for a in args { xs.append(try compile(a, expected: nil).0) }
            return (.concat(xs), .string)
        default:
            throw c.error("unknown expression operator '\(op)' (supported: \(operators.joined(separator: ", ")))")
        }
    }
}

extension StyleExpression {
    /// Compiles an expression from JSON text, as a value of `property` when given (literals
    /// checked and coerced as in a style), else as a bare expression.
    /// - Throws: ``InputError`` naming `file` and the path inside the expression.
    public static func parse(_ json: String, property: StyleProperty? = nil, file: String = "<expression>") throws(InputError) -> StyleExpression {
        let doc = try JSONDocument(file: file, bytes: Array(json.utf8))
        let c = doc.cursor
        if let property { return try ExpressionCompiler.compileProperty(c, property) }
        let (n, t) = try ExpressionCompiler.compile(c, expected: nil)
        return ExpressionCompiler.fold(StyleExpression(n, type: t))
    }

    /// Compiles a filter from JSON text (a boolean expression).
    public static func parseFilter(_ json: String, file: String = "<filter>") throws(InputError) -> StyleExpression {
        let doc = try JSONDocument(file: file, bytes: Array(json.utf8))
        return try ExpressionCompiler.compileFilter(doc.cursor)
    }
}

extension StyleExpression {
    /// Compiles a filter expression (a style layer's `filter` rules) given as JSON text.
    /// - Parameter file: names the text in errors (e.g. `queryRenderedFeatures filter`).
    /// - Throws: ``InputError`` with the line, column and path of the bad part.
    public static func filter(json: [UInt8], file: String) throws(InputError) -> StyleExpression {
        try ExpressionCompiler.compileFilter(try JSONDocument(file: file, bytes: json).cursor)
    }
}
