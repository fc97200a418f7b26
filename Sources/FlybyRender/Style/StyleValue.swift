import FlybyData

/// A value produced by a style expression.
public enum StyleValue: Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(StyleColor)
    case array([StyleValue])
    case object(PropertyMap)

    /// A feature property or feature-state value as an expression value.
    public init(_ p: PropertyValue) {
        switch p {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(StyleValue.init))
        case .object(let o): self = .object(o)
        }
    }

    public var doubleValue: Double? { if case .number(let d) = self { return d } else { return nil } }
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var colorValue: StyleColor? { if case .color(let c) = self { return c } else { return nil } }
    public var arrayValue: [StyleValue]? { if case .array(let a) = self { return a } else { return nil } }

    /// The numbers of an array of numbers, or nil.
    public var numbers: [Double]? {
        guard case .array(let a) = self else { return nil }
        var out: [Double] = []
        out.reserveCapacity(a.count)
        for v in a { guard case .number(let d) = v else { return nil }; out.append(d) }
        return out
    }

    public var type: StyleType {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .number: return .number
        case .string: return .string
        case .color: return .color
        case .array: return .array
        case .object: return .object
        }
    }

    /// The `to-string` conversion of the style specification.
    public var description: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return PropertyFormatting.number(d)
        case .string(let s): return s
        case .color(let c): return c.description
        case .array(let a): return "[" + a.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let o): return PropertyValue.object(o).description
        }
    }

    var jsonText: String {
        switch self {
        case .null: return "null"
        case .string(let s): return "\"\(s)\""
        case .color(let c): return "\"\(c.description)\""
        default: return description
        }
    }
}

/// The types of the expression language (the Mapbox style specification's `value`, `null`,
/// `boolean`, `number`, `string`, `color`, `array`, `object`).
public enum StyleType: String, Sendable, Equatable {
    case value, null, boolean, number, string, color, array, object
}

/// Feature state (set at run time, e.g. `{"select": true}`): read by `feature-state`.
public typealias FeatureState = PropertyMap

/// What an expression reads from a feature: its properties, its state and its geometry kind.
public struct FeatureContext: Sendable {
    public var properties: PropertyMap
    public var state: FeatureState
    public var kind: ProjectedSource.Kind

    public init(properties: PropertyMap, state: FeatureState = PropertyMap(), kind: ProjectedSource.Kind = .polygon) {
        self.properties = properties; self.state = state; self.kind = kind
    }

    /// A context with no properties and no state (for layer-level evaluation).
    public static let empty = FeatureContext(properties: PropertyMap())
}
