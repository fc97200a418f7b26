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
/// feature. Semantics follow the MapLibre Style Specification's expression reference
/// (https://maplibre.org/maplibre-style-spec/expressions/).
public struct StyleExpression: Sendable {
    /// The tree and its static type, in a class box. (Stored directly, the two enums made
    /// `Optional<StyleExpression>` miscompile in debug builds with Swift 6.3: a `nil` returned
    /// by `Optional.map` was released as a value. A class reference has a plain layout.)
    private let box: CompiledExpression
    var root: ExprNode { box.root }
    /// The static type the compiler proved.
    var exprType: ExprType { box.type }
    /// The result type the compiler proved (`value` when only known at run time).
    public var type: StyleType { exprType.styleType }
    /// True when the value may change with the zoom (`zoom` appears).
    public let dependsOnZoom: Bool
    /// True when the value may change from feature to feature (`get`, `has`, `properties`, `id`,
    /// `geometry-type`, `feature-state`, `within`, `distance`).
    public let dependsOnFeature: Bool
    /// True when `feature-state` appears (the value may change without the data changing).
    public let dependsOnFeatureState: Bool

    init(_ root: ExprNode, type: ExprType) {
        self.box = CompiledExpression(root, type)
        let d = root.dependencies
        dependsOnZoom = d.contains(.zoom); dependsOnFeature = d.contains(.feature) || d.contains(.state)
        dependsOnFeatureState = d.contains(.state)
    }

    /// The constant value when the expression depends on neither zoom nor feature.
    public var constantValue: StyleValue? {
        if case .constant(let v) = root { return v }
        return nil
    }

    /// The MapLibre name of the static type (`number`, `array<number, 2>`, `formatted`).
    public var typeName: String { exprType.description }

    /// Evaluates at `zoom` for `feature`. Returns nil on an evaluation error (a runtime type
    /// mismatch, a string that is not a number); property evaluation then falls back to the
    /// property's default and a filter evaluates to false, as in the style specification.
    public func evaluate(zoom: Double, feature: FeatureContext = .empty) -> StyleValue? {
        root.evaluate(ExprEnv(zoom: zoom, feature: feature, globals: .none))
    }

    /// Evaluates with the style's global state, available images and per-draw inputs.
    public func evaluate(zoom: Double, feature: FeatureContext, globals: ExpressionGlobals) -> StyleValue? {
        root.evaluate(ExprEnv(zoom: zoom, feature: feature, globals: globals))
    }
}

final class CompiledExpression: Sendable {
    let root: ExprNode
    let type: ExprType
    init(_ root: ExprNode, _ type: ExprType) { self.root = root; self.type = type }
}

/// What one evaluation reads.
struct ExprEnv {
    let zoom: Double
    let feature: FeatureContext
    let globals: ExpressionGlobals
}

/// Comparison operators.
enum CompareOp: Sendable { case eq, ne, lt, le, gt, ge }

/// Keys of a `match` table (labels are strings or integers).
enum MatchKey: Hashable, Sendable {
    case string(String)
    case number(Double)
}

/// Colour spaces of `interpolate`, `interpolate-hcl`, `interpolate-lab`.
enum ColorSpace: Sendable { case rgb, hcl, lab }

/// The curve of an `interpolate`.
enum InterpolationCurve: Sendable {
    case linear
    case exponential(Double)
    case cubicBezier(UnitBezier)
}

/// Operators evaluated from a plain argument list.
enum ExprOp: Sendable, Equatable {
    // maths
    case add, subtract, multiply, divide, remainder, power, min, max
    case abs, acos, asin, atan, ceil, cos, floor, ln, log10, log2, round, sin, sqrt, tan
    // strings
    case concat, downcase, upcase, isSupportedScript, resolvedLocale, split, join
    // lookup
    case at, inArray, indexOf, slice, length, getKey, getFrom, hasKey, hasFrom
    // feature and globals
    case geometryType, id, properties, lineProgress, accumulated, heatmapDensity, elevation, globalState(String)
    // types and colours
    case typeOf, rgb, rgba, toRgba, image, numberFormat, collator, error
    /// `semiliteral`: an array of evaluated elements.
    case makeArray
    // legacy filters: ordering that is false (not an error) on mismatched types, strict `in`, `has $id`
    case legacyOrder(CompareOp), legacyIn, legacyHasID
}

/// What an expression reads.
struct Dependencies: OptionSet {
    let rawValue: UInt8
    static let zoom = Dependencies(rawValue: 1)
    static let feature = Dependencies(rawValue: 2)
    static let state = Dependencies(rawValue: 4)
    /// heatmap-density, line-progress, accumulated, elevation, is-supported-script.
    static let drawInputs = Dependencies(rawValue: 8)
    /// global-state, collator, error, image: never folded.
    static let unfoldable = Dependencies(rawValue: 16)
}

/// A `format` section.
struct FormatSectionNode: Sendable {
    var content: ExprNode
    var scale: ExprNode?
    var font: ExprNode?
    var textColor: ExprNode?
    var verticalAlign: ExprNode?
}

/// Expression tree nodes.
indirect enum ExprNode: Sendable {
    case constant(StyleValue)
    case zoom
    /// `["get", "key"]` with a literal key (the common case, no argument node).
    case get(String)
    case has(String)
    case featureState(ExprNode)
    /// A `let` variable: evaluates its bound expression (kept as a node so the zoom-curve rule
    /// sees `var`, not what it is bound to).
    case variable(ExprNode)
    /// `let`: its bindings (kept for the zoom-curve rule and the dependencies) and its result.
    case letIn([ExprNode], body: ExprNode)
    case call(ExprOp, [ExprNode])
    /// `dynamicTypes`: an argument is `value`, so the operand types are checked at run time.
    case compare(CompareOp, ExprNode, ExprNode, collator: ExprNode?, dynamicTypes: Bool)
    case all([ExprNode])
    case any([ExprNode])
    case not(ExprNode)
    case caseOf([(ExprNode, ExprNode)], fallback: ExprNode)
    case match(ExprNode, labelType: ExprType, table: [MatchKey: Int], outputs: [ExprNode], fallback: ExprNode)
    case coalesce([ExprNode])
    case step(ExprNode, first: ExprNode, stops: [Double], outputs: [ExprNode])
    case interpolate(ExprNode, InterpolationCurve, ColorSpace, stops: [Double], outputs: [ExprNode])
    /// A type assertion (`number`, `string`, `array`, …): the first argument of the type wins.
    case assert(ExprType, [ExprNode])
    /// A conversion (`to-number`, `to-color`, `to-boolean`, `to-string`, and the implicit ones).
    case coerce(ExprType, [ExprNode])
    case format([FormatSectionNode])
    case within(GeoShape)
    case distance(GeoShape)

    /// Direct children.
    var children: [ExprNode] {
        switch self {
        case .constant, .zoom, .get, .has, .within, .distance: return []
        case .featureState(let x), .variable(let x), .not(let x): return [x]
        case .letIn(let bs, let body): return bs + [body]
        case .call(_, let xs), .all(let xs), .any(let xs), .coalesce(let xs), .assert(_, let xs), .coerce(_, let xs): return xs
        case .compare(_, let a, let b, let c, _): return [a, b] + (c.map { [$0] } ?? [])
        case .caseOf(let bs, let f): return bs.flatMap { [$0.0, $0.1] } + [f]
        case .match(let i, _, _, let os, let f): return [i] + os + [f]
        case .step(let i, let f, _, let os): return [i, f] + os
        case .interpolate(let i, _, _, _, let os): return [i] + os
        case .format(let ss): return ss.flatMap { s in [s.content] + [s.scale, s.font, s.textColor, s.verticalAlign].compactMap { $0 } }
        }
    }

    /// The same node with every child replaced by `f(child)`.
    func mapChildren(_ f: (ExprNode) -> ExprNode) -> ExprNode {
        switch self {
        case .constant, .zoom, .get, .has, .within, .distance: return self
        case .featureState(let x): return .featureState(f(x))
        case .variable(let x): return .variable(f(x))
        case .letIn(let bs, let body): return .letIn(bs.map(f), body: f(body))
        case .not(let x): return .not(f(x))
        case .call(let op, let xs): return .call(op, xs.map(f))
        case .all(let xs): return .all(xs.map(f))
        case .any(let xs): return .any(xs.map(f))
        case .coalesce(let xs): return .coalesce(xs.map(f))
        case .assert(let t, let xs): return .assert(t, xs.map(f))
        case .coerce(let t, let xs): return .coerce(t, xs.map(f))
        case .compare(let op, let a, let b, let c, let d): return .compare(op, f(a), f(b), collator: c.map(f), dynamicTypes: d)
        case .caseOf(let bs, let fb): return .caseOf(bs.map { (f($0.0), f($0.1)) }, fallback: f(fb))
        case .match(let i, let lt, let t, let os, let fb): return .match(f(i), labelType: lt, table: t, outputs: os.map(f), fallback: f(fb))
        case .step(let i, let first, let s, let os): return .step(f(i), first: f(first), stops: s, outputs: os.map(f))
        case .interpolate(let i, let c, let sp, let s, let os): return .interpolate(f(i), c, sp, stops: s, outputs: os.map(f))
        case .format(let ss):
            return .format(ss.map { FormatSectionNode(content: f($0.content), scale: $0.scale.map(f), font: $0.font.map(f),
                                                      textColor: $0.textColor.map(f), verticalAlign: $0.verticalAlign.map(f)) })
        }
    }

    /// The height of the tree (1 for a leaf), counting no further than `limit + 1`.
    func height(limit: Int) -> Int {
        guard limit > 0 else { return 1 }
        var h = 0
        for c in children { h = max(h, c.height(limit: limit - 1)); if h >= limit { break } }
        return h + 1
    }

    /// What this node and its children read (the specification's isFeatureConstant,
    /// isZoomConstant and isStateConstant, inverted).
    var dependencies: Dependencies {
        var d: Dependencies = []
        switch self {
        case .zoom: d = .zoom
        case .get, .has, .within, .distance: d = .feature
        case .featureState: d = .state
        case .call(let op, let args):
            switch op {
            case .getKey, .hasKey: if args.count == 1 { d = .feature }
            case .geometryType, .id, .properties, .legacyHasID: d = .feature
            case .lineProgress, .accumulated, .heatmapDensity, .elevation, .isSupportedScript: d = .drawInputs
            case .globalState, .collator, .error, .image: d = .unfoldable
            default: break
            }
        default: break
        }
        for c in children { d.formUnion(c.dependencies) }
        return d
    }
}
