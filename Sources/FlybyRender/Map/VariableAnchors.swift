/// The anchor/offset candidates of a point label with `text-variable-anchor` or
/// `text-variable-anchor-offset` (Style Specification, layers › symbol › layout): placement tries
/// them in order and keeps the first whose boxes pass collision.
///
/// - `text-variable-anchor-offset` (anchors alternating with `[x, y]` offsets in ems) takes
///   precedence over `text-anchor`, `text-variable-anchor`, `text-offset` and
///   `text-radial-offset`; each offset is used as that anchor's `text-offset`, as written.
/// - Else `text-variable-anchor` with `text-radial-offset` (ems, when the style sets it): the
///   text moves that far away from the anchor point in the anchor's direction (a corner anchor:
///   the distance along the diagonal, so each axis gets r/√2).
/// - Else `text-variable-anchor` with `text-offset`: its components are taken as absolute values
///   and signed by the anchor's side (`top` moves the text down by |y|, `left` right by |x|;
///   `center` uses no offset), as the specification's `text-offset` says.
enum SymbolAnchorOffsets {
    /// `(anchor, [x, y])` pairs of a `text-variable-anchor-offset` value (nil when malformed).
    static func pairs(_ items: [StyleValue]) -> [(anchor: String, x: Double, y: Double)]? {
        guard items.count % 2 == 0 else { return nil }
        var out: [(anchor: String, x: Double, y: Double)] = []
        for k in stride(from: 0, to: items.count, by: 2) {
            guard let a = items[k].stringValue, StyleProperty.anchors.contains(a),
                  let xy = items[k + 1].numbers, xy.count == 2 else { return nil }
            out.append((a, xy[0], xy[1]))
        }
        return out
    }

    /// The offset (ems) of `anchor` for a radial offset of `r` ems.
    static func radial(_ anchor: String, _ r: Double) -> (x: Double, y: Double) {
        let d = r / 2.0.squareRoot()
        switch anchor {
        case "top": return (0, r)
        case "bottom": return (0, -r)
        case "left": return (r, 0)
        case "right": return (-r, 0)
        case "top-left": return (d, d)
        case "top-right": return (-d, d)
        case "bottom-left": return (d, -d)
        case "bottom-right": return (-d, -d)
        default: return (0, 0)
        }
    }

    /// The offset (ems) of `anchor` from a `text-offset` of `(x, y)` ems used with variable anchors.
    static func signed(_ anchor: String, _ x: Double, _ y: Double) -> (x: Double, y: Double) {
        var out = (x: 0.0, y: 0.0)
        switch anchor {
        case "left", "top-left", "bottom-left": out.x = abs(x)
        case "right", "top-right", "bottom-right": out.x = -abs(x)
        default: break
        }
        switch anchor {
        case "top", "top-left", "top-right": out.y = abs(y)
        case "bottom", "bottom-left", "bottom-right": out.y = -abs(y)
        default: break
        }
        return out
    }

    /// `text-justify: auto` (Style Specification: "the text is aligned towards the anchor
    /// position"): left for anchors on the left side, right for the right side, else centred.
    static func justification(_ anchor: String) -> TextJustification {
        switch anchor {
        case "left", "top-left", "bottom-left": return .left
        case "right", "top-right", "bottom-right": return .right
        default: return .center
        }
    }

    /// The candidates of one feature, offsets in ems (empty: the layer has neither property, or
    /// an empty list, and `text-anchor` with `text-offset` is the only placement).
    static func candidates(_ layer: StyleLayer, zoom z: Double, feature ctx: FeatureContext) -> [(anchor: String, x: Double, y: Double)] {
        if layer.expression(.textVariableAnchorOffset) != nil,
           let items = layer.value(.textVariableAnchorOffset, zoom: z, feature: ctx).arrayValue,
           let pairs = pairs(items), !pairs.isEmpty {
            return pairs
        }
        guard layer.expression(.textVariableAnchor) != nil,
              let items = layer.value(.textVariableAnchor, zoom: z, feature: ctx).arrayValue else { return [] }
        let anchors = items.compactMap(\.stringValue)
        if layer.expression(.textRadialOffset) != nil {
            let r = layer.number(.textRadialOffset, zoom: z, feature: ctx)
            return anchors.map { a in let o = radial(a, r); return (a, o.x, o.y) }
        }
        let off = layer.numbers(.textOffset, zoom: z, feature: ctx) ?? [0, 0]
        let (x, y) = off.count == 2 ? (off[0], off[1]) : (0, 0)
        return anchors.map { a in let o = signed(a, x, y); return (a, o.x, o.y) }
    }
}
