import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// `icon-keep-upright` (Style Specification: "if true, the icon may be flipped to prevent it from
/// being rendered upside-down"; default false) for icons along lines aligned to the map.
@Suite struct IconKeepUprightTests {
    /// The rotations (radians) of the icons drawn along a line running west (right to left on screen).
    static func rotations(_ layout: String) throws -> [Double] {
        let json = """
            {"version": 8,
             "sources": {"l": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                         "geometry": {"type": "LineString", "coordinates": [[4, 0], [-4, 0]]}}}},
             "layers": [{"id": "arrows", "type": "symbol", "source": "l",
                         "layout": {"symbol-placement": "line", "icon-image": "arrow", "icon-rotation-alignment": "map" \(layout)}}]}
            """
        let style = try Style.parse(Array(json.utf8), file: "upright.json")
        var loader = StyleLoader()
        var r = try MapRenderer(style: try loader.load(style: style), width: 300, height: 100)
        r.showsOrnaments = false
        r.attribution = ""
        r.addImage(name: "arrow", image: PixelBuffer(width: 12, height: 6, color: .black))
        var frame = PixelBuffer(width: 300, height: 100)
        r.render(camera: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 3), into: &frame)
        return r.symbolDraws.compactMap { if case let .icon(_, _, _, rotation, _) = $0 { return rotation } else { return nil } }
    }

    @Test func anIconAlongALinePointsTheWayTheLineRunsByDefault() throws {
        let turns = try Self.rotations("")
        #expect(!turns.isEmpty)
        for t in turns { #expect(abs(abs(t) - Double.pi) < 0.01, "pointing west: \(t)") }
    }

    @Test func iconKeepUprightFlipsItToReadLeftToRight() throws {
        let turns = try Self.rotations(#", "icon-keep-upright": true"#)
        #expect(!turns.isEmpty)
        for t in turns { #expect(abs(t) < 0.01, "kept upright: \(t)") }
    }
}
