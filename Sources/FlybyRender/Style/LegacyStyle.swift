import FlybyData

/// Legacy property functions (style specification, "Other" → "Function"): `{"stops": …}` with
/// `base`, `type` (`identity`, `exponential`, `interval`, `categorical`), `property`, `default`
/// and `colorSpace`, converted to the equivalent expression JSON, which is then compiled as any
/// expression (so its errors carry the function's JSON path).
enum LegacyFunction {
    static let keys: Set<String> = ["stops", "base", "type", "property", "default", "colorSpace"]

    static func convert(_ c: JSONCursor, spec: PropertySpec) throws(InputError) -> JSONCursor {
        for (key, value) in try c.members() where !keys.contains(key) {
            throw value.error("unknown field '\(key)' of a function (known: \(keys.sorted().joined(separator: ", ")))")
        }
        let at = c.node.offset
        func n(_ v: JSONNode.Value) -> JSONNode { JSONNode(v, offset: at) }
        func s(_ x: String) -> JSONNode { n(.string(x)) }
        func arr(_ xs: [JSONNode]) -> JSONNode { n(.array(xs)) }
        func literal(_ v: JSONNode) -> JSONNode {
            switch v.value {
            case .array, .object: return arr([s("literal"), v])
            default: return v
            }
        }
        let type = try c.member("type").map { (t) throws(InputError) in try t.string() }
        if let type, !["identity", "exponential", "interval", "categorical"].contains(type) {
            throw (try c.member("type") ?? c).error("unknown function type '\(type)' (known: identity, exponential, interval, categorical)")
        }
        let property = try c.member("property").map { (p) throws(InputError) in try p.string() }
        let defaultNode = try c.member("default")?.node
        let colorSpace = try c.member("colorSpace").map { (p) throws(InputError) in try p.string() }
        if let colorSpace, !["rgb", "lab", "hcl"].contains(colorSpace) {
            throw (try c.member("colorSpace") ?? c).error("unknown colorSpace '\(colorSpace)' (known: rgb, lab, hcl)")
        }
        let base = try c.member("base").map { (b) throws(InputError) in try b.double() } ?? 1
        let interpolateOp = colorSpace == "hcl" ? "interpolate-hcl" : (colorSpace == "lab" ? "interpolate-lab" : "interpolate")
        let fallback = defaultNode.map(literal) ?? spec.defaultValue.map(literal) ?? n(.null)

        guard let stopsCursor = try c.member("stops") else {
            // identity
            guard let property else { throw c.error("a function without stops needs a 'property'") }
            let get = arr([s("get"), s(property)])
            guard let defaultNode else { return cursor(spec.type == .string ? arr([s("string"), get]) : get, c) }
            if let values = spec.enumValues {
                return cursor(arr([s("match"), get, arr(values.map(s)), get, literal(defaultNode)]), c)
            }
            switch spec.type {
            case .color?: return cursor(arr([s("to-color"), get, literal(defaultNode)]), c)
            case .array(let item, let len)?:
                var xs = [s("array")]
                if item != .value { xs.append(s(item.description)) }
                xs.append(len.map { n(.number(Double($0))) } ?? n(.null))
                return cursor(arr(xs + [get, literal(defaultNode)]), c)
            case .number?, .string?, .boolean?:
                return cursor(arr([s(spec.type!.description), get, literal(defaultNode)]), c)
            default:
                return cursor(arr([s("coalesce"), get, literal(defaultNode)]), c)
            }
        }
        let stops = try stopsCursor.elements()
        guard !stops.isEmpty else { throw stopsCursor.error("a function needs at least one stop") }
        var pairs: [(input: JSONNode, output: JSONNode)] = []
        for st in stops {
            let e = try st.elements()
            guard e.count == 2 else { throw st.error("a stop must be [input, output]") }
            pairs.append((e[0].node, e[1].node))
        }
        let zoomAndProperty = pairs[0].input.objectValue != nil
        let featureDependent = zoomAndProperty || property != nil
        let functionType = type ?? (spec.interpolated ? "exponential" : "interval")
        let curve = base == 1 ? arr([s("linear")]) : arr([s("exponential"), n(.number(base))])

        func output(_ v: JSONNode) -> JSONNode {
            if !featureDependent, spec.tokens, let text = v.stringValue, text.contains("{") { return tokens(text, at) }
            return literal(v)
        }

        /// Appends a stop pair, skipping a repeated input (the first one wins).
        func append(_ xs: inout [JSONNode], _ input: JSONNode, _ out: JSONNode, step: Bool) {
            if xs.count > 3, let last = xs[xs.count - 2].doubleValue, input.doubleValue == last { return }
            if !(step && xs.count == 2) { xs.append(input) }
            xs.append(out)
        }
        func fixStep(_ xs: inout [JSONNode]) {
            if xs.count == 3 { xs.append(n(.number(0))); xs.append(xs[2]) }
        }

        func propertyFunction(_ prop: String, _ pairs: [(input: JSONNode, output: JSONNode)], type: String,
                              at where_: JSONCursor) throws(InputError) -> JSONNode {
            let get = arr([s("get"), s(prop)])
            switch type {
            case "categorical":
                if LegacyFunction.isBool(pairs[0].input) {
                    var xs = [s("case")]
                    for p in pairs { xs.append(arr([s("=="), get, p.input])); xs.append(output(p.output)) }
                    xs.append(fallback)
                    return arr(xs)
                }
                var xs = [s("match"), get]
                var seen = Set<String>()
                for p in pairs {
                    let key = LegacyFunction.stopKey(p.input)
                    if !seen.insert(key).inserted { continue }
                    xs.append(p.input); xs.append(output(p.output))
                }
                xs.append(fallback)
                return arr(xs)
            case "interval", "exponential":
                var xs: [JSONNode]
                if type == "interval" { xs = [s("step"), arr([s("number"), get])] } else { xs = [s(interpolateOp), curve, arr([s("number"), get])] }
                for p in pairs {
                    guard LegacyFunction.isNumber(p.input) else { throw where_.error("\(type) function stops need number inputs") }
                    append(&xs, p.input, output(p.output), step: type == "interval")
                }
                if type == "interval" { fixStep(&xs) }
                let e = arr(xs)
                guard let defaultNode else { return e }
                return arr([s("case"), arr([s("=="), arr([s("typeof"), get]), s("number")]), e, literal(defaultNode)])
            default:
                throw where_.error("'\(type)' functions need no stops (identity) or cannot use a property")
            }
        }

        if zoomAndProperty {
            guard let property else { throw c.error("zoom-and-property stops need a 'property'") }
            var zooms: [Double] = []
            var byZoom: [Double: [(input: JSONNode, output: JSONNode)]] = [:]
            for (k, p) in pairs.enumerated() {
                guard let z = p.input["zoom"]?.doubleValue, let v = p.input["value"] else {
                    throw stops[k].error("a zoom-and-property stop input must be {\"zoom\": z, \"value\": v}")
                }
                if byZoom[z] == nil { zooms.append(z) }
                byZoom[z, default: []].append((v, p.output))
            }
            let interpolated = spec.interpolated
            var xs = interpolated ? [s(interpolateOp), arr([s("linear")]), arr([s("zoom")])] : [s("step"), arr([s("zoom")])]
            for z in zooms {
                let inner = try propertyFunction(property, byZoom[z]!, type: type ?? (spec.interpolated ? "exponential" : "interval"), at: stopsCursor)
                append(&xs, n(.number(z)), inner, step: !interpolated)
            }
            if !interpolated { fixStep(&xs) }
            return cursor(arr(xs), c)
        }
        if let property {
            return cursor(try propertyFunction(property, pairs, type: functionType, at: stopsCursor), c)
        }
        // zoom function
        var xs: [JSONNode]
        switch functionType {
        case "interval": xs = [s("step"), arr([s("zoom")])]
        case "exponential": xs = [s(interpolateOp), curve, arr([s("zoom")])]
        default: throw c.error("a '\(functionType)' function needs a 'property'")
        }
        for (k, p) in pairs.enumerated() {
            guard p.input.doubleValue != nil else { throw stops[k].error("zoom function stops need number inputs") }
            append(&xs, p.input, output(p.output), step: functionType == "interval")
        }
        if functionType == "interval" { fixStep(&xs) }
        return cursor(arr(xs), c)
    }

    // Plain functions, not closures over optionals: Swift 6.3's optimiser crashed on the
    // closure forms inside the nested `propertyFunction`.
    static func isBool(_ n: JSONNode) -> Bool { if case .bool = n.value { return true } else { return false } }
    static func isNumber(_ n: JSONNode) -> Bool { if case .number = n.value { return true } else { return false } }
    static func stopKey(_ n: JSONNode) -> String {
        switch n.value {
        case .string(let s): return "s" + s
        case .number(let d): return "n" + String(d)
        default: return "?"
        }
    }

    static func cursor(_ n: JSONNode, _ c: JSONCursor) -> JSONCursor {
        JSONCursor(node: n, path: c.path, document: c.document)
    }

    /// `"{name} km"` as `["concat", ["to-string", ["get", "name"]], " km"]`.
    static func tokens(_ text: String, _ at: Int) -> JSONNode {
        func n(_ v: JSONNode.Value) -> JSONNode { JSONNode(v, offset: at) }
        var parts: [JSONNode] = [n(.string("concat"))]
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}"), rest.index(after: open) < close {
            if open > rest.startIndex { parts.append(n(.string(String(rest[..<open])))) }
            parts.append(n(.array([n(.string("to-string")), n(.array([n(.string("get")), n(.string(String(rest[rest.index(after: open)..<close])))]))])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(n(.string(String(rest)))) }
        return parts.count == 2 ? n(.array([n(.string("to-string")), parts[1]])) : n(.array(parts))
    }
}

/// Legacy filters (style specification, "Other" → "Filter", the deprecated syntax):
/// `["==", key, v]`, `["!=", …]`, `["<", …]`…, `["in", key, v…]`, `["!in", …]`, `["has", key]`,
/// `["!has", key]`, `["all", …]`, `["any", …]`, `["none", …]`, with the keys `$type` (the
/// geometry type) and `$id` (the feature id). A filter is legacy when its form says so (the
/// specification's `isExpressionFilter` test).
enum LegacyFilter {
    static func isExpressionFilter(_ f: JSONNode) -> Bool {
        if f.boolValue != nil { return true }
        guard let items = f.arrayValue, let op = items.first?.stringValue else { return false }
        switch op {
        case "has": return items.count >= 2 && items[1].stringValue != "$id" && items[1].stringValue != "$type"
        case "in": return items.count >= 3 && (items[1].stringValue == nil || items[2].arrayValue != nil)
        case "!in", "!has", "none": return false
        case "==", "!=", ">", ">=", "<", "<=":
            return items.count != 3 || items[1].arrayValue != nil || items[2].arrayValue != nil
        case "any", "all":
            for x in items.dropFirst() where !isExpressionFilter(x) && x.boolValue == nil { return false }
            return true
        default: return true
        }
    }

    static func compile(_ c: JSONCursor, depth: inout Int) throws(InputError) -> ExprNode {
        depth += 1
        defer { depth -= 1 }
        if depth > ExprParser.maxDepth { throw c.error("filter nested deeper than \(ExprParser.maxDepth) levels") }
        if let b = c.node.boolValue { return .constant(.bool(b)) }
        let items = try c.elements()
        guard let first = items.first, let op = first.node.stringValue else {
            throw c.error("expected a filter: [\"==\", key, value], [\"in\", key, …], [\"has\", key], [\"all\", …] or an expression")
        }
        let args = Array(items.dropFirst())
        func key(_ k: JSONCursor) throws(InputError) -> ExprNode {
            guard let name = k.node.stringValue else { throw k.error("a filter key must be a string, found \(k.node.typeDescription)") }
            switch name {
            case "$type": return .call(.geometryType, [])
            case "$id": return .call(.id, [])
            default: return .get(name)
            }
        }
        func value(_ v: JSONCursor) throws(InputError) -> StyleValue {
            switch v.node.value {
            case .string, .number, .bool, .null: return ExpressionCompiler.constantValue(v.node)
            default: throw v.error("a legacy filter value must be a string, number, boolean or null, found \(v.node.typeDescription)")
            }
        }
        switch op {
        case "all", "any", "none":
            var xs: [ExprNode] = []
            for a in args { xs.append(try compile(a, depth: &depth)) }
            return op == "all" ? .all(xs) : (op == "any" ? .any(xs) : .not(.any(xs)))
        case "has", "!has":
            guard args.count == 1, let name = args[0].node.stringValue else { throw c.error("'\(op)' takes one key") }
            let has: ExprNode = name == "$id" ? .call(.legacyHasID, []) : (name == "$type" ? .constant(.bool(true)) : .has(name))
            return op == "has" ? has : .not(has)
        case "in", "!in":
            guard !args.isEmpty else { throw c.error("'\(op)' takes a key and values") }
            var values: [StyleValue] = []
            for v in args.dropFirst() { values.append(try value(v)) }
            let test: ExprNode = .call(.legacyIn, [try key(args[0]), .constant(.array(values))])
            return op == "in" ? test : .not(test)
        case "==", "!=":
            guard args.count == 2 else { throw c.error("'\(op)' takes a key and a value") }
            return .compare(op == "==" ? .eq : .ne, try key(args[0]), .constant(try value(args[1])), collator: nil, dynamicTypes: false)
        case "<", "<=", ">", ">=":
            guard args.count == 2 else { throw c.error("'\(op)' takes a key and a value") }
            let cmp: CompareOp = op == "<" ? .lt : op == "<=" ? .le : op == ">" ? .gt : .ge
            return .call(.legacyOrder(cmp), [try key(args[0]), .constant(try value(args[1]))])
        default:
            throw first.error("unknown legacy filter '\(op)' (known: ==, !=, <, <=, >, >=, in, !in, has, !has, all, any, none)")
        }
    }
}
