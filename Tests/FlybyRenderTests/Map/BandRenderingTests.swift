import FlybyCore
import FlybyData
import FlybyRender
import Testing

/// Rendering the layers in row bands on several threads gives exactly the pixels of one thread.
@Suite struct BandRenderingTests {
    /// The styles loaded once for all renderer tests (MapRendererTests.swift).
    static let styles: [String: LoadedStyle] = ["world": sharedWorldStyle, "city": sharedCityStyle]

    static let helsinki = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9445)
    static let cameras: [(style: String, camera: CameraState)] = [
        ("world", CameraState(center: .init(latitude: 48, longitude: 10), zoom: 3)),
        ("world", CameraState(center: .init(latitude: 48, longitude: 10), zoom: 3.6, bearing: 30, pitch: 60)),
        ("city", CameraState(center: helsinki, zoom: 15.5)),
        ("city", CameraState(center: helsinki, zoom: 15, bearing: 40, pitch: 60)),
    ]

    /// A puck in the middle of Helsinki, with a heading and an accuracy ring (drawn in the city scenes).
    static let puck = PuckState(location: Location(coordinate: helsinki, timestamp: 0, course: 30, horizontalAccuracy: 40))

    func render(_ style: String, _ camera: CameraState, threads: Int, states: FeatureStateStore = FeatureStateStore(),
                frames: Int = 1, puck: PuckState? = nil) throws -> PixelBuffer {
        var r = try MapRenderer(style: try #require(BandRenderingTests.styles[style]), width: 480, height: 270)
        r.threads = threads
        r.featureStates = states
        var frame = PixelBuffer(width: 480, height: 270)
        for _ in 0..<frames { r.render(camera: camera, puck: puck, into: &frame) }
        return frame
    }

    /// Pixels that differ (a count, so a failure does not print two whole frames).
    func differingPixels(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        guard a.width == b.width && a.height == b.height else { return max(a.pixels.count, b.pixels.count) }
        return zip(a.pixels, b.pixels).reduce(0) { $0 + ($1.0 != $1.1 ? 1 : 0) }
    }

    @Test(arguments: 0..<4)
    func bandsOnSeveralThreadsDrawWhatOneThreadDraws(scene: Int) throws {
        let (style, camera) = BandRenderingTests.cameras[scene]
        let puck = style == "city" ? BandRenderingTests.puck : nil
        let single = try render(style, camera, threads: 1, puck: puck)
        // 7 bands of 270 rows: uneven band heights, boundaries at rows that are not multiples of 8.
        for threads in [2, 3, 7] {
            // Three frames: the later ones draw with the bands moved to balance the work.
            let banded = try render(style, camera, threads: threads, frames: 3, puck: puck)
            #expect(differingPixels(banded, single) == 0, "\(style), pitch \(camera.pitch), \(threads) threads")
        }
    }

    @Test func aFeatureStateChangeReachesEveryBand() throws {
        let camera = CameraState(center: BandRenderingTests.helsinki, zoom: 16)
        var states = FeatureStateStore()
        for id in 0..<446 { states.set("select", .bool(true), source: "buildings", feature: .number(Double(id))) }
        var r = try MapRenderer(style: try #require(BandRenderingTests.styles["city"]), width: 480, height: 270)
        r.threads = 3
        var frame = PixelBuffer(width: 480, height: 270)
        r.render(camera: camera, into: &frame)
        #expect(differingPixels(frame, try render("city", camera, threads: 1)) == 0)
        r.featureStates = states
        r.render(camera: camera, into: &frame)
        #expect(differingPixels(frame, try render("city", camera, threads: 1, states: states)) == 0)
        #expect(differingPixels(frame, try render("city", camera, threads: 1)) > 0, "the selection shows")
    }
}
