/// A straight (not premultiplied) sRGB colour with 8-bit channels.
///
/// Channels are stored as given; no gamma conversion happens anywhere in the rasterizer (blending
/// is done on the sRGB-encoded values, as Skia, Blend2D and cairo do by default).
/// ``premultipliedARGB`` turns it into the packed pixel format of ``PixelBuffer``.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// Opacity: 0 is transparent, 255 opaque.
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A colour from a packed `0xRRGGBB` value (the CSS `#RRGGBB` notation) and an alpha.
    public init(rgb: UInt32, alpha: UInt8 = 255) {
        self.init(red: UInt8(truncatingIfNeeded: rgb >> 16), green: UInt8(truncatingIfNeeded: rgb >> 8),
                  blue: UInt8(truncatingIfNeeded: rgb), alpha: alpha)
    }

    /// A colour from unit channels in 0…1 (clamped; NaN counts as 0), rounded to the nearest 8-bit value.
    public init(unitRed red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.init(red: Color.unitToByte(red), green: Color.unitToByte(green),
                  blue: Color.unitToByte(blue), alpha: Color.unitToByte(alpha))
    }

    @usableFromInline
    static func unitToByte(_ v: Double) -> UInt8 {
        guard v > 0 else { return 0 }
        guard v < 1 else { return 255 }
        return UInt8(v * 255 + 0.5)
    }

    /// The packed premultiplied pixel `0xAARRGGBB` with each colour channel `round(c · a / 255)`.
    ///
    /// In little-endian memory the bytes are B, G, R, A: SDL's `ARGB8888` and ffmpeg's `bgra`.
    @inlinable
    public var premultipliedARGB: UInt32 {
        let straight = UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
        return PixelBlend.scale(straight, by: UInt32(alpha)) | UInt32(alpha) << 24
    }

    /// The same colour with its alpha multiplied by `factor` (clamped to 0…1).
    public func withAlphaScaled(by factor: Double) -> Color {
        var c = self
        c.alpha = Color.unitToByte(Double(alpha) / 255 * factor)
        return c
    }

    /// The straight colour of a premultiplied `0xAARRGGBB` pixel (`c · 255 / a`, rounded); a
    /// transparent pixel gives ``transparent``.
    public init(premultipliedARGB p: UInt32) {
        let a = p >> 24
        guard a > 0 else { self = .transparent; return }
        func unpremultiply(_ c: UInt32) -> UInt8 { UInt8(min(255, (c * 255 + a / 2) / a)) }
        self.init(red: unpremultiply((p >> 16) & 0xFF), green: unpremultiply((p >> 8) & 0xFF),
                  blue: unpremultiply(p & 0xFF), alpha: UInt8(a))
    }

    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 255, green: 255, blue: 255)

    public var description: String {
        func hex(_ v: UInt8) -> String { let s = String(v, radix: 16); return s.count == 1 ? "0" + s : s }
        return "#" + hex(red) + hex(green) + hex(blue) + hex(alpha)
    }
}
