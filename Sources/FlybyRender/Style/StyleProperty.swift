/// The layer types Flyby draws.
public enum LayerType: String, Sendable, CaseIterable {
    case background, fill, line, circle, symbol
    case fillExtrusion = "fill-extrusion"
    /// Raster images from a `raster` source; relief shading from a `raster-dem` source (issue 19).
    case raster, hillshade
}

/// The value type a property expects; literals are checked against it at parse time.
public enum PropertyValueType: Sendable, Equatable {
    case color
    case number
    case boolean
    case string
    /// One of the listed keywords.
    case enumeration([String])
    /// An array of numbers, of exactly `count` when given.
    case numberArray(count: Int?)
    /// An array of strings (`text-font`).
    case stringArray
    /// Text: a string, or a number/boolean converted with `to-string` (`text-field`).
    case formatted
    /// An image name (`icon-image`).
    case image
    /// An array of `text-anchor` keywords (`text-variable-anchor`).
    case anchorArray
    /// Anchor keywords alternating with `[x, y]` offsets in ems (`text-variable-anchor-offset`,
    /// the specification's `variableAnchorOffsetCollection`).
    case anchorOffsets

    var styleType: StyleType {
        switch self {
        case .color: return .color
        case .number: return .number
        case .boolean: return .boolean
        case .string, .enumeration, .formatted, .image: return .string
        case .numberArray, .stringArray, .anchorArray, .anchorOffsets: return .array
        }
    }
}

extension StyleProperty {
    /// Where a property may appear.
    public enum Group: Sendable { case paint, layout, sky }

    /// Dense index (position in `allCases`), for per-layer tables.
    ///
    /// A payload-free enum is stored as its case number in declaration order, which is also the
    /// order of `allCases`; reading it directly replaces a dictionary lookup that hashed the raw
    /// name string on every property access (measured: a tenth of the label placement time).
    /// `StylePropertyTests` checks the two orders agree.
    @inline(__always)
    public var index: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
    static let byName: [String: StyleProperty] = {
        var t: [String: StyleProperty] = [:]
        for p in allCases { t[p.rawValue] = p }
        return t
    }()

    /// This property's row of ``StyleProperty/table`` (StylePropertyTable.swift). The accessors
    /// below read one field of the row in place (`table[index].field`), without copying the row:
    /// `valueType`, `range` and `defaultValue` are read on every property evaluation.
    @inline(__always)
    public var row: StylePropertyRow { StyleProperty.table[index] }

    /// The layer type the property belongs to (nil for sky properties).
    public var layerType: LayerType? { StyleProperty.table[index].layerType }

    public var group: Group { StyleProperty.table[index].group }

    public var valueType: PropertyValueType { StyleProperty.table[index].valueType }

    /// The value used when the style leaves the property out or an expression fails.
    public var defaultValue: StyleValue { StyleProperty.table[index].defaultValue }

    /// The allowed range of a number property; evaluated values are clamped into it.
    public var range: ClosedRange<Double>? { StyleProperty.table[index].range }

    /// The unit and meaning of the value (doc text; see ``StylePropertyRow/units``).
    public var units: String { StyleProperty.table[index].units }

    /// Whether the specification lets a change of the value be animated (recorded only).
    public var isTransitionable: Bool { StyleProperty.table[index].isTransitionable }

    /// What the property's expressions may read (see ``ExpressionRule``).
    public var expression: ExpressionRule { StyleProperty.table[index].expression }

    /// Looks a property up by its style name.
    public init?(name: String) {
        guard let p = StyleProperty.byName[name] else { return nil }
        self = p
    }

    /// Property names of a layer type and group, sorted, for "known:" lists in errors.
    static func names(for type: LayerType?, group: Group) -> [String] {
        allCases.filter { $0.layerType == type && $0.group == group }.map(\.rawValue).sorted()
    }
}
