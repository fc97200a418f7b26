import FlybyCore
import FlybyData

/// Building and writing style JSON: the runtime style (sources and layers added from Swift) is
/// kept as style-document JSON and parsed by FlybyRender's `Style`, so runtime layers get exactly
/// the validation and error messages of a style file.
extension JSONNode {
    static func string(_ s: String) -> JSONNode { JSONNode(.string(s)) }
    static func number(_ d: Double) -> JSONNode { JSONNode(.number(d)) }
    static func bool(_ b: Bool) -> JSONNode { JSONNode(.bool(b)) }
    static func array(_ items: [JSONNode]) -> JSONNode { JSONNode(.array(items)) }
    static func object(_ members: [(key: String, value: JSONNode)]) -> JSONNode { JSONNode(.object(members)) }
    static let null = JSONNode(.null)

    /// The JSON text of this value (members in their order; numbers in shortest round-trip form).
    func jsonBytes() -> [UInt8] {
        var out: [UInt8] = []
        append(to: &out)
        return out
    }

    func append(to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let d): JSONWriter.appendNumber(d, to: &out)
        case .string(let s): JSONWriter.appendString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                item.append(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (k, m) in members.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(m.key, to: &out)
                out.append(UInt8(ascii: ":"))
                m.value.append(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// This object with `key` set to `value` (replacing an existing member in place).
    func setting(_ key: String, _ value: JSONNode) -> JSONNode {
        guard case .object(var members) = self.value else { return self }
        if let k = members.firstIndex(where: { $0.key == key }) { members[k].value = value } else { members.append((key, value)) }
        return JSONNode(.object(members), offset: offset)
    }
}

extension PropertyValue {
    /// The value as style JSON.
    var jsonNode: JSONNode {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .array(let a): return .array(a.map(\.jsonNode))
        case .object(let m): return .object(m.entries.map { ($0.key, $0.value.jsonNode) })
        }
    }
}
