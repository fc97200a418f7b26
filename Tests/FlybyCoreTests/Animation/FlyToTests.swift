#if canImport(Glibc)
import Glibc
#endif
import FlybyCore
import FlybyTestSupport
import Testing

/// fly(to:) against van Wijk & Nuij and the Mapbox/MapLibre vectors.
@Suite struct FlyToTests {
    static let size1000 = ScreenSize(width: 1000, height: 1000)

    func path(from: (Double, Double, Double), to: (Double, Double, Double), size: ScreenSize = size1000) -> FlyToPath {
        FlyToPath(start: CameraState(center: .init(latitude: from.1, longitude: from.0), zoom: from.2),
                  target: CameraState(center: .init(latitude: to.1, longitude: to.0), zoom: to.2), size: size)
    }

    @Test func zoomOnlyFlightHasTheDocumentedDurationAndMidpoint() {
        // Behaviour 2: same centre, z10 → z12: duration ln 4 / 1.42 / 1.2; zoom 11 at half way.
        let p = path(from: (0, 0, 10), to: (0, 0, 12))
        expectClose(p.automaticDuration(), log(4) / 1.42 / 1.2, 1e-12)
        expectClose(p.automaticDuration(), 0.81355, 1e-5)
        expectClose(p.zoom(at: 0.5), 11, 1e-12)
        #expect(p.camera(at: 0.5).center == p.start.center)
    }

    @Test func onScreenPanZoomsOutToTheDocumentedMinimum() {
        // Behaviour 3: a pan of 1000 pt at z10 on 1000×1000.
        let ws = WebMercator.worldSize(zoom: 10)
        let lng = WebMercator.longitude(unitX: (ws / 2 + 1000) / ws)
        let p = path(from: (0, 0, 10), to: (lng, 0, 10))
        expectClose(p.length, 1.24952, 1e-5)
        expectClose(p.automaticDuration(), 1.04127, 1e-5)
        let minZoom = (0...1000).map { p.zoom(at: Double($0) / 1000) }.min()!
        expectClose(minZoom, 9.494, 1e-3)
        expectClose(p.zoom(at: 0.5), minZoom, 1e-4)
    }

    @Test func midpointOfAnEqualZoomFlightIsHalfWay() {
        // Behaviour 4: (10°N, 10°E) → (10°N, 20°E) at z10.
        let p = path(from: (10, 10, 10), to: (20, 10, 10))
        let mid = p.camera(at: 0.5).center
        expectClose(mid, .init(latitude: 10, longitude: 15), 1e-4)
        expectClose(p.automaticDuration(), 3.968, 1e-3)
        #expect(p.camera(at: 0) .center == p.start.center && p.camera(at: 1).center == p.target.center)
    }

    @Test func glJSReferenceFlightSamples() {
        // docs/research/maplibre-camera-algorithms.md §10 table A: (0, 0) z2 → (100, 40) z8, 512×512.
        let p = path(from: (0, 0, 2), to: (100, 40, 8), size: ScreenSize(width: 512, height: 512))
        expectClose(p.length, 4.297023366, 1e-8)
        let rows: [(k: Double, zoom: Double, lng: Double, lat: Double)] = [
            (0.25, 1.757131487, 74.261972046, 30.852009949), (0.5, 3.617642428, 98.461538462, 39.482905698),
            (0.75, 5.800120815, 99.929607653, 39.976425087)]
        for r in rows {
            let c = p.camera(at: r.k)
            expectClose(c.zoom, r.zoom, 1e-8, "zoom at k \(r.k)")
            expectClose(c.center, .init(latitude: r.lat, longitude: r.lng), 1e-8, "centre at k \(r.k)")
        }
    }

    @Test func antimeridianFlightTakesTheShortWay() {
        // Table E and behaviour 7: (170, 0) → (−170, 0) at z4.
        let p = path(from: (170, 0, 4), to: (-170, 0, 4), size: ScreenSize(width: 512, height: 512))
        expectClose(p.length, 1.135243943, 1e-8)
        expectClose(p.zoom(at: 0.25), 3.688865959, 1e-8)
        expectClose(wrapLongitude(p.camera(at: 0.5).center.longitude + 1e-9), -180, 1e-8)
        expectClose(p.camera(at: 0.25).center.longitude, 174.268381343, 1e-8)
        for i in 0...100 { #expect(abs(p.camera(at: Double(i) / 100).center.longitude) >= 170 - 1e-9) }
    }

    @Test func linearFlyMatchesVanWijkAndNuijAtEveryFrame() {
        // Must-show: an independent restatement of the formulas (w0 = larger padded side) against
        // every frame of a linear-curve fly run by the manager: zoom within 1e-6, centre within
        // 0.001 px at the start zoom.
        let (sim, _) = makeSimulation(width: 1280, height: 720, center: .init(latitude: 37.7749, longitude: -122.4194), zoom: 10)
        let padding = EdgeInsets(top: 100, left: 50, bottom: 20, right: 30)
        sim.mapboxMap.setCamera(to: CameraOptions(padding: padding))
        let target = LocationCoordinate2D(latitude: 40.7484, longitude: -73.9857)
        sim.camera.fly(to: CameraOptions(center: target, zoom: 12), curve: .linear)
        // Reference.
        let rho = 1.42, z0 = 10.0, z1 = 12.0
        let w0 = max(1280 - 50 - 30, 720 - 100 - 20.0), w1 = w0 / pow(2, z1 - z0)
        let ws = 512 * pow(2, z0)
        func px(_ c: LocationCoordinate2D) -> (Double, Double) {
            ((c.longitude + 180) / 360 * ws, (0.5 - log(tan(.pi / 4 + c.latitude * .pi / 360)) / (2 * .pi)) * ws)
        }
        let a = px(LocationCoordinate2D(latitude: 37.7749, longitude: -122.4194)), b = px(target)
        let u1 = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
        func r(_ i: Int) -> Double {
            let w = i == 0 ? w0 : w1, sgn: Double = i == 0 ? 1 : -1
            let bb = (w1 * w1 - w0 * w0 + sgn * pow(rho, 4) * u1 * u1) / (2 * w * rho * rho * u1)
            return log((bb * bb + 1).squareRoot() - bb)
        }
        let r0 = r(0), S = (r(1) - r0) / rho
        let duration = S / 1.2
        var frame = 0
        while frame < 10_000 {
            sim.tick()
            frame += 1
            let t = Double(frame) / 60
            let k = min(t / duration, 1)
            if k >= 1 { break }
            let s = k * S
            let zoom = z0 - log2(cosh(r0) / cosh(r0 + rho * s))
            let u = w0 * (cosh(r0) * tanh(r0 + rho * s) - sinh(r0)) / (rho * rho * u1)
            let cam = sim.mapboxMap.cameraState
            expectClose(cam.zoom, zoom, 1e-6, "zoom at frame \(frame)")
            let got = px(cam.center)
            expectClose(got.0, a.0 + (b.0 - a.0) * u, 1e-3, "x at frame \(frame)")
            expectClose(got.1, a.1 + (b.1 - a.1) * u, 1e-3, "y at frame \(frame)")
        }
        #expect(frame == Int((duration * 60).rounded(.up)), "completes in the first tick at or after the duration")
        #expect(sim.mapboxMap.cameraState.center == target && sim.mapboxMap.cameraState.zoom == 12)
    }

    @Test func flightEndsExactlyOnItsTargetAndCompletesOnce() {
        // Behaviour 5.
        let (sim, _) = makeSimulation(center: .init(latitude: 10, longitude: 10), zoom: 10)
        var positions: [UIViewAnimatingPosition] = []
        let target = CameraOptions(center: .init(latitude: 10.123456789, longitude: 20.987654321), zoom: 11.3, bearing: 45, pitch: 30)
        sim.camera.fly(to: target) { positions.append($0) }
        for _ in 0..<600 { sim.tick() }
        let c = sim.mapboxMap.cameraState
        #expect(c.center == target.center! && c.zoom == 11.3 && c.bearing == 45 && c.pitch == 30)
        #expect(positions == [.end])
    }

    @Test func targetZoomIsClampedBeforeThePathIsPlanned() {
        // Behaviour 6 and MapLibre #16: bounds are applied to the target before planning.
        let (sim, _) = makeSimulation(zoom: 10, bounds: CameraBounds(minZoom: 2, maxZoom: 10))
        let fly = sim.camera.fly(to: CameraOptions(center: .init(latitude: 34, longitude: 12), zoom: 30)) as! FlyToCameraAnimator
        #expect(fly.path.target.zoom == 10)
        for _ in 0..<600 { sim.tick() }
        #expect(sim.mapboxMap.cameraState.zoom == 10)
        expectClose(sim.mapboxMap.cameraState.center, .init(latitude: 34, longitude: 12), 1e-9)
        sim.camera.fly(to: CameraOptions(zoom: 1))
        for _ in 0..<600 { sim.tick() }
        #expect(sim.mapboxMap.cameraState.zoom == 2)
    }

    @Test func targetCentreIsClampedIntoTheBounds() {
        let box = CoordinateBounds(southwest: .init(latitude: 40, longitude: -10), northeast: .init(latitude: 60, longitude: 20))
        let (sim, _) = makeSimulation(center: .init(latitude: 50, longitude: 5), zoom: 6, bounds: CameraBounds(bounds: box))
        let fly = sim.camera.fly(to: CameraOptions(center: .init(latitude: 10, longitude: 100), zoom: 6)) as! FlyToCameraAnimator
        let t = fly.path.target
        #expect(t.center.latitude >= 40 && t.center.latitude <= 60 && t.center.longitude <= 20)
        var last = sim.mapboxMap.cameraState
        for _ in 0..<600 { sim.tick(); last = sim.mapboxMap.cameraState }
        #expect(last.center == t.center, "ends where it planned to: no sticking at the edge")
    }

    @Test func zoomOutByOneWithTheSameCentreEndsExactly() {
        // MapLibre #15: z20 → z19 over 2 ms.
        let (sim, _) = makeSimulation(center: .init(latitude: 0, longitude: 0), zoom: 20)
        sim.camera.fly(to: CameraOptions(zoom: 19), duration: 0.002)
        sim.tick()
        #expect(sim.mapboxMap.cameraState.zoom == 19)
        #expect(sim.mapboxMap.cameraState.center == .init(latitude: 0, longitude: 0))
    }

    @Test func flightLongerThanMaxDurationJumps() {
        // MapLibre #17: Moscow z18 → San Francisco with maxDuration 0.1 s.
        let (sim, _) = makeSimulation(width: 512, height: 512, center: .init(latitude: 55.75868, longitude: 37.63454), zoom: 18)
        let fly = sim.camera.fly(to: CameraOptions(center: .init(latitude: 37.7884307, longitude: -122.3998631)), maxDuration: 0.1) as! FlyToCameraAnimator
        #expect(fly.duration == 0)
        expectClose(fly.path.automaticDuration(), 14.5315, 1e-3)
        sim.tick()
        expectClose(sim.mapboxMap.cameraState.center, .init(latitude: 37.7884307, longitude: -122.3998631), 1e-9)
    }

    @Test func minZoomCapsTheArc() {
        // MapLibre #18: z20 (0, 0) → (1, 0) z20 with minZoom 10: every frame at or above ~10.
        let p = FlyToPath(start: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 20),
                          target: CameraState(center: .init(latitude: 0, longitude: 1), zoom: 20),
                          size: ScreenSize(width: 512, height: 512), minZoom: 10)
        for i in 0...10 { #expect(p.zoom(at: Double(i) / 10) >= 10 - 1e-3) }
    }

    @Test func destinationSlidesStraightOnScreenWhilePaddingAnimates() {
        // Flyby does better than Mapbox/MapLibre (maplibre-native#4468): the destination's screen
        // path is the straight line from its start to the new principal point; moving padding by
        // time (k), as they do, bends it.
        let size = ScreenSize(width: 1000, height: 600)
        let start = CameraState(center: .init(latitude: 0, longitude: 0), padding: .zero, zoom: 12)
        let target = CameraState(center: .init(latitude: 0.02, longitude: 0.05), padding: EdgeInsets(top: 0, left: 400, bottom: 0, right: 0), zoom: 12)
        let p = FlyToPath(start: start, target: target, size: size)
        let first = MapTransform(size: size, state: start).point(for: target.center)!
        let last = MapTransform(size: size, state: target).point(for: target.center)!
        func deviation(_ state: CameraState) -> Double {
            let q = MapTransform(size: size, state: state).point(for: target.center)!
            let dx = last.x - first.x, dy = last.y - first.y
            return abs((q.x - first.x) * dy - (q.y - first.y) * dx) / (dx * dx + dy * dy).squareRoot()
        }
        var ours = 0.0, byTime = 0.0
        for i in 1..<100 {
            let k = Double(i) / 100
            var c = p.camera(at: k)
            ours = max(ours, deviation(c))
            c.padding = EdgeInsets.lerp(start.padding, target.padding, k)
            byTime = max(byTime, deviation(c))
        }
        #expect(ours < 1e-6, "largest deviation \(ours) pt")
        #expect(byTime > 1, "padding by time bends the path by \(byTime) pt")
    }
}
