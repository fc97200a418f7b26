import FlybyCore
import FlybyRender
import Testing

/// How the stroker finds the open ends that meet (round caps and joins), and the bounds pass
/// every fill and stroke starts with.
@Suite struct StrokeEndPairingTests {
    let round = StrokeStyle(width: 4, join: .round, cap: .round, tolerance: 0.25)

    func outline(_ polylines: [[ScreenPoint]]) -> Path { strokeOutline(polylines, round) }

    @Test func endsAtMinusZeroAndPlusZeroMeet() {
        let joined = outline([[pt(-10, 5), pt(-0.0, 5)], [pt(0, 5), pt(10, 8)]])
        #expect(joined.contours.count == 1)
    }

    /// Four ways ending at one point: the 1st pairs with the 2nd and the 3rd with the 4th.
    @Test func fourEndsAtOnePointMakeTwoChains() {
        let c = pt(20, 20)
        let joined = outline([[pt(0, 20), c], [c, pt(40, 21)], [pt(20, 0), c], [c, pt(21, 40)]])
        #expect(joined.contours.count == 2)
    }

    /// Many short ways given out of order still chain into one outline (more ends than the
    /// smallest table has slots).
    @Test func manyWaysOutOfOrderChainIntoOne() {
        let points = (0...60).map { pt(Double($0) * 3, Double($0 % 2) * 2) }
        var ways = (0..<60).map { [points[$0], points[$0 + 1]] }
        ways = ways.enumerated().sorted { ($0.offset * 37) % 60 < ($1.offset * 37) % 60 }.map(\.element)
        #expect(outline(ways).contours.count == 1)
    }

    @Test func boundsLeaveOutNonFinitePointsAndSaySo() {
        var path = Path()
        path.addPolyline([pt(1, 2), pt(.infinity, 3), pt(-4, .nan), pt(5, -6)])
        let result = path.finiteBoundsAndFiniteness
        #expect(result?.bounds.minX == 1 && result?.bounds.maxX == 5)
        #expect(result?.bounds.minY == -6 && result?.bounds.maxY == 2)
        #expect(result?.allFinite == false)
        var finite = Path()
        finite.addPolyline([pt(1, 2), pt(5, -6)])
        #expect(finite.finiteBoundsAndFiniteness?.allFinite == true)
        #expect(finite.finiteBoundsAndFiniteness?.bounds.minY == -6)
        #expect(Path().finiteBoundsAndFiniteness == nil)
    }
}
