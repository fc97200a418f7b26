#if canImport(Glibc)
import Glibc
#endif
import FlybyCore
import FlybyTestSupport
import Testing

@Suite struct TransformTests {
    func transform(_ w: Double, _ h: Double, lng: Double, lat: Double, zoom: Double, bearing: Double = 0, pitch: Double = 0,
                   padding: EdgeInsets = .zero) -> MapTransform {
        MapTransform(size: ScreenSize(width: w, height: h),
                     state: CameraState(center: .init(latitude: lat, longitude: lng), padding: padding, zoom: zoom, bearing: bearing, pitch: pitch))
    }

    @Test func flatProjectionMatchesNativeAntimeridianVector() {
        // maplibre-native Transform.Antimeridian (N2): 1000×1000, (0, 0) z1, San Francisco.
        let t = transform(1000, 1000, lng: 0, lat: 0, zoom: 1)
        let p = t.point(for: .init(latitude: 37.7833, longitude: -122.4167))!
        expectClose(p.x, 151.79249437176432, 1e-4)
        expectClose(p.y, 383.76720782527661, 1e-4)
    }

    @Test func pitchedUnprojectionMatchesNativePerspectiveVector() {
        // maplibre-native Transform.PerspectiveProjection (N1).
        let t = transform(1000, 1000, lng: -77, lat: 38, zoom: 10, pitch: 51.56620156)
        let topLeft = t.coordinate(for: ScreenPoint(x: 0, y: 0))
        let bottomRight = t.coordinate(for: ScreenPoint(x: 1000, y: 1000))
        expectClose(topLeft, .init(latitude: 38.74661326302018, longitude: -77.59198961199148), 1e-6)
        expectClose(bottomRight, .init(latitude: 37.692872969426375, longitude: -76.75823239205641), 1e-6)
    }

    @Test func horizonMatchesGLJSGetBoundsVector() {
        // mercator_transform › getBounds with horizon (#36): 500×500, pitch 75.
        let t = transform(500, 500, lng: 0, lat: 0, zoom: 2, pitch: 75)
        expectClose(t.horizonY, 79.1823898251593, 1e-9)
    }

    @Test func placingALocationAtAPointOnATiltedMapRoundTrips() {
        // mercator_transform › setLocationAt (tilted) (#33).
        let t = transform(500, 500, lng: 0, lat: 0, zoom: 4, pitch: 50)
        let target = LocationCoordinate2D(latitude: 10, longitude: 13)
        let c = t.center(placing: target, at: ScreenPoint(x: 15, y: 45))
        let moved = transform(500, 500, lng: c.longitude, lat: c.latitude, zoom: 4, pitch: 50)
        expectClose(moved.coordinate(for: ScreenPoint(x: 15, y: 45)), target, 1e-9)
    }

    @Test(arguments: [(0.0, 0.0), (30.0, 0.0), (200.0, 45.0), (315.0, 60.0), (90.0, 80.0)])
    func screenAndCoordinateRoundTrip(bearing: Double, pitch: Double) {
        let padding = EdgeInsets(top: 40, left: 10, bottom: 100, right: 30)
        let t = transform(800, 600, lng: 24.94, lat: 60.17, zoom: 12, bearing: bearing, pitch: pitch, padding: padding)
        for (x, y) in [(400.0, 300.0), (10.0, 590.0), (790.0, 400.0), (123.0, 456.0)] where y > t.horizonY + 1 {
            let c = t.coordinate(for: ScreenPoint(x: x, y: y))
            let p = t.point(for: c)!
            expectClose(p.x, x, 1e-6, "x at bearing \(bearing) pitch \(pitch)")
            expectClose(p.y, y, 1e-6, "y at bearing \(bearing) pitch \(pitch)")
        }
    }

    @Test func paddingMovesThePrincipalPointWhereTheCentreIsDrawn() {
        let t = transform(800, 600, lng: 10, lat: 50, zoom: 5, padding: EdgeInsets(top: 200, left: 0, bottom: 0, right: 100))
        let p = t.point(for: .init(latitude: 50, longitude: 10))!
        expectClose(p.x, 350, 1e-9)
        expectClose(p.y, 400, 1e-9)
        #expect(t.principalPoint == ScreenPoint(x: 350, y: 400))
    }

    @Test func bearingNinetyPutsEastAtTheTop() {
        let t = transform(500, 500, lng: 0, lat: 0, zoom: 5, bearing: 90)
        let east = t.point(for: .init(latitude: 0, longitude: 1))!
        #expect(east.y < 250 && abs(east.x - 250) < 1e-6)
    }

    @Test func homographyAgreesWithScreenPoint() {
        let t = transform(800, 600, lng: 24.94, lat: 60.17, zoom: 12, bearing: 33, pitch: 55, padding: EdgeInsets(top: 10, left: 20, bottom: 30, right: 40))
        let h = t.groundHomography
        for (x, y) in [(t.centerX + 100, t.centerY - 50), (t.centerX - 300, t.centerY + 20)] {
            let a = t.screenPoint(worldX: x, worldY: y)!
            let b = h.apply(x: x, y: y)
            expectClose(a.x, b.x, 1e-9); expectClose(a.y, b.y, 1e-9)
        }
    }

    @Test func dragMovesTheGrabbedPointUnderTheFinger() {
        let map = FlybyMap(size: ScreenSize(width: 800, height: 600), camera: CameraState(center: .init(latitude: 60, longitude: 25), zoom: 12, pitch: 45))
        let from = ScreenPoint(x: 400, y: 400), to = ScreenPoint(x: 100, y: 450)
        let grabbed = map.coordinate(for: from)
        map.setCamera(to: map.dragCameraOptions(from: from, to: to))
        expectClose(map.coordinate(for: to), grabbed, 1e-9)
    }

    @Test func anchorKeepsTheGroundPointFixedWhileZooming() {
        let map = FlybyMap(size: ScreenSize(width: 800, height: 600), camera: CameraState(center: .init(latitude: 60, longitude: 25), zoom: 12))
        let anchor = ScreenPoint(x: 100, y: 120)
        let before = map.coordinate(for: anchor)
        map.setCamera(to: CameraOptions(anchor: anchor, zoom: 14.5, bearing: 30))
        expectClose(map.coordinate(for: anchor), before, 1e-9)
        #expect(map.cameraState.zoom == 14.5 && map.cameraState.bearing == 30)
    }

    @Test func nonFiniteCameraValuesAreRefused() {
        let map = FlybyMap(size: ScreenSize(width: 800, height: 600), camera: CameraState(center: .init(latitude: 60, longitude: 25), zoom: 12))
        let before = map.cameraState
        map.setCamera(to: CameraOptions(zoom: .nan))
        map.setCamera(to: CameraOptions(center: .init(latitude: 1, longitude: .infinity), zoom: 3))
        #expect(map.cameraState == before)
        #expect(map.refusedCameraChangeCount == 2)
        #expect(throws: NonFiniteCameraError.self) { try FlybyMap.validate(CameraOptions(bearing: -.infinity)) }
    }
}

@Suite struct CameraBoundsTests {
    let size500 = ScreenSize(width: 500, height: 500)

    @Test func smallBoundsZoomInUntilTheyFillTheView() {
        // mercator_transform › lngRange & latRange constrain zoom and center (#34).
        let bounds = try! CameraBounds.default.updated(with: CameraBoundsOptions(bounds: CoordinateBounds(
            southwest: .init(latitude: -5, longitude: -5), northeast: .init(latitude: 5, longitude: 5))))
        let s = bounds.constrain(CameraState(center: .init(latitude: 0, longitude: 0), zoom: 0), size: size500)
        expectClose(s.zoom, 5.1357092861044045, 1e-9)
        let moved = bounds.constrain(CameraState(center: .init(latitude: -30, longitude: -50), zoom: s.zoom), size: size500)
        expectClose(moved.center, .init(latitude: -0.0063583052861417855, longitude: 0), 1e-9)
        let deep = bounds.constrain(CameraState(center: .init(latitude: -30, longitude: -50), zoom: 10), size: size500)
        expectClose(deep.center, .init(latitude: -4.828969771321582, longitude: -4.828338623046875), 1e-9)
    }

    @Test func zoomAndPitchAreClamped() {
        let b = CameraBounds(minZoom: 2, maxZoom: 10, minPitch: 10, maxPitch: 40)
        let s = b.constrain(CameraState(center: .init(latitude: 0, longitude: 0), zoom: 30, pitch: 80), size: size500)
        #expect(s.zoom == 10 && s.pitch == 40)
        let t = b.constrain(CameraState(center: .init(latitude: 0, longitude: 0), zoom: 1, pitch: 0), size: size500)
        #expect(t.zoom == 2 && t.pitch == 10)
    }

    @Test func worldBoundsKeepTheMapCoveringTheViewHeight() {
        let s = CameraBounds.default.constrain(CameraState(center: .init(latitude: 80, longitude: 0), zoom: 0), size: ScreenSize(width: 1280, height: 720))
        // Tolerances: the ±85.051129° limit lies 2e-8° beyond the exact edge of the square world.
        expectClose(s.zoom, log2(720.0 / 512.0), 1e-6)
        let t = CameraBounds.default.constrain(CameraState(center: .init(latitude: 84, longitude: 179), zoom: 3), size: ScreenSize(width: 1280, height: 720))
        let y = WebMercator.unitY(latitude: t.center.latitude) * WebMercator.worldSize(zoom: 3)
        expectClose(y, 360, 1e-4, "the top edge of the view sits on the top of the world")
        #expect(t.center.longitude == 179, "no east–west limit for whole-world bounds")
    }

    @Test func invalidBoundsThrow() {
        #expect(throws: CameraBoundsError.self) { try CameraBounds.default.updated(with: CameraBoundsOptions(minZoom: 5, maxZoom: 3)) }
        #expect(throws: CameraBoundsError.self) { try CameraBounds.default.updated(with: CameraBoundsOptions(maxPitch: 120)) }
        #expect(throws: CameraBoundsError.self) { try CameraBounds.default.updated(with: CameraBoundsOptions(minZoom: .nan)) }
    }
}
