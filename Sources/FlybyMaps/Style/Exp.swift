import FlybyCore
import FlybyData
import FlybyRender

/// A style expression written in Swift, as in the Mapbox SDK:
/// ```swift
/// layer.iconImage = .expression(Exp(.match) {
///     Exp(.get) { "icon" }
///     "cafe"; "cafe-icon"
///     "bus-icon"
/// })
/// ```
/// An expression is the JSON array of the Style Specification (`["match", ["get", "icon"], …]`);
/// it is checked when the layer is added (``MapboxMap/addLayer(_:layerPosition:)`` throws with
/// the JSON path of the bad part), with the same rules as a style file (docs/formats.md §4).
public struct Exp: Sendable, ExpressionArgumentConvertible {
    /// The expression operator (the first element of the JSON array).
    public struct Operator: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let get = Operator("get"), has = Operator("has"), zoom = Operator("zoom"), literal = Operator("literal")
        public static let eq = Operator("=="), neq = Operator("!="), lt = Operator("<"), lte = Operator("<=")
        public static let gt = Operator(">"), gte = Operator(">="), all = Operator("all"), any = Operator("any")
        public static let not = Operator("!")
        public static let switchCase = Operator("case"), match = Operator("match"), coalesce = Operator("coalesce")
        public static let step = Operator("step"), interpolate = Operator("interpolate")
        public static let linear = Operator("linear"), exponential = Operator("exponential")
        public static let featureState = Operator("feature-state"), toString = Operator("to-string")
        public static let toNumber = Operator("to-number"), concat = Operator("concat")
    }

    /// The expression as style JSON.
    public let jsonNode: JSONNode

    /// `[op, arguments…]`.
    public init(_ op: Operator, @ExpressionArgumentBuilder _ arguments: () -> [JSONNode]) {
        jsonNode = .array([.string(op.rawValue)] + arguments())
    }

    /// `[op]`, e.g. `Exp(.zoom)`, `Exp(.linear)`.
    public init(_ op: Operator) {
        jsonNode = .array([.string(op.rawValue)])
    }

    /// An expression from its JSON text, e.g. `try Exp(json: #"["get", "name"]"#)`.
    /// - Throws: ``JSONSyntaxError`` with the line and column when the text is not JSON.
    public init(json: String) throws(JSONSyntaxError) {
        jsonNode = try JSONParser.parse(json)
    }

    public var expressionArgument: JSONNode { jsonNode }
}

/// A value that can be an argument of an ``Exp``.
public protocol ExpressionArgumentConvertible {
    /// The value as an expression argument (arrays are wrapped in `literal`).
    var expressionArgument: JSONNode { get }
}

extension String: ExpressionArgumentConvertible { public var expressionArgument: JSONNode { .string(self) } }
extension Double: ExpressionArgumentConvertible { public var expressionArgument: JSONNode { .number(self) } }
extension Int: ExpressionArgumentConvertible { public var expressionArgument: JSONNode { .number(Double(self)) } }
extension Bool: ExpressionArgumentConvertible { public var expressionArgument: JSONNode { .bool(self) } }
extension StyleColor: ExpressionArgumentConvertible { public var expressionArgument: JSONNode { .string(description) } }
extension Array: ExpressionArgumentConvertible where Element: ExpressionArgumentConvertible {
    public var expressionArgument: JSONNode { .array([.string("literal"), .array(map(\.expressionArgument))]) }
}

/// Collects the arguments of an ``Exp`` (Mapbox's `ExpressionArgumentBuilder`).
@resultBuilder
public enum ExpressionArgumentBuilder {
    public static func buildExpression(_ value: some ExpressionArgumentConvertible) -> [JSONNode] { [value.expressionArgument] }
    public static func buildBlock(_ parts: [JSONNode]...) -> [JSONNode] { parts.flatMap { $0 } }
    public static func buildArray(_ parts: [[JSONNode]]) -> [JSONNode] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [JSONNode]?) -> [JSONNode] { part ?? [] }
    public static func buildEither(first: [JSONNode]) -> [JSONNode] { first }
    public static func buildEither(second: [JSONNode]) -> [JSONNode] { second }
}

/// A property value: a constant or an expression (Mapbox's `Value<T>`).
public enum Value<T: StyleEncodable & Sendable>: Sendable {
    case constant(T)
    case expression(Exp)

    var jsonNode: JSONNode {
        switch self {
        case .constant(let v): return v.styleJSON
        case .expression(let e): return e.jsonNode
        }
    }
}

/// A Swift value that has a style-JSON form (a constant property value).
public protocol StyleEncodable {
    var styleJSON: JSONNode { get }
}

extension String: StyleEncodable { public var styleJSON: JSONNode { .string(self) } }
extension Double: StyleEncodable { public var styleJSON: JSONNode { .number(self) } }
extension Bool: StyleEncodable { public var styleJSON: JSONNode { .bool(self) } }
extension StyleColor: StyleEncodable { public var styleJSON: JSONNode { .string(description) } }
extension Array: StyleEncodable where Element: StyleEncodable {
    public var styleJSON: JSONNode { .array(map(\.styleJSON)) }
}

/// Keyword properties: their JSON form is the raw value.
public protocol StyleKeyword: RawRepresentable, StyleEncodable, Sendable where RawValue == String {}
extension StyleKeyword { public var styleJSON: JSONNode { .string(rawValue) } }

public enum Visibility: String, StyleKeyword { case visible, none }
// `line-cap` and `line-join` reuse the rasterizer's `LineCap` and `LineJoin` (same cases).
extension LineCap: StyleEncodable {
    public var styleJSON: JSONNode {
        switch self {
        case .butt: return .string("butt")
        case .round: return .string("round")
        case .square: return .string("square")
        }
    }
}

extension LineJoin: StyleEncodable {
    public var styleJSON: JSONNode {
        switch self {
        case .miter: return .string("miter")
        case .round: return .string("round")
        case .bevel: return .string("bevel")
        }
    }
}
/// `text-anchor` takes the same keywords as `icon-anchor` (``IconAnchor``, generated with the
/// other keyword enums in Layers+Generated.swift).
public typealias TextAnchor = IconAnchor

/// A `text-variable-anchor-offset` value: anchors tried in order, each with its `[x, y]` offset
/// in ems (right and down), written as the specification's flat list `["top", [0, 1], …]`.
public struct TextVariableAnchorOffset: StyleEncodable, Sendable {
    public var entries: [(anchor: TextAnchor, offset: [Double])]
    public init(_ entries: [(anchor: TextAnchor, offset: [Double])]) { self.entries = entries }
    public var styleJSON: JSONNode {
        .array(entries.flatMap { [$0.anchor.styleJSON, .array($0.offset.map { .number($0) })] })
    }
}
