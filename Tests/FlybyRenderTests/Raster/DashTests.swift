import FlybyCore
import FlybyRender
import Testing

@Suite struct DashTests {
    func dashedRow(_ dashes: [Double], offset: Double = 0) -> [Int] {
        var path = Path()
        path.addPolyline([pt(0, 10.5), pt(40, 10.5)])
        let a = renderedAlpha(width: 40, height: 20) { p, b in
            p.stroke(path, style: StrokeStyle(width: 1, dashes: dashes, dashOffset: offset), color: .white, into: &b)
        }
        return Array(a[(10 * 40)..<(11 * 40)])
    }

    /// A pattern finer than a pixel is its average coverage: [1e-6, 1e-6] on a 3 px line is a
    /// solid line at half opacity (cutting it would make billions of dashes).
    @Test func patternFinerThanAPixelIsDrawnAtItsAverageCoverage() {
        #expect(Dasher.subpixelCoverage([1e-6, 1e-6]) == 0.5)
        #expect(Dasher.subpixelCoverage([0.1, 0.3]) == 0.25)
        #expect(Dasher.subpixelCoverage([0.2]) == 0.5)
        #expect(Dasher.subpixelCoverage([4, 2]) == nil)
        #expect(Dasher.subpixelCoverage([0, 0]) == nil)
        var path = Path()
        path.addPolyline([pt(0, 10.5), pt(40, 10.5)])
        let fine = renderedAlpha(width: 40, height: 20) { p, b in
            p.stroke(path, style: StrokeStyle(width: 3, dashes: [3e-6, 3e-6]), color: .white, into: &b)
        }
        let half = renderedAlpha(width: 40, height: 20) { p, b in
            p.stroke(path, style: StrokeStyle(width: 3), color: Color.white.withAlphaScaled(by: 0.5), into: &b)
        }
        #expect(fine == half)
        #expect(fine[10 * 40 + 20] > 100 && fine[10 * 40 + 20] < 150)
    }

    @Test func onOffPattern() {
        #expect(dashedRow([4, 2]) == (0..<40).map { $0 % 6 < 4 ? 255 : 0 })
        #expect(dashedRow([4, 2], offset: 1) == (0..<40).map { ($0 + 1) % 6 < 4 ? 255 : 0 })
        #expect(dashedRow([4, 2], offset: -2) == (0..<40).map { ($0 + 4) % 6 < 4 ? 255 : 0 })
        // An odd pattern repeats: [3] is 3 on, 3 off.
        #expect(dashedRow([3]) == (0..<40).map { $0 % 6 < 3 ? 255 : 0 })
        // Invalid patterns draw solid lines.
        #expect(dashedRow([0, 0]) == [Int](repeating: 255, count: 40))
        #expect(dashedRow([2, -1]) == [Int](repeating: 255, count: 40))
    }

    /// A line a billion pixels long costs only its visible part, and the dashes there keep the
    /// phase they would have had (the pattern is advanced arithmetically outside).
    @Test func invisibleStretchesAreSkippedArithmetically() {
        var line = Path()
        line.addPolyline([pt(-1e9, 10), pt(1e9, 10)], closed: false)
        var dasher = Dasher()
        var out = Path()
        dasher.dash(line, pattern: [4, 2], offset: 0, visible: (-10, 0, 110, 20), into: &out)
        #expect(out.contours.count < 40)
        for c in out.contours where c.count > 1 {
            let start = out.points[c.start].x, end = out.points[c.end - 1].x
            if start > -10 && end < 110 {
                // Dashes start every 6 px counted from x = −1e9 (1e9 is a multiple of 2 but not 6).
                let phase = (start + 1e9).truncatingRemainder(dividingBy: 6)
                #expect(abs(phase) < 1e-6 || abs(phase - 6) < 1e-6, "dash at \(start)")
                #expect(abs(end - start - 4) < 1e-6)
            }
        }
    }

    /// Dashes of a closed contour run through the corners and across the start point (the last
    /// and first dash merge), so a 20×20 square (perimeter 80) with [10, 5] gives 5 dashes.
    @Test func closedContourDashesMergeAtTheStart() {
        var square = Path()
        square.addPolyline([pt(5, 5), pt(25, 5), pt(25, 25), pt(5, 25)], closed: true)
        var dasher = Dasher()
        var out = Path()
        dasher.dash(square, pattern: [10, 5], offset: 0, into: &out)
        #expect(out.contours.count == 5)
        #expect(out.contours.allSatisfy { !$0.isClosed })
        // The merged dash runs from (5, 10) up to the start (5, 5) and on to (15, 5).
        let last = try! #require(out.contours.last)
        #expect(out.points[last.start] == pt(5, 10))
        #expect(out.points[last.end - 1] == pt(15, 5))
    }

    /// A zero-length dash with round caps is a dot.
    @Test func zeroLengthDashesAreDots() {
        var path = Path()
        path.addPolyline([pt(0, 10), pt(40, 10)])
        let a = renderedAlpha(width: 40, height: 20) { p, b in
            p.stroke(path, style: StrokeStyle(width: 4, cap: .round, dashes: [0, 10]), color: .white, into: &b)
        }
        // Dots centred at x = 0, 10, 20, 30, 40: disc area π·4 ≈ 12.6 px each, the end ones half clipped.
        let total = Double(a.reduce(0, +)) / 255
        let columns = (0..<40).map { x in (0..<20).reduce(0) { $0 + a[$1 * 40 + x] } }
        #expect(abs(total - 4 * Double.pi * 4) < 0.3, "total \(total), columns \(columns)")
        #expect(a[10 * 40 + 10] == 255 && a[10 * 40 + 15] == 0)
    }
}
