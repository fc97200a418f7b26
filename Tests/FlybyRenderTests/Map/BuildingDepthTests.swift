import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// The buildings' depth buffer (``BuildingDepth``): where the painter's order by footprint
/// centre is wrong — a long slab whose centre is nearer than a tower standing in front of its far
/// end — the nearer building still hides the farther one, pixel by pixel.
@Suite struct BuildingDepthTests {
    /// Degrees per metre at the equator (WGS 84 circumference 40,075,016.686 m).
    static let degreesPerMetre = 360 / 40_075_016.686

    /// A box from (`x0`, `y0`) to (`x1`, `y1`) metres east and north of (0, 0), `h` metres tall.
    static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, h: Double, color: String) -> String {
        let d = degreesPerMetre
        let (w, e, s, n) = (x0 * d, x1 * d, y0 * d, y1 * d)
        return """
        {"type": "Feature", "properties": {"h": \(h), "c": "\(color)"}, "geometry": {"type": "Polygon", "coordinates": [[[\(w), \(s)], [\(e), \(s)], [\(e), \(n)], [\(w), \(n)], [\(w), \(s)]]]}}
        """
    }

    /// The slab: 20 m wide, 400 m long from south to north, 20 m tall, blue. The tower: 20 × 10 m,
    /// 100 m tall, red, east of the slab's far half, between the camera and the slab's far end.
    static let slab = box(0, 0, 20, 400, h: 20, color: "#0000ff")
    static let tower = box(30, 250, 50, 260, h: 100, color: "#ff0000")

    static func style(_ features: [String]) -> String {
        """
        {"version": 8,
         "sources": {"b": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features.joined(separator: ", "))]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "3d", "type": "fill-extrusion", "source": "b",
                     "paint": {"fill-extrusion-color": ["get", "c"], "fill-extrusion-height": ["get", "h"]}}]}
        """
    }

    /// Looking north from the south-east of the slab's far end.
    static let camera = CameraState(center: LocationCoordinate2D(latitude: 300 * degreesPerMetre, longitude: 120 * degreesPerMetre),
                                    zoom: 16.5, bearing: 0, pitch: 60)

    static func render(_ features: [String], threads: Int = 1) throws -> PixelBuffer {
        try FillExtrusionTests.render(style(features), camera: camera, size: 240, threads: threads)
    }

    /// Pixels inside `frame`'s drawing of a building: not the background, nor next to it.
    static func interior(_ frame: PixelBuffer) -> [(x: Int, y: Int)] {
        let white = Color.white.premultipliedARGB
        var out: [(Int, Int)] = []
        for y in 1..<(frame.height - 1) {
            for x in 1..<(frame.width - 1) {
                var inside = true
                for dy in -1...1 { for dx in -1...1 where frame.pixel(x: x + dx, y: y + dy) == white { inside = false } }
                if inside { out.append((x, y)) }
            }
        }
        return out
    }

    @Test func aTowerInFrontOfASlabsFarEndHidesItThoughTheSlabsCentreIsNearer() throws {
        let towerAlone = try Self.render([Self.tower]), slabAlone = try Self.render([Self.slab])
        let both = try Self.render([Self.slab, Self.tower])
        let towerPixels = Self.interior(towerAlone)
        let white = Color.white.premultipliedARGB
        // The scene tests what it means to: the slab lies behind the tower on the screen.
        let overlap = towerPixels.filter { slabAlone.pixel(x: $0.x, y: $0.y) != white }
        #expect(overlap.count > 100, "the slab behind the tower: \(overlap.count) pixels; the slab alone \(Self.interior(slabAlone).count)")
        // Everywhere inside the tower's drawing the tower shows, as it does alone.
        // (Measured before the depth buffer: 728 of the tower's 2,099 pixels showed the slab.)
        let wrong = towerPixels.filter { both.pixel(x: $0.x, y: $0.y) != towerAlone.pixel(x: $0.x, y: $0.y) }.count
        #expect(wrong == 0, "\(wrong) of the tower's \(towerPixels.count) pixels show the slab")
        // And the slab's pixels the tower does not cover are the slab's own.
        let slabOnly = Self.interior(slabAlone).filter { towerAlone.pixel(x: $0.x, y: $0.y) == white }
        #expect(slabOnly.count > 200 && slabOnly.allSatisfy { both.pixel(x: $0.x, y: $0.y) == slabAlone.pixel(x: $0.x, y: $0.y) })
    }

    @Test func theSameFrameOnOneThreadAndOnThree() throws {
        let one = try Self.render([Self.slab, Self.tower]), three = try Self.render([Self.slab, Self.tower], threads: 3)
        let same = one == three
        #expect(same)
    }
}
