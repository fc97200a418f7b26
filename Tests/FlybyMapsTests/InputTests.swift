import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender
import Testing

/// Taps, long presses and their handlers.
@Suite struct InputTests {
    func makeView() throws -> MapView {
        try MapView(frame: ScreenSize(width: 300, height: 200),
                    mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 4),
                                                   styleURI: .world))
    }

    @Test func tapOnEmptyMapSendsOnMapTapWithTheCoordinate() throws {
        let v = try makeView()
        var got: [MapContentGestureContext] = []
        v.gestures.onMapTap.observe { got.append($0) }
        v.tap(at: ScreenPoint(x: 150, y: 100))
        #expect(got.count == 1)
        #expect(abs(got[0].coordinate.latitude) < 1e-9 && abs(got[0].coordinate.longitude) < 1e-9)
    }

    @Test func tapCancelsRunningAnimations() throws {
        let v = try makeView()
        v.camera.ease(to: CameraOptions(zoom: 8), duration: 1)
        v.advance(by: 0.2)
        let zoom = v.mapboxMap.cameraState.zoom
        v.tap(at: ScreenPoint(x: 10, y: 10))
        v.advance(by: 1)
        #expect(v.mapboxMap.cameraState.zoom == zoom)
    }

    @Test func annotationTapHandlerConsumesTheTapAndLongPressHandlerTheLongPress() throws {
        let v = try makeView()
        let manager = v.annotations.makeCircleAnnotationManager()
        var c = CircleAnnotation(id: "dot", centerCoordinate: LocationCoordinate2D(latitude: 0, longitude: 0))
        c.circleRadius = 12
        var taps = 0, presses = 0, mapTaps = 0, mapPresses = 0
        c.tapHandler = { _ in taps += 1; return true }
        c.longPressHandler = { _ in presses += 1; return true }
        manager.annotations = [c]
        v.gestures.onMapTap.observe { _ in mapTaps += 1 }
        v.gestures.onMapLongPress.observe { _ in mapPresses += 1 }
        v.tap(at: ScreenPoint(x: 155, y: 100))
        v.longPress(at: ScreenPoint(x: 150, y: 95))
        #expect((taps, presses, mapTaps, mapPresses) == (1, 1, 0, 0))
        v.tap(at: ScreenPoint(x: 20, y: 20))
        v.longPress(at: ScreenPoint(x: 20, y: 20))
        #expect((taps, presses, mapTaps, mapPresses) == (1, 1, 1, 1))
    }

    @Test func layerTapHandlerGetsTheFeature() throws {
        let v = try makeView()
        var source = GeoJSONSource(id: "pt")
        source.data = .feature(Feature(id: .string("a"), geometry: .point(LocationCoordinate2D(latitude: 0, longitude: 0))))
        try v.mapboxMap.addSource(source)
        var layer = CircleLayer(id: "pt-circles", source: "pt")
        layer.circleRadius = .constant(8)
        try v.mapboxMap.addLayer(layer)
        var found: [PropertyValue?] = []
        v.onLayerTap("pt-circles") { feature, _ in found.append(feature.featureID); return true }
        v.tap(at: ScreenPoint(x: 152, y: 101))
        #expect(found == [.string("a")])
    }

    @Test func nonFiniteCameraIsRefused() throws {
        let v = try makeView()
        let before = v.mapboxMap.cameraState
        v.mapboxMap.setCamera(to: CameraOptions(zoom: .nan))
        #expect(v.mapboxMap.cameraState == before)
    }
}

@Suite struct LocationPuckTests {
    @Test func puckIsDrawnOnlyWithAPuckTypeAndFollowsTheTrack() throws {
        let start = LocationCoordinate2D(latitude: 0, longitude: 0), end = LocationCoordinate2D(latitude: 0, longitude: 0.02)
        let track = try Track(name: "east", fixes: [Location(coordinate: start, timestamp: 0, horizontalAccuracy: 5),
                                                    Location(coordinate: end, timestamp: 10, horizontalAccuracy: 5)])
        let v = try MapView(frame: ScreenSize(width: 200, height: 120),
                            mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: start, zoom: 14), styleURI: .world))
        v.location.override(track: track)
        v.advance(by: 0.5)
        #expect(try #require(v.location.puck).coordinate.longitude < 0.001)
        // The second fix arrives at t = 10 s; the puck glides to it over about a second.
        v.advance(by: 11)
        let puck = try #require(v.location.puck)
        #expect(abs(puck.coordinate.longitude - 0.02) < 1e-6)
        v.mapboxMap.setCamera(to: CameraOptions(center: puck.coordinate))
        let without = v.snapshot()
        v.location.options.puckType = .puck2D()
        let with = v.snapshot()
        let p = try #require(v.mapboxMap.point(for: puck.coordinate))
        #expect(without.color(x: Int(p.x), y: Int(p.y)) != with.color(x: Int(p.x), y: Int(p.y)))
        // The puck's blue centre.
        let c = with.color(x: Int(p.x), y: Int(p.y))
        #expect(Int(c.blue) > Int(c.red) + 100)
    }
}
