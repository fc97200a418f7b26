import FlybyData

/// Compares two traces line by line (`flyby diff`): every number must match within a tolerance and
/// every string exactly; the first difference is reported with its frame and field.
public enum TraceDiff {
    public struct Difference: Sendable, CustomStringConvertible {
        /// nil for the header.
        public var frame: Int?
        public var field: String
        public var detail: String
        public var description: String {
            (frame.map { "frame \($0)" } ?? "header") + ": \(field): \(detail)"
        }
    }

    /// The first difference, or nil when the traces agree within `tolerance`.
    public static func compare(_ a: [UInt8], fileA: String, _ b: [UInt8], fileB: String, tolerance: Double) throws(InputError) -> Difference? {
        let la = TraceReader.lines(a), lb = TraceReader.lines(b)
        for i in 0..<min(la.count, lb.count) {
            let ca = try TraceReader.parseLine(la[i], file: fileA), cb = try TraceReader.parseLine(lb[i], file: fileB)
            let frame = i == 0 ? nil : (ca.node["frame"]?.doubleValue).map { Int($0) } ?? (i - 1)
            if let d = compare(ca.node, cb.node, path: "", tolerance: tolerance) {
                return Difference(frame: frame, field: d.path.isEmpty ? "line" : d.path, detail: d.detail)
            }
        }
        if la.count != lb.count {
            return Difference(frame: min(la.count, lb.count) - 1, field: "length",
                              detail: "\(fileA) has \(max(la.count - 1, 0)) frames, \(fileB) has \(max(lb.count - 1, 0))")
        }
        return nil
    }

    static func compare(_ a: JSONNode, _ b: JSONNode, path: String, tolerance: Double) -> (path: String, detail: String)? {
        switch (a.value, b.value) {
        case (.number(let x), .number(let y)):
            let diff = abs(x - y)
            if diff <= tolerance { return nil }
            return (path, "\(x) vs \(y) (difference \(diff) > tolerance \(tolerance))")
        case (.string(let x), .string(let y)):
            return x == y ? nil : (path, "\"\(x)\" vs \"\(y)\"")
        case (.bool(let x), .bool(let y)):
            return x == y ? nil : (path, "\(x) vs \(y)")
        case (.null, .null):
            return nil
        case (.array(let x), .array(let y)):
            if x.count != y.count { return (path, "\(x.count) elements vs \(y.count)") }
            for i in x.indices {
                if let d = compare(x[i], y[i], path: "\(path)[\(i)]", tolerance: tolerance) { return d }
            }
            return nil
        case (.object(let x), .object(let y)):
            let keysA = x.map(\.key), keysB = y.map(\.key)
            if keysA != keysB {
                let missing = Set(keysA).symmetricDifference(keysB).sorted()
                return (path.isEmpty ? (missing.first ?? "fields") : path, "fields differ: \(keysA.joined(separator: ",")) vs \(keysB.joined(separator: ","))")
            }
            for i in x.indices {
                let p = path.isEmpty ? x[i].key : "\(path).\(x[i].key)"
                if let d = compare(x[i].value, y[i].value, path: p, tolerance: tolerance) { return d }
            }
            return nil
        default:
            return (path, "\(a.typeDescription) vs \(b.typeDescription)")
        }
    }
}
