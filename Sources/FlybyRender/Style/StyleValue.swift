import FlybyCore
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
    /// Rich text from `format` (sections with their own scale, font and colour).
    case formatted(FormattedText)
    /// An image from `image`: its name and whether the style's sprite has it.
    case image(ResolvedImage)
    /// The string comparison options of `collator`.
    case collator(StyleCollator)
    /// `[top, right, bottom, left]` in pixels (the `padding` type).
    case padding([Double])
    /// The `numberArray` type (a number or an array of numbers).
    case numberArray([Double])
    /// The `colorArray` type (a colour or an array of colours).
    case colorArray([StyleColor])

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
        switch self {
        case .padding(let a), .numberArray(let a): return a
        case .array(let a):
            var out: [Double] = []
            out.reserveCapacity(a.count)
            for v in a { guard case .number(let d) = v else { return nil }; out.append(d) }
            return out
        default: return nil
        }
    }

    public var type: StyleType { exprType.styleType }

    /// The `to-string` conversion of the style specification: strings as they are, numbers as
    /// JavaScript writes them, colours as `rgba(r,g,b,a)`, `null` as "", arrays and objects as JSON.
    public var description: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return JSText.number(d)
        case .string(let s): return s
        case .color(let c): return c.description
        case .formatted(let f): return f.sections.map(\.text).joined()
        case .image(let i): return i.name
        case .collator: return "[collator]"
        default: return jsonText
        }
    }

    /// The value as JSON text (`JSON.stringify` in the specification's reference implementation).
    var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return d.isFinite ? JSText.number(d) : "null"
        case .string(let s): return JSText.quoted(s)
        case .color(let c): return JSText.quoted(c.description)
        case .array(let a): return "[" + a.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.entries.map { JSText.quoted($0.key) + ":" + StyleValue($0.value).jsonText }.joined(separator: ",") + "}"
        case .padding(let a), .numberArray(let a): return "[" + a.map(JSText.number).joined(separator: ",") + "]"
        case .colorArray(let a): return "[" + a.map { JSText.quoted($0.description) }.joined(separator: ",") + "]"
        case .formatted, .image, .collator: return JSText.quoted(description)
        }
    }
}

/// The types of the expression language, coarsely (the MapLibre style specification's `value`,
/// `null`, `boolean`, `number`, `string`, `color`, `array`, `object`, `formatted`,
/// `resolvedImage`, `collator`).
public enum StyleType: String, Sendable, Equatable {
    case value, null, boolean, number, string, color, array, object, formatted, resolvedImage, collator
}

/// One run of `format` text (style specification, expression `format`).
public struct FormattedSection: Equatable, Sendable {
    public var text: String
    public var image: ResolvedImage?
    /// `font-scale`, a factor on `text-size`.
    public var scale: Double?
    /// `text-font`, the font names joined with ",".
    public var fontStack: String?
    public var textColor: StyleColor?
    /// `vertical-align`: `bottom`, `center` or `top`.
    public var verticalAlign: String?
}

/// The value of `format`: sections of text or images.
public struct FormattedText: Equatable, Sendable {
    public var sections: [FormattedSection]
}

/// The value of `image`: a sprite image name and whether the sprite has it.
public struct ResolvedImage: Equatable, Sendable {
    public var name: String
    public var available: Bool
}

/// The options of `collator`: locale-aware string comparison.
public struct StyleCollator: Equatable, Sendable {
    public var caseSensitive: Bool
    public var diacriticSensitive: Bool
    /// A BCP 47 tag, or nil for the default locale.
    public var locale: String?
}

/// Feature state (set at run time, e.g. `{"select": true}`): read by `feature-state`.
public typealias FeatureState = PropertyMap

/// What an expression reads from a feature: its properties, its state, its geometry kind and,
/// when known, its id and geometry (in degrees, for `within` and `distance`).
public struct FeatureContext: Sendable {
    public var properties: PropertyMap
    public var state: FeatureState
    public var kind: ProjectedSource.Kind
    /// The id and geometry, boxed: most contexts have neither, and (stored inline) the two
    /// optional enums made copies of `FeatureContext` miscompile in Swift 6.3 debug builds.
    var extras: FeatureExtras?
    public var id: PropertyValue? {
        get { extras?.id }
        set { extras = FeatureExtras(id: newValue, geometry: extras?.geometry) }
    }
    public var geometry: Geometry? {
        get { extras?.geometry }
        set { extras = FeatureExtras(id: extras?.id, geometry: newValue) }
    }

    public init(properties: PropertyMap, state: FeatureState = PropertyMap(), kind: ProjectedSource.Kind = .polygon,
                id: PropertyValue? = nil, geometry: Geometry? = nil) {
        self.properties = properties; self.state = state; self.kind = kind
        extras = id == nil && geometry == nil ? nil : FeatureExtras(id: id, geometry: geometry)
    }

    /// A context with no properties and no state (for layer-level evaluation).
    public static let empty = FeatureContext(properties: PropertyMap())
}

/// A feature's id and geometry (see ``FeatureContext``).
final class FeatureExtras: Sendable {
    let id: PropertyValue?
    let geometry: Geometry?
    init(id: PropertyValue?, geometry: Geometry?) { self.id = id; self.geometry = geometry }
}

/// A tile address `z/x/y` (the tile a feature is evaluated in, for `within` and `distance`).
public struct TileAddress: Equatable, Sendable {
    public var z: Int, x: Int, y: Int
    public init(z: Int, x: Int, y: Int) { self.z = z; self.x = x; self.y = y }
}

/// Inputs an expression may read besides the zoom and the feature: the style's global state
/// (`global-state`), the sprite's image names (`image`), and per-draw values
/// (`heatmap-density`, `line-progress`, `accumulated`, `elevation`; 0 when absent).
public struct ExpressionGlobals: Sendable {
    public var globalState: PropertyMap
    public var availableImages: Set<String>
    public var tile: TileAddress?
    public var heatmapDensity: Double?
    public var lineProgress: Double?
    public var accumulated: Double?
    public var elevation: Double?

    public init(globalState: PropertyMap = PropertyMap(), availableImages: Set<String> = [], tile: TileAddress? = nil,
                heatmapDensity: Double? = nil, lineProgress: Double? = nil, accumulated: Double? = nil, elevation: Double? = nil) {
        self.globalState = globalState; self.availableImages = availableImages; self.tile = tile
        self.heatmapDensity = heatmapDensity; self.lineProgress = lineProgress; self.accumulated = accumulated
        self.elevation = elevation
    }

    public static let none = ExpressionGlobals()
}

/// JavaScript's text forms of numbers and strings, which the specification's `to-string`,
/// `concat` and `typeof` results are defined by (ECMAScript §6.1.6.1.20 Number::toString).
enum JSText {
    static func number(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == 0 { return "0" }
        if d == d.rounded(), abs(d) < 1e18 { return String(Int64(d)) }
        // Shortest round-trip digits and exponent from Swift, re-laid-out the JavaScript way.
        var text = String(abs(d))
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...].filter { $0 != "+" }) ?? 0
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var sig = String(parts[0]) + (parts.count > 1 ? String(parts[1]) : "")
        var n = parts[0].count + exponent
        while sig.count > 1, sig.first == "0" { sig.removeFirst(); n -= 1 }
        while sig.count > 1, sig.last == "0" { sig.removeLast() }
        let k = sig.count
        var out: String
        if k <= n && n <= 21 {
            out = sig + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            let i = sig.index(sig.startIndex, offsetBy: n)
            out = sig[..<i] + "." + sig[i...]
        } else if -6 < n && n <= 0 {
            out = "0." + String(repeating: "0", count: -n) + sig
        } else {
            let e = n - 1
            let m = k == 1 ? sig : String(sig.prefix(1)) + "." + sig.dropFirst()
            out = m + "e" + (e >= 0 ? "+" : "-") + String(abs(e))
        }
        return d < 0 ? "-" + out : out
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let h = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}

