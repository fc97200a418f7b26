import FlybyCore
import FlybyExamples
import FlybyMaps
import FlybyRender
import Testing

@Suite struct ViewAnnotationsTests {
    @Test func calloutsSitAboveTheirPointsAndTheRouteCalloutOnTheLine() throws {
        let scene = try ViewAnnotationsExample.makeScene()
        scene.mapView.viewAnnotations.layout()
        for a in [scene.cathedral, scene.station, scene.market] {
            #expect(a.anchorConfig?.anchor == .bottom, "\(a.title)")
            let frame = try #require(a.frame), point = try #require(a.anchorPoint)
            #expect(frame.maxY <= point.y)
        }
        // The route callout's point lies on the drawn line.
        let p = try #require(scene.route.anchorPoint)
        let hits = scene.mapView.mapboxMap.queryRenderedFeatures(with: p, options: RenderedQueryOptions(layerIds: [ViewAnnotationsExample.routeLayerId], filter: nil))
        #expect(!hits.isEmpty)
    }

    @Test func anAnchorMovesToKeepTheCalloutOnScreen() throws {
        let report = try ViewAnnotationsExample.run()
        #expect(report.firstAnchors["Helsinki Cathedral"] == "bottom")
        #expect(report.cathedralAnchorNearTop == "top")
        #expect(report.anchorChanges.contains("Helsinki Cathedral → top"))
    }

    @Test func anOverlappingCalloutHidesUnlessItMayOverlap() throws {
        let report = try ViewAnnotationsExample.run()
        #expect(report.taxiHiddenWithoutOverlap)
        #expect(report.taxiShownWithOverlap)
    }

    @Test func anInvisibleOrRemovedCalloutIsNotDrawn() throws {
        let scene = try ViewAnnotationsExample.makeScene()
        let all = scene.mapView.snapshot()
        #expect(!scene.market.isHidden)
        scene.market.visible = false
        let without = scene.mapView.snapshot()
        #expect(scene.market.isHidden)
        let differs = all.pixels != without.pixels
        #expect(differs)
        scene.market.visible = true
        scene.market.remove()
        #expect(!scene.mapView.viewAnnotations.allAnnotations.contains { $0 === scene.market })
        let same = scene.mapView.snapshot().pixels == without.pixels
        #expect(same)
    }
}
