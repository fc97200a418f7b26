#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A CSS-style cubic Bézier easing from (0,0) to (1,1) with control points (x1,y1), (x2,y2):
/// `["cubic-bezier", x1, y1, x2, y2]` interpolation. `solve` finds the curve parameter for x
/// (Newton's method, then bisection) and returns y.
struct UnitBezier: Sendable {
    let x1: Double, y1: Double, x2: Double, y2: Double

    private func coord(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        // B(t) = 3(1−t)²t·p1 + 3(1−t)t²·p2 + t³
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    private func slopeX(_ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * x1 + 6 * u * t * (x2 - x1) + 3 * t * t * (1 - x2)
    }

    func solve(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var t = x
        for _ in 0..<8 {
            let err = coord(t, x1, x2) - x
            if Swift.abs(err) < 1e-6 { return coord(t, y1, y2) }
            let d = slopeX(t)
            if Swift.abs(d) < 1e-6 { break }
            t -= err / d
        }
        var lo = 0.0, hi = 1.0
        t = x
        for _ in 0..<60 {
            let v = coord(t, x1, x2)
            if Swift.abs(v - x) < 1e-6 { break }
            if v < x { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return coord(t, y1, y2)
    }
}

/// Colour interpolation in the spaces of the style specification: RGB with straight alpha,
/// CIE L*a*b* and its cylindrical form HCL (D50 white, the sRGB transfer curve; the formulas of
/// CIE 15 and IEC 61966-2-1).
enum ColorSpaces {
    static func interpolate(_ a: StyleColor, _ b: StyleColor, _ t: Double, _ space: ColorSpace) -> StyleColor {
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        switch space {
        case .rgb:
            return StyleColor(red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue), alpha: mix(a.alpha, b.alpha))
        case .lab:
            let x = lab(a), y = lab(b)
            return fromLab(mix(x.l, y.l), mix(x.a, y.a), mix(x.b, y.b), mix(a.alpha, b.alpha))
        case .hcl:
            let x = hcl(a), y = hcl(b)
            var hue: Double, chroma: Double?
            if !x.h.isNaN && !y.h.isNaN {
                var dh = y.h - x.h
                if y.h > x.h && dh > 180 { dh -= 360 } else if y.h < x.h && x.h - y.h > 180 { dh += 360 }
                hue = x.h + t * dh
            } else if !x.h.isNaN {
                hue = x.h
                if y.l == 1 || y.l == 0 { chroma = x.c }
            } else if !y.h.isNaN {
                hue = y.h
                if x.l == 1 || x.l == 0 { chroma = y.c }
            } else {
                hue = .nan
            }
            let c = chroma ?? mix(x.c, y.c)
            let l = mix(x.l, y.l)
            let h = hue.isNaN ? 0 : hue * .pi / 180
            return fromLab(l, cos(h) * c, sin(h) * c, mix(a.alpha, b.alpha))
        }
    }

    private static let xn = 0.96422, yn = 1.0, zn = 0.82521
    private static let t0 = 4.0 / 29, t1 = 6.0 / 29, t2 = 3 * (6.0 / 29) * (6.0 / 29), t3 = (6.0 / 29) * (6.0 / 29) * (6.0 / 29)

    private static func toLinear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    private static func fromLinear(_ v: Double) -> Double {
        let x = v <= 0.00304 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
        return min(max(x, 0), 1)
    }
    private static func f(_ t: Double) -> Double { t > t3 ? cbrt(t) : t / t2 + t0 }
    private static func fInverse(_ t: Double) -> Double { t > t1 ? t * t * t : t2 * (t - t0) }

    static func lab(_ c: StyleColor) -> (l: Double, a: Double, b: Double) {
        let r = toLinear(c.red), g = toLinear(c.green), b = toLinear(c.blue)
        let y = f((0.2225045 * r + 0.7168786 * g + 0.0606169 * b) / yn)
        let x: Double, z: Double
        if r == g && g == b { x = y; z = y } else {
            x = f((0.4360747 * r + 0.3850649 * g + 0.1430804 * b) / xn)
            z = f((0.0139322 * r + 0.0971045 * g + 0.7141733 * b) / zn)
        }
        let l = 116 * y - 16
        return (l < 0 ? 0 : l, 500 * (x - y), 200 * (y - z))
    }

    static func hcl(_ c: StyleColor) -> (h: Double, c: Double, l: Double) {
        let (l, a, b) = lab(c)
        let chroma = (a * a + b * b).squareRoot()
        var h = Double.nan
        if (chroma * 10000).rounded() != 0 {
            h = fmod(atan2(b, a) * 180 / .pi, 360)
            if h < 0 { h += 360 }
        }
        return (h, chroma, l)
    }

    static func fromLab(_ l: Double, _ a: Double, _ b: Double, _ alpha: Double) -> StyleColor {
        var y = (l + 16) / 116
        var x = a.isNaN ? y : y + a / 500
        var z = b.isNaN ? y : y - b / 200
        y = yn * fInverse(y); x = xn * fInverse(x); z = zn * fInverse(z)
        return StyleColor(red: fromLinear(3.1338561 * x - 1.6168667 * y - 0.4906146 * z),
                          green: fromLinear(-0.9787684 * x + 1.9161415 * y + 0.0334540 * z),
                          blue: fromLinear(0.0719453 * x - 0.2289914 * y + 1.4052427 * z), alpha: alpha)
    }
}

/// `number-format` options.
struct NumberFormatOptions {
    var locale: String?
    var currency: String?
    var minFraction: Int?
    var maxFraction: Int?
}

/// `number-format` for the common locales: digit grouping and decimal marks of English (the
/// default) and of German-style locales, currency symbols for the common ISO 4217 codes.
/// (Flyby carries no CLDR tables; other locales format as English.)
enum NumberFormatting {
    static func format(_ d: Double, _ o: NumberFormatOptions) -> String {
        let lang = (o.locale ?? "en").split(separator: "-").first.map(String.init)?.lowercased() ?? "en"
        let commaDecimal = ["de", "fr", "es", "it", "nl", "pt", "ru", "sv", "fi", "da", "nb", "pl", "cs", "tr"].contains(lang)
        let group = commaDecimal ? (lang == "fr" || lang == "sv" || lang == "fi" || lang == "nb" || lang == "ru" || lang == "pl" || lang == "cs" ? "\u{202F}" : ".") : ","
        let decimal = commaDecimal ? "," : "."
        let currencyDigits = o.currency.map { ["JPY", "KRW", "VND", "CLP", "ISK"].contains($0.uppercased()) ? 0 : 2 }
        let minF = max(0, min(o.minFraction ?? currencyDigits ?? 0, 20))
        let maxF = max(minF, min(o.maxFraction ?? max(minF, currencyDigits ?? 3), 20))
        guard d.isFinite else { return d.isNaN ? "NaN" : (d < 0 ? "-∞" : "∞") }
        let scale = pow(10.0, Double(maxF))
        let scaled = (Swift.abs(d) * scale).rounded(.toNearestOrAwayFromZero)
        var intPart: String, frac: String
        if scaled < 9e15 {
            let v = UInt64(scaled)
            let p = UInt64(scale)
            intPart = String(v / p)
            frac = maxF > 0 ? String(v % p) : ""
            while frac.count < maxF { frac = "0" + frac }
        } else {
            intPart = String(UInt64(min(Swift.abs(d).rounded(), 1.8e19)))
            frac = String(repeating: "0", count: maxF)
        }
        while frac.count > minF, frac.last == "0" { frac.removeLast() }
        var grouped = ""
        for (k, ch) in intPart.enumerated() {
            if k > 0 && (intPart.count - k) % 3 == 0 { grouped += group }
            grouped.append(ch)
        }
        var body = frac.isEmpty ? grouped : grouped + decimal + frac
        if let c = o.currency?.uppercased() {
            let symbols = ["USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CNY": "CN¥", "INR": "₹", "KRW": "₩", "CAD": "CA$", "AUD": "A$"]
            let s = symbols[c] ?? c
            body = commaDecimal ? body + "\u{00A0}" + s : (symbols[c] == nil ? s + "\u{00A0}" + body : s + body)
        }
        return d < 0 && scaled != 0 ? "-" + body : body
    }
}
