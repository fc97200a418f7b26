import FlybyData

/// What a property expects of an expression (the style specification's property `type`,
/// `property-type` and `expression` fields).
struct PropertySpec {
    /// The expected result type; nil for none.
    var type: ExprType?
    /// `interpolate` may be used (the property is interpolatable).
    var interpolated = true
    /// `zoom` may be used.
    var zoomDependent = true
    /// Feature data may be used (`data-driven`).
    var dataDriven = true
    /// The default, used by legacy functions as the fallback of categorical stops.
    var defaultValue: JSONNode?
    /// `enum` values, when the property is an enumeration.
    var enumValues: [String]?
    /// The property accepts `{token}` strings (legacy functions convert them).
    var tokens = false
    /// The top-level annotation: string properties convert (`to-string`).
    var coerceTopLevel: Bool { type == .string }
}

/// Compiles style JSON (literals and expression arrays) into ``StyleExpression`` trees,
/// type-checking as it goes. Every error is an ``InputError`` at the offending JSON value, whose
/// path names the layer and the property (`layers[5] (id "roads").paint.line-width[3]`).
enum ExpressionCompiler {
    static var operators: [String] { ExprParser.operatorNames }

    // MARK: properties and filters

    /// Compiles a property value (a literal of the property's type, an expression, or a legacy
    /// `{"stops": …}` function).
    static func compileProperty(_ c: JSONCursor, _ property: StyleProperty) throws(InputError) -> StyleExpression {
        let type = property.valueType
        if isExpression(c) || c.isObject {
            var spec = PropertySpec(type: exprType(type))
            if case .enumeration(let values) = type { spec.enumValues = values }
            switch type {
            case .number, .color, .numberArray: spec.interpolated = true
            default: spec.interpolated = false
            }
            spec.defaultValue = jsonNode(property.defaultValue)
            spec.tokens = type == .formatted || type == .image
            // The row's expression rule (Style Specification `property-type`): a colour ramp such
            // as `line-gradient` reads `line-progress` only, neither zoom nor feature data.
            spec.zoomDependent = property.expression.parserAcceptsZoom
            spec.dataDriven = property.expression.parserAcceptsFeatureData
            var e = try compile(c, spec: spec)
            // Flyby's renderer reads text and image names as strings.
            if type == .formatted || type == .image {
                e = StyleExpression(.coerce(.string, [e.root]), type: .string)
                e = fold(e)
            }
            if case .enumeration(let allowed) = type, case .constant(.string(let s)) = e.root, !allowed.contains(s) {
                throw c.error("'\(s)' is not a valid value of \(property.rawValue) (expected one of: \(allowed.joined(separator: ", ")))")
            }
            return e
        }
        // `text-field` and `icon-image` take `{token}` strings (Style Specification, Layers,
        // "tokens: supported"): "{class}_11" names the image of the feature's `class`.
        if type == .formatted || type == .image, let text = c.node.stringValue, let tokens = tokenExpression(text) {
            return StyleExpression(tokens, type: .string)
        }
        return StyleExpression(.constant(try literal(c, property)), type: exprType(type).flatMap { t in
            switch t { case .formatted, .resolvedImage: return .string; default: return t }
        } ?? .value)
    }

    static func exprType(_ t: PropertyValueType) -> ExprType? {
        switch t {
        case .color: return .color
        case .number: return .number
        case .boolean: return .boolean
        case .string, .enumeration: return .string
        case .numberArray(let n): return .array(.number, n)
        case .stringArray: return .array(.string, nil)
        case .anchorArray: return .array(.string, nil)
        case .anchorOffsets: return .variableAnchorOffsetCollection
        case .formatted: return .formatted
        case .image: return .resolvedImage
        }
    }

    /// Compiles an expression or legacy function for a property described by `spec`, with the
    /// specification's property rules: one zoom curve, at the top level (or inside `let` or
    /// `coalesce`), `interpolate` only on interpolatable properties.
    static func compile(_ c: JSONCursor, spec: PropertySpec) throws(InputError) -> StyleExpression {
        var cursor = c
        if c.isObject { cursor = try LegacyFunction.convert(c, spec: spec) }
        var parser = ExprParser()
        let (node, type) = try parser.parse(cursor, expected: spec.type, annotation: spec.coerceTopLevel ? .coerce : nil)
        // `var` evaluates its binding in place, so a chain of `let`s can make the evaluated tree
        // deeper than the text; bound it too.
        if node.height(limit: 2 * ExprParser.maxDepth) > 2 * ExprParser.maxDepth {
            throw c.error("expression nested deeper than \(2 * ExprParser.maxDepth) levels (counting the expressions its variables stand for)")
        }
        let e = StyleExpression(node, type: type)
        if e.dependsOnFeature && !spec.dataDriven { throw c.error("data expressions not supported") }
        if e.dependsOnZoom && !spec.zoomDependent { throw c.error("zoom expressions not supported") }
        switch ZoomCurve.find(node) {
        case .error(let message): throw c.error(message)
        case .none:
            if e.dependsOnZoom {
                throw c.error("\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression.")
            }
        case .interpolate:
            if !spec.interpolated { throw c.error("\"interpolate\" expressions cannot be used with this property") }
        case .step: break
        }
        return e
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
            parts.append(.coerce(.string, [.get(String(rest[rest.index(after: open)..<close]))]))
            rest = rest[rest.index(after: close)...]
            found = true
        }
        guard found else { return nil }
        literal += rest
        if !literal.isEmpty { parts.append(.constant(.string(literal))) }
        return .call(.concat, parts)
    }

    /// Compiles a layer filter: a boolean expression, or a legacy filter (`["==", "class",
    /// "park"]`, `["in", "class", …]`, `["has", "name"]`, `$type`, `$id`).
    static func compileFilter(_ c: JSONCursor) throws(InputError) -> StyleExpression {
        if !LegacyFilter.isExpressionFilter(c.node) {
            var depth = 0
            return StyleExpression(try LegacyFilter.compile(c, depth: &depth), type: .boolean)
        }
        guard isExpression(c) || c.node.boolValue != nil else { throw c.error("expected a filter expression, found \(c.node.typeDescription)") }
        var parser = ExprParser()
        let (n, t) = try parser.parse(c, expected: .boolean)
        guard t == .boolean else { throw c.error("a filter must be a boolean expression, found \(t)") }
        return StyleExpression(n, type: .boolean)
    }

    /// Replaces an expression that depends on nothing by its value.
    static func fold(_ e: StyleExpression) -> StyleExpression {
        if case .constant = e.root { return e }
        guard ExprParser.isConstant(e.root), let v = e.root.evaluate(ExprEnv(zoom: 0, feature: .empty, globals: .none)) else { return e }
        return StyleExpression(.constant(v), type: e.exprType)
    }

    static func isExpression(_ c: JSONCursor) -> Bool {
        guard let items = c.node.arrayValue, let op = items.first?.stringValue else { return false }
        return ExprParser.operatorSet.contains(op)
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
        case .anchorArray:
            var out: [StyleValue] = []
            for e in try c.elements() { out.append(.string(try anchorKeyword(e))) }
            return .array(out)
        case .anchorOffsets:
            // Style Specification, `text-variable-anchor-offset`: anchors alternating with offsets.
            let items = try c.elements()
            guard items.count % 2 == 0 else { throw c.error("expected anchors alternating with [x, y] offsets, found \(items.count) elements") }
            var out: [StyleValue] = []
            for k in stride(from: 0, to: items.count, by: 2) {
                out.append(.string(try anchorKeyword(items[k])))
                let xy = try items[k + 1].elements()
                guard xy.count == 2 else { throw items[k + 1].error("expected an [x, y] offset, found \(xy.count) elements") }
                out.append(.array([.number(try xy[0].double()), .number(try xy[1].double())]))
            }
            return .array(out)
        }
    }

    /// A `text-anchor` keyword (an element of `text-variable-anchor` or `text-variable-anchor-offset`).
    static func anchorKeyword(_ c: JSONCursor) throws(InputError) -> String {
        let s = try c.string()
        guard StyleProperty.anchors.contains(s) else {
            throw c.error("'\(s)' is not an anchor (expected one of: \(StyleProperty.anchors.joined(separator: ", ")))")
        }
        return s
    }

    static func constantValue(_ node: JSONNode) -> StyleValue {
        switch node.value {
        case .array(let items): return .array(items.map(constantValue))
        default: return StyleValue(PropertyValue(node))
        }
    }

    /// A value as JSON (for property defaults handed to legacy functions).
    static func jsonNode(_ v: StyleValue) -> JSONNode? {
        switch v {
        case .null: return JSONNode(.null)
        case .bool(let b): return JSONNode(.bool(b))
        case .number(let d): return JSONNode(.number(d))
        case .string(let s): return JSONNode(.string(s))
        case .color(let c): return JSONNode(.string(c.description))
        case .array(let a):
            var items: [JSONNode] = []
            for x in a { guard let n = jsonNode(x) else { return nil }; items.append(n) }
            return JSONNode(.array(items))
        default: return nil
        }
    }
}

/// The zoom-curve rule of property expressions (style specification, "Zoom expressions"):
/// `zoom` only as the input of one `step` or `interpolate` at the top level, or under `let` or
/// `coalesce`.
enum ZoomCurve {
    case none, step, interpolate
    case error(String)

    static let nested = "\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression."
    static let several = "Only one zoom-based \"step\" or \"interpolate\" subexpression may be used in an expression."

    static func find(_ n: ExprNode) -> ZoomCurve {
        var result = ZoomCurve.none
        var skip: Int?
        switch n {
        case .coalesce(let xs):
            for (i, x) in xs.enumerated() {
                let r = find(x)
                if case .none = r { continue }
                result = r; skip = i
                break
            }
        case .step(.zoom, _, _, _): result = .step
        case .interpolate(.zoom, _, _, _, _): result = .interpolate
        case .letIn(let bindings, let body):
            result = find(body); skip = bindings.count
        case .variable: return .none
        default: break
        }
        if case .error = result { return result }
        for (i, child) in n.children.enumerated() where i != skip {
            switch find(child) {
            case .error(let m): result = .error(m)
            case .none: break
            default:
                if case .none = result { result = .error(nested) } else if case .error = result {} else { result = .error(several) }
            }
        }
        return result
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
        return try ExpressionCompiler.compile(c, spec: PropertySpec(type: nil))
    }

    /// Compiles a filter from JSON text (a boolean expression or a legacy filter).
    public static func parseFilter(_ json: String, file: String = "<filter>") throws(InputError) -> StyleExpression {
        let doc = try JSONDocument(file: file, bytes: Array(json.utf8))
        return try ExpressionCompiler.compileFilter(doc.cursor)
    }

    /// Compiles a filter expression (a style layer's `filter` rules) given as JSON text.
    /// - Parameter file: names the text in errors (e.g. `queryRenderedFeatures filter`).
    /// - Throws: ``InputError`` with the line, column and path of the bad part.
    public static func filter(json: [UInt8], file: String) throws(InputError) -> StyleExpression {
        try ExpressionCompiler.compileFilter(try JSONDocument(file: file, bytes: json).cursor)
    }
}
