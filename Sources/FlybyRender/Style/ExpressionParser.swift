import FlybyCore
import FlybyData

/// How a value whose type is only known at run time is made the expected type: checked
/// (`assert`, the default for number, string, boolean, object and array), converted
/// (`coerce`, the default for colour, formatted, image, padding and the array property types),
/// or left as it is (`omit`, inside `coalesce`).
enum TypeAnnotation { case assert, coerce, omit }

/// Parses expression JSON into ``ExprNode`` trees with the typing rules of the MapLibre Style
/// Specification ("Expressions" → "Types"): each argument is parsed against the type its
/// operator expects, a `value` gets a run-time assertion or conversion, a mismatch is an error at
/// that argument's JSON path, and an expression that reads nothing is folded to its value.
struct ExprParser {
    /// `let` bindings in scope, innermost last.
    var scope: [(name: String, node: ExprNode, type: ExprType)] = []
    var depth = 0
    /// Nesting deeper than this is refused. MapLibre's fixtures nest at most 9 levels, OSM Bright
    /// and Positron 4; the bound keeps compilation and evaluation recursion shallow.
    static let maxDepth = 32

    typealias Parsed = (node: ExprNode, type: ExprType)

    static let operatorNames: [String] = [
        "!", "!=", "%", "*", "+", "-", "/", "<", "<=", "==", ">", ">=", "^", "abs", "accumulated", "acos", "all",
        "any", "array", "asin", "at", "atan", "boolean", "case", "ceil", "coalesce", "collator", "concat", "cos",
        "distance", "downcase", "e", "elevation", "error", "feature-state", "floor", "format", "geometry-type", "get",
        "global-state", "has", "heatmap-density", "id", "image", "in", "index-of", "interpolate", "interpolate-hcl",
        "interpolate-lab", "is-supported-script", "join", "length", "let", "line-progress", "literal", "ln", "ln2",
        "log10", "log2", "match", "max", "min", "number", "number-format", "object", "pi", "properties",
        "resolved-locale", "rgb", "rgba", "round", "semiliteral", "sin", "slice", "split", "sqrt", "step", "string", "tan",
        "to-boolean", "to-color", "to-number", "to-rgba", "to-string", "typeof", "upcase", "var", "within", "zoom",
    ]
    static let operatorSet = Set(operatorNames)

    // MARK: entry

    mutating func parse(_ c: JSONCursor, expected: ExprType?, annotation: TypeAnnotation? = nil) throws(InputError) -> Parsed {
        depth += 1
        defer { depth -= 1 }
        if depth > ExprParser.maxDepth {
            throw c.error("expression nested deeper than \(ExprParser.maxDepth) levels")
        }
        var p: Parsed
        switch c.node.value {
        case .null, .bool, .number, .string:
            let v = ExpressionCompiler.constantValue(c.node)
            p = (.constant(v), v.exprType)
        case .object:
            throw c.error("Bare objects invalid. Use [\"literal\", {...}] instead.")
        case .array(let items):
            guard !items.isEmpty else {
                throw c.error("Expected an array with at least one element. If you wanted a literal array, use [\"literal\", []].")
            }
            let all = try c.elements()
            guard let op = items[0].stringValue else {
                throw all[0].error("Expression name must be a string, but found \(items[0].typeDescription) instead. If you wanted a literal array, use [\"literal\", [...]].")
            }
            p = try parseOperator(op, Array(all.dropFirst()), c, expected: expected)
        }
        if let expected {
            p = try annotate(p, expected: expected, annotation: annotation, at: c)
        }
        return try fold(p, at: c)
    }

    /// Inserts the run-time check or conversion a `value` needs to become `expected`, or refuses
    /// a type that can never be `expected`.
    func annotate(_ p: Parsed, expected: ExprType, annotation: TypeAnnotation?, at c: JSONCursor) throws(InputError) -> Parsed {
        let t = p.type
        switch expected {
        case .string, .number, .boolean, .object, .array:
            if t == .value {
                switch annotation ?? .assert {
                case .assert: return (.assert(expected, [p.node]), expected)
                case .coerce: return (.coerce(expected, [p.node]), expected)
                case .omit: return p
                }
            }
        case .color, .formatted, .resolvedImage, .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection, .projectionDefinition:
            if t == .value || t == .string {
                switch annotation ?? .coerce {
                case .assert: return (.assert(expected, [p.node]), expected)
                case .coerce: return (.coerce(expected, [p.node]), expected)
                case .omit: return p
                }
            }
            if expected == .padding || expected == .numberArray, t == .number || t.isArray { return (.coerce(expected, [p.node]), expected) }
            if expected == .colorArray, t == .color || t.isArray { return (.coerce(expected, [p.node]), expected) }
            if expected == .projectionDefinition, t.isArray { return (.coerce(expected, [p.node]), expected) }
        default: break
        }
        if let message = expected.mismatch(t) { throw c.error(message) }
        return p
    }

    /// Constant folding: a node that reads nothing becomes its value; one that fails to evaluate
    /// is a compile error (as in the specification's engine).
    func fold(_ p: Parsed, at c: JSONCursor) throws(InputError) -> Parsed {
        if case .constant = p.node { return p }
        if p.type == .resolvedImage { return p }
        guard ExprParser.isConstant(p.node) else { return p }
        guard let v = p.node.evaluate(ExprEnv(zoom: 0, feature: .empty, globals: .none)) else {
            throw c.error(ExprParser.constantFailure(p))
        }
        return (.constant(v), p.type)
    }

    static func constantFailure(_ p: Parsed) -> String {
        switch p.node {
        case .assert(let t, _): return "Expected value to be of type \(t), but found another type instead."
        case .coerce(.color, let xs):
            if case .constant(let v)? = xs.last { return "Could not parse color from value '\(v.description)'" }
            return "Could not parse color"
        case .coerce(.number, _): return "Could not convert the value to a number."
        default: return "this constant expression cannot be evaluated (an argument is out of range or of the wrong type)"
        }
    }

    static func isConstant(_ n: ExprNode) -> Bool {
        switch n {
        case .constant: return true
        case .variable(let x): return isConstant(x)
        case .within, .distance: return false
        case .assert(_, let xs), .coerce(_, let xs):
            return xs.allSatisfy(isConstant)
        default:
            for child in n.children { guard case .constant = child else { return false } }
            return n.dependencies.isEmpty
        }
    }

    // MARK: helpers

    func arity(_ args: [JSONCursor], _ c: JSONCursor, _ counts: ClosedRange<Int>) throws(InputError) {
        guard counts.contains(args.count) else {
            let want = counts.lowerBound == counts.upperBound ? "\(counts.lowerBound)" :
                (counts.upperBound == Int.max ? "at least \(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)")
            throw c.error("Expected \(want) argument\(want == "1" ? "" : "s"), but found \(args.count) instead.")
        }
    }

    mutating func args(_ args: [JSONCursor], _ type: ExprType) throws(InputError) -> [ExprNode] {
        var out: [ExprNode] = []
        out.reserveCapacity(args.count)
        for a in args { out.append(try parse(a, expected: type).node) }
        return out
    }

    /// A `case`/`match`/`step` output type: the expected type unless it is `value`.
    static func outputType(_ expected: ExprType?) -> ExprType? {
        guard let expected, expected != .value else { return nil }
        return expected
    }

    static let mathUnary: [String: ExprOp] = [
        "abs": .abs, "acos": .acos, "asin": .asin, "atan": .atan, "ceil": .ceil, "cos": .cos, "floor": .floor,
        "ln": .ln, "log10": .log10, "log2": .log2, "round": .round, "sin": .sin, "sqrt": .sqrt, "tan": .tan,
    ]

    // MARK: operators

    /// Dispatches to the operator groups (split so each recursion level keeps a small stack
    /// frame: one function holding every operator needed 35 KB per level in debug builds).
    mutating func parseOperator(_ op: String, _ a: [JSONCursor], _ c: JSONCursor, expected: ExprType?) throws(InputError) -> Parsed {
        // (No `Optional<Parsed>` here: optionals of these enum tuples miscompiled in debug builds.)
        var found = true
        for group in 0..<4 {
            found = true
            let p: Parsed
            switch group {
            case 0: p = try parseDataOperator(op, a, c, expected: expected, found: &found)
            case 1: p = try parseMathOperator(op, a, c, expected: expected, found: &found)
            case 2: p = try parseTypeOperator(op, a, c, expected: expected, found: &found)
            default: p = try parseControlOperator(op, a, c, expected: expected, found: &found)
            }
            if found { return p }
        }
        throw c.error("Unknown expression \"\(op)\". If you wanted a literal array, use [\"literal\", [...]].")
    }

    mutating func parseDataOperator(_ op: String, _ a: [JSONCursor], _ c: JSONCursor, expected: ExprType?, found: inout Bool) throws(InputError) -> Parsed {
        switch op {
        case "literal":
            guard a.count == 1 else { throw c.error("'literal' expression requires exactly one argument, but found \(a.count) instead.") }
            let v = ExpressionCompiler.constantValue(a[0].node)
            var t = v.exprType
            if case .array(_, 0) = t, let expected, case .array(_, let n) = expected, n == nil || n == 0 { t = expected }
            return (.constant(v), t)
        case "get", "has":
            try arity(a, c, 1...2)
            let isGet = op == "get"
            if a.count == 1 {
                if let key = a[0].node.stringValue { return (isGet ? .get(key) : .has(key), isGet ? .value : .boolean) }
                let key = try parse(a[0], expected: .string).node
                if case .constant(.string(let k)) = key { return (isGet ? .get(k) : .has(k), isGet ? .value : .boolean) }
                return (.call(isGet ? .getKey : .hasKey, [key]), isGet ? .value : .boolean)
            }
            let key = try parse(a[0], expected: .string).node
            let obj = try parse(a[1], expected: .object).node
            return (.call(isGet ? .getFrom : .hasFrom, [key, obj]), isGet ? .value : .boolean)
        case "feature-state":
            try arity(a, c, 1...1)
            return (.featureState(try parse(a[0], expected: .string).node), .value)
        case "properties": try arity(a, c, 0...0); return (.call(.properties, []), .object)
        case "geometry-type": try arity(a, c, 0...0); return (.call(.geometryType, []), .string)
        case "id": try arity(a, c, 0...0); return (.call(.id, []), .value)
        case "zoom": try arity(a, c, 0...0); return (.zoom, .number)
        case "heatmap-density": try arity(a, c, 0...0); return (.call(.heatmapDensity, []), .number)
        case "line-progress": try arity(a, c, 0...0); return (.call(.lineProgress, []), .number)
        case "accumulated": try arity(a, c, 0...0); return (.call(.accumulated, []), .number)
        case "elevation": try arity(a, c, 0...0); return (.call(.elevation, []), .number)
        case "global-state":
            try arity(a, c, 1...1)
            guard let key = a[0].node.stringValue else {
                throw c.error("Global state property must be string, but found \(a[0].node.typeDescription) instead.")
            }
            return (.call(.globalState(key), []), .value)
        case "e": try arity(a, c, 0...0); return (.constant(.number(2.718281828459045)), .number)
        case "pi": try arity(a, c, 0...0); return (.constant(.number(Double.pi)), .number)
        case "ln2": try arity(a, c, 0...0); return (.constant(.number(0.6931471805599453)), .number)
        case "semiliteral":
            guard a.count == 1 else { throw c.error("'semiliteral' expression requires exactly one argument, but found \(a.count) instead.") }
            guard a[0].isArray else { return try parse(a[0], expected: nil) }
            var items: [ExprNode] = []
            var item: ExprType?
            for e in try a[0].elements() {
                let p = try parse(e, expected: nil)
                items.append(p.node)
                item = item == nil || item == p.type ? p.type : .value
            }
            return (.call(.makeArray, items), .array(item ?? .value, items.count))
        default: found = false; return (.constant(.null), .null)
        }
    }

    mutating func parseMathOperator(_ op: String, _ a: [JSONCursor], _ c: JSONCursor, expected: ExprType?, found: inout Bool) throws(InputError) -> Parsed {
        switch op {
        case "+", "*":
            return (.call(op == "+" ? .add : .multiply, try args(a, .number)), .number)
        case "-":
            try arity(a, c, 1...2)
            return (.call(.subtract, try args(a, .number)), .number)
        case "/", "%", "^":
            try arity(a, c, 2...2)
            return (.call(op == "/" ? .divide : (op == "%" ? .remainder : .power), try args(a, .number)), .number)
        case "min", "max":
            return (.call(op == "min" ? .min : .max, try args(a, .number)), .number)
        case _ where ExprParser.mathUnary[op] != nil:
            try arity(a, c, 1...1)
            return (.call(ExprParser.mathUnary[op]!, try args(a, .number)), .number)
        case "!":
            try arity(a, c, 1...1)
            return (.not(try parse(a[0], expected: .boolean).node), .boolean)
        case "all", "any":
            let xs = try args(a, .boolean)
            return (op == "all" ? .all(xs) : .any(xs), .boolean)
        case "==", "!=", "<", "<=", ">", ">=":
            return try parseComparison(op, a, c)
        default: found = false; return (.constant(.null), .null)
        }
    }

    mutating func parseTypeOperator(_ op: String, _ a: [JSONCursor], _ c: JSONCursor, expected: ExprType?, found: inout Bool) throws(InputError) -> Parsed {
        switch op {
        case "typeof":
            try arity(a, c, 1...1)
            return (.call(.typeOf, try args(a, .value)), .string)
        case "string", "number", "boolean", "object":
            guard !a.isEmpty else { throw c.error("Expected at least one argument.") }
            let t: ExprType = op == "string" ? .string : (op == "number" ? .number : (op == "boolean" ? .boolean : .object))
            return (.assert(t, try args(a, .value)), t)
        case "array":
            return try parseArrayAssertion(a, c)
        case "to-boolean", "to-string", "to-number", "to-color":
            guard !a.isEmpty else { throw c.error("Expected at least one argument.") }
            if (op == "to-boolean" || op == "to-string") && a.count != 1 { throw c.error("Expected one argument.") }
            let t: ExprType = op == "to-boolean" ? .boolean : (op == "to-string" ? .string : (op == "to-number" ? .number : .color))
            return (.coerce(t, try args(a, .value)), t)
        case "to-rgba":
            try arity(a, c, 1...1)
            return (.call(.toRgba, try args(a, .color)), .array(.number, 4))
        case "rgb", "rgba":
            try arity(a, c, op == "rgb" ? 3...3 : 4...4)
            return (.call(op == "rgb" ? .rgb : .rgba, try args(a, .number)), .color)
        case "concat":
            return (.call(.concat, try args(a, .value)), .string)
        case "upcase", "downcase", "is-supported-script":
            try arity(a, c, 1...1)
            let o: ExprOp = op == "upcase" ? .upcase : (op == "downcase" ? .downcase : .isSupportedScript)
            return (.call(o, try args(a, .string)), op == "is-supported-script" ? .boolean : .string)
        case "split":
            try arity(a, c, 2...2)
            return (.call(.split, try args(a, .string)), .array(.string, nil))
        case "join":
            try arity(a, c, 2...2)
            let list = try parse(a[0], expected: .array(.string, nil)).node
            return (.call(.join, [list, try parse(a[1], expected: .string).node]), .string)
        case "resolved-locale":
            try arity(a, c, 1...1)
            return (.call(.resolvedLocale, try args(a, .collator)), .string)
        case "collator":
            return try parseCollator(a, c)
        case "error":
            try arity(a, c, 1...1)
            return (.call(.error, try args(a, .string)), .error)
        default: found = false; return (.constant(.null), .null)
        }
    }

    mutating func parseControlOperator(_ op: String, _ a: [JSONCursor], _ c: JSONCursor, expected: ExprType?, found: inout Bool) throws(InputError) -> Parsed {
        switch op {
        case "at":
            try arity(a, c, 2...2)
            let i = try parse(a[0], expected: .number).node
            let arr = try parse(a[1], expected: .array(expected ?? .value, nil))
            guard case .array(let item, _) = arr.type else { return (.call(.at, [i, arr.node]), .value) }
            return (.call(.at, [i, arr.node]), item)
        case "in":
            try arity(a, c, 2...2)
            let needle = try parse(a[0], expected: .value)
            guard [.boolean, .string, .number, .null, .value].contains(needle.type) else {
                throw a[0].error("Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead")
            }
            let hay = try parse(a[1], expected: .value)
            guard hay.type.isArray || hay.type == .string || hay.type == .value else {
                throw a[1].error("Expected second argument to be of type array or string, but found \(hay.type) instead")
            }
            return (.call(.inArray, [needle.node, hay.node]), .boolean)
        case "index-of":
            try arity(a, c, 2...3)
            let needle = try parse(a[0], expected: .value)
            guard [.boolean, .string, .number, .null, .value].contains(needle.type) else {
                throw a[0].error("Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead")
            }
            let hay = try parse(a[1], expected: .value)
            guard hay.type.isArray || hay.type == .string || hay.type == .value else {
                throw a[1].error("Expected second argument to be of type array or string, but found \(hay.type) instead")
            }
            var xs = [needle.node, hay.node]
            if a.count == 3 { xs.append(try parse(a[2], expected: .number).node) }
            return (.call(.indexOf, xs), .number)
        case "slice":
            try arity(a, c, 2...3)
            let input = try parse(a[0], expected: .value)
            guard input.type.isArray || input.type == .string || input.type == .value else {
                throw a[0].error("Expected first argument to be of type array or string, but found \(input.type) instead")
            }
            var xs = [input.node, try parse(a[1], expected: .number).node]
            if a.count == 3 { xs.append(try parse(a[2], expected: .number).node) }
            return (.call(.slice, xs), input.type)
        case "length":
            try arity(a, c, 1...1)
            let input = try parse(a[0], expected: nil)
            guard input.type.isArray || input.type == .string || input.type == .value else {
                throw a[0].error("Expected argument of type string or array, but found \(input.type) instead.")
            }
            return (.call(.length, [input.node]), .number)
        case "case": return try parseCase(a, c, expected: expected)
        case "match": return try parseMatch(a, c, expected: expected)
        case "coalesce": return try parseCoalesce(a, c, expected: expected)
        case "step": return try parseStep(a, c, expected: expected)
        case "interpolate", "interpolate-hcl", "interpolate-lab": return try parseInterpolate(op, a, c, expected: expected)
        case "let": return try parseLet(a, c, expected: expected)
        case "var":
            guard a.count == 1, let name = a[0].node.stringValue else {
                throw c.error("'var' expression requires exactly one string literal argument.")
            }
            guard let b = scope.last(where: { $0.name == name }) else {
                throw a[0].error("Unknown variable \"\(name)\". Make sure \"\(name)\" has been bound in an enclosing \"let\" expression before using it.")
            }
            if case .constant = b.node { return (b.node, b.type) }
            return (.variable(b.node), b.type)
        case "format": return try parseFormat(a, c)
        case "image":
            try arity(a, c, 1...1)
            return (.call(.image, try args(a, .string)), .resolvedImage)
        case "number-format": return try parseNumberFormat(a, c)
        case "within", "distance":
            guard a.count == 1 else {
                throw c.error("'\(op)' expression requires exactly one argument, but found \(a.count) instead.")
            }
            let shape = try parseShape(a[0], c, polygonsOnly: op == "within", op: op)
            return (op == "within" ? .within(shape) : .distance(shape), op == "within" ? .boolean : .number)
        default: found = false; return (.constant(.null), .null)
        }
    }


    mutating func parseComparison(_ op: String, _ a: [JSONCursor], _ c: JSONCursor) throws(InputError) -> Parsed {
        guard a.count == 2 || a.count == 3 else { throw c.error("Expected two or three arguments.") }
        let ordered = op != "==" && op != "!="
        func comparable(_ t: ExprType) -> Bool {
            ordered ? [.string, .number, .value].contains(t) : [.string, .number, .boolean, .null, .value].contains(t)
        }
        var lhs = try parse(a[0], expected: .value)
        guard comparable(lhs.type) else { throw a[0].error("\"\(op)\" comparisons are not supported for type '\(lhs.type)'.") }
        var rhs = try parse(a[1], expected: .value)
        guard comparable(rhs.type) else { throw a[1].error("\"\(op)\" comparisons are not supported for type '\(rhs.type)'.") }
        if lhs.type != rhs.type && lhs.type != .value && rhs.type != .value {
            throw c.error("Cannot compare types '\(lhs.type)' and '\(rhs.type)'.")
        }
        if ordered {
            if lhs.type == .value && rhs.type != .value { lhs = (.assert(rhs.type, [lhs.node]), rhs.type) }
            else if lhs.type != .value && rhs.type == .value { rhs = (.assert(lhs.type, [rhs.node]), lhs.type) }
        }
        var collator: ExprNode?
        if a.count == 3 {
            if lhs.type != .string && rhs.type != .string && lhs.type != .value && rhs.type != .value {
                throw c.error("Cannot use collator to compare non-string types.")
            }
            collator = try parse(a[2], expected: .collator).node
        }
        let cmp: CompareOp = op == "==" ? .eq : op == "!=" ? .ne : op == "<" ? .lt : op == "<=" ? .le : op == ">" ? .gt : .ge
        return (.compare(cmp, lhs.node, rhs.node, collator: collator, dynamicTypes: lhs.type == .value || rhs.type == .value), .boolean)
    }

    mutating func parseArrayAssertion(_ a: [JSONCursor], _ c: JSONCursor) throws(InputError) -> Parsed {
        guard !a.isEmpty else { throw c.error("Expected at least one argument.") }
        var i = 0
        var item: ExprType = .value
        var n: Int?
        if a.count > 1 {
            guard let name = a[0].node.stringValue, let t = ["string": ExprType.string, "number": .number, "boolean": .boolean][name] else {
                throw a[0].error("The item type argument of \"array\" must be one of string, number, boolean")
            }
            item = t; i = 1
        }
        if a.count > 2 {
            if !a[1].node.isNull {
                guard let d = a[1].node.doubleValue, d >= 0, d == d.rounded(.down), d < 1e9 else {
                    throw a[1].error("The length argument to \"array\" must be a positive integer literal")
                }
                n = Int(d)
            }
            i = 2
        }
        let t = ExprType.array(item, n)
        return (.assert(t, try args(Array(a[i...]), .value)), t)
    }

    mutating func parseCollator(_ a: [JSONCursor], _ c: JSONCursor) throws(InputError) -> Parsed {
        guard a.count == 1 else { throw c.error("Expected one argument.") }
        guard a[0].isObject else { throw a[0].error("Collator options argument must be an object.") }
        func option(_ key: String, _ type: ExprType, _ fallback: StyleValue?) throws(InputError) -> ExprNode? {
            if let m = try a[0].member(key) { return try parse(m, expected: type).node }
            return fallback.map(ExprNode.constant)
        }
        var xs = [try option("case-sensitive", .boolean, .bool(false))!, try option("diacritic-sensitive", .boolean, .bool(false))!]
        if let l = try option("locale", .string, nil) { xs.append(l) }
        return (.call(.collator, xs), .collator)
    }

    mutating func parseCase(_ a: [JSONCursor], _ c: JSONCursor, expected: ExprType?) throws(InputError) -> Parsed {
        guard a.count >= 3 else { throw c.error("Expected at least 3 arguments, but found only \(a.count).") }
        guard a.count % 2 == 1 else { throw c.error("Expected an odd number of arguments.") }
        var out = ExprParser.outputType(expected)
        var branches: [(ExprNode, ExprNode)] = []
        for k in stride(from: 0, to: a.count - 1, by: 2) {
            let test = try parse(a[k], expected: .boolean).node
            let r = try parse(a[k + 1], expected: out)
            out = out ?? r.type
            branches.append((test, r.node))
        }
        let fallback = try parse(a[a.count - 1], expected: out)
        let t = out ?? fallback.type
        return (.caseOf(branches, fallback: fallback.node), t)
    }

    mutating func parseMatch(_ a: [JSONCursor], _ c: JSONCursor, expected: ExprType?) throws(InputError) -> Parsed {
        guard a.count >= 4 else { throw c.error("Expected at least 4 arguments, but found only \(a.count).") }
        guard a.count % 2 == 0 else { throw c.error("Expected an even number of arguments.") }
        var out = ExprParser.outputType(expected)
        var inputType: ExprType?
        var table: [MatchKey: Int] = [:]
        var outputs: [ExprNode] = []
        for k in stride(from: 1, to: a.count - 1, by: 2) {
            let labelCursor = a[k]
            let labels = labelCursor.isArray ? try labelCursor.elements() : [labelCursor]
            if labels.isEmpty { throw labelCursor.error("Expected at least one branch label.") }
            for l in labels {
                let key: MatchKey, lt: ExprType
                switch l.node.value {
                case .string(let s): key = .string(s); lt = .string
                case .number(let d):
                    guard Swift.abs(d) <= 9007199254740991 else { throw l.error("Branch labels must be integers no larger than 9007199254740991.") }
                    guard d == d.rounded(.down) else { throw l.error("Numeric branch labels must be integer values.") }
                    key = .number(d); lt = .number
                default: throw l.error("Branch labels must be numbers or strings.")
                }
                if let inputType { if let m = inputType.mismatch(lt) { throw l.error(m) } } else { inputType = lt }
                if table[key] != nil { throw l.error("Branch labels must be unique.") }
                table[key] = outputs.count
            }
            let r = try parse(a[k + 1], expected: out)
            out = out ?? r.type
            outputs.append(r.node)
        }
        let input = try parse(a[0], expected: .value)
        let fallback = try parse(a[a.count - 1], expected: out)
        let labelType = inputType ?? .value
        if input.type != .value, let m = labelType.mismatch(input.type) { throw a[0].error(m) }
        return (.match(input.node, labelType: labelType, table: table, outputs: outputs, fallback: fallback.node), out ?? fallback.type)
    }

    mutating func parseCoalesce(_ a: [JSONCursor], _ c: JSONCursor, expected: ExprType?) throws(InputError) -> Parsed {
        guard !a.isEmpty else { throw c.error("Expected at least one argument.") }
        var out = ExprParser.outputType(expected)
        var xs: [Parsed] = []
        for arg in a {
            let p = try parse(arg, expected: out, annotation: .omit)
            out = out ?? p.type
            xs.append(p)
        }
        let needsAnnotation = expected.map { e in xs.contains { e.mismatch($0.type) != nil } } ?? false
        return (.coalesce(xs.map(\.node)), needsAnnotation ? .value : (out ?? .value))
    }

    mutating func parseStops(_ a: [JSONCursor], from start: Int, name: String, output: inout ExprType?) throws(InputError) -> ([Double], [ExprNode]) {
        var stops: [Double] = [], outputs: [ExprNode] = []
        for k in stride(from: start, to: a.count, by: 2) {
            guard let s = a[k].node.doubleValue else {
                throw a[k].error("Input/output pairs for \"\(name)\" expressions must be defined using literal numeric values (not computed expressions) for the input values.")
            }
            if let last = stops.last, s <= last {
                throw a[k].error("Input/output pairs for \"\(name)\" expressions must be arranged with input values in strictly ascending order.")
            }
            let r = try parse(a[k + 1], expected: output)
            output = output ?? r.type
            stops.append(s)
            outputs.append(r.node)
        }
        return (stops, outputs)
    }

    mutating func parseStep(_ a: [JSONCursor], _ c: JSONCursor, expected: ExprType?) throws(InputError) -> Parsed {
        guard a.count >= 4 else { throw c.error("Expected at least 4 arguments, but found only \(a.count).") }
        guard a.count % 2 == 0 else { throw c.error("Expected an even number of arguments.") }
        let input = try parse(a[0], expected: .number).node
        var out = ExprParser.outputType(expected)
        let first = try parse(a[1], expected: out)
        out = out ?? first.type
        let (stops, outputs) = try parseStops(a, from: 2, name: "step", output: &out)
        return (.step(input, first: first.node, stops: stops, outputs: outputs), out ?? first.type)
    }

    mutating func parseInterpolate(_ op: String, _ a: [JSONCursor], _ c: JSONCursor, expected: ExprType?) throws(InputError) -> Parsed {
        guard let kindCursor = a.first, let kind = kindCursor.node.arrayValue, !kind.isEmpty else {
            throw (a.first ?? c).error("Expected an interpolation type expression.")
        }
        let curve: InterpolationCurve
        switch kind[0].stringValue {
        case "linear": curve = .linear
        case "exponential":
            guard kind.count > 1, let base = kind[1].doubleValue else {
                throw kindCursor.error("Exponential interpolation requires a numeric base.")
            }
            curve = .exponential(base)
        case "cubic-bezier":
            let cps = kind.dropFirst().compactMap(\.doubleValue)
            guard kind.count == 5, cps.count == 4, cps.allSatisfy({ $0 >= 0 && $0 <= 1 }) else {
                throw kindCursor.error("Cubic bezier interpolation requires four numeric arguments with values between 0 and 1.")
            }
            curve = .cubicBezier(UnitBezier(x1: cps[0], y1: cps[1], x2: cps[2], y2: cps[3]))
        default:
            throw kindCursor.error("Unknown interpolation type \(kind[0].stringValue ?? kind[0].typeDescription)")
        }
        guard a.count >= 4 else { throw c.error("Expected at least 4 arguments, but found only \(a.count).") }
        guard a.count % 2 == 0 else { throw c.error("Expected an even number of arguments.") }
        let input = try parse(a[1], expected: .number).node
        let space: ColorSpace = op == "interpolate-hcl" ? .hcl : (op == "interpolate-lab" ? .lab : .rgb)
        var out: ExprType? = space == .rgb ? ExprParser.outputType(expected) : (expected == .colorArray ? .colorArray : .color)
        let (stops, outputs) = try parseStops(a, from: 2, name: op, output: &out)
        let t = out ?? .value
        let ok: Bool
        switch t {
        case .number, .color, .padding, .numberArray, .colorArray, .projectionDefinition, .variableAnchorOffsetCollection: ok = true
        case .array(let item, let n): ok = item == .number && n != nil
        default: ok = false
        }
        guard ok else { throw c.error("Type \(t) is not interpolatable.") }
        return (.interpolate(input, curve, space, stops: stops, outputs: outputs), t)
    }

    mutating func parseLet(_ a: [JSONCursor], _ c: JSONCursor, expected: ExprType?) throws(InputError) -> Parsed {
        guard a.count >= 3 else { throw c.error("Expected at least 3 arguments, but found \(a.count) instead.") }
        let saved = scope.count
        defer { scope.removeLast(scope.count - saved) }
        var bindings: [ExprNode] = []
        var k = 0
        while k < a.count - 1 {
            guard let name = a[k].node.stringValue else {
                throw a[k].error("Expected string, but found \(a[k].node.typeDescription) instead.")
            }
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_" }) else {
                throw a[k].error("Variable names must contain only alphanumeric characters or '_'.")
            }
            guard k + 1 < a.count - 1 else { break }
            let v = try parse(a[k + 1], expected: nil)
            scope.append((name, v.node, v.type))
            bindings.append(v.node)
            k += 2
        }
        let body = try parse(a[a.count - 1], expected: expected)
        return (.letIn(bindings, body: body.node), body.type)
    }

    mutating func parseFormat(_ a: [JSONCursor], _ c: JSONCursor) throws(InputError) -> Parsed {
        guard let first = a.first else { throw c.error("Expected at least one argument.") }
        if first.isObject { throw first.error("First argument must be an image or text section.") }
        var sections: [FormatSectionNode] = []
        var mayBeOptions = false
        for arg in a {
            if mayBeOptions && arg.isObject {
                mayBeOptions = false
                var s = sections[sections.count - 1]
                if let m = try arg.member("font-scale") { s.scale = try parse(m, expected: .number).node }
                if let m = try arg.member("text-font") { s.font = try parse(m, expected: .array(.string, nil)).node }
                if let m = try arg.member("text-color") { s.textColor = try parse(m, expected: .color).node }
                if let m = try arg.member("vertical-align") {
                    if let v = m.node.stringValue, !["bottom", "center", "top"].contains(v) {
                        throw m.error("'vertical-align' must be one of: 'bottom', 'center', 'top' but found '\(v)' instead.")
                    }
                    s.verticalAlign = try parse(m, expected: .string).node
                }
                sections[sections.count - 1] = s
            } else {
                let content = try parse(arg, expected: .value)
                guard [.string, .value, .null, .resolvedImage].contains(content.type) else {
                    throw arg.error("Formatted text type must be 'string', 'value', 'image' or 'null'.")
                }
                mayBeOptions = true
                sections.append(FormatSectionNode(content: content.node))
            }
        }
        return (.format(sections), .formatted)
    }

    mutating func parseNumberFormat(_ a: [JSONCursor], _ c: JSONCursor) throws(InputError) -> Parsed {
        guard a.count == 2 else { throw c.error("Expected two arguments.") }
        let number = try parse(a[0], expected: .number).node
        guard a[1].isObject else { throw a[1].error("NumberFormat options argument must be an object.") }
        let o = a[1]
        if try o.member("currency") != nil, try o.member("unit") != nil {
            throw c.error("NumberFormat options `currency` and `unit` are mutually exclusive")
        }
        func option(_ key: String, _ t: ExprType) throws(InputError) -> ExprNode {
            if let m = try o.member(key) { return try parse(m, expected: t).node }
            return .constant(.null)
        }
        let xs = [number, try option("locale", .string), try option("currency", .string),
                  try option("min-fraction-digits", .number), try option("max-fraction-digits", .number)]
        if try o.member("unit") != nil { throw o.error("the 'unit' option of number-format is not supported") }
        return (.call(.numberFormat, xs), .string)
    }

    func parseShape(_ g: JSONCursor, _ c: JSONCursor, polygonsOnly: Bool, op: String) throws(InputError) -> GeoShape {
        let message = "'\(op)' expression requires valid geojson object that contains polygon geometry type."
        guard g.isObject, let type = g.node["type"]?.stringValue,
              ["FeatureCollection", "Feature", "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon",
               "GeometryCollection"].contains(type) else { throw c.error(message) }
        let fc: FeatureCollection
        do { fc = try GeoJSON.parse(g) } catch { throw c.error(message) }
        let geometries = fc.features.flatMap { GeoShape.flatten($0.geometry) }
        let shape = GeoShape(geometries: geometries)
        if polygonsOnly && shape.polygons.isEmpty { throw c.error(message) }
        if geometries.isEmpty { throw c.error(message) }
        return shape
    }
}
