/// A colour of the style: straight (not premultiplied) sRGB components and alpha, each 0…1.
///
/// Parsed from CSS colour syntax (CSS Color Module Level 4): the 148 named colours plus
/// `transparent`, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`, `rgba()`, `hsl()` and `hsla()`
/// (comma- or space-separated, with an optional `/ alpha`). Out-of-range numbers are clamped
/// as CSS does; anything else that does not parse is an error.
public struct StyleColor: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A colour from 8-bit channels and an alpha of 0…1.
    public init(r8: Int, g8: Int, b8: Int, alpha: Double = 1) {
        self.init(red: Double(r8) / 255, green: Double(g8) / 255, blue: Double(b8) / 255, alpha: alpha)
    }

    public static let black = StyleColor(red: 0, green: 0, blue: 0)
    public static let white = StyleColor(red: 1, green: 1, blue: 1)
    public static let transparent = StyleColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// Channels rounded to 0…255 (straight alpha), in the order r, g, b, a.
    public var rgba8: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        func q(_ v: Double) -> UInt8 { UInt8(min(max(v, 0), 1) * 255 + 0.5) }
        return (q(red), q(green), q(blue), q(alpha))
    }

    /// The colour with its alpha multiplied by `opacity` (0…1).
    public func withOpacity(_ opacity: Double) -> StyleColor {
        StyleColor(red: red, green: green, blue: blue, alpha: alpha * min(max(opacity, 0), 1))
    }

    /// `rgba(r,g,b,a)` with 0…255 channels, as the style specification's `to-string` writes colours.
    public var description: String {
        let c = rgba8
        return "rgba(\(c.r),\(c.g),\(c.b),\(PropertyFormatting.number(alpha)))"
    }

    /// Interpolates in premultiplied RGB (the way Mapbox GL blends colours), so a fade to a
    /// transparent colour does not darken through its hidden RGB. `t` is 0…1.
    public static func interpolate(_ a: StyleColor, _ b: StyleColor, _ t: Double) -> StyleColor {
        let alpha = a.alpha + (b.alpha - a.alpha) * t
        guard alpha > 0 else { return StyleColor(red: 0, green: 0, blue: 0, alpha: 0) }
        func mix(_ x: Double, _ y: Double) -> Double { (x * a.alpha + (y * b.alpha - x * a.alpha) * t) / alpha }
        return StyleColor(red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue), alpha: alpha)
    }

    /// Parses CSS colour text; nil when it is not a colour.
    public init?(css text: String) {
        let s = text.trimmingSpaces().lowercased()
        if s.hasPrefix("#") {
            guard let c = StyleColor.parseHex(s.dropFirst()) else { return nil }
            self = c
            return
        }
        if let open = s.firstIndex(of: "("), s.hasSuffix(")") {
            let fn = String(s[..<open]).trimmingSpaces()
            let inner = s[s.index(after: open)..<s.index(before: s.endIndex)]
            guard let c = StyleColor.parseFunction(fn, String(inner)) else { return nil }
            self = c
            return
        }
        guard let rgb = cssNamedColors[s] else { return nil }
        if s == "transparent" { self = .transparent; return }
        self.init(r8: Int(rgb >> 16), g8: Int((rgb >> 8) & 0xFF), b8: Int(rgb & 0xFF))
    }

    private static func parseHex(_ h: Substring) -> StyleColor? {
        var digits: [Int] = []
        for c in h.utf8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(Int(c) - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digits.append(Int(c) - 87)
            default: return nil
            }
        }
        switch digits.count {
        case 3, 4:
            let a = digits.count == 4 ? Double(digits[3] * 17) / 255 : 1
            return StyleColor(r8: digits[0] * 17, g8: digits[1] * 17, b8: digits[2] * 17, alpha: a)
        case 6, 8:
            let a = digits.count == 8 ? Double(digits[6] * 16 + digits[7]) / 255 : 1
            return StyleColor(r8: digits[0] * 16 + digits[1], g8: digits[2] * 16 + digits[3], b8: digits[4] * 16 + digits[5], alpha: a)
        default:
            return nil
        }
    }

    /// `rgb(…)`, `rgba(…)`, `hsl(…)`, `hsla(…)` arguments: comma-separated, or space-separated
    /// with an optional `/ alpha`.
    private static func parseFunction(_ fn: String, _ inner: String) -> StyleColor? {
        var parts: [String]
        var alphaPart: String?
        if inner.contains(",") {
            parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            if parts.count == 4 { alphaPart = parts.removeLast() }
        } else {
            let halves = inner.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count <= 2 else { return nil }
            parts = halves[0].split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if halves.count == 2 { alphaPart = String(halves[1]).trimmingSpaces() }
        }
        guard parts.count == 3 else { return nil }
        var alpha = 1.0
        if let alphaPart {
            guard let a = parseNumberOrPercent(alphaPart) else { return nil }
            alpha = clamp01(a.percent ? a.value / 100 : a.value)
        }
        switch fn {
        case "rgb", "rgba":
            var channels: [Double] = []
            for p in parts {
                guard let v = parseNumberOrPercent(p) else { return nil }
                channels.append(clamp01(v.percent ? v.value / 100 : v.value / 255))
            }
            return StyleColor(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha)
        case "hsl", "hsla":
            var hText = parts[0]
            if hText.hasSuffix("deg") { hText.removeLast(3) }
            guard let h = Double(hText), h.isFinite,
                  let sat = parseNumberOrPercent(parts[1]), sat.percent,
                  let light = parseNumberOrPercent(parts[2]), light.percent else { return nil }
            let (r, g, b) = hslToRGB(h, clamp01(sat.value / 100), clamp01(light.value / 100))
            return StyleColor(red: r, green: g, blue: b, alpha: alpha)
        default:
            return nil
        }
    }

    private static func parseNumberOrPercent(_ text: String) -> (value: Double, percent: Bool)? {
        var t = text.trimmingSpaces()
        let percent = t.hasSuffix("%")
        if percent { t.removeLast() }
        guard !t.isEmpty, let v = Double(t), v.isFinite else { return nil }
        return (v, percent)
    }

    private static func clamp01(_ v: Double) -> Double { min(max(v, 0), 1) }

    /// HSL to RGB (CSS Color 4 §7.1): `h` in degrees, `s` and `l` in 0…1.
    static func hslToRGB(_ h: Double, _ s: Double, _ l: Double) -> (Double, Double, Double) {
        var hue = h.truncatingRemainder(dividingBy: 360)
        if hue < 0 { hue += 360 }
        func f(_ n: Double) -> Double {
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return (f(0), f(8), f(4))
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeLast() }
        return String(s)
    }
}

/// Number formatting shared by `to-string` and colour descriptions.
enum PropertyFormatting {
    /// Whole numbers without a fraction (`3`), others in Swift's shortest round-trip form.
    static func number(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }
}

/// The CSS named colours (CSS Color Module Level 4 §6.1) as 0xRRGGBB.
let cssNamedColors: [String: UInt32] = [
    "aliceblue": 0xF0F8FF, "antiquewhite": 0xFAEBD7, "aqua": 0x00FFFF, "aquamarine": 0x7FFFD4,
    "azure": 0xF0FFFF, "beige": 0xF5F5DC, "bisque": 0xFFE4C4, "black": 0x000000,
    "blanchedalmond": 0xFFEBCD, "blue": 0x0000FF, "blueviolet": 0x8A2BE2, "brown": 0xA52A2A,
    "burlywood": 0xDEB887, "cadetblue": 0x5F9EA0, "chartreuse": 0x7FFF00, "chocolate": 0xD2691E,
    "coral": 0xFF7F50, "cornflowerblue": 0x6495ED, "cornsilk": 0xFFF8DC, "crimson": 0xDC143C,
    "cyan": 0x00FFFF, "darkblue": 0x00008B, "darkcyan": 0x008B8B, "darkgoldenrod": 0xB8860B,
    "darkgray": 0xA9A9A9, "darkgreen": 0x006400, "darkgrey": 0xA9A9A9, "darkkhaki": 0xBDB76B,
    "darkmagenta": 0x8B008B, "darkolivegreen": 0x556B2F, "darkorange": 0xFF8C00, "darkorchid": 0x9932CC,
    "darkred": 0x8B0000, "darksalmon": 0xE9967A, "darkseagreen": 0x8FBC8F, "darkslateblue": 0x483D8B,
    "darkslategray": 0x2F4F4F, "darkslategrey": 0x2F4F4F, "darkturquoise": 0x00CED1, "darkviolet": 0x9400D3,
    "deeppink": 0xFF1493, "deepskyblue": 0x00BFFF, "dimgray": 0x696969, "dimgrey": 0x696969,
    "dodgerblue": 0x1E90FF, "firebrick": 0xB22222, "floralwhite": 0xFFFAF0, "forestgreen": 0x228B22,
    "fuchsia": 0xFF00FF, "gainsboro": 0xDCDCDC, "ghostwhite": 0xF8F8FF, "gold": 0xFFD700,
    "goldenrod": 0xDAA520, "gray": 0x808080, "green": 0x008000, "greenyellow": 0xADFF2F,
    "grey": 0x808080, "honeydew": 0xF0FFF0, "hotpink": 0xFF69B4, "indianred": 0xCD5C5C,
    "indigo": 0x4B0082, "ivory": 0xFFFFF0, "khaki": 0xF0E68C, "lavender": 0xE6E6FA,
    "lavenderblush": 0xFFF0F5, "lawngreen": 0x7CFC00, "lemonchiffon": 0xFFFACD, "lightblue": 0xADD8E6,
    "lightcoral": 0xF08080, "lightcyan": 0xE0FFFF, "lightgoldenrodyellow": 0xFAFAD2, "lightgray": 0xD3D3D3,
    "lightgreen": 0x90EE90, "lightgrey": 0xD3D3D3, "lightpink": 0xFFB6C1, "lightsalmon": 0xFFA07A,
    "lightseagreen": 0x20B2AA, "lightskyblue": 0x87CEFA, "lightslategray": 0x778899, "lightslategrey": 0x778899,
    "lightsteelblue": 0xB0C4DE, "lightyellow": 0xFFFFE0, "lime": 0x00FF00, "limegreen": 0x32CD32,
    "linen": 0xFAF0E6, "magenta": 0xFF00FF, "maroon": 0x800000, "mediumaquamarine": 0x66CDAA,
    "mediumblue": 0x0000CD, "mediumorchid": 0xBA55D3, "mediumpurple": 0x9370DB, "mediumseagreen": 0x3CB371,
    "mediumslateblue": 0x7B68EE, "mediumspringgreen": 0x00FA9A, "mediumturquoise": 0x48D1CC, "mediumvioletred": 0xC71585,
    "midnightblue": 0x191970, "mintcream": 0xF5FFFA, "mistyrose": 0xFFE4E1, "moccasin": 0xFFE4B5,
    "navajowhite": 0xFFDEAD, "navy": 0x000080, "oldlace": 0xFDF5E6, "olive": 0x808000,
    "olivedrab": 0x6B8E23, "orange": 0xFFA500, "orangered": 0xFF4500, "orchid": 0xDA70D6,
    "palegoldenrod": 0xEEE8AA, "palegreen": 0x98FB98, "paleturquoise": 0xAFEEEE, "palevioletred": 0xDB7093,
    "papayawhip": 0xFFEFD5, "peachpuff": 0xFFDAB9, "peru": 0xCD853F, "pink": 0xFFC0CB,
    "plum": 0xDDA0DD, "powderblue": 0xB0E0E6, "purple": 0x800080, "rebeccapurple": 0x663399,
    "red": 0xFF0000, "rosybrown": 0xBC8F8F, "royalblue": 0x4169E1, "saddlebrown": 0x8B4513,
    "salmon": 0xFA8072, "sandybrown": 0xF4A460, "seagreen": 0x2E8B57, "seashell": 0xFFF5EE,
    "sienna": 0xA0522D, "silver": 0xC0C0C0, "skyblue": 0x87CEEB, "slateblue": 0x6A5ACD,
    "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xFFFAFA, "springgreen": 0x00FF7F,
    "steelblue": 0x4682B4, "tan": 0xD2B48C, "teal": 0x008080, "thistle": 0xD8BFD8,
    "tomato": 0xFF6347, "turquoise": 0x40E0D0, "violet": 0xEE82EE, "wheat": 0xF5DEB3,
    "white": 0xFFFFFF, "whitesmoke": 0xF5F5F5, "yellow": 0xFFFF00, "yellowgreen": 0x9ACD32,
    "transparent": 0x000000,
]
