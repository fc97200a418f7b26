/// The static types of the expression language (MapLibre Style Specification, "Expressions" →
/// "Types"): what the compiler proves about a value before any feature is seen.
indirect enum ExprType: Equatable, Sendable, CustomStringConvertible {
    case null, number, string, boolean, color, object, value, collator, formatted, resolvedImage
    case padding, numberArray, colorArray, variableAnchorOffsetCollection, projectionDefinition, error
    /// `array<item, N>`; `N` nil when the length is not known.
    case array(ExprType, Int?)

    static let anyArray = ExprType.array(.value, nil)

    /// The specification's type names: `array<number, 2>`, `array<string>`, `array`.
    var description: String {
        switch self {
        case .null: return "null"
        case .number: return "number"
        case .string: return "string"
        case .boolean: return "boolean"
        case .color: return "color"
        case .object: return "object"
        case .value: return "value"
        case .collator: return "collator"
        case .formatted: return "formatted"
        case .resolvedImage: return "resolvedImage"
        case .padding: return "padding"
        case .numberArray: return "numberArray"
        case .colorArray: return "colorArray"
        case .variableAnchorOffsetCollection: return "variableAnchorOffsetCollection"
        case .projectionDefinition: return "projectionDefinition"
        case .error: return "error"
        case .array(let item, let n):
            if let n { return "array<\(item), \(n)>" }
            return item == .value ? "array" : "array<\(item)>"
        }
    }

    var isArray: Bool { if case .array = self { return true } else { return false } }
    var isValue: Bool { self == .value }

    /// The kind, ignoring array item types and lengths.
    var kindName: String { if case .array = self { return "array" } else { return description } }

    /// The types a `value` may hold at run time.
    static let valueMembers: [ExprType] = [.null, .number, .string, .boolean, .color, .projectionDefinition, .formatted,
                                           .object, .anyArray, .padding, .numberArray, .colorArray, .resolvedImage,
                                           .variableAnchorOffsetCollection]

    /// Whether a `t` may stand where `self` is expected (the specification's subtyping: `value`
    /// accepts every member type; `array<T, N>` accepts arrays of T of that length, and an empty
    /// array of values). Nil when it may, else the error text.
    func mismatch(_ t: ExprType) -> String? {
        if t == .error { return nil }
        if !isArray && self == t { return nil }
        switch self {
        case .array(let item, let n):
            if case .array(let ti, let tn) = t,
               (tn == 0 && ti == .value) || item.mismatch(ti) == nil,
               n == nil || n == tn { return nil }
        case .value:
            for m in ExprType.valueMembers where m.mismatch(t) == nil { return nil }
        default:
            if self == t { return nil }
        }
        return "Expected \(self) but found \(t) instead."
    }

    /// `mismatch(t) == nil` without building the message (this runs per evaluation in assertions).
    func accepts(_ t: ExprType) -> Bool {
        if t == .error { return true }
        switch self {
        case .array(let item, let n):
            guard case .array(let ti, let tn) = t else { return false }
            return ((tn == 0 && ti == .value) || item.accepts(ti)) && (n == nil || n == tn)
        case .value: return t != .collator
        default: return self == t
        }
    }

    /// The public, coarse type.
    var styleType: StyleType {
        switch self {
        case .null: return .null
        case .number: return .number
        case .string: return .string
        case .boolean: return .boolean
        case .color: return .color
        case .object: return .object
        case .array, .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection: return .array
        case .formatted: return .formatted
        case .resolvedImage: return .resolvedImage
        case .collator: return .collator
        default: return .value
        }
    }
}

extension StyleValue {
    /// The run-time type of a value (`typeof`): arrays report their common item type and length.
    var exprType: ExprType {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .number: return .number
        case .string: return .string
        case .color: return .color
        case .object: return .object
        case .formatted: return .formatted
        case .image: return .resolvedImage
        case .collator: return .collator
        case .padding: return .padding
        case .numberArray: return .numberArray
        case .colorArray: return .colorArray
        case .array(let items):
            var item: ExprType?
            for v in items {
                let t = v.exprType
                if item == nil { item = t } else if item != t { item = .value; break }
            }
            return .array(item ?? .value, items.count)
        }
    }
}
