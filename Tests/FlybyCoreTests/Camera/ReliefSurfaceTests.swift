import FlybyCore
import Foundation
import Testing

/// ``ReliefSurface`` on synthetic terrain: a level relief is the flat plane, a wall hides what is
/// behind it and the view ray through a hidden point stops on the wall.
@Suite struct ReliefSurfaceTests {
    static let centre = LocationCoordinate2D(latitude: 36.6, longitude: -84.2)
    static let transform = MapTransform(size: ScreenSize(width: 640, height: 360),
                                        state: CameraState(center: centre, zoom: 13, bearing: 0, pitch: 60))

    /// Ground distance in metres (equirectangular).
    static func metres(_ a: LocationCoordinate2D, _ b: LocationCoordinate2D) -> Double {
        let k = 6_371_000 * Double.pi / 180
        let dx = (a.longitude - b.longitude) * cos(a.latitude * .pi / 180) * k, dy = (a.latitude - b.latitude) * k
        return (dx * dx + dy * dy).squareRoot()
    }

    @Test func aLevelReliefIsTheFlatPlane() throws {
        let relief = ReliefSurface(transform: Self.transform) { _ in 300 }
        for (x, y) in [(320.0, 180.0), (20, 350), (600, 120), (320, 80)] {
            let p = ScreenPoint(x: x, y: y)
            let c = try #require(relief.coordinate(for: p))
            #expect(Self.metres(c, Self.transform.coordinate(for: p)) < 0.5, "\(p)")
            let back = try #require(relief.point(for: c)).point
            #expect(abs(back.x - x) < 1e-3 && abs(back.y - y) < 1e-3)
            #expect(!relief.isHidden(c))
        }
    }

    @Test func aWallHidesWhatIsBehindItAndTheRayStopsOnIt() throws {
        // A 1,500 m wall across the view, 1.5 km north of the centre, 200 m thick.
        let south = Self.centre.latitude + 0.0135, north = south + 0.0018
        let relief = ReliefSurface(transform: Self.transform) { c in c.latitude >= south && c.latitude <= north ? 1500 : 0 }
        let behind = LocationCoordinate2D(latitude: north + 0.01, longitude: Self.centre.longitude)
        let before = LocationCoordinate2D(latitude: south - 0.005, longitude: Self.centre.longitude)
        #expect(relief.isHidden(behind))
        #expect(!relief.isHidden(before))
        let p = try #require(relief.point(for: behind)).point
        let hit = try #require(relief.coordinate(for: p))
        #expect(hit.latitude >= south - 1e-6 && hit.latitude < behind.latitude - 0.005, "the ray through \(p) stops at the wall: \(hit)")
        let beforePoint = try #require(relief.point(for: before)).point
        let beforeHit = try #require(relief.coordinate(for: beforePoint))
        #expect(Self.metres(beforeHit, before) < 1)
        // The wall's top is drawn above the flat plane's point.
        let top = LocationCoordinate2D(latitude: south + 0.0009, longitude: Self.centre.longitude)
        let raised = try #require(relief.point(for: top)).point, flat = try #require(Self.transform.point(for: top))
        #expect(flat.y - raised.y > 20)
    }

    @Test func theSkyMeetsNoRelief() {
        // Pitched 80°: the top rows look above the horizon.
        let t = MapTransform(size: ScreenSize(width: 640, height: 360), state: CameraState(center: Self.centre, zoom: 13, pitch: 80))
        let relief = ReliefSurface(transform: t) { _ in 0 }
        #expect(t.horizonY > 10)
        #expect(relief.coordinate(for: ScreenPoint(x: 320, y: 0)) == nil)
        #expect(relief.coordinate(for: ScreenPoint(x: 320, y: t.horizonY + 5)) != nil)
        #expect(relief.coordinate(for: ScreenPoint(x: .nan, y: 200)) == nil)
    }
}
