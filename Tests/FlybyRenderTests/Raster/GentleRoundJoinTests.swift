import FlybyCore
import FlybyRender
import Foundation
import Testing

/// A round join whose arc needs no point of its own within the tolerance is one outline point
/// (the miter point) on the outer side, and the stroke keeps its width along the curve.
@Suite struct GentleRoundJoinTests {
    /// 25 points on a circle of radius 60 (a turn of 2° per vertex), stroked 8 px wide.
    func gentleCurve() -> [ScreenPoint] {
        (0...24).map { i in
            let a = Double(i) * Double.pi / 90
            return pt(10 + 60 * sin(a), 70 - 60 * cos(a))
        }
    }

    @Test func gentleTurnsAddOnePointPerSide() {
        var path = Path()
        path.addPolyline(gentleCurve())
        var stroker = Stroker()
        var outline = Path()
        stroker.stroke(path, style: StrokeStyle(width: 8, join: .round, cap: .butt, tolerance: 0.25), into: &outline)
        #expect(outline.points.count == 2 * 25)
        // With a tighter tolerance than the miter point's 0.0006 px excess, the arc's two end
        // points are kept at each of the 23 joins.
        var fine = Path()
        stroker.stroke(path, style: StrokeStyle(width: 8, join: .round, cap: .butt, tolerance: 0.0001), into: &fine)
        #expect(fine.points.count == 2 * 25 + 23)
    }

    /// The painted area is the ideal band's (length × width) within the tolerance along both sides.
    @Test func theCurveKeepsItsArea() {
        var path = Path()
        path.addPolyline(gentleCurve())
        let alpha = renderedAlpha(width: 80, height: 80) { p, b in
            p.stroke(path, style: StrokeStyle(width: 8, join: .round, cap: .butt, tolerance: 0.25), color: .white, into: &b)
        }
        let area = Double(alpha.reduce(0, +)) / 255
        let length = 60 * Double.pi / 90 * 24   // 24 chords of a 2° turn ≈ the arc
        #expect(abs(area - length * 8) < 0.25 * 2 * length, "area \(area), ideal \(length * 8)")
    }
}
