import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// The first frame starts the attribution's glyph fields on other threads while it draws the map
/// (``TextRenderer/prewarm(_:)``); the pixels are those of fields made when first drawn.
@Suite struct AttributionPrewarmTests {
    static func firstFrame(prewarm: Bool, threads: Int) throws -> (PixelBuffer, MapRenderer) {
        let style = try Style.parse(Array("""
        {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#eef0e8"}}]}
        """.utf8), file: "prewarm.json")
        var loader = StyleLoader()
        var r = try MapRenderer(style: try loader.load(style: style), width: 320, height: 200)
        r.threads = threads
        r.startedPrewarm = !prewarm
        var frame = PixelBuffer(width: 320, height: 200)
        r.render(camera: CameraState(center: .init(latitude: 60, longitude: 25), zoom: 12), into: &frame)
        return (frame, r)
    }

    @Test func aFirstFrameDrawsTheSameAttributionWithItsFieldsMadeInTheBackground() throws {
        let (plain, _) = try Self.firstFrame(prewarm: false, threads: 1)
        for threads in [1, 2] {
            let (warmed, renderer) = try Self.firstFrame(prewarm: true, threads: threads)
            #expect(renderer.text.pendingRegular == nil || threads > 1, "the fields were taken in when the attribution was drawn")
            #expect(warmed.pixels == plain.pixels, "\(threads) thread(s)")
        }
        // The attribution is drawn at all (dark text pixels in the bottom rows).
        let dark = (180..<200).reduce(0) { n, y in n + (0..<320).filter { plain.color(x: $0, y: y).red < 128 }.count }
        #expect(dark > 50)
    }
}
