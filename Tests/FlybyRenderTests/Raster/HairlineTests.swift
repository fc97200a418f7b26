import FlybyCore
import FlybyRender
import Testing

/// Thin lines (≤ 1 px) drawn by ``Painter/strokeHairline(_:width:dashes:color:clip:into:)``.
@Suite struct HairlineTests {
    func hairlineAlpha(_ points: [ScreenPoint], width: Double = 1, dashes: [Double] = [], closed: Bool = false,
                       size: (Int, Int) = (48, 48)) -> [Int] {
        var path = Path()
        path.addPolyline(points, closed: closed)
        return renderedAlpha(width: size.0, height: size.1) { p, b in
            b.withView { p.strokeHairline(path, width: width, dashes: dashes, color: .white, into: $0) }
        }
    }

    /// The ideal line: the rectangle `width` wide centred on segment a→b, sampled 16 × 16 per pixel.
    func idealAlpha(_ a: ScreenPoint, _ b: ScreenPoint, width: Double, size: (Int, Int) = (48, 48)) -> [Int] {
        let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
        return supersampled(width: size.0, height: size.1) { x, y in
            let along = ((x - a.x) * dx + (y - a.y) * dy) / length
            let across = ((x - a.x) * dy - (y - a.y) * dx) / length
            return along >= 0 && along <= length && abs(across) <= width / 2
        }
    }

    /// The box-filter estimate puts the right amount of ink on every pixel column: the total is
    /// the line's area, and each pixel is close to the exact coverage of the ideal line. (The
    /// estimate spreads a column's coverage over the rows by the band's centre at the column's
    /// middle, so a steep pixel can differ by up to about a quarter of full coverage; the sum is exact.)
    @Test(arguments: [0.0, 7.0, 22.5, 30.0, 45.0, 60.0, 80.0, 90.0, 135.0, 200.0, 300.0])
    func inkMatchesTheIdealLine(degrees: Double) {
        let (s, c) = sinCos(degrees / 360)
        let a = pt(24.3, 23.8), b = pt(24.3 + 18 * c, 23.8 + 18 * s)
        let got = hairlineAlpha([a, b], width: 1)
        let ideal = idealAlpha(a, b, width: 1)
        let ink = Double(got.reduce(0, +)) / 255, idealInk = Double(ideal.reduce(0, +)) / 255
        #expect(abs(ink - 18) < 0.18, "ink \(ink) for an 18 px line at \(degrees)°")
        #expect(abs(ink - idealInk) < 0.5)
        let d = difference(got, ideal)
        #expect(d.max <= 72, "max difference \(d.max) at pixel \(d.at)")
        #expect(d.mean < 2.5)
    }

    /// Thinner lines keep the same shape at a fraction of the ink.
    @Test func thinLinesCarryProportionalInk() {
        let a = pt(3.2, 5.7), b = pt(41.9, 30.1)
        let full = Double(hairlineAlpha([a, b], width: 1).reduce(0, +))
        let third = Double(hairlineAlpha([a, b], width: 0.3).reduce(0, +))
        #expect(abs(third / full - 0.3) < 0.01)
    }

    /// A dashed hairline is on and off exactly where the pattern says, from the contour's start.
    @Test func dashesFollowThePattern() {
        let row = Array(hairlineAlpha([pt(0, 10.5), pt(48, 10.5)], dashes: [4, 2])[(10 * 48)..<(11 * 48)])
        #expect(row == (0..<48).map { $0 % 6 < 4 ? 255 : 0 })
        // Odd patterns repeat: [3] is 3 on, 3 off; invalid patterns are solid.
        let odd = Array(hairlineAlpha([pt(0, 10.5), pt(48, 10.5)], dashes: [3])[(10 * 48)..<(11 * 48)])
        #expect(odd == (0..<48).map { $0 % 6 < 3 ? 255 : 0 })
        let invalid = Array(hairlineAlpha([pt(0, 10.5), pt(48, 10.5)], dashes: [2, -1])[(10 * 48)..<(11 * 48)])
        #expect(invalid == [Int](repeating: 255, count: 48))
    }

    /// A dash end inside a pixel column gives that column its on-share, and the pattern runs on
    /// across vertices and along lines drawn right to left.
    @Test func dashPhaseRunsOnAcrossVerticesAndDirections() {
        // 2.5 on, 1.5 off from x = 40 leftwards: columns 39, 38 on, 37 half on (alpha 127.5
        // rounds to 128), 36 off, 35 and 34 on, 33 half on.
        let leftward = Array(hairlineAlpha([pt(40, 10.5), pt(0, 10.5)], dashes: [2.5, 1.5])[(10 * 48)..<(11 * 48)])
        #expect(Array(leftward[33...39]) == [128, 255, 255, 0, 128, 255, 255], "\(leftward[33...39])")
        // An L-shaped path: 6 px right then down; the pattern (4 on, 4 off) continues round the corner.
        let corner = hairlineAlpha([pt(0, 2.5), pt(6, 2.5), pt(6, 30)], width: 1, dashes: [4, 4])
        func at(_ x: Int, _ y: Int) -> Int { corner[y * 48 + x] }
        #expect(at(1, 2) == 255 && at(5, 2) == 0)
        // Arc length 6 at the corner: on again from 8 to 12, i.e. rows 4.5…8.5 of the vertical leg.
        #expect(at(6, 3) == 0 && at(6, 6) > 100 && at(6, 7) > 100 && at(6, 10) == 0)
    }

    /// Over a long line, the ink is the on-fraction of the solid line's.
    @Test(arguments: [[1.0, 1.0], [2, 1.5], [0.5, 3], [5, 1, 1, 1]])
    func dashedInkIsTheOnFraction(pattern: [Double]) {
        let a = pt(1.3, 2.2), b = pt(46.1, 40.7)
        let solid = Double(hairlineAlpha([a, b]).reduce(0, +))
        let dashed = Double(hairlineAlpha([a, b], dashes: pattern).reduce(0, +))
        let period = pattern.reduce(0, +)
        let on = stride(from: 0, to: pattern.count, by: 2).map { pattern[$0] }.reduce(0, +)
        // One partial period at the end: at most one dash more or less than the average.
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        let expected = solid * on / period
        #expect(abs(dashed - expected) <= solid * (on / length) + 255, "\(dashed) vs \(expected)")
    }
}
