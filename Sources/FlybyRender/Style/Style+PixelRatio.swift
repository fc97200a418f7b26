import FlybyCore
import FlybyData

extension Style {
    /// The properties whose values are lengths in screen pixels (Style Specification, each
    /// property's "Units: pixels"): at device pixel ratio `r` each is `r` times its value.
    /// Ems (`text-max-width`, `text-offset`, `text-letter-spacing`), factors (`icon-size`,
    /// `circle-blur`) and `line-dasharray` (in line widths) are left alone; `*-translate`
    /// arrays are scaled where they are read (``MapRenderer``), and icons by the renderer.
    /// They are the rows of ``StyleProperty/table`` marked ``StylePropertyRow/scalesWithPixelRatio``.
    static let pixelLengthProperties: [StyleProperty] = StyleProperty.allCases.filter { $0.row.scalesWithPixelRatio }

    /// This style drawn at `ratio` device pixels per point (MapLibre's `pixelRatio`): every
    /// pixel-length property of every layer (``pixelLengthProperties``), set or defaulted, is
    /// multiplied by `ratio`. Zoom and feature inputs are unchanged.
    public func scaled(byPixelRatio ratio: Double) -> Style {
        guard ratio != 1 else { return self }
        let layers = self.layers.map { layer in
            var l = layer
            for p in Style.pixelLengthProperties {
                let inner: ExprNode
                if let e = l.bindings[p.index] {
                    inner = .coerce(.number, [e.root, .constant(p.defaultValue)])
                } else {
                    guard let d = p.defaultValue.doubleValue, d != 0 else { continue }
                    inner = .constant(.number(d))
                }
                l.bindings[p.index] = StyleExpression(.call(.multiply, [.constant(.number(ratio)), inner]), type: .number)
            }
            return l
        }
        return Style(copying: self, layers: layers, sky: sky)
    }
}

extension LoadedStyle {
    /// This style with its layers scaled for `ratio` device pixels per point
    /// (``Style/scaled(byPixelRatio:)``), same sources and sprite.
    public func scaled(byPixelRatio ratio: Double) -> LoadedStyle {
        guard ratio != 1 else { return self }
        var s = LoadedStyle(style: style.scaled(byPixelRatio: ratio), sources: sources, tileSets: tileSets)
        s.sprite = sprite
        return s
    }
}
