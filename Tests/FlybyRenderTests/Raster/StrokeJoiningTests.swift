import FlybyCore
import FlybyRender
import Testing

/// Open contours of one stroke that meet end to end are outlined as one polyline when caps and
/// joins are round (the same set of points within width/2 of the lines, with fewer edges).
@Suite struct StrokeJoiningTests {
    let round = StrokeStyle(width: 6, join: .round, cap: .round, tolerance: 0.25)

    func outline(_ polylines: [[ScreenPoint]], _ style: StrokeStyle) -> Path { strokeOutline(polylines, style) }

    func alpha(_ polylines: [[ScreenPoint]], _ style: StrokeStyle) -> [Int] {
        var path = Path()
        for line in polylines { path.addPolyline(line) }
        return renderedAlpha(width: 40, height: 30) { p, b in p.stroke(path, style: style, color: .white, into: &b) }
    }

    /// Two ways meeting at (20, 8), given in any direction, draw the pixels of the one polyline
    /// through both (to the rounding of the short extra edges at the joint), with one outline
    /// instead of two and fewer edges than two capped ones.
    @Test(arguments: [false, true], [false, true])
    func waysMeetingEndToEndDrawAsOnePolyline(reverseFirst: Bool, reverseSecond: Bool) {
        var first = [pt(5, 20), pt(12, 14), pt(20, 8)], second = [pt(20, 8), pt(28, 12), pt(34, 22)]
        if reverseFirst { first.reverse() }
        if reverseSecond { second.reverse() }
        let whole = [pt(5, 20), pt(12, 14), pt(20, 8), pt(28, 12), pt(34, 22)]
        let differing = zip(alpha([first, second], round), alpha([whole], round)).filter { $0 != $1 }
        #expect(differing.allSatisfy { abs($0.0 - $0.1) <= 1 }, "\(differing)")
        let joined = outline([first, second], round)
        #expect(joined.contours.count == 1)
        let separate = outline([first], round).points.count + outline([second], round).points.count
        #expect(joined.points.count < separate)
    }

    /// A contour stroked next to one it is joined to has the same edges as stroked alone except
    /// within width/2 of the joint (what lets band renderers leave out features outside their
    /// rows): rows farther than that from the second way are identical, even with the sharp inner
    /// corner whose offset lines meet far from the joint.
    @Test func joiningChangesNothingBeyondTheJointsReach() {
        let first = [pt(5, 28), pt(20, 5)], second = [pt(20, 5), pt(2, 7)]
        let width = 40
        let joined = alpha([first, second], round)
        let alone = alpha([first], round)
        // The second way spans rows 5…7; with the 3 px half width it reaches rows 2…10.
        #expect(Array(joined[(11 * width)...]) == Array(alone[(11 * width)...]))
        #expect(joined != alone)
    }

    /// Ways that come back to where they started are outlined as a ring: no caps at all, and the
    /// pixels of the closed polyline (to the rounding of the short extra edges at the joints).
    @Test func waysClosingARingDrawAsAClosedContour() {
        let ways = [[pt(8, 6), pt(30, 6)], [pt(30, 6), pt(30, 24)], [pt(8, 24), pt(30, 24)], [pt(8, 24), pt(8, 6)]]
        var ring = Path()
        ring.addPolyline([pt(8, 6), pt(30, 6), pt(30, 24), pt(8, 24)], closed: true)
        let expected = renderedAlpha(width: 40, height: 30) { p, b in p.stroke(ring, style: round, color: .white, into: &b) }
        let differing = zip(alpha(ways, round), expected).filter { $0 != $1 }
        #expect(differing.allSatisfy { abs($0.0 - $0.1) <= 1 }, "\(differing)")
        #expect(outline(ways, round).contours.count == 2, "the outer and the inner side of the ring")
    }

    /// At a point where three ways end, two are joined and the third keeps its cap; the union of
    /// the three strokes is drawn either way, so the pixels match the ways stroked one by one.
    @Test func aThirdWayAtAJunctionKeepsItsCap() {
        let ways = [[pt(5, 15), pt(20, 15)], [pt(20, 15), pt(35, 15)], [pt(20, 15), pt(20, 28)]]
        let separately = renderedAlpha(width: 40, height: 30) { p, b in
            for way in ways {
                var path = Path()
                path.addPolyline(way)
                p.stroke(path, style: round, color: .white, into: &b)
            }
        }
        let together = alpha(ways, round)
        #expect(outline(ways, round).contours.count == 2)
        // Separate strokes blend twice where they overlap (255 either way here: white, opaque);
        // the joined outline differs from the separate caps only by the flattening of the arcs.
        let differing = zip(together, separately).filter { abs($0 - $1) > 24 }.count
        #expect(differing == 0)
    }

    /// With butt caps or other joins, ways are outlined one by one: joining would fill the notch
    /// between two butt ends, which Mapbox draws feature by feature.
    @Test(arguments: [(LineCap.butt, LineJoin.round), (.round, .miter), (.square, .bevel)])
    func otherCapsAndJoinsKeepEveryWaySeparate(cap: LineCap, join: LineJoin) {
        let style = StrokeStyle(width: 6, join: join, cap: cap)
        let ways = [[pt(5, 20), pt(20, 8)], [pt(20, 8), pt(34, 20)]]
        #expect(outline(ways, style).contours.count == 2)
    }

    /// Ends that only nearly meet are not joined (exact positions only), and dots and closed
    /// contours in the same path are stroked as before.
    @Test func onlyExactlyMeetingOpenEndsAreJoined() {
        let ways = [[pt(5, 20), pt(20, 8)], [pt(20.001, 8), pt(34, 20)], [pt(10, 25), pt(10, 25)]]
        var path = Path()
        for way in ways { path.addPolyline(way) }
        path.addPolyline([pt(2, 2), pt(6, 2), pt(6, 6)], closed: true)
        var stroker = Stroker()
        var outline = Path()
        stroker.stroke(path, style: round, into: &outline)
        // Two open ways, one dot, and the two sides of the closed contour.
        #expect(outline.contours.count == 5)
    }
}
