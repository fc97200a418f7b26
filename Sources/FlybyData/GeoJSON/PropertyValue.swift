import FlybyCore

/// A JSON value as a feature property, a feature id or a feature-state value: the value type that
/// style expressions read with `get` and `feature-state`.
///
/// Objects keep their members in document order, so nothing built from a value depends on
/// dictionary order.
public enum PropertyValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([PropertyValue])
    case object(PropertyMap)

    /// Converts a parsed JSON node (numbers are finite: the parser refuses overflow).
    public init(_ node: JSONNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(PropertyValue.init))
        case .object(let members):
            self = .object(PropertyMap(members.map { ($0.key, PropertyValue($0.value)) }))
        }
    }

    public var doubleValue: Double? { if case .number(let d) = self { return d } else { return nil } }
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// JSON text of the value (numbers in Swift's shortest round-trip form, integers without ".0").
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return PropertyValue.format(d)
        case .string(let s): return "\"\(s)\""
        case .array(let a): return "[" + a.map(\.description).joined(separator: ",") + "]"
        case .object(let o):
            return "{" + o.entries.map { "\"\($0.key)\":\($0.value.description)" }.joined(separator: ",") + "}"
        }
    }

    /// A number as JavaScript prints it for whole numbers (`3`, not `3.0`); otherwise Swift's
    /// shortest round-trip form.
    public static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }
}

/// String-keyed values in document order, looked up by key. Feature properties are small (a
/// dozen keys), so a linear scan beats hashing and keeps the order of the file.
public struct PropertyMap: Hashable, Sendable {
    public var entries: [(key: String, value: PropertyValue)]

    public init(_ entries: [(key: String, value: PropertyValue)] = []) { self.entries = entries }

    /// The value of `key` (the last one when the key repeats), or nil when absent.
    @inlinable
    public subscript(key: String) -> PropertyValue? {
        var i = entries.count - 1
        while i >= 0 {
            if entries[i].key == key { return entries[i].value }
            i -= 1
        }
        return nil
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    public static func == (a: PropertyMap, b: PropertyMap) -> Bool {
        a.entries.count == b.entries.count
            && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for e in entries { hasher.combine(e.key); hasher.combine(e.value) }
    }
}

/// One GeoJSON feature (RFC 7946 §3.2): a geometry in degrees, its properties and its id.
public struct Feature: Sendable {
    /// The feature's `id` (a number or a string), or nil when the document gives none.
    public var id: PropertyValue?
    public var geometry: Geometry
    public var properties: PropertyMap

    public init(id: PropertyValue? = nil, geometry: Geometry, properties: PropertyMap = PropertyMap()) {
        self.id = id; self.geometry = geometry; self.properties = properties
    }
}

/// The features of a GeoJSON document, in document order.
public struct FeatureCollection: Sendable {
    public var features: [Feature]
    /// The document's name (file path or resource name), for error messages.
    public var name: String

    public init(features: [Feature], name: String) { self.features = features; self.name = name }
}
