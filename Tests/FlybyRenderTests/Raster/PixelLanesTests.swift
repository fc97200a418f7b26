import FlybyCore
@testable import FlybyRender
import Testing

/// The four-pixel blends (``PixelLanes``) the relief's shading uses give the scalar blends'
/// pixels bit for bit: the shading's output may not depend on how many pixels it takes at once.
@Suite struct PixelLanesTests {
    /// A random premultiplied pixel: alpha 0 (then clear), 255 or between, each channel ≤ alpha.
    static func premultiplied(_ rng: inout SplitMix64) -> UInt32 {
        let kind = rng.next() % 4
        let a: UInt32 = kind == 0 ? 0 : kind == 1 ? 255 : UInt32(rng.next() % 256)
        func channel() -> UInt32 { a == 0 ? 0 : UInt32(rng.next() % UInt64(a + 1)) }
        return a << 24 | channel() << 16 | channel() << 8 | channel()
    }

    @Test func fourBilinearSamplesAreTheScalarSamples() {
        var rng = SplitMix64(seed: 19)
        let n = 16
        let tile = (0..<(n * n)).map { _ in Self.premultiplied(&rng) }
        tile.withUnsafeBufferPointer { px in
            for _ in 0..<5_000 {
                // Positions over the whole tile, its edges (clamped neighbours) and whole texels.
                func position() -> Double {
                    rng.next() % 8 == 0 ? Double(rng.next() % UInt64(n)) + 0.5 : Double(rng.next() % 1_000_000) / 1_000_000 * Double(n)
                }
                let x = SIMD4(position(), position(), position(), position())
                let y = SIMD4(position(), position(), position(), position())
                let four = RasterSampling.bilinear(px.baseAddress!, n, x, y)
                for i in 0..<4 {
                    let one = RasterSampling.bilinear(px.baseAddress!, n, x[i], y[i])
                    guard four[i] == one else {
                        Issue.record("(\(x[i]), \(y[i])): \(String(four[i], radix: 16)) against \(String(one, radix: 16))")
                        return
                    }
                }
            }
        }
    }

    @Test func fourSourceOversAreTheScalarOnes() {
        var rng = SplitMix64(seed: 23)
        for _ in 0..<20_000 {
            let s = SIMD4(Self.premultiplied(&rng), Self.premultiplied(&rng), Self.premultiplied(&rng), Self.premultiplied(&rng))
            let d = SIMD4(Self.premultiplied(&rng), Self.premultiplied(&rng), Self.premultiplied(&rng), Self.premultiplied(&rng))
            let four = PixelLanes.sourceOver(s, d)
            for i in 0..<4 where four[i] != PixelBlend.sourceOver(s[i], d[i]) {
                Issue.record("\(String(s[i], radix: 16)) over \(String(d[i], radix: 16))")
                return
            }
        }
    }

    /// Fog on four pixels at once, with depths before its start, in its ramp and past its end,
    /// for several colours and opacities (and none).
    @Test func fogOnFourPixelsIsTheFogOnEach() {
        var rng = SplitMix64(seed: 29)
        for _ in 0..<400 {
            let fog = Fog(color: Self.premultiplied(&rng), start: Float(rng.next() % 1000),
                          end: Float(rng.next() % 3000), opacity: rng.next() % 5 == 0 ? 0 : Float(rng.next() % 1001) / 1000)
            for _ in 0..<50 {
                let p = SIMD4(Self.premultiplied(&rng), Self.premultiplied(&rng), Self.premultiplied(&rng), Self.premultiplied(&rng))
                func depth() -> Float { Float(rng.next() % 4_000_000) / 1000 }
                let z = SIMD4(depth(), depth(), depth(), depth())
                let four = fog.over(p, depth: z)
                for i in 0..<4 where four[i] != fog.over(p[i], depth: z[i]) {
                    Issue.record("fog \(fog) depth \(z[i]): \(String(four[i], radix: 16)) against \(String(fog.over(p[i], depth: z[i]), radix: 16))")
                    return
                }
            }
        }
    }
}
