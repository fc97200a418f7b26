import FlybyCore
import FlybyExamples
import FlybyMaps
import Testing

@Suite struct DeclarativeMapTests {
    @Test func buildingTheContentAddsExactlyWhatWasDeclared() throws {
        let size = ScreenSize(width: 320, height: 200)
        let plain = try MapView(frame: size, mapInitOptions: MapInitOptions(styleURI: .standard))
        let host = try MapHost(try DeclarativeMapExample.makeMap(), frame: size)
        let map = host.mapView.mapboxMap
        // One declared source and layer, plus one generated source+layer per annotation group.
        #expect(map.allSourceIdentifiers.filter { !plain.mapboxMap.allSourceIdentifiers.contains($0) } == ["park-source", "map-content-polygons", "poi-pins"])
        #expect(map.allLayerIdentifiers.filter { !plain.mapboxMap.allLayerIdentifiers.contains($0) } == ["park-fill", "map-content-polygons", "poi-pins"])
        let managers = host.mapView.annotations.annotationManagersById
        #expect((managers["map-content-polygons"] as? PolygonAnnotationManager)?.annotations.count == 1)
        #expect(host.mapView.viewAnnotations.allAnnotations.map(\.title) == ["Hello, Helsinki!"])
        #expect(host.mapView.location.options.puckType == .puck2D)
        #expect(host.mapView.location.options.puckBearing == .course)
        // Clustering keeps every point: singles plus the counts of the bubbles add up to all POIs.
        let shown = try #require((managers["poi-pins"] as? PointAnnotationManager)?.annotations)
        let count = shown.reduce(0) { $0 + (Int($1.textField ?? "") ?? 1) }
        #expect(count == (try DeclarativeMapExample.pois()).count)
        #expect(shown.contains { $0.textField != nil }, "some points are clustered at zoom 14")
    }

    @Test func contentBuildersTakeConditionsAndLoops() throws {
        let show = false
        let map = Map {
            if show { Puck2D() }
            for k in 0..<3 {
                MapViewAnnotation(coordinate: LocationCoordinate2D(latitude: 60, longitude: 24 + Double(k))) { Text("\(k)") }
            }
            ForEvery([1, 2]) { n in
                GeoJSONSource(id: "s\(n)")
            }
        }
        #expect(map.content.count == 5)
        #expect(!map.content.contains { if case .puck2D = $0 { return true } else { return false } })
    }

    @Test func eachViewportChangeRunsTheNamedTransitionAndEndsWhereAsked() throws {
        let report = try DeclarativeMapExample.run(size: ScreenSize(width: 320, height: 200))
        let steps = Dictionary(uniqueKeysWithValues: report.steps.map { ($0.animation, $0) })

        let ease = try #require(steps["easeIn(duration: 1.0)"])
        #expect(abs(ease.duration - 1) < 1e-9)
        #expect(abs(ease.camera.zoom - 16) < 1e-9)
        #expect(abs(ease.camera.center.latitude - DeclarativeMapExample.station.latitude) < 1e-9)

        // The fly ends on the overview: the whole park is on screen.
        let fly = try #require(steps["fly"])
        #expect(fly.duration > 0)
        let transform = MapTransform(size: ScreenSize(width: 320, height: 200), state: fly.camera)
        for c in DeclarativeMapExample.kaisaniemi {
            let p = try #require(transform.point(for: c))
            #expect(p.x >= 0 && p.x <= 320 && p.y >= 0 && p.y <= 200)
        }

        // The default transition to the puck finishes within its maxDuration at the asked zoom and pitch.
        let follow = try #require(steps["default(maxDuration: 2.0)"])
        #expect(follow.duration <= 2 + 1e-9)
        #expect(abs(follow.camera.zoom - 16) < 1e-6 && abs(follow.camera.pitch - 45) < 1e-6)

        // Without withViewportAnimation the change is immediate.
        let styleDefault = try #require(steps["immediate"])
        #expect(styleDefault.duration == 0)
        #expect(styleDefault.camera.zoom == 15)
        #expect(report.steps.last?.animation == "idle")
    }

    @Test func anEaseInTransitionFollowsTheEaseInCurve() throws {
        let host = try MapHost(Map(initialViewport: .camera(center: DeclarativeMapExample.station, zoom: 12)), frame: ScreenSize(width: 160, height: 100))
        withViewportAnimation(.easeIn(duration: 1)) { host.viewport = .camera(zoom: 14) }
        host.advance(by: 0.5)
        // CSS ease-in (0.42, 0, 1, 1) at half time is about 0.315 of the way (linear would be 0.5).
        let z = host.mapView.mapboxMap.cameraState.zoom
        #expect(z > 12.5 && z < 12.75)
        host.advance(by: 0.6)
        #expect(abs(host.mapView.mapboxMap.cameraState.zoom - 14) < 1e-9)
        if case .state(let s) = host.mapView.viewport.status { #expect(s is CameraViewportState) } else { Issue.record("not in the camera state") }
    }

    @Test func aDeclaredViewAnnotationReportsTheAnchorItTook() throws {
        final class Seen { var anchors: [ViewAnnotationAnchor] = [] }
        let seen = Seen()
        let size = ScreenSize(width: 320, height: 200)
        let probe = try MapView(frame: size, mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: DeclarativeMapExample.station, zoom: 14),
                                                                            styleURI: .standard))
        // A coordinate 10 points below the top edge: "above the point" cannot fit.
        let nearTop = probe.mapboxMap.coordinate(for: ScreenPoint(x: 160, y: 10))
        let host = try MapHost(Map(initialViewport: .camera(center: DeclarativeMapExample.station, zoom: 14)) {
            MapViewAnnotation(coordinate: nearTop) { Text("Edge") }
                .variableAnchors([.init(anchor: .bottom), .init(anchor: .top)])
                .onAnchorChanged { seen.anchors.append($0.anchor) }
        }, frame: size)
        _ = host.snapshot()
        #expect(seen.anchors == [.top])
    }
}
