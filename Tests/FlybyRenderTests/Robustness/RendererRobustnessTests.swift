import FlybyCore
import FlybyData
import FlybyRender
import FlybyTestSupport
import Foundation
import Testing

/// Issue 8 §3: degenerate geometry, extreme cameras and tiny or huge frames never crash or hang.
@Suite struct RendererRobustnessTests {
    /// A style drawing one inline GeoJSON source as fill, line, circle and label layers.
    static func style(features: String) throws -> LoadedStyle {
        let json = """
        {"version": 8, "name": "robustness",
         "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#eef"}},
          {"id": "f", "type": "fill", "source": "s", "paint": {"fill-color": "#8a8", "fill-outline-color": "#363"}},
          {"id": "l", "type": "line", "source": "s", "paint": {"line-color": "#a33", "line-width": 3, "line-dasharray": [2, 1]}},
          {"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 4, "circle-color": "#33a"}},
          {"id": "t", "type": "symbol", "source": "s", "layout": {"text-field": "label", "text-size": 12}}
         ]}
        """
        var loader = StyleLoader()
        return try loader.load(style: try Style.parse(Array(json.utf8), file: "robustness.json"))
    }

    static func feature(_ type: String, _ coordinates: String) -> String {
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "\#(type)", "coordinates": \#(coordinates)}}"#
    }

    static let degenerate: [String] = [
        feature("Polygon", "[[[3, 3], [4, 4], [3, 3], [3, 3]]]"),
        feature("Polygon", "[[[1, 1], [1, 1], [1, 1], [1, 1]]]"),
        feature("Polygon", "[[[0, 0], [10, 0], [20, 0], [0, 0]]]"),
        feature("Polygon", "[[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]]"),
        feature("Polygon", "[[[-180, -90], [180, -90], [180, 90], [-180, 90], [-180, -90]]]"),
        feature("Polygon", "[[[170, 10], [190, 10], [190, 20], [170, 20], [170, 10]]]"),
        feature("LineString", "[[-500, 0], [500, 0]]"),
        feature("LineString", "[[5, 5], [5, 5], [5, 5]]"),
        feature("MultiPolygon", "[[[[0, 0], [1, 0], [1, 0], [0, 0]]], []]"),
        feature("Point", "[179.999999, 89.999]"),
        feature("Point", "[-180, -90]"),
    ]

    static func hugeLine() -> String {
        var coords: [String] = []
        for i in 0..<200_000 { coords.append("[\(Double(i % 3600) / 10 - 180), \(sin(Double(i) / 100) * 80)]") }
        return feature("LineString", "[" + coords.joined(separator: ",") + "]")
    }

    static let cameras: [CameraState] = [
        CameraState(center: .init(latitude: 0, longitude: 0), zoom: 0),
        CameraState(center: .init(latitude: 0, longitude: 179.99), zoom: 22, bearing: 359.9999, pitch: 85),
        CameraState(center: .init(latitude: 85.05, longitude: -180), zoom: 3, bearing: 0.0001, pitch: 85),
        CameraState(center: .init(latitude: -85.05, longitude: 90), zoom: 12, bearing: 180, pitch: 60),
        CameraState(center: .init(latitude: 5, longitude: 5), padding: EdgeInsets(top: 600, left: 0, bottom: 0, right: 900), zoom: 6, pitch: 85),
    ]

    @Test func degenerateGeometryAtExtremeCamerasRendersWithoutCrashing() throws {
        let style = try Self.style(features: Self.degenerate.joined(separator: ","))
        var renderer = try MapRenderer(style: style, width: 160, height: 90)
        var frame = PixelBuffer(width: 160, height: 90)
        for camera in Self.cameras {
            renderer.render(camera: camera, puck: nil, into: &frame)
            #expect(frame.pixels.contains { $0 != 0 }, "something was drawn at \(camera)")
        }
    }

    @Test func emptyRingsAreRefusedWithAClearErrorNotACrash() {
        // GeoJSON (RFC 7946 §3.1.4, §3.1.6) requires ≥ 2 positions per line and ≥ 4 per ring.
        for bad in [Self.feature("Polygon", "[[]]"), Self.feature("Polygon", "[[[1, 1], [2, 2], [1, 1]]]"), Self.feature("LineString", "[[5, 5]]")] {
            #expect(throws: InputError.self) { _ = try Self.style(features: bad) }
        }
    }

    @Test func hugeCoordinateCountsStayBounded() throws {
        let style = try Self.style(features: Self.hugeLine())
        var renderer = try MapRenderer(style: style, width: 320, height: 180)
        var frame = PixelBuffer(width: 320, height: 180)
        let start = WallClock.monotonicSeconds()
        renderer.render(camera: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 0.5), puck: nil, into: &frame)
        // A generous bound for a debug build on a shared 2-core machine: it must not hang.
        #expect(WallClock.monotonicSeconds() - start < 30)
    }

    @Test(arguments: [(1, 1), (3, 2), (4096, 4), (4, 4096), (1024, 1024)])
    func tinyAndHugeFramesRender(_ width: Int, _ height: Int) throws {
        let style = try Self.style(features: Self.degenerate.joined(separator: ","))
        var renderer = try MapRenderer(style: style, width: width, height: height)
        var frame = PixelBuffer(width: width, height: height)
        for camera in Self.cameras { renderer.render(camera: camera, puck: nil, into: &frame) }
        #expect(frame.pixels.count == width * height)
    }
}
