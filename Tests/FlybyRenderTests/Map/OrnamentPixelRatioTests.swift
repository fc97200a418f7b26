import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// The scale bar, compass, attribution and puck are sized in points: at `--pixel-ratio 2` the
/// frame has twice the pixels a side and the furniture covers the same part of it (issue 18,
/// "ornaments at 2×"; MapLibre and Mapbox draw their controls in points).
@Suite struct OrnamentPixelRatioTests {
    static let json = """
    {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}]}
    """

    /// A 240 × 160 point frame of a white map turned 30° (so the compass shows), with a puck
    /// that has a course, at `ratio` device pixels per point.
    static func render(ratio: Int) throws -> (PixelBuffer, MapRenderer) {
        let style = try Style.parse(Array(json.utf8), file: "ornaments.json")
        var loader = StyleLoader()
        var r = try MapRenderer(style: try loader.load(style: style), width: 240 * ratio, height: 160 * ratio,
                                pixelRatio: Double(ratio))
        var frame = PixelBuffer(width: r.width, height: r.height)
        let camera = CameraState(center: .init(latitude: 60, longitude: 25), zoom: 12, bearing: 30)
        let at = LocationCoordinate2D(latitude: 60, longitude: 25)
        let puck = PuckState(coordinate: at, course: 90, heading: nil, horizontalAccuracy: 0,
                             location: Location(coordinate: at, timestamp: 0, course: 90))
        r.render(camera: camera, puck: puck, into: &frame)
        return (frame, r)
    }

    /// Pixels inside `rect` (frame pixels) for which `test` holds.
    static func count(_ frame: PixelBuffer, x: Range<Int>, y: Range<Int>, _ test: (Color) -> Bool) -> Int {
        var n = 0
        for yy in y { for xx in x where test(frame.color(x: xx, y: yy)) { n += 1 } }
        return n
    }

    static func isNeedleRed(_ c: Color) -> Bool { c.red > 180 && c.green < 110 && c.blue < 110 }
    static func isPuckBlue(_ c: Color) -> Bool { c.blue > 180 && c.red < 90 && c.green > 100 && c.green < 170 }

    /// Pixels for which `test` holds in a region given in points, at 1x and at 2x.
    static func pixelsAtBothRatios(x: Range<Int>, y: Range<Int>, _ test: (Color) -> Bool) throws -> (one: Int, two: Int) {
        let (one, _) = try render(ratio: 1), (two, _) = try render(ratio: 2)
        return (count(one, x: x, y: y, test),
                count(two, x: (x.lowerBound * 2)..<(x.upperBound * 2), y: (y.lowerBound * 2)..<(y.upperBound * 2), test))
    }

    @Test func theCompassNeedleCoversFourTimesThePixelsAtRatioTwo() throws {
        // The compass sits 30 points from the top right corner, radius 17 points.
        let (a, b) = try Self.pixelsAtBothRatios(x: 190..<240, y: 0..<60, Self.isNeedleRed)
        #expect(a > 20, "the needle shows at 1x (\(a) px)")
        #expect(abs(Double(b) / Double(a) - 4) < 0.6, "needle pixels: \(a) at 1x, \(b) at 2x")
    }

    @Test func thePuckDotCoversFourTimesThePixelsAtRatioTwo() throws {
        // The puck is at the centre of the frame.
        let (a, b) = try Self.pixelsAtBothRatios(x: 100..<140, y: 60..<100, Self.isPuckBlue)
        #expect(a > 50, "the puck shows at 1x (\(a) px)")
        #expect(abs(Double(b) / Double(a) - 4) < 0.6, "puck pixels: \(a) at 1x, \(b) at 2x")
    }

    @Test func theAttributionBoxIsTheSameInPointsAtRatioTwo() throws {
        let (_, r1) = try Self.render(ratio: 1), (_, r2) = try Self.render(ratio: 2)
        let a = try #require(r1.attributionFrame), b = try #require(r2.attributionFrame)
        #expect(abs(a.x - b.x) < 0.01 && abs(a.y - b.y) < 0.01 && abs(a.width - b.width) < 0.01 && abs(a.height - b.height) < 0.01,
                "\(a) at 1x, \(b) at 2x")
    }

    @Test func theScaleBarMeasuresPointsNotFramePixels() throws {
        let (one, _) = try Self.render(ratio: 1), (two, _) = try Self.render(ratio: 2)
        // The bar's ink in its bottom row (12.5 points above the bottom edge): its length in frame pixels.
        func inkWidth(_ f: PixelBuffer, row: Int) -> Int {
            Self.count(f, x: 0..<(f.width / 2), y: row..<(row + 1)) { $0.red < 120 && $0.green < 120 && $0.blue < 120 }
        }
        let a = (144...150).map { inkWidth(one, row: $0) }.max() ?? 0
        let b = (288...300).map { inkWidth(two, row: $0) }.max() ?? 0
        #expect(a > 20, "the bar shows at 1x (\(a) px)")
        #expect(abs(Double(b) / Double(a) - 2) < 0.15, "bar length: \(a) px at 1x, \(b) px at 2x")
    }
}
