import FlybyData
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A compiled style expression: a small tree of enum nodes built once from the JSON, type-checked
/// at compile time, and evaluated without closures, dictionaries of operators or string lookups of
/// operator names.
///
/// ``dependsOnZoom`` and ``dependsOnFeature`` say which inputs matter, so a caller evaluates a
/// constant never, a zoom-only expression once per frame, and only a feature expression per
/// feature. Semantics follow the Mapbox Style Specification's expression reference.
public struct StyleExpression: Sendable {
    let root: ExprNode
    /// The result type the compiler proved (`value` when only known at run time).
    public let type: StyleType
    /// True when the value may change with the zoom (`zoom` appears).
    public let dependsOnZoom: Bool
    /// True when the value may change from feature to feature (`get`, `has`, `feature-state`).
    public let dependsOnFeature: Bool
    /// True when `feature-state` appears (the value may change without the data changing).
    public let dependsOnFeatureState: Bool

    init(_ root: ExprNode, type: StyleType) {
        self.root = root
        self.type = type
        var z = false, f = false, s = false
        root.visit { n in
            switch n {
            case .zoom: z = true
            case .get, .has: f = true
            case .featureState: f = true; s = true
            default: break
            }
        }
        dependsOnZoom = z; dependsOnFeature = f; dependsOnFeatureState = s
    }

    /// The constant value when the expression depends on neither zoom nor feature.
    public var constantValue: StyleValue? {
        if case .constant(let v) = root { return v }
        return nil
    }

    /// Evaluates at `zoom` for `feature`. Returns nil on an evaluation error (a runtime type
    /// mismatch, a string that is not a number); property evaluation then falls back to the
    /// property's default and a filter evaluates to false, as in the Mapbox specification.
    public func evaluate(zoom: Double, feature: FeatureContext = .empty) -> StyleValue? {
        root.evaluate(zoom: zoom, feature: feature)
    }
}

/// Comparison operators.
enum CompareOp: Sendable { case eq, ne, lt, le, gt, ge }

/// Keys of a `match` table.
enum MatchKey: Hashable, Sendable {
    case string(String)
    case number(Double)
}

/// Runtime coercions the compiler inserts where a `value` must become a property's type.
enum Coercion: Sendable { case number, string, boolean, color, array }

/// Expression tree nodes.
indirect enum ExprNode: Sendable {
    case constant(StyleValue)
    case get(String)
    case has(String)
    case featureState(String)
    case zoom
    case compare(CompareOp, ExprNode, ExprNode)
    case all([ExprNode])
    case any([ExprNode])
    case not(ExprNode)
    case caseOf([(ExprNode, ExprNode)], fallback: ExprNode)
    case match(ExprNode, table: [MatchKey: Int], outputs: [ExprNode], fallback: ExprNode)
    case coalesce([ExprNode])
    case step(ExprNode, first: ExprNode, stops: [Double], outputs: [ExprNode])
    /// `base` 1 is linear.
    case interpolate(ExprNode, base: Double, stops: [Double], outputs: [ExprNode])
    case toString(ExprNode)
    case toNumber([ExprNode])
    case concat([ExprNode])
    case coerce(Coercion, ExprNode)

    func visit(_ body: (ExprNode) -> Void) {
        body(self)
        switch self {
        case .constant, .get, .has, .featureState, .zoom: break
        case .compare(_, let a, let b): a.visit(body); b.visit(body)
        case .all(let xs), .any(let xs), .coalesce(let xs), .toNumber(let xs), .concat(let xs): for x in xs { x.visit(body) }
        case .not(let x), .toString(let x), .coerce(_, let x): x.visit(body)
        case .caseOf(let branches, let fallback):
            for (c, o) in branches { c.visit(body); o.visit(body) }
            fallback.visit(body)
        case .match(let input, _, let outputs, let fallback):
            input.visit(body); for o in outputs { o.visit(body) }; fallback.visit(body)
        case .step(let input, let first, _, let outputs):
            input.visit(body); first.visit(body); for o in outputs { o.visit(body) }
        case .interpolate(let input, _, _, let outputs):
            input.visit(body); for o in outputs { o.visit(body) }
        }
    }

    func evaluate(zoom: Double, feature: FeatureContext) -> StyleValue? {
        switch self {
        case .constant(let v): return v
        case .zoom: return .number(zoom)
        case .get(let key): return feature.properties[key].map(StyleValue.init) ?? .null
        case .has(let key): return .bool(feature.properties[key] != nil)
        case .featureState(let key): return feature.state[key].map(StyleValue.init) ?? .null
        case .compare(let op, let a, let b):
            guard let x = a.evaluate(zoom: zoom, feature: feature), let y = b.evaluate(zoom: zoom, feature: feature) else { return nil }
            return ExprNode.compare(op, x, y).map(StyleValue.bool)
        case .all(let xs):
            for x in xs {
                guard case .bool(let b)? = x.evaluate(zoom: zoom, feature: feature) else { return nil }
                if !b { return .bool(false) }
            }
            return .bool(true)
        case .any(let xs):
            for x in xs {
                guard case .bool(let b)? = x.evaluate(zoom: zoom, feature: feature) else { return nil }
                if b { return .bool(true) }
            }
            return .bool(false)
        case .not(let x):
            guard case .bool(let b)? = x.evaluate(zoom: zoom, feature: feature) else { return nil }
            return .bool(!b)
        case .caseOf(let branches, let fallback):
            for (c, o) in branches {
                guard case .bool(let b)? = c.evaluate(zoom: zoom, feature: feature) else { return nil }
                if b { return o.evaluate(zoom: zoom, feature: feature) }
            }
            return fallback.evaluate(zoom: zoom, feature: feature)
        case .match(let input, let table, let outputs, let fallback):
            guard let v = input.evaluate(zoom: zoom, feature: feature) else { return nil }
            let key: MatchKey?
            switch v {
            case .string(let s): key = .string(s)
            case .number(let d): key = .number(d)
            default: key = nil
            }
            if let key, let k = table[key] { return outputs[k].evaluate(zoom: zoom, feature: feature) }
            return fallback.evaluate(zoom: zoom, feature: feature)
        case .coalesce(let xs):
            for x in xs {
                if let v = x.evaluate(zoom: zoom, feature: feature), v != .null { return v }
            }
            return .null
        case .step(let input, let first, let stops, let outputs):
            guard case .number(let x)? = input.evaluate(zoom: zoom, feature: feature) else { return nil }
            // The last stop ≤ x (stops are strictly ascending; binary search).
            var lo = 0, hi = stops.count
            while lo < hi { let mid = (lo + hi) / 2; if stops[mid] <= x { lo = mid + 1 } else { hi = mid } }
            return lo == 0 ? first.evaluate(zoom: zoom, feature: feature) : outputs[lo - 1].evaluate(zoom: zoom, feature: feature)
        case .interpolate(let input, let base, let stops, let outputs):
            guard case .number(let x)? = input.evaluate(zoom: zoom, feature: feature) else { return nil }
            if x <= stops[0] { return outputs[0].evaluate(zoom: zoom, feature: feature) }
            let n = stops.count
            if x >= stops[n - 1] { return outputs[n - 1].evaluate(zoom: zoom, feature: feature) }
            var lo = 0, hi = n
            while lo < hi { let mid = (lo + hi) / 2; if stops[mid] <= x { lo = mid + 1 } else { hi = mid } }
            let i = lo - 1
            let t = ExprNode.interpolationFactor(x, stops[i], stops[i + 1], base: base)
            guard let a = outputs[i].evaluate(zoom: zoom, feature: feature),
                  let b = outputs[i + 1].evaluate(zoom: zoom, feature: feature) else { return nil }
            return ExprNode.interpolate(a, b, t)
        case .toString(let x):
            guard let v = x.evaluate(zoom: zoom, feature: feature) else { return nil }
            return .string(v.description)
        case .toNumber(let xs):
            for x in xs {
                guard let v = x.evaluate(zoom: zoom, feature: feature) else { return nil }
                switch v {
                case .null: return .number(0)
                case .bool(let b): return .number(b ? 1 : 0)
                case .number: return v
                case .string(let s):
                    if let d = Double(s.trimmingSpaces()), d.isFinite { return .number(d) }
                default: break
                }
            }
            return nil
        case .concat(let xs):
            var s = ""
            for x in xs {
                guard let v = x.evaluate(zoom: zoom, feature: feature) else { return nil }
                s += v.description
            }
            return .string(s)
        case .coerce(let c, let x):
            guard let v = x.evaluate(zoom: zoom, feature: feature) else { return nil }
            switch (c, v) {
            case (.number, .number), (.string, .string), (.boolean, .bool), (.color, .color), (.array, .array): return v
            case (.color, .string(let s)): return StyleColor(css: s).map(StyleValue.color)
            default: return nil
            }
        }
    }

    static func compare(_ op: CompareOp, _ x: StyleValue, _ y: StyleValue) -> Bool? {
        switch op {
        case .eq: return x == y
        case .ne: return x != y
        default:
            let order: Int
            switch (x, y) {
            case (.number(let a), .number(let b)): order = a < b ? -1 : (a > b ? 1 : 0)
            case (.string(let a), .string(let b)): order = a < b ? -1 : (a > b ? 1 : 0)
            default: return nil  // ordering different types is an evaluation error
            }
            switch op {
            case .lt: return order < 0
            case .le: return order <= 0
            case .gt: return order > 0
            default: return order >= 0
            }
        }
    }

    /// The interpolation factor of `x` between stops `a` and `b`: linear for base 1, else
    /// (base^(x−a) − 1) / (base^(b−a) − 1), the style specification's exponential curve.
    static func interpolationFactor(_ x: Double, _ a: Double, _ b: Double, base: Double) -> Double {
        let d = b - a
        guard d > 0 else { return 0 }
        let p = x - a
        if base == 1 { return p / d }
        return (pow(base, p) - 1) / (pow(base, d) - 1)
    }

    /// Interpolates numbers, colours (premultiplied RGB) and arrays of numbers.
    static func interpolate(_ a: StyleValue, _ b: StyleValue, _ t: Double) -> StyleValue? {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x + (y - x) * t)
        case (.color(let x), .color(let y)): return .color(StyleColor.interpolate(x, y, t))
        case (.array(let xs), .array(let ys)) where xs.count == ys.count:
            var out: [StyleValue] = []
            for (x, y) in zip(xs, ys) {
                guard let v = interpolate(x, y, t) else { return nil }
                out.append(v)
            }
            return .array(out)
        default: return nil
        }
    }
}
