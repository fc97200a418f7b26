import FlybyCore
import FlybyExamples
import FlybyMaps
import FlybyRender
import Testing

@Suite struct AnnotationsTests {
    @Test func tapOnTheLineReportsTheLineToTheDelegate() throws {
        let r = try AnnotationsExample.run()
        #expect(r.tapOnLine.count == 1)
        #expect(r.tapOnLine.first?.annotations == ["new-york-washington"])
    }

    @Test func tapInTheHoleDoesNotReportThePolygon() throws {
        let r = try AnnotationsExample.run()
        #expect(r.tapInHole.isEmpty)
    }

    @Test func tapOnThePolygonBandReportsThePolygon() throws {
        let r = try AnnotationsExample.run()
        #expect(r.tapOnRing.map(\.annotations) == [["pennsylvania-ring"]])
    }

    @Test func tapOnAPinHeadReportsThatPin() throws {
        let r = try AnnotationsExample.run()
        #expect(r.tapOnPin.map(\.annotations) == [["new-york"]])
    }

    @Test func lineIsDrawnRedAndTranslucentAndTheHoleIsNotFilled() throws {
        let scene = try AnnotationsExample.makeScene()
        let frame = scene.mapView.snapshot()
        let map = scene.mapView.mapboxMap
        let mid = try #require(map.point(for: LocationCoordinate2D(latitude: 39.81, longitude: -75.52)))
        let onLine = frame.color(x: Int(mid.x), y: Int(mid.y))
        #expect(onLine.red > 200 && onLine.green < 90 && onLine.blue < 90)
        // 0.8 opacity: the line is not pure red.
        #expect(onLine.green > 0 || onLine.blue > 0)
        let inHole = try #require(map.point(for: LocationCoordinate2D(latitude: 40.8, longitude: -78.0)))
        let inBand = try #require(map.point(for: LocationCoordinate2D(latitude: 39.95, longitude: -79.2)))
        let hole = frame.color(x: Int(inHole.x), y: Int(inHole.y)), band = frame.color(x: Int(inBand.x), y: Int(inBand.y))
        #expect(Int(band.blue) > Int(band.red) + 40)
        #expect(Int(hole.blue) <= Int(hole.red) + 40)
    }

    @Test func reassigningAnnotationsReplacesThemInTheStyle() throws {
        let scene = try AnnotationsExample.makeScene()
        scene.lines.annotations = []
        let map = scene.mapView.mapboxMap
        let mid = try #require(map.point(for: LocationCoordinate2D(latitude: 39.81, longitude: -75.52)))
        let frame = scene.mapView.snapshot()
        let p = frame.color(x: Int(mid.x), y: Int(mid.y))
        #expect(!(p.red > 200 && p.green < 90))
        scene.mapView.tap(at: mid)
        #expect(scene.recorder.calls.isEmpty)
    }
}
