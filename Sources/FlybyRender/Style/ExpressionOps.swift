import FlybyData
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The operators of ``ExprOp`` (style specification, "Expressions": maths, string, lookup,
/// feature data, types and colour operators).
extension ExprNode {
    static func call(_ op: ExprOp, _ args: [ExprNode], _ env: ExprEnv) -> StyleValue? {
        @inline(__always) func num(_ i: Int) -> Double? {
            if case .number(let d)? = args[i].evaluate(env) { return d }
            return nil
        }
        @inline(__always) func str(_ i: Int) -> String? {
            if case .string(let s)? = args[i].evaluate(env) { return s }
            return nil
        }
        func unary(_ f: (Double) -> Double) -> StyleValue? { num(0).map { .number(f($0)) } }
        switch op {
        case .add, .multiply:
            var acc: Double = op == .add ? 0 : 1
            for k in args.indices { guard let d = num(k) else { return nil }; acc = op == .add ? acc + d : acc * d }
            return .number(acc)
        case .subtract:
            guard let a = num(0) else { return nil }
            if args.count == 1 { return .number(-a) }
            guard let b = num(1) else { return nil }
            return .number(a - b)
        case .divide:
            guard let a = num(0), let b = num(1) else { return nil }
            return .number(a / b)
        case .remainder:
            guard let a = num(0), let b = num(1) else { return nil }
            return .number(fmod(a, b))
        case .power:
            guard let a = num(0), let b = num(1) else { return nil }
            return .number(pow(a, b))
        case .min, .max:
            var acc = op == .min ? Double.infinity : -Double.infinity
            for k in args.indices {
                guard let d = num(k) else { return nil }
                if d.isNaN { acc = .nan } else if !acc.isNaN { acc = op == .min ? Swift.min(acc, d) : Swift.max(acc, d) }
            }
            return .number(acc)
        case .abs: return unary { Swift.abs($0) }
        case .acos: return unary(Glibc.acos)
        case .asin: return unary(Glibc.asin)
        case .atan: return unary(Glibc.atan)
        case .ceil: return unary(Glibc.ceil)
        case .cos: return unary(Glibc.cos)
        case .floor: return unary(Glibc.floor)
        case .ln: return unary(Glibc.log)
        case .log10: return unary(Glibc.log10)
        case .log2: return unary(Glibc.log2)
        case .round: return unary { $0.rounded(.toNearestOrAwayFromZero) }
        case .sin: return unary(Glibc.sin)
        case .sqrt: return unary(Glibc.sqrt)
        case .tan: return unary(Glibc.tan)

        case .concat:
            var s = ""
            for a in args { guard let v = a.evaluate(env) else { return nil }; s += v.description }
            return .string(s)
        case .downcase: return str(0).map { .string($0.lowercased()) }
        case .upcase: return str(0).map { .string($0.uppercased()) }
        case .isSupportedScript: return str(0).map { _ in .bool(true) }
        case .resolvedLocale:
            guard case .collator(let c)? = args[0].evaluate(env) else { return nil }
            return .string(c.locale ?? "en")
        case .split:
            guard let s = str(0), let sep = str(1) else { return nil }
            if sep.isEmpty { return .array(s.map { .string(String($0)) }) }
            return .array(s.components(separatedByString: sep).map { .string($0) })
        case .join:
            guard case .array(let items)? = args[0].evaluate(env), let sep = str(1) else { return nil }
            var parts: [String] = []
            for v in items { guard case .string(let p) = v else { return nil }; parts.append(p) }
            return .string(parts.joined(separator: sep))

        case .at:
            guard let i = num(0), case .array(let items)? = args[1].evaluate(env) else { return nil }
            guard i >= 0, i == i.rounded(.down), i < Double(items.count) else { return nil }
            return items[Int(i)]
        case .inArray:
            guard let needle = args[0].evaluate(env), let haystack = args[1].evaluate(env) else { return nil }
            if haystack == .null || haystack == .string("") { return .bool(false) }  // a falsy haystack holds nothing
            guard needle.isPrimitive else { return nil }
            switch haystack {
            case .array(let items): return .bool(items.contains { ExprNode.compare(.eq, $0, needle) == true })
            case .string(let s): return .bool(s.scalarIndex(of: needle.jsString, from: 0) != nil)
            default: return nil
            }
        case .indexOf:
            guard let needle = args[0].evaluate(env), let haystack = args[1].evaluate(env) else { return nil }
            guard needle.isPrimitive else { return nil }
            var from = 0
            if args.count > 2 {
                guard let f = num(2) else { return nil }
                from = f.isFinite ? Int(Swift.max(Swift.min(f, 1e15), -1e15).rounded(.towardZero)) : (f > 0 ? Int.max / 2 : 0)
            }
            switch haystack {
            case .array(let items):
                if from < 0 { from = Swift.max(items.count + from, 0) }
                guard from < items.count else { return .number(-1) }
                for k in from..<items.count where ExprNode.compare(.eq, items[k], needle) == true { return .number(Double(k)) }
                return .number(-1)
            case .string(let s): return .number(Double(s.scalarIndex(of: needle.jsString, from: Swift.max(from, 0)) ?? -1))
            default: return nil
            }
        case .slice:
            guard let input = args[0].evaluate(env), let start = num(1) else { return nil }
            var end: Double?
            if args.count > 2 { guard let e = num(2) else { return nil }; end = e }
            switch input {
            case .array(let items):
                let r = ExprNode.sliceRange(count: items.count, start, end)
                return .array(Array(items[r]))
            case .string(let s):
                let u = Array(s.unicodeScalars)
                let r = ExprNode.sliceRange(count: u.count, start, end)
                var out = String.UnicodeScalarView()
                out.append(contentsOf: u[r])
                return .string(String(out))
            default: return nil
            }
        case .length:
            switch args[0].evaluate(env) {
            case .string(let s)?: return .number(Double(s.unicodeScalars.count))
            case .array(let a)?: return .number(Double(a.count))
            default: return nil
            }
        case .getKey:
            guard let key = str(0) else { return nil }
            return env.feature.properties[key].map(StyleValue.init) ?? .null
        case .hasKey:
            guard let key = str(0) else { return nil }
            return .bool(env.feature.properties[key] != nil)
        case .getFrom, .hasFrom:
            guard let key = str(0), case .object(let o)? = args[1].evaluate(env) else { return nil }
            let v = o[key]
            if op == .hasFrom { return .bool(v != nil) }
            return v.map(StyleValue.init) ?? .null

        case .geometryType:
            switch env.feature.kind {
            case .point: return .string("Point")
            case .line: return .string("LineString")
            case .polygon: return .string("Polygon")
            }
        case .id: return env.feature.id.map(StyleValue.init) ?? .null
        case .properties: return .object(env.feature.properties)
        case .lineProgress: return .number(env.globals.lineProgress ?? 0)
        case .accumulated: return .number(env.globals.accumulated ?? 0)
        case .heatmapDensity: return .number(env.globals.heatmapDensity ?? 0)
        case .elevation: return .number(env.globals.elevation ?? 0)
        case .globalState(let key): return env.globals.globalState[key].map(StyleValue.init) ?? .null

        case .typeOf:
            guard let v = args[0].evaluate(env) else { return nil }
            return .string(v.exprType.description)
        case .rgb, .rgba:
            var c: [Double] = []
            for k in args.indices { guard let d = num(k) else { return nil }; c.append(d) }
            return ExprNode.rgba(c).map(StyleValue.color)
        case .toRgba:
            guard case .color(let c)? = args[0].evaluate(env) else { return nil }
            return .array([.number(c.red * 255), .number(c.green * 255), .number(c.blue * 255), .number(c.alpha)])
        case .image:
            guard let v = args[0].evaluate(env) else { return nil }
            let name = v.description
            return .image(ResolvedImage(name: name, available: env.globals.availableImages.contains(name)))
        case .numberFormat:
            guard let d = num(0) else { return nil }
            var options = NumberFormatOptions()
            if case .constant(.null) = args[1] {} else { guard let l = str(1) else { return nil }; options.locale = l }
            if case .constant(.null) = args[2] {} else { guard let c = str(2) else { return nil }; options.currency = c }
            if case .constant(.null) = args[3] {} else { guard let m = num(3) else { return nil }; options.minFraction = Int(m) }
            if case .constant(.null) = args[4] {} else { guard let m = num(4) else { return nil }; options.maxFraction = Int(m) }
            return .string(NumberFormatting.format(d, options))
        case .collator:
            guard case .bool(let cs)? = args[0].evaluate(env), case .bool(let ds)? = args[1].evaluate(env) else { return nil }
            var locale: String?
            if args.count > 2 { guard let l = str(2) else { return nil }; locale = l }
            return .collator(StyleCollator(caseSensitive: cs, diacriticSensitive: ds, locale: locale))
        case .error:
            return nil
        case .makeArray:
            var out: [StyleValue] = []
            out.reserveCapacity(args.count)
            for a in args { guard let v = a.evaluate(env) else { return nil }; out.append(v) }
            return .array(out)

        case .legacyOrder(let cmp):
            guard let x = args[0].evaluate(env), let y = args[1].evaluate(env) else { return nil }
            return .bool(ExprNode.compare(cmp, x, y) ?? false)
        case .legacyIn:
            guard let x = args[0].evaluate(env), case .array(let set)? = args[1].evaluate(env) else { return nil }
            return .bool(set.contains(x))
        case .legacyHasID:
            return .bool(env.feature.id != nil)
        }
    }

    /// JavaScript `slice` index rules: negative counts from the end, clamped to the bounds.
    static func sliceRange(count: Int, _ start: Double, _ end: Double?) -> Range<Int> {
        func index(_ d: Double) -> Int {
            let i = d.isFinite ? Int(d.rounded(.towardZero)) : (d > 0 ? count : -count)
            return i < 0 ? Swift.max(count + i, 0) : Swift.min(i, count)
        }
        let a = index(start), b = end.map(index) ?? count
        return a < b ? a..<b : a..<a
    }

    /// `rgb`/`rgba`: channels 0…255, alpha 0…1; out of range is an error.
    static func rgba(_ c: [Double]) -> StyleColor? {
        guard c.count == 3 || c.count == 4 else { return nil }
        for k in 0..<3 where !(c[k] >= 0 && c[k] <= 255) { return nil }
        let a = c.count == 4 ? c[3] : 1
        guard a >= 0 && a <= 1 else { return nil }
        return StyleColor(red: c[0] / 255, green: c[1] / 255, blue: c[2] / 255, alpha: a)
    }

    /// The conversions (`to-number`, `to-color`, `to-boolean`, `to-string`, and to the
    /// property types `formatted`, `resolvedImage`, `padding`, `numberArray`, `colorArray`).
    static func coerce(_ type: ExprType, _ xs: [ExprNode], _ env: ExprEnv) -> StyleValue? {
        switch type {
        case .boolean:
            guard let v = xs[0].evaluate(env) else { return nil }
            return .bool(v.truthy)
        case .string:
            guard let v = xs[0].evaluate(env) else { return nil }
            return .string(v.description)
        case .formatted:
            guard let v = xs[0].evaluate(env) else { return nil }
            if case .formatted = v { return v }
            if case .image(let i) = v { return .formatted(FormattedText(sections: [FormattedSection(text: "", image: i)])) }
            return .formatted(FormattedText(sections: [FormattedSection(text: v.description)]))
        case .resolvedImage:
            guard let v = xs[0].evaluate(env) else { return nil }
            if case .image = v { return v }
            let name = v.description
            return .image(ResolvedImage(name: name, available: env.globals.availableImages.contains(name)))
        case .number:
            for x in xs {
                guard let v = x.evaluate(env) else { return nil }
                if v == .null { return .number(0) }
                if let d = v.jsNumber, !d.isNaN { return .number(d) }
            }
            return nil
        default:
            for x in xs {
                guard let v = x.evaluate(env) else { return nil }
                if let out = convert(v, to: type) { return out }
            }
            return nil
        }
    }

    /// One value as a colour, padding, number array or colour array; nil when it is not one.
    static func convert(_ v: StyleValue, to type: ExprType) -> StyleValue? {
        switch type {
        case .color:
            switch v {
            case .color: return v
            case .string(let s): return StyleColor(css: s).map(StyleValue.color)
            case .array(let a):
                var c: [Double] = []
                for e in a { guard case .number(let d) = e else { return nil }; c.append(d) }
                return rgba(c).map(StyleValue.color)
            default: return nil
            }
        case .padding:
            switch v {
            case .padding: return v
            case .number(let d): return .padding([d, d, d, d])
            case .array(let a):
                guard let n = v.numbers, (1...4).contains(a.count) else { return nil }
                switch n.count {
                case 1: return .padding([n[0], n[0], n[0], n[0]])
                case 2: return .padding([n[0], n[1], n[0], n[1]])
                case 3: return .padding([n[0], n[1], n[2], n[1]])
                default: return .padding(n)
                }
            default: return nil
            }
        case .numberArray:
            switch v {
            case .numberArray: return v
            case .number(let d): return .numberArray([d])
            case .array: return v.numbers.map(StyleValue.numberArray)
            default: return nil
            }
        case .colorArray:
            switch v {
            case .colorArray: return v
            case .color(let c): return .colorArray([c])
            case .string(let s): return StyleColor(css: s).map { .colorArray([$0]) }
            case .array(let a):
                var out: [StyleColor] = []
                for e in a {
                    switch e {
                    case .color(let c): out.append(c)
                    case .string(let s): guard let c = StyleColor(css: s) else { return nil }; out.append(c)
                    default: return nil
                    }
                }
                return .colorArray(out)
            default: return nil
            }
        case .projectionDefinition:
            switch v {
            case .string: return v
            case .array(let a) where a.count == 3:
                if case .string = a[0], case .string = a[1], case .number = a[2] { return v }
                return nil
            default: return nil
            }
        default:
            return type.accepts(v.exprType) ? v : nil
        }
    }
}

extension StyleValue {
    /// JavaScript truthiness (`to-boolean`).
    var truthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .number(let d): return d != 0 && !d.isNaN
        case .string(let s): return !s.isEmpty
        default: return true
        }
    }

    /// JavaScript's `String(value)`: like `to-string` but `null` is "null".
    var jsString: String { self == .null ? "null" : description }

    /// A boolean, number, string or null (what `in` and `index-of` search for).
    var isPrimitive: Bool {
        switch self {
        case .null, .bool, .number, .string: return true
        default: return false
        }
    }

    /// JavaScript's `Number(value)` (`to-number`): NaN when the value is not a number.
    var jsNumber: Double? {
        switch self {
        case .null: return 0
        case .bool(let b): return b ? 1 : 0
        case .number(let d): return d
        case .string(let s): return JSText.parseNumber(s)
        default: return nil
        }
    }
}

extension JSText {
    /// JavaScript's `Number(string)`: trimmed decimal or hex text, "" is 0, else NaN.
    static func parseNumber(_ s: String) -> Double {
        let t = s.trimmingSpaces()
        if t.isEmpty { return 0 }
        if t == "Infinity" || t == "+Infinity" { return .infinity }
        if t == "-Infinity" { return -.infinity }
        let lower = t.lowercased()
        if lower.hasPrefix("0x"), let v = UInt64(lower.dropFirst(2), radix: 16) { return Double(v) }
        guard t.allSatisfy({ "0123456789+-.eE".contains($0) }), let d = Double(t) else { return .nan }
        return d
    }
}

extension String {
    /// Splits at every occurrence of `separator` (JavaScript's `split` with a string).
    func components(separatedByString separator: String) -> [String] {
        var out: [String] = []
        let sep = Array(separator.utf8)
        var current: [UInt8] = []
        var bytes = Array(utf8)[...]
        while !bytes.isEmpty {
            if bytes.starts(with: sep) {
                out.append(String(decoding: current, as: UTF8.self)); current = []
                bytes = bytes.dropFirst(sep.count)
            } else {
                current.append(bytes.first!); bytes = bytes.dropFirst()
            }
        }
        out.append(String(decoding: current, as: UTF8.self))
        return out
    }

    /// The code-point offset of `needle` at or after `from` (the specification's `index-of` and
    /// `in` count code points, not UTF-16 units).
    func scalarIndex(of needle: String, from: Int) -> Int? {
        let h = Array(unicodeScalars), n = Array(needle.unicodeScalars)
        let start = Swift.min(Swift.max(from, 0), h.count)
        if n.isEmpty { return start }
        guard h.count >= n.count else { return nil }
        var i = start
        while i + n.count <= h.count {
            if h[i..<(i + n.count)].elementsEqual(n) { return i }
            i += 1
        }
        return nil
    }
}
