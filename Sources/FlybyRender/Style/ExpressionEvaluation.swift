import FlybyData
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Evaluation of the expression tree: one recursive switch, no closures, nil for an evaluation
/// error (MapLibre's run-time errors; the caller then uses the property default).
extension ExprNode {
    func evaluate(_ env: ExprEnv) -> StyleValue? {
        switch self {
        case .constant(let v): return v
        case .zoom: return .number(env.zoom)
        case .get(let key): return env.feature.properties[key].map(StyleValue.init) ?? .null
        case .has(let key): return .bool(env.feature.properties[key] != nil)
        case .featureState(let k):
            guard case .string(let key)? = k.evaluate(env) else { return nil }
            return env.feature.state[key].map(StyleValue.init) ?? .null
        case .variable(let x): return x.evaluate(env)
        case .letIn(_, let body): return body.evaluate(env)
        case .call(let op, let args): return ExprNode.call(op, args, env)
        case .compare(let op, let a, let b, let collator, let dynamic):
            guard let x = a.evaluate(env), let y = b.evaluate(env) else { return nil }
            let ordered = op != .eq && op != .ne
            if ordered && dynamic {
                switch (x, y) {
                case (.number, .number), (.string, .string): break
                default: return nil
                }
            }
            if let collator {
                guard case .collator(let c)? = collator.evaluate(env) else { return nil }
                if case .string(let s) = x, case .string(let t) = y {
                    let order = c.compare(s, t)
                    return .bool(ExprNode.holds(op, order))
                }
                if ordered { return nil }
            }
            return ExprNode.compare(op, x, y).map(StyleValue.bool)
        case .all(let xs):
            for x in xs {
                guard case .bool(let b)? = x.evaluate(env) else { return nil }
                if !b { return .bool(false) }
            }
            return .bool(true)
        case .any(let xs):
            for x in xs {
                guard case .bool(let b)? = x.evaluate(env) else { return nil }
                if b { return .bool(true) }
            }
            return .bool(false)
        case .not(let x):
            guard case .bool(let b)? = x.evaluate(env) else { return nil }
            return .bool(!b)
        case .caseOf(let branches, let fallback):
            for (c, o) in branches {
                guard case .bool(let b)? = c.evaluate(env) else { return nil }
                if b { return o.evaluate(env) }
            }
            return fallback.evaluate(env)
        case .match(let input, let labelType, let table, let outputs, let fallback):
            guard let v = input.evaluate(env) else { return nil }
            let key: MatchKey?
            switch v {
            case .string(let s) where labelType == .string: key = .string(s)
            case .number(let d) where labelType == .number: key = .number(d)
            default: key = nil
            }
            if let key, let k = table[key] { return outputs[k].evaluate(env) }
            return fallback.evaluate(env)
        case .coalesce(let xs):
            var last: StyleValue = .null
            for x in xs {
                guard let v = x.evaluate(env) else { return nil }
                if case .image(let i) = v, !i.available { last = v; continue }
                if v != .null { return v }
            }
            return last
        case .step(let input, let first, let stops, let outputs):
            guard case .number(let x)? = input.evaluate(env) else { return nil }
            let i = ExprNode.lastStop(atOrBelow: x, stops)
            return i < 0 ? first.evaluate(env) : outputs[i].evaluate(env)
        case .interpolate(let input, let curve, let space, let stops, let outputs):
            let n = stops.count
            if n == 1 { return outputs[0].evaluate(env) }
            guard case .number(let x)? = input.evaluate(env) else { return nil }
            if x <= stops[0] { return outputs[0].evaluate(env) }
            if x >= stops[n - 1] { return outputs[n - 1].evaluate(env) }
            let i = ExprNode.lastStop(atOrBelow: x, stops)
            let t = ExprNode.interpolationFactor(x, stops[i], stops[i + 1], curve)
            guard let a = outputs[i].evaluate(env), let b = outputs[i + 1].evaluate(env) else { return nil }
            return ExprNode.interpolate(a, b, t, space)
        case .assert(let type, let xs):
            for (k, x) in xs.enumerated() {
                guard let v = x.evaluate(env) else { return nil }
                if type.accepts(v.exprType) { return v }
                if k == xs.count - 1 { return nil }
            }
            return nil
        case .coerce(let type, let xs):
            return ExprNode.coerce(type, xs, env)
        case .format(let sections):
            var out: [FormattedSection] = []
            for s in sections {
                guard let content = s.content.evaluate(env) else { return nil }
                var section = FormattedSection(text: "")
                if case .image(let i) = content { section.image = i } else { section.text = content.description }
                if let e = s.scale { guard case .number(let d)? = e.evaluate(env) else { return nil }; section.scale = d }
                if let e = s.font {
                    guard case .array(let names)? = e.evaluate(env) else { return nil }
                    section.fontStack = names.map(\.description).joined(separator: ",")
                }
                if let e = s.textColor { guard case .color(let c)? = e.evaluate(env) else { return nil }; section.textColor = c }
                if let e = s.verticalAlign { guard case .string(let a)? = e.evaluate(env) else { return nil }; section.verticalAlign = a }
                out.append(section)
            }
            return .formatted(FormattedText(sections: out))
        case .within(let shape):
            guard let g = env.feature.geometry else { return .bool(false) }
            return .bool(shape.contains(g))
        case .distance(let shape):
            guard let g = env.feature.geometry else { return .number(.nan) }
            return .number(shape.distance(to: g))
        }
    }

    /// The index of the last stop ≤ x (stops strictly ascending), −1 when x is below all.
    @inline(__always)
    static func lastStop(atOrBelow x: Double, _ stops: [Double]) -> Int {
        var lo = 0, hi = stops.count
        while lo < hi { let mid = (lo + hi) / 2; if stops[mid] <= x { lo = mid + 1 } else { hi = mid } }
        return lo - 1
    }

    static func holds(_ op: CompareOp, _ order: Int) -> Bool {
        switch op {
        case .eq: return order == 0
        case .ne: return order != 0
        case .lt: return order < 0
        case .le: return order <= 0
        case .gt: return order > 0
        case .ge: return order >= 0
        }
    }

    /// `==` is strict (values of different types are unequal); ordering compares two numbers or
    /// two strings (UTF-16 code units, as JavaScript does) and is an error otherwise.
    static func compare(_ op: CompareOp, _ x: StyleValue, _ y: StyleValue) -> Bool? {
        switch op {
        case .eq, .ne:
            let equal: Bool
            switch (x, y) {
            case (.array, _), (.object, _): equal = false  // reference equality in the specification's engine
            default: equal = x == y
            }
            return op == .eq ? equal : !equal
        default:
            let order: Int
            switch (x, y) {
            case (.number(let a), .number(let b)):
                if a.isNaN || b.isNaN { return false }
                order = a < b ? -1 : (a > b ? 1 : 0)
            case (.string(let a), .string(let b)): order = a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : (a == b ? 0 : 1)
            default: return nil
            }
            return holds(op, order)
        }
    }

    /// The interpolation factor of `x` between stops `a` and `b` (style specification,
    /// `interpolate`): linear, exponential (base^(x−a) − 1) / (base^(b−a) − 1), or the cubic
    /// Bézier of the linear factor.
    static func interpolationFactor(_ x: Double, _ a: Double, _ b: Double, _ curve: InterpolationCurve) -> Double {
        let d = b - a
        guard d != 0 else { return 0 }
        let p = x - a
        switch curve {
        case .linear: return p / d
        case .exponential(let base):
            if base == 1 { return p / d }
            return (pow(base, p) - 1) / (pow(base, d) - 1)
        case .cubicBezier(let bezier): return bezier.solve(p / d)
        }
    }

    /// Interpolates numbers, colours (straight, not premultiplied, alpha; in RGB, HCL or CIELAB),
    /// arrays of numbers, padding and number arrays.
    static func interpolate(_ a: StyleValue, _ b: StyleValue, _ t: Double, _ space: ColorSpace) -> StyleValue? {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x + (y - x) * t)
        case (.string(let x), .string(let y)):
            // Projections (the only interpolated strings): a transition between the two.
            return .object(PropertyMap([("from", .string(x)), ("to", .string(y)), ("transition", .number(t))]))
        case (.color(let x), .color(let y)): return .color(ColorSpaces.interpolate(x, y, t, space))
        case (.array(let xs), .array(let ys)) where xs.count == ys.count:
            var out: [StyleValue] = []
            out.reserveCapacity(xs.count)
            for (x, y) in zip(xs, ys) {
                guard let v = interpolate(x, y, t, space) else { return nil }
                out.append(v)
            }
            return .array(out)
        case (.padding(let xs), .padding(let ys)): return .padding(zip(xs, ys).map { $0 + ($1 - $0) * t })
        case (.numberArray(let xs), .numberArray(let ys)) where xs.count == ys.count:
            return .numberArray(zip(xs, ys).map { $0 + ($1 - $0) * t })
        case (.colorArray(let xs), .colorArray(let ys)) where xs.count == ys.count:
            return .colorArray(zip(xs, ys).map { ColorSpaces.interpolate($0, $1, t, space) })
        default: return nil
        }
    }
}

extension StyleCollator {
    /// Compares two strings: −1, 0 or 1. Case-insensitive compares lower-cased text;
    /// diacritic-insensitive compares text with Latin diacritics removed. (Flyby has no locale
    /// tables; the locale only names the result of `resolved-locale`.)
    func compare(_ a: String, _ b: String) -> Int {
        func tier(_ s: String, strip: Bool, lower: Bool) -> [UInt32] {
            s.unicodeScalars.map { u in
                var v = strip ? LatinFolding.base(of: u) : u
                if lower, let l = String(v).lowercased().unicodeScalars.first { v = l }
                return v.value
            }
        }
        func order(_ x: [UInt32], _ y: [UInt32]) -> Int { x == y ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1) }
        // Primary: base letters; then accents; then case (lower before upper), as a collator does.
        let p = order(tier(a, strip: true, lower: true), tier(b, strip: true, lower: true))
        if p != 0 { return p }
        if diacriticSensitive {
            let d = order(tier(a, strip: false, lower: true), tier(b, strip: false, lower: true))
            if d != 0 { return d }
        }
        if caseSensitive {
            let caseBits = { (s: String) in s.unicodeScalars.map { u -> UInt32 in String(u).lowercased() == String(u) ? 0 : 1 } }
            return order(caseBits(a), caseBits(b))
        }
        return 0
    }
}

/// The base letters of precomposed Latin letters with diacritics (Latin-1 Supplement and Latin
/// Extended-A, and U+0113/U+0101-style macrons), for diacritic-insensitive collation.
enum LatinFolding {
    static func base(of u: Unicode.Scalar) -> Unicode.Scalar {
        let v = u.value
        guard v >= 0xC0, v <= 0x17F else { return u }
        let table: [(ClosedRange<UInt32>, Character)] = [
            (0xC0...0xC5, "A"), (0xC7...0xC7, "C"), (0xC8...0xCB, "E"), (0xCC...0xCF, "I"), (0xD1...0xD1, "N"),
            (0xD2...0xD6, "O"), (0xD8...0xD8, "O"), (0xD9...0xDC, "U"), (0xDD...0xDD, "Y"),
            (0xE0...0xE5, "a"), (0xE7...0xE7, "c"), (0xE8...0xEB, "e"), (0xEC...0xEF, "i"), (0xF1...0xF1, "n"),
            (0xF2...0xF6, "o"), (0xF8...0xF8, "o"), (0xF9...0xFC, "u"), (0xFD...0xFD, "y"), (0xFF...0xFF, "y"),
        ]
        for (r, c) in table where r.contains(v) { return c.unicodeScalars.first! }
        if v >= 0x100 {
            // Latin Extended-A comes in upper/lower pairs of one base letter.
            let bases: [(UInt32, UInt32, Character)] = [
                (0x100, 0x105, "a"), (0x106, 0x10D, "c"), (0x10E, 0x111, "d"), (0x112, 0x11B, "e"), (0x11C, 0x123, "g"),
                (0x124, 0x127, "h"), (0x128, 0x131, "i"), (0x134, 0x135, "j"), (0x136, 0x137, "k"), (0x139, 0x142, "l"),
                (0x143, 0x148, "n"), (0x14C, 0x151, "o"), (0x154, 0x159, "r"), (0x15A, 0x161, "s"), (0x162, 0x167, "t"),
                (0x168, 0x173, "u"), (0x174, 0x175, "w"), (0x176, 0x178, "y"), (0x179, 0x17E, "z"),
            ]
            for (lo, hi, c) in bases where v >= lo && v <= hi {
                let lower = c.unicodeScalars.first!
                let isUpper = v == 0x178 || (v - lo) % 2 == 0
                return isUpper ? Unicode.Scalar(lower.value - 32)! : lower
            }
        }
        return u
    }
}
