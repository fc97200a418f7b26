import FlybyCore
import Testing

@Suite struct ViewAnnotationLayoutTests {
    let screen = ScreenSize(width: 400, height: 300)
    let callout = ScreenSize(width: 100, height: 40)

    @Test func bottomAnchorPutsTheAnnotationAboveItsPointAndPositiveOffsetYMovesItUp() {
        let item = ViewAnnotationLayoutItem(id: 1, target: .point(ScreenPoint(x: 200, y: 150)), size: callout,
                                            anchors: [ViewAnnotationAnchorConfig(anchor: .bottom, offsetX: 5, offsetY: 10)])
        let placed = ViewAnnotationLayout.place([item], screen: screen)
        #expect(placed.map(\.frame) == [ScreenRect(x: 155, y: 100, width: 100, height: 40)])
    }

    @Test func anAnchorThatWouldLeaveTheScreenGivesWayToTheNextVariableAnchor() {
        // Near the top edge: above the point (bottom anchor) would be cut off, below it (top) fits.
        let item = ViewAnnotationLayoutItem(id: 1, target: .point(ScreenPoint(x: 200, y: 20)), size: callout,
                                            anchors: [ViewAnnotationAnchorConfig(anchor: .bottom), ViewAnnotationAnchorConfig(anchor: .top)])
        let placed = ViewAnnotationLayout.place([item], screen: screen)
        #expect(placed.first?.anchor.anchor == .top)
        #expect(placed.first?.frame.y == 20)
    }

    @Test func nearTheRightEdgeTheLeftwardAnchorIsChosen() {
        let item = ViewAnnotationLayoutItem(id: 1, target: .point(ScreenPoint(x: 390, y: 150)), size: callout,
                                            anchors: [ViewAnnotationAnchorConfig(anchor: .bottomLeft), ViewAnnotationAnchorConfig(anchor: .bottomRight)])
        let placed = ViewAnnotationLayout.place([item], screen: screen)
        #expect(placed.first?.anchor.anchor == .bottomRight)
        #expect(placed.first.map { $0.frame.maxX <= 400 } == true)
    }

    @Test func anAnnotationOverlappingAnEarlierOneMovesToAFreeAnchorOrHides() {
        let a = ViewAnnotationLayoutItem(id: 1, target: .point(ScreenPoint(x: 200, y: 150)), size: callout, anchors: [.init(anchor: .bottom)])
        let movable = ViewAnnotationLayoutItem(id: 2, target: .point(ScreenPoint(x: 210, y: 150)), size: callout,
                                               anchors: [.init(anchor: .bottom), .init(anchor: .top)])
        let stuck = ViewAnnotationLayoutItem(id: 3, target: .point(ScreenPoint(x: 220, y: 150)), size: callout, anchors: [.init(anchor: .bottom)])
        let placed = ViewAnnotationLayout.place([a, movable, stuck], screen: screen)
        #expect(placed.map(\.id) == [1, 2])
        #expect(placed.last?.anchor.anchor == .top)
    }

    @Test func allowOverlapShowsAnAnnotationThatCollides() {
        let a = ViewAnnotationLayoutItem(id: 1, target: .point(ScreenPoint(x: 200, y: 150)), size: callout)
        let b = ViewAnnotationLayoutItem(id: 2, target: .point(ScreenPoint(x: 210, y: 150)), size: callout, allowOverlap: true)
        let c = ViewAnnotationLayoutItem(id: 3, target: .point(ScreenPoint(x: 220, y: 150)), size: callout)
        let placed = ViewAnnotationLayout.place([a, b, c], screen: screen)
        #expect(placed.map(\.id) == [1, 2])
        #expect(placed[0].frame.intersects(placed[1].frame))
    }

    @Test func selectedAndHigherPriorityAnnotationsWinTheCollision() {
        let first = ViewAnnotationLayoutItem(id: 1, target: .point(ScreenPoint(x: 200, y: 150)), size: callout)
        let selected = ViewAnnotationLayoutItem(id: 2, target: .point(ScreenPoint(x: 205, y: 150)), size: callout, selected: true)
        let urgent = ViewAnnotationLayoutItem(id: 3, target: .point(ScreenPoint(x: 210, y: 150)), size: callout, priority: 5)
        #expect(ViewAnnotationLayout.place([first, selected], screen: screen).map(\.id) == [2])
        #expect(ViewAnnotationLayout.place([first, urgent], screen: screen).map(\.id) == [3])
    }

    @Test func invisibleOrOffScreenAnnotationsAreHidden() {
        let hidden = ViewAnnotationLayoutItem(id: 1, target: .point(ScreenPoint(x: 200, y: 150)), size: callout, visible: false)
        let away = ViewAnnotationLayoutItem(id: 2, target: .point(ScreenPoint(x: 900, y: 150)), size: callout)
        let behind = ViewAnnotationLayoutItem(id: 3, target: .point(nil), size: callout)
        #expect(ViewAnnotationLayout.place([hidden, away, behind], screen: screen).isEmpty)
    }

    @Test func aLineAnnotationSitsInTheMiddleOfTheLinesVisibleStretch() {
        // From (−200, 100) to (300, 100): on screen from x = 0 to 300, so the middle is x = 150.
        let line = ViewAnnotationLayoutItem(id: 1, target: .lines([[ScreenPoint(x: -200, y: 100), ScreenPoint(x: 300, y: 100)]]),
                                            size: callout)
        let placed = ViewAnnotationLayout.place([line], screen: screen)
        #expect(placed.first?.anchorPoint == ScreenPoint(x: 150, y: 100))
    }

    @Test func aLineAnnotationTakesTheLongestOfSeveralVisibleStretches() {
        // Leaves the screen below and comes back: runs of length 50 and 400 (200 up, 200 right),
        // so the anchor is 200 points along the second run: its corner at (100, 100).
        let path = [ScreenPoint(x: 50, y: 250), ScreenPoint(x: 50, y: 400), ScreenPoint(x: 100, y: 400),
                    ScreenPoint(x: 100, y: 100), ScreenPoint(x: 300, y: 100)]
        let point = ViewAnnotationLayout.anchorPoint(of: .lines([path]), in: ScreenRect(x: 0, y: 0, width: 400, height: 300))
        #expect(point == ScreenPoint(x: 100, y: 100))
        let runs = ViewAnnotationLayout.visibleRuns(of: path, in: ScreenRect(x: 0, y: 0, width: 400, height: 300))
        #expect(runs.count == 2)
    }
}

@Suite struct ViewAnnotationObstacleTests {
    @Test func noAnnotationCoversAnObstacleEvenWithAllowOverlap() {
        let screen = ScreenSize(width: 400, height: 300)
        let credits = ScreenRect(x: 200, y: 285, width: 200, height: 15)
        // Centred on a point inside the credits box: the centre anchor would cover it, the bottom one does not.
        let a = ViewAnnotationLayoutItem(id: 1, target: .point(ScreenPoint(x: 300, y: 290)), size: ScreenSize(width: 60, height: 20),
                                         allowOverlap: true, anchors: [.center, .init(anchor: .bottom, offsetY: 12)])
        let stuck = ViewAnnotationLayoutItem(id: 2, target: .point(ScreenPoint(x: 350, y: 292)), size: ScreenSize(width: 60, height: 20),
                                             allowOverlap: true, anchors: [.center])
        let placed = ViewAnnotationLayout.place([a, stuck], screen: screen, obstacles: [credits])
        #expect(placed.map(\.id) == [1])
        #expect(placed.first.map { !$0.frame.intersects(credits) } == true)
    }
}
