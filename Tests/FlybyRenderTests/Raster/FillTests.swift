import FlybyCore
import FlybyRender
import Testing

@Suite struct FillTests {
    /// Random simple polygons against their exact per-pixel area. The only differences are the
    /// vertex rounding to 1/256 px and the final rounding to 8 bits, so 1 level is allowed.
    @Test(arguments: 0..<12)
    func matchesExactAreaOnRandomSimplePolygons(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1000)
        let (w, h) = (24, 20)
        let poly = randomRadialPolygon(&rng, center: pt(rng.range(6, 18), rng.range(6, 14)), maxRadius: 14)
        let expected = exactCoverage(poly, width: w, height: h)
        for rule in [FillRule.nonZero, .evenOdd] {
            let got = fillAlpha(Path(rings: [poly]), rule: rule, width: w, height: h)
            let d = difference(got, expected)
            #expect(d.max <= 1, "seed \(seed) \(rule): max diff \(d.max) at pixel \(d.at)")
        }
    }

    /// Random polygons with a hole against 16×16 supersampling. A straight edge through a pixel
    /// can miscount up to one sample per sample column (1/16 of a pixel ≈ 16 levels), more where
    /// vertices sit in the pixel, so the per-pixel bound is 24 levels and the mean must stay under 1.
    @Test(arguments: 0..<6)
    func matchesSupersamplingOnRandomPolygonsWithHoles(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 77)
        let (w, h) = (26, 22)
        let outer = randomRadialPolygon(&rng, center: pt(13, 11), maxRadius: 14)
        let hole = randomRadialPolygon(&rng, center: pt(13, 11), maxRadius: 2.5).reversed()
        let path = Path(rings: [outer, Array(hole)])
        for rule in [FillRule.nonZero, .evenOdd] {
            let got = fillAlpha(path, rule: rule, width: w, height: h)
            let reference = supersampled(path, rule: rule, width: w, height: h)
            let d = difference(got, reference)
            #expect(d.max <= 24 && d.mean < 1, "seed \(seed) \(rule): max \(d.max) at \(d.at), mean \(d.mean)")
        }
    }

    /// A path wholly inside the frame takes the filler's shortcut (no clipping); the same path
    /// with an off-frame contour added (which covers nothing) takes the clipping route. Both
    /// must give the same pixels, for polygons touching the frame's edges too.
    @Test(arguments: 0..<8)
    func insidePathsGiveThePixelsOfTheClippingRoute(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 300)
        let (w, h) = (40, 30)
        var rings: [[ScreenPoint]] = []
        for _ in 0..<4 {
            let ring = randomRadialPolygon(&rng, center: pt(rng.range(5, 35), rng.range(5, 25)), maxRadius: 9)
            rings.append(ring.map { pt(min(max($0.x, 0), Double(w)), min(max($0.y, 0), Double(h))) })
        }
        let inside = Path(rings: rings)
        let withOutside = Path(rings: rings + [[pt(50, 3), pt(60, 9), pt(55, 20)]])
        for rule in [FillRule.nonZero, .evenOdd] {
            let direct = fillAlpha(inside, rule: rule, width: w, height: h)
            #expect(direct == fillAlpha(withOutside, rule: rule, width: w, height: h), "seed \(seed) \(rule)")
            #expect(direct.contains { $0 != 0 })
        }
    }

    /// A pentagram {5/2}: its centre has winding 2, so non-zero fills it and even-odd leaves it empty.
    @Test func nonZeroAndEvenOddDifferOnSelfOverlappingStar() {
        let (w, h) = (40, 40)
        var star: [ScreenPoint] = []
        for k in 0..<5 {
            let (s, c) = sinCos(Double(k * 2 % 5) / 5 - 0.25)
            star.append(pt(20 + 18 * c, 20 + 18 * s))
        }
        let path = Path(rings: [star])
        let nonZero = fillAlpha(path, rule: .nonZero, width: w, height: h)
        let evenOdd = fillAlpha(path, rule: .evenOdd, width: w, height: h)
        #expect(nonZero[20 * w + 20] == 255)
        #expect(evenOdd[20 * w + 20] == 0)
        // An arm (winding 1) is full under both rules; outside is empty under both.
        #expect(nonZero[5 * w + 20] == 255 && evenOdd[5 * w + 20] == 255)
        #expect(nonZero[1 * w + 1] == 0 && evenOdd[1 * w + 1] == 0)
        for rule in [FillRule.nonZero, .evenOdd] {
            let got = rule == .nonZero ? nonZero : evenOdd
            let d = difference(got, supersampled(path, rule: rule, width: w, height: h))
            // Pixels holding a crossing of two edges see windings 1 and 2 (or 0) at once; area
            // coverage measures the integral of the winding there, not the area of the inside, so
            // those pixels (5 crossings, at most 4 pixels each) may differ by up to half a pixel.
            // Everywhere else the 16×16 sampling bound of 24 levels holds.
            let reference = supersampled(path, rule: rule, width: w, height: h)
            let off = got.indices.filter { abs(got[$0] - reference[$0]) > 24 }
            #expect(off.count <= 20, "\(rule): \(off.count) pixels off by > 24: \(off)")
            #expect(d.max <= 128 && d.mean < 1.5, "\(rule): max \(d.max) at \(d.at), mean \(d.mean)")
        }
    }

    /// Holes: a reversed inner ring is empty under both rules; a same-direction inner ring is a
    /// hole only under even-odd.
    @Test func holes() {
        let outer = [pt(2, 2), pt(30, 2), pt(30, 30), pt(2, 30)]
        let reversedHole = [pt(10, 10), pt(10, 20), pt(20, 20), pt(20, 10)]
        let sameHole = [pt(10, 10), pt(20, 10), pt(20, 20), pt(10, 20)]
        let w = 32
        for rule in [FillRule.nonZero, .evenOdd] {
            let a = fillAlpha(Path(rings: [outer, reversedHole]), rule: rule, width: w, height: w)
            #expect(a[15 * w + 15] == 0 && a[5 * w + 5] == 255 && a[0] == 0)
        }
        let nz = fillAlpha(Path(rings: [outer, sameHole]), rule: .nonZero, width: w, height: w)
        let eo = fillAlpha(Path(rings: [outer, sameHole]), rule: .evenOdd, width: w, height: w)
        #expect(nz[15 * w + 15] == 255)
        #expect(eo[15 * w + 15] == 0)
        // Exact edges: the hole's border pixels are fully in or out (edges on pixel boundaries).
        #expect(eo[10 * w + 9] == 255 && eo[10 * w + 10] == 0)
    }

    /// Polygons sharing edges (a fan of triangles around an off-grid centre, edges at odd slopes)
    /// have coverages summing to exactly 255 wherever two of them share a pixel and their union
    /// is full. Because 255 is odd, a pixel split exactly in half rounds to 128 + 128; that is the
    /// only allowed exception. (In 1/131072-pixel units, before rounding, the sums are exact.)
    @Test func sharedEdgesHaveNoSeam() {
        let (w, h) = (30, 30)
        let c = pt(14.37, 15.81)
        let rim = [pt(1.3, 1.1), pt(17.2, 0.4), pt(29.1, 3.3), pt(28.7, 19.9), pt(21.5, 29.2), pt(3.9, 28.6), pt(0.6, 14.2)]
        var sum = [Int](repeating: 0, count: w * h)
        var maxSingle = [Int](repeating: 0, count: w * h)
        var pieces = [Int](repeating: 0, count: w * h)
        for i in rim.indices {
            let tri = [c, rim[i], rim[(i + 1) % rim.count]]
            let a = fillAlpha(Path(rings: [tri]), rule: .nonZero, width: w, height: h)
            for k in sum.indices where a[k] > 0 { sum[k] += a[k]; maxSingle[k] = max(maxSingle[k], a[k]); pieces[k] += 1 }
        }
        let whole = fillAlpha(Path(rings: [rim]), rule: .nonZero, width: w, height: h)
        var checked = 0
        for k in sum.indices where whole[k] == 255 {
            checked += 1
            if pieces[k] <= 2 {
                #expect(sum[k] == 255 || (sum[k] == 256 && maxSingle[k] == 128), "pixel \(k): sum \(sum[k])")
            } else {
                // The common vertex: k pieces, each rounded to 8 bits on its own.
                #expect(abs(sum[k] - 255) <= pieces[k] / 2, "pixel \(k): \(pieces[k]) pieces sum \(sum[k])")
            }
        }
        #expect(checked > 400)
    }

    /// Geometry far outside the frame still covers what it should (left parts are projected
    /// onto the left side), and the clip rectangle limits the pixels that change.
    @Test func clipsToFrameAndClipRectangle() {
        let (w, h) = (16, 12)
        let huge = Path(rings: [[pt(-5000, -3000), pt(9000, -2000), pt(8000, 7000), pt(-4000, 9000)]])
        #expect(fillAlpha(huge, rule: .nonZero, width: w, height: h).allSatisfy { $0 == 255 })
        let clip = PixelRect(minX: 3, minY: 2, maxX: 9, maxY: 7)
        let clipped = renderedAlpha(width: w, height: h) { p, b in p.fill(huge, color: .white, clip: clip, into: &b) }
        for y in 0..<h {
            for x in 0..<w {
                let inside = x >= 3 && x < 9 && y >= 2 && y < 7
                #expect(clipped[y * w + x] == (inside ? 255 : 0))
            }
        }
        // Non-finite points skip their contour instead of trapping.
        let bad = Path(rings: [[pt(1, 1), pt(.nan, 4), pt(6, 6)], [pt(0, 0), pt(4, 0), pt(4, 4), pt(0, 4)]])
        let a = fillAlpha(bad, rule: .nonZero, width: w, height: h)
        #expect(a[1 * w + 1] == 255 && a[8 * w + 8] == 0)
    }

    /// Half-pixel geometry gives exact half coverage (the area is exact, not sampled).
    @Test func halfPixelEdgesGiveHalfCoverage() {
        let a = fillAlpha(Path(rings: [[pt(2.5, 1), pt(6, 1), pt(6, 3.5), pt(2.5, 3.5)]]), rule: .nonZero, width: 8, height: 5)
        #expect(a[1 * 8 + 2] == 128 && a[1 * 8 + 3] == 255 && a[3 * 8 + 3] == 128 && a[3 * 8 + 2] == 64)
    }
}
