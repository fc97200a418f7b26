import FlybyCore
import FlybyTestSupport
import Testing

/// GL JS `cameraForBounds` / `fitBounds` vectors (docs/research/maplibre-camera-algorithms.md §9, #20–#31),
/// 512×512 viewport, 512-px zoom.
@Suite struct CameraFitTests {
    static let size = ScreenSize(width: 512, height: 512)

    static func corners(_ w: Double, _ s: Double, _ e: Double, _ n: Double) -> [LocationCoordinate2D] {
        [.init(latitude: s, longitude: w), .init(latitude: n, longitude: w), .init(latitude: n, longitude: e), .init(latitude: s, longitude: e)]
    }

    static let usBox = corners(-133, 16, -68, 50)
    static let asymmetric = EdgeInsets(top: 10, left: 25, bottom: 50, right: 75)

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bearing = 0.0
        var padding = EdgeInsets.zero
        var offset = ScreenPoint.zero
        var center: (lng: Double, lat: Double)?
        var zoom: Double?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "#20 no options", center: (-100.5, 34.7171), zoom: 2.469),
        Case(name: "#21 bearing 175", bearing: 175, center: (-100.5, 34.7171), zoom: 2.396),
        Case(name: "#21 bearing −30", bearing: -30, center: (-100.5, 34.7171), zoom: 2.222),
        Case(name: "#22 padding 15", padding: EdgeInsets(allEdges: 15), zoom: 2.382),
        Case(name: "#23 asymmetrical padding", padding: asymmetric, center: (-96.5558, 32.0833)),
        Case(name: "#24 bearing and asymmetrical padding", bearing: 90, padding: asymmetric, center: (-103.3761, 31.7099)),
        Case(name: "#25 offset", offset: ScreenPoint(x: 0, y: 100), center: (-100.5, 44.4717)),
        Case(name: "#25 offset and padding", padding: asymmetric, offset: ScreenPoint(x: 0, y: 100), center: (-96.5558, 44.4189)),
        Case(name: "#26 bearing, padding and offset", bearing: 90, padding: asymmetric, offset: ScreenPoint(x: 0, y: 100), center: (-103.3761, 43.0929)),
    ]

    @Test(arguments: cases)
    func fitsTheUSBoxLikeGLJS(_ c: Case) throws {
        let cam = try #require(CameraFit.camera(for: Self.usBox, size: Self.size, camera: CameraOptions(bearing: c.bearing),
                                                coordinatesPadding: c.padding, offset: c.offset))
        if let z = c.zoom { expectClose(cam.zoom!, z, 5e-4, "zoom") }
        if let ctr = c.center { expectClose(cam.center!, .init(latitude: ctr.lat, longitude: ctr.lng), 5e-4, "center") }
    }

    @Test func fitsOnAWideView() throws {
        // #27: 2048×512, bearing 45.
        let cam = try #require(CameraFit.camera(for: Self.corners(-125.0011, 24.9493, -66.9326, 49.5904), size: ScreenSize(width: 2048, height: 512),
                                                camera: CameraOptions(bearing: 45)))
        expectClose(cam.zoom!, 2.507, 5e-4)
        expectClose(cam.center!, .init(latitude: 38.3048, longitude: -95.9669), 5e-4)
    }

    @Test func fitsAcrossTheAntimeridian() throws {
        // #28: Fiji.
        let cam = try #require(CameraFit.camera(for: Self.corners(175.813127, -20.157768, -178.340903, -15.449124), size: Self.size))
        expectClose(cam.zoom!, 5.944, 5e-4)
        expectClose(cam.center!, .init(latitude: -17.819, longitude: 178.7361), 5e-4)
    }

    @Test func fitsBoxesThatDoNotCrossTheAntimeridian() throws {
        let a = try #require(CameraFit.camera(for: Self.corners(-10, -10, 10, 10), size: Self.size))
        expectClose(a.zoom!, 4.163, 5e-4)
        expectClose(a.center!, .init(latitude: 0, longitude: 0), 1e-9)
        let b = try #require(CameraFit.camera(for: Self.corners(-120, 20, -60, 45), size: Self.size))
        expectClose(b.zoom!, 2.585, 5e-4)  // #30 without zoomSnap
    }

    @Test func fitsScreenCoordinates() throws {
        // #31: fitScreenCoordinates of (128, 128)–(256, 256) on the 512×512 camera at (0, 0) z0.
        let t = MapTransform(size: Self.size, state: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 0))
        let p0 = t.coordinate(for: ScreenPoint(x: 128, y: 128)), p1 = t.coordinate(for: ScreenPoint(x: 256, y: 256))
        let box = Self.corners(p0.longitude, p1.latitude, p1.longitude, p0.latitude)
        let rotated = try #require(CameraFit.camera(for: box, size: Self.size, camera: CameraOptions(bearing: 225)))
        expectClose(rotated.zoom!, 1.5, 5e-4)
        expectClose(rotated.center!, .init(latitude: 40.9799, longitude: -45), 5e-4)
        let flat = try #require(CameraFit.camera(for: box, size: Self.size))
        expectClose(flat.zoom!, 2, 5e-4)
    }

    @Test func pitchedFitIsTightInsideThePadding() throws {
        let size = ScreenSize(width: 1280, height: 720)
        let pts = [LocationCoordinate2D(latitude: 60.166, longitude: 24.936), .init(latitude: 60.178, longitude: 24.952),
                   .init(latitude: 60.170, longitude: 24.940), .init(latitude: 60.175, longitude: 24.950)]
        let pad = EdgeInsets(top: 50, left: 60, bottom: 70, right: 80)
        let cam = try #require(CameraFit.camera(for: pts, size: size, camera: CameraOptions(bearing: 20, pitch: 50), coordinatesPadding: pad))
        let t = MapTransform(size: size, state: CameraState(center: cam.center!, zoom: cam.zoom!, bearing: 20, pitch: 50))
        let screen = pts.map { t.point(for: $0)! }
        let minX = screen.map(\.x).min()!, maxX = screen.map(\.x).max()!, minY = screen.map(\.y).min()!, maxY = screen.map(\.y).max()!
        #expect(minX >= pad.left - 1e-6 && maxX <= size.width - pad.right + 1e-6 && minY >= pad.top - 1e-6 && maxY <= size.height - pad.bottom + 1e-6)
        // Tight: it touches the padded rectangle on one axis.
        let touchesX = abs(minX - pad.left) < 1e-3 && abs(maxX - (size.width - pad.right)) < 1e-3
        let touchesY = abs(minY - pad.top) < 1e-3 && abs(maxY - (size.height - pad.bottom)) < 1e-3
        #expect(touchesX || touchesY)
    }

    @Test func fitRespectsMaxZoomAndRefusesImpossiblePadding() {
        let one = [LocationCoordinate2D(latitude: 1, longitude: 2)]
        #expect(CameraFit.camera(for: one, size: Self.size, maxZoom: 14)?.zoom == 14)
        #expect(CameraFit.camera(for: Self.usBox, size: Self.size, coordinatesPadding: EdgeInsets(allEdges: 300)) == nil)
        #expect(CameraFit.camera(for: [], size: Self.size) == nil)
    }
}
