import FlybyCore

/// A colour theme of a whole map: the counterpart of Mapbox Standard's `theme` configuration
/// property (`default`, `faded`, `monochrome`).
///
/// Mapbox applies a theme as a colour lookup table to the style's resolved colours (a custom
/// theme is a LUT image). Flyby does the same with a function of each colour, applied to every
/// colour constant of the style's expressions and sky when the themed style is built
/// (``Style/themed(_:)``), so rendering costs nothing extra. Colours that come from feature
/// data at run time (a `get` coerced to a colour) are not themed.
public enum MapTheme: String, CaseIterable, Sendable {
    /// The style's own colours.
    case `default`
    /// Washed out: saturation cut to 40 % and the colour moved a quarter of the way to a light
    /// warm grey, so overlays stand out over a quiet base map.
    case faded
    /// Greys only: the colour's Rec. 709 luma, with a faint cool tint.
    case monochrome

    /// The themed colour (alpha unchanged).
    public func apply(_ c: StyleColor) -> StyleColor {
        switch self {
        case .default:
            return c
        case .faded:
            let y = MapTheme.luma(c)
            func fade(_ v: Double, _ paper: Double) -> Double {
                let desaturated = y + (v - y) * 0.4
                return desaturated + (paper - desaturated) * 0.25
            }
            return StyleColor(red: fade(c.red, 0.95), green: fade(c.green, 0.94), blue: fade(c.blue, 0.92), alpha: c.alpha)
        case .monochrome:
            let y = MapTheme.luma(c)
            return StyleColor(red: min(y * 0.98, 1), green: min(y * 0.99, 1), blue: min(y * 1.02, 1), alpha: c.alpha)
        }
    }

    /// Rec. ITU-R BT.709 luma of the (gamma-encoded) sRGB channels.
    static func luma(_ c: StyleColor) -> Double { 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue }
}

extension Style {
    /// This style with every colour constant of its layers and sky passed through `theme`.
    public func themed(_ theme: MapTheme) -> Style {
        guard theme != .default else { return self }
        let layers = self.layers.map { layer in
            var l = layer
            l.bindings = l.bindings.map { $0?.mappingColors(theme.apply) }
            return l
        }
        var sky = self.sky
        if let bindings = sky?.bindings { sky?.bindings = bindings.map { $0?.mappingColors(theme.apply) } }
        return Style(copying: self, layers: layers, sky: sky)
    }

    init(copying s: Style, layers: [StyleLayer], sky: StyleSky?) {
        name = s.name; file = s.file; camera = s.camera; sources = s.sources; sprite = s.sprite
        self.layers = layers; self.sky = sky; light = s.light; terrain = s.terrain; preset = s.preset; presetNames = s.presetNames; glyphs = s.glyphs
    }
}

extension StyleExpression {
    /// The same expression with every colour constant passed through `transform`.
    func mappingColors(_ transform: (StyleColor) -> StyleColor) -> StyleExpression {
        StyleExpression(root.mappingColors(transform), type: exprType)
    }
}

extension ExprNode {
    func mappingColors(_ f: (StyleColor) -> StyleColor) -> ExprNode {
        if case .constant(let v) = self { return .constant(ExprNode.mappingColors(v, f)) }
        return mapChildren { $0.mappingColors(f) }
    }

    static func mappingColors(_ v: StyleValue, _ f: (StyleColor) -> StyleColor) -> StyleValue {
        switch v {
        case .color(let c): return .color(f(c))
        case .array(let a): return .array(a.map { mappingColors($0, f) })
        case .colorArray(let a): return .colorArray(a.map(f))
        default: return v
        }
    }
}
