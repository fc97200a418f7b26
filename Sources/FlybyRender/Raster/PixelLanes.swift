/// Four premultiplied pixels at once, for the per-pixel loops that dominate a frame (the relief's
/// shading): each pixel's four 8-bit channels in 16-bit lanes, as two vectors of eight lanes —
/// ``rb`` holding blue and red (the pixel's bits 0–7 and 16–23), ``ag`` green and alpha (bits
/// 8–15 and 24–31), pixel `i` in lanes `2i` and `2i + 1`.
///
/// The scalar blends (``RasterSampling/lerp(_:_:_:)``, ``PixelBlend/scale(_:by:)``, ``scaleAll(_:_:)``)
/// keep two channels in each 32-bit word and rely on no lane ever carrying into the next; the
/// same arithmetic on 16-bit lanes is therefore the same per channel, bit for bit, and every
/// operation here is SSE2's (`pmullw`, `paddw`, `psrlw`), so the baseline x86-64 build keeps it
/// in vector registers. Results that add two blends are added as packed 32-bit words, exactly as
/// the scalar code adds them.
struct PixelLanes {
    var rb: SIMD8<UInt16>
    var ag: SIMD8<UInt16>

    /// Four packed pixels (`0xAARRGGBB`, premultiplied) split into their lanes.
    @inline(__always)
    init(_ p: SIMD4<UInt32>) {
        rb = unsafeBitCast(p & 0x00FF_00FF, to: SIMD8<UInt16>.self)
        ag = unsafeBitCast((p &>> 8) & 0x00FF_00FF, to: SIMD8<UInt16>.self)
    }

    @inline(__always)
    init(rb: SIMD8<UInt16>, ag: SIMD8<UInt16>) { self.rb = rb; self.ag = ag }

    /// The four pixels packed again.
    @inline(__always)
    var packed: SIMD4<UInt32> {
        unsafeBitCast(rb, to: SIMD4<UInt32>.self) | unsafeBitCast(ag, to: SIMD4<UInt32>.self) &<< 8
    }

    /// A per-pixel factor in both lanes of each pixel (each factor 0…256 fits a lane).
    @inline(__always)
    static func spread(_ f: SIMD4<UInt32>) -> SIMD8<UInt16> {
        unsafeBitCast(f | f &<< 16, to: SIMD8<UInt16>.self)
    }

    /// ``RasterSampling/lerp(_:_:_:)`` per pixel: `a·(256 − w) + b·w`, / 256 rounded, with `w`
    /// (spread, 0…255) — its `w == 0` case gives `a` by the same formula.
    @inline(__always)
    static func lerp(_ a: PixelLanes, _ b: PixelLanes, _ w: SIMD8<UInt16>) -> PixelLanes {
        let iw = 256 &- w
        return PixelLanes(rb: (a.rb &* iw &+ b.rb &* w &+ 0x80) &>> 8, ag: (a.ag &* iw &+ b.ag &* w &+ 0x80) &>> 8)
    }

    /// ``PixelBlend/scale(_:by:)`` per pixel: each channel × `f` / 255, rounded (`f` spread, 0…255).
    @inline(__always)
    func scaled(by f: SIMD8<UInt16>) -> PixelLanes {
        let r = rb &* f &+ 0x80, g = ag &* f &+ 0x80
        return PixelLanes(rb: (r &+ r &>> 8) &>> 8, ag: (g &+ g &>> 8) &>> 8)
    }

    /// ``scaleAll(_:_:)`` per pixel: each channel × `f` / 256, truncated (`f` spread, 0…256).
    @inline(__always)
    func scaledAll(by f: SIMD8<UInt16>) -> PixelLanes {
        PixelLanes(rb: (rb &* f) &>> 8, ag: (ag &* f) &>> 8)
    }
}

extension PixelLanes {
    /// ``PixelBlend/sourceOver(_:_:)`` of four pixels: `source + destination · (255 − source.alpha) / 255`.
    @inline(__always)
    static func sourceOver(_ source: SIMD4<UInt32>, _ destination: SIMD4<UInt32>) -> SIMD4<UInt32> {
        source &+ PixelLanes(destination).scaled(by: spread(255 &- source &>> 24)).packed
    }
}

extension RasterSampling {
    /// ``bilinear(_:_:_:_:)`` at four tile pixel positions (`x`, `y`, each in 0…`n`): the same
    /// fixed-point positions and weights, lane by lane, and the same three blends in lanes.
    @inline(__always)
    static func bilinear(_ px: UnsafePointer<UInt32>, _ n: Int, _ x: SIMD4<Double>, _ y: SIMD4<Double>) -> SIMD4<UInt32> {
        let fx = x * 256 + 65_408.5, fy = y * 256 + 65_408.5
        // Lane by lane in scalars, then gathered into vectors once (writing lanes of a vector in
        // memory one at a time stalls every later read of the whole vector).
        @inline(__always)
        func texels(_ fx: Double, _ fy: Double) -> (a: UInt32, b: UInt32, c: UInt32, d: UInt32, wx: UInt32, wy: UInt32) {
            let tx = floorInt(fx) &- 65_536, ty = floorInt(fy) &- 65_536
            let cx = tx >> 8, cy = ty >> 8
            let x0 = min(max(cx, 0), n - 1), y0 = min(max(cy, 0), n - 1)
            let x1 = min(max(cx &+ 1, 0), n - 1), y1 = min(max(cy &+ 1, 0), n - 1)
            let r0 = px + y0 &* n, r1 = px + y1 &* n
            return (r0[x0], r0[x1], r1[x0], r1[x1], UInt32(truncatingIfNeeded: tx & 255), UInt32(truncatingIfNeeded: ty & 255))
        }
        let t0 = texels(fx[0], fy[0]), t1 = texels(fx[1], fy[1]), t2 = texels(fx[2], fy[2]), t3 = texels(fx[3], fy[3])
        let a = SIMD4(t0.a, t1.a, t2.a, t3.a), b = SIMD4(t0.b, t1.b, t2.b, t3.b)
        let c = SIMD4(t0.c, t1.c, t2.c, t3.c), d = SIMD4(t0.d, t1.d, t2.d, t3.d)
        let wx = SIMD4(t0.wx, t1.wx, t2.wx, t3.wx), wy = SIMD4(t0.wy, t1.wy, t2.wy, t3.wy)
        let u = PixelLanes.spread(wx), v = PixelLanes.spread(wy)
        let top = PixelLanes.lerp(PixelLanes(a), PixelLanes(b), u), bottom = PixelLanes.lerp(PixelLanes(c), PixelLanes(d), u)
        return PixelLanes.lerp(top, bottom, v).packed
    }
}

/// `min(1, v)` in each lane, as `Swift.min(1, v)` decides it (1 unless v < 1, so NaN gives 1);
/// `pointwiseMin` is generic and, called from these loops, is not inlined.
@inline(__always)
func atMostOne(_ v: SIMD4<Float>) -> SIMD4<Float> { v.replacing(with: 1, where: .!(v .< 1)) }
