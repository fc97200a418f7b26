import FlybyCore
import FlybyRender
import Testing

@Suite struct BlendTests {
    /// `scale` is `round(c · f / 255)` for every channel value and factor (exhaustive, 65536 cases).
    @Test func scaleIsExactlyRoundedForEveryInput() {
        for f in UInt32(0)...255 {
            for c in UInt32(0)...255 {
                let pixel = c << 24 | c << 16 | c << 8 | c
                let expected = UInt32((Double(c * f) / 255).rounded())
                let got = PixelBlend.scale(pixel, by: f)
                #expect(got == expected << 24 | expected << 16 | expected << 8 | expected, "c \(c) f \(f)")
            }
        }
    }

    /// The opaque blend is `round((s·c + d·(255 − c)) / 255)` per channel, for every coverage and
    /// destination value and a spread of source values.
    @Test func opaqueBlendIsExactlyRounded() {
        for c in UInt32(0)...255 {
            for d in UInt32(0)...255 {
                for s in stride(from: UInt32(0), through: 255, by: 17) {
                    let expected = UInt32((Double(s * c + d * (255 - c)) / 255).rounded())
                    let got = PixelBlend.blendOpaque(255 << 24 | s << 16 | s << 8 | s, coverage: c, d << 24 | d << 16 | d << 8 | d)
                    let alpha = UInt32((Double(255 * c + d * (255 - c)) / 255).rounded())
                    if got != alpha << 24 | expected << 16 | expected << 8 | expected {
                        Issue.record("s \(s) d \(d) c \(c): \(String(got, radix: 16))")
                        return
                    }
                }
            }
        }
    }

    /// The opaque blend on a spread source gives the packed blend's result bit for bit, for every
    /// coverage and a spread of colours (channels differing, so a lane mix-up shows).
    @Test func spreadOpaqueBlendEqualsThePackedOne() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<400 {
            let source = 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0x00FF_FFFF
            let destination = UInt32(truncatingIfNeeded: rng.next())
            for c in UInt32(0)...255 {
                let got = PixelBlend.blendOpaque(spread: PixelBlend.spread(source), coverage: c, destination)
                let expected = PixelBlend.blendOpaque(source, coverage: c, destination)
                if got != expected {
                    Issue.record("source \(String(source, radix: 16)) destination \(String(destination, radix: 16)) c \(c)")
                    return
                }
            }
        }
    }

    /// Source-over of a straight colour with alpha 0, 128 and 255 matches the Double formula
    /// `round(s·a/255) + round(d·(255 − round(a·cov/255))/255)` exactly, per channel.
    @Test(arguments: [0, 128, 255])
    func sourceOverIsExact(alpha: Int) {
        var rng = SplitMix64(seed: UInt64(alpha) + 5)
        for _ in 0..<2000 {
            let color = Color(red: UInt8(rng.next() & 255), green: UInt8(rng.next() & 255),
                              blue: UInt8(rng.next() & 255), alpha: UInt8(alpha))
            let da = UInt32(rng.next() & 255)
            func ch() -> UInt32 { UInt32(rng.next() % UInt64(da + 1)) }
            let dst = da << 24 | ch() << 16 | ch() << 8 | ch()
            let coverage = UInt32(rng.next() & 255)
            let got = PixelBlend.sourceOver(color.premultipliedARGB, coverage: coverage, dst)
            func r(_ x: Double) -> UInt32 { UInt32(x.rounded()) }
            let s = color.premultipliedARGB
            var expected: UInt32 = 0
            let sa = r(Double((s >> 24) * coverage) / 255)
            for shift in [24, 16, 8, 0] as [UInt32] {
                let sc = r(Double(((s >> shift) & 255) * coverage) / 255)
                let dc = (dst >> shift) & 255
                expected |= (sc + r(Double(dc * (255 - sa)) / 255)) << shift
            }
            #expect(got == expected)
            if alpha == 0 || coverage == 0 { #expect(got == dst) }
            if alpha == 255 && coverage == 255 { #expect(got == color.premultipliedARGB) }
        }
    }

    @Test func premultiplyAndBack() {
        let c = Color(red: 200, green: 100, blue: 50, alpha: 128)
        #expect(c.premultipliedARGB == 0x8064_3219)  // 200·128/255 = 100.4 → 100 (0x64), 50.2 → 50, 25.1 → 25
        #expect(Color(premultipliedARGB: 0xFF12_3456) == Color(rgb: 0x123456))
        #expect(Color(rgb: 0xF2EFE9).premultipliedARGB == 0xFFF2_EFE9)
        var buffer = PixelBuffer(width: 3, height: 2, color: .white)
        #expect(buffer.pixel(x: 2, y: 1) == 0xFFFF_FFFF)
        buffer.fill(PixelRect(x: 1, y: 0, width: 5, height: 1), color: Color(rgb: 0, alpha: 128))
        #expect(buffer.pixels == [0xFFFF_FFFF, 0xFF7F_7F7F, 0xFF7F_7F7F, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF])
    }
}
