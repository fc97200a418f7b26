import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// `text-pitch-alignment` and `icon-pitch-alignment` (issue 18): `map` lays glyphs and icons on
/// the pitched ground (foreshortened, smaller farther away), `viewport` keeps them facing the
/// viewer, `auto` follows the rotation alignment. Scenes on the equator at zoom 8, north up, in a
/// 400 × 300 frame, black ink on white.
@Suite struct PitchAlignmentTests {
    static let width = 400, height = 300
    static let centre = LocationCoordinate2D(latitude: 0, longitude: 0)

    /// A style of one symbol layer over `geometry` (GeoJSON), with `layout` added to its layout.
    static func style(_ geometry: String, _ layout: String) -> String {
        """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Feature", "properties": {}, "geometry": \(geometry)}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "sym", "type": "symbol", "source": "s", "layout": {\(layout)}, "paint": {"text-color": "#000000"}}]}
        """
    }

    static let point = #"{"type": "Point", "coordinates": [0, 0]}"#

    static func render(_ json: String, pitch: Double, bearing: Double = 0, threads: Int = 1,
                       configure: (inout MapRenderer) -> Void = { _ in }) throws -> (MapRenderer, PixelBuffer) {
        var r = try makeRenderer(json, width: width, height: height)
        r.attribution = ""
        r.threads = threads
        r.addImage(name: "square", image: PixelBuffer(width: 16, height: 16, color: .black))
        configure(&r)
        var frame = PixelBuffer(width: width, height: height)
        r.render(camera: CameraState(center: centre, zoom: 8, bearing: bearing, pitch: pitch), into: &frame)
        return (r, frame)
    }

    /// The box of the dark pixels (red < 128): width and height in pixels, nil when there are none.
    static func ink(_ frame: PixelBuffer) -> (minX: Int, minY: Int, maxX: Int, maxY: Int, w: Int, h: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<frame.height {
            for x in 0..<frame.width where (frame.pixels[y * frame.width + x] >> 16) & 0xFF < 128 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX, maxY, maxX - minX + 1, maxY - minY + 1)
    }

    static let label = #""text-field": "HHHHHH", "text-size": 24"#

    @Test func aMapAlignedPointLabelIsForeshortenedOnAPitchedMap() throws {
        let flat = try #require(Self.ink(Self.render(Self.style(Self.point, Self.label + #", "text-pitch-alignment": "map""#), pitch: 0).1))
        let pitched = try #require(Self.ink(Self.render(Self.style(Self.point, Self.label + #", "text-pitch-alignment": "map""#),
                                                        pitch: 60).1))
        let ratio = Double(pitched.h) / Double(flat.h)
        // The ground is seen at 60° from straight down: about cos 60° = ½ tall (a little more or less
        // across the label's depth).
        #expect(ratio > 0.3 && ratio < 0.75, "foreshortened: \(flat.h) px tall flat, \(pitched.h) px pitched")
        // Across the view the label keeps its size at the camera's centre distance.
        #expect(Double(abs(pitched.w - flat.w)) <= 0.1 * Double(flat.w), "width \(flat.w) → \(pitched.w)")
        #expect(Double(pitched.w) / Double(pitched.h) > 1.4 * Double(flat.w) / Double(flat.h), "squashed wider than tall")
    }

    @Test func aViewportAlignedPointLabelIsUnchangedByThePitch() throws {
        for layout in [Self.label, Self.label + #", "text-pitch-alignment": "viewport""#] {
            let flat = try #require(Self.ink(Self.render(Self.style(Self.point, layout), pitch: 0).1))
            let pitched = try #require(Self.ink(Self.render(Self.style(Self.point, layout), pitch: 60).1))
            #expect(flat.w == pitched.w && flat.h == pitched.h, "\(layout): \(flat) vs \(pitched)")
        }
    }

    @Test func mapAndViewportGiveTheSamePixelsOnAFlatMap() throws {
        let map = try Self.render(Self.style(Self.point, Self.label + #", "text-pitch-alignment": "map""#), pitch: 0).1
        let viewport = try Self.render(Self.style(Self.point, Self.label + #", "text-pitch-alignment": "viewport""#), pitch: 0).1
        #expect(map.pixels == viewport.pixels, "pitch 0, bearing 0: the same frame")
        // Barely pitched, the ground path is taken (per-glyph affine maps) and agrees within a pixel.
        let mapTilted = try #require(Self.ink(Self.render(Self.style(Self.point, Self.label + #", "text-pitch-alignment": "map""#),
                                                          pitch: 0.5).1))
        let level = try #require(Self.ink(viewport))
        #expect(abs(mapTilted.minX - level.minX) <= 1 && abs(mapTilted.maxX - level.maxX) <= 1
                    && abs(mapTilted.minY - level.minY) <= 1 && abs(mapTilted.maxY - level.maxY) <= 1,
                "\(mapTilted) vs \(level)")
    }

    /// The glyph runs drawn (line labels and labels on the ground are drawn glyph by glyph).
    static func glyphRuns(_ r: MapRenderer) -> [[PlacedGlyph]] {
        r.symbolDraws.compactMap { if case let .glyphs(g, _, _, _, _) = $0 { return g } else { return nil } }
    }

    @Test func lineLabelsOnTheGroundFollowTheLineAndShrinkWithDistance() throws {
        // A street running north, away from the viewer, through the centre of the frame.
        let line = #"{"type": "LineString", "coordinates": [[0, -0.6], [0, 0.6]]}"#
        let layout = #""symbol-placement": "line-center", "text-field": "Along the street going north", "text-size": 18"#
        let (r, _) = try Self.render(Self.style(line, layout + #", "text-pitch-alignment": "map""#), pitch: 60)
        let runs = Self.glyphRuns(r)
        try #require(runs.count == 1)
        let glyphs = runs[0]
        #expect(glyphs.count > 10)
        let centreX = Double(Self.width) / 2
        for g in glyphs {
            let m = try #require(g.linear, "drawn through the ground projection")
            #expect(abs(g.origin.x - centreX) < 2, "the glyph's centre is on the line: x = \(g.origin.x)")
            // Along the line is up the screen: the glyph's x axis maps to a vertical screen direction.
            #expect(abs(m.a) < 0.05 * abs(m.c), "turned along the line: \(m)")
        }
        // Farther glyphs (higher on screen) are smaller: the ground's scale falls with depth.
        let byDepth = glyphs.sorted { $0.origin.y < $1.origin.y }
        let far = abs(byDepth.first!.linear!.determinant), near = abs(byDepth.last!.linear!.determinant)
        #expect(far < 0.8 * near, "far glyph scale \(far), near \(near)")
        // Facing the viewer (a shorter name: the long one does not fit the line as drawn upright),
        // a label is drawn with rotations only.
        let short = #""symbol-placement": "line-center", "text-field": "North", "text-size": 18"#
        let (v, _) = try Self.render(Self.style(line, short + #", "text-pitch-alignment": "viewport""#), pitch: 60)
        let flatRuns = Self.glyphRuns(v)
        try #require(flatRuns.count == 1)
        #expect(flatRuns[0].allSatisfy { $0.linear == nil })
    }

    @Test func autoAlongALineFollowsTheRotationAlignmentWhenSwitchedOn() throws {
        let line = #"{"type": "LineString", "coordinates": [[-0.6, 0], [0.6, 0]]}"#
        let layout = #""symbol-placement": "line-center", "text-field": "Across the view", "text-size": 18"#
        let (on, _) = try Self.render(Self.style(line, layout), pitch: 60) { $0.autoPitchFollowsRotationAlongLines = true }
        let onRuns = Self.glyphRuns(on)
        try #require(onRuns.count == 1)
        for g in onRuns[0] {
            let m = try #require(g.linear)
            #expect(abs(m.d) < 0.75 * abs(m.a), "lying on the ground: squashed vertically \(m)")
            #expect(abs(g.origin.y - Double(Self.height) / 2) < 12, "on the line across the centre: y = \(g.origin.y)")
        }
        let (off, _) = try Self.render(Self.style(line, layout), pitch: 60) { $0.autoPitchFollowsRotationAlongLines = false }
        try #require(Self.glyphRuns(off).count == 1)
        #expect(Self.glyphRuns(off)[0].allSatisfy { $0.linear == nil }, "switched off: facing the viewer")
        let (byDefault, _) = try Self.render(Self.style(line, layout), pitch: 60)
        #expect(Self.glyphRuns(byDefault).map { $0.map(\.linear) } == onRuns.map { $0.map(\.linear) }, "on by default")
        // `text-rotation-alignment: viewport` makes `auto` viewport whatever the switch.
        let (level, _) = try Self.render(Self.style(line, layout + #", "text-rotation-alignment": "viewport""#), pitch: 60) {
            $0.autoPitchFollowsRotationAlongLines = true
        }
        #expect(Self.glyphRuns(level).isEmpty, "a level block, drawn as text")
    }

    @Test func iconsWithMapPitchAlignmentAreForeshortenedLikewise() throws {
        let icon = #""icon-image": "square", "icon-size": 3"#
        let flat = try #require(Self.ink(Self.render(Self.style(Self.point, icon + #", "icon-pitch-alignment": "map""#), pitch: 0).1))
        let (r, frame) = try Self.render(Self.style(Self.point, icon + #", "icon-pitch-alignment": "map""#), pitch: 60)
        let pitched = try #require(Self.ink(frame))
        #expect(abs(flat.w - 48) <= 1 && abs(flat.h - 48) <= 1, "48 px square flat: \(flat)")
        let ratio = Double(pitched.h) / Double(flat.h)
        #expect(ratio > 0.3 && ratio < 0.75, "foreshortened: \(flat.h) → \(pitched.h)")
        #expect(abs(pitched.w - flat.w) <= 5, "width kept at the centre: \(flat.w) → \(pitched.w)")
        #expect(r.symbolDraws.contains { if case .groundIcon = $0 { return true } else { return false } })
        // The collision box is the projected quad's screen box (grown by the default icon-padding,
        // 2 px): as tall as the ink, not the flat icon.
        let box = try #require(r.placer.placed.first)
        #expect(abs((box.maxY - box.minY - 4) - Double(pitched.h)) <= 2, "box \(box), ink \(pitched)")
        let viewport = try #require(Self.ink(Self.render(Self.style(Self.point, icon), pitch: 60).1))
        #expect(viewport.w == flat.w && viewport.h == flat.h, "viewport (auto at a point) faces the viewer: \(viewport)")
    }

    @Test func anIconStretchedAroundAGroundLabelLiesOnTheGroundWithIt() throws {
        let layout = Self.label + #", "text-pitch-alignment": "map", "icon-pitch-alignment": "map", "icon-image": "square", "#
            + #""icon-text-fit": "both", "icon-text-fit-padding": [4, 4, 4, 4]"#
        let (r, _) = try Self.render(Self.style(Self.point, layout), pitch: 60)
        let ground = r.symbolDraws.compactMap { if case let .groundIcon(_, _, m, _) = $0 { return m } else { return nil } }
        let m = try #require(ground.first, "the stretched icon is drawn on the ground")
        #expect(abs(m.d) < 0.75 * abs(m.a), "foreshortened like its label: \(m)")
        try #require(r.placer.placed.count == 2)
        let icon = r.placer.placed[0], text = r.placer.placed[1]
        #expect(icon.minX <= text.minX + 1 && icon.maxX >= text.maxX - 1 && icon.minY <= text.minY + 1 && icon.maxY >= text.maxY - 1,
                "the icon's box \(icon) holds the text's \(text)")
        #expect(icon.maxY - icon.minY < 1.5 * (text.maxY - text.minY), "and is squashed like it")
    }

    @Test func groundSymbolsDrawTheSamePixelsOnOneAndTwoThreads() throws {
        let json = """
            {"version": 8, "sources": {
                "p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
                    {"type": "Feature", "properties": {"n": "On the ground"}, "geometry": {"type": "Point", "coordinates": [-0.1, -0.05]}},
                    {"type": "Feature", "properties": {"n": ""}, "geometry": {"type": "Point", "coordinates": [0.15, 0.1]}}]}},
                "l": {"type": "geojson", "data": {"type": "Feature", "properties": {"n": "A long street name on the ground"},
                      "geometry": {"type": "LineString", "coordinates": [[-0.8, -0.2], [0.1, 0.05], [0.8, 0.3]]}}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "line", "type": "symbol", "source": "l", "layout": {"symbol-placement": "line", "text-field": ["get", "n"],
                         "text-size": 16, "text-pitch-alignment": "map"}, "paint": {"text-halo-color": "#ffcc00", "text-halo-width": 2}},
                        {"id": "pts", "type": "symbol", "source": "p", "layout": {"text-field": ["get", "n"], "text-size": 20,
                         "icon-image": "square", "icon-size": 2, "text-anchor": "top", "text-offset": [0, 1],
                         "text-pitch-alignment": "map", "icon-pitch-alignment": "map", "text-rotation-alignment": "map"},
                         "paint": {"text-color": "#aa0000"}}]}
            """
        let one = try Self.render(json, pitch: 55, bearing: 25, threads: 1).1
        let two = try Self.render(json, pitch: 55, bearing: 25, threads: 2).1
        #expect(Self.ink(one) != nil)
        #expect(one.pixels == two.pixels)
    }
}
