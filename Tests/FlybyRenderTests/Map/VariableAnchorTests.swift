import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// `text-variable-anchor`, `text-radial-offset`, `text-variable-anchor-offset` (Style
/// Specification, symbol layout) and the anchors kept through a frame sequence.
@Suite struct VariableAnchorTests {
    /// A style with a blocking label "WWWWWWWW" (blue, top layer: placed first) at `blocker` and a
    /// label "Hi" (red) at `label` whose layer has `layout` (JSON members).
    static func style(blocker: Double = 0, label: Double = 3.5, layout: String) -> String {
        """
        {"version": 8,
         "sources": {
           "a": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                 "geometry": {"type": "Point", "coordinates": [\(blocker), 0]}}},
           "b": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                 "geometry": {"type": "Point", "coordinates": [\(label), 0]}}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "label", "type": "symbol", "source": "b",
                     "layout": {"text-field": "Hi", \(layout)}, "paint": {"text-color": "#ff0000"}},
                    {"id": "blocker", "type": "symbol", "source": "a",
                     "layout": {"text-field": "WWWWWWWW"}, "paint": {"text-color": "#0000ff"}}]}
        """
    }

    static func renderer(_ json: String, width: Int = 300, height: Int = 100) throws -> MapRenderer {
        let style = try Style.parse(Array(json.utf8), file: "anchors.json")
        var loader = StyleLoader()
        var r = try MapRenderer(style: try loader.load(style: style), width: width, height: height)
        r.showsOrnaments = false
        r.attribution = ""
        return r
    }

    static func camera(_ lng: Double, zoom: Double = 3) -> CameraState {
        CameraState(center: .init(latitude: 0, longitude: lng), zoom: zoom)
    }

    static func box(_ r: MapRenderer, _ layer: String) -> SymbolBox? { r.placedSymbolBoxes.first { $0.layerID == layer } }

    /// The anchor of the label's point on screen (x), for camera `c` of a 300 px wide frame at zoom 3.
    static func anchorX(_ lng: Double, _ c: CameraState) -> Double {
        150 + (lng - c.center.longitude) / 360 * 512 * 8
    }

    @Test func radialOffsetsPointAwayFromTheAnchorAndCornersShareIt() {
        #expect(SymbolAnchorOffsets.radial("top", 2) == (0, 2))
        #expect(SymbolAnchorOffsets.radial("left", 2) == (2, 0))
        #expect(SymbolAnchorOffsets.radial("center", 2) == (0, 0))
        let corner = SymbolAnchorOffsets.radial("bottom-right", 2)
        #expect(abs(corner.x + 2.0.squareRoot()) < 1e-12 && abs(corner.y + 2.0.squareRoot()) < 1e-12)
    }

    @Test func textOffsetWithVariableAnchorsIsTakenAsAbsoluteAndSignedByTheAnchor() {
        #expect(SymbolAnchorOffsets.signed("top", -1, -3) == (0, 3))
        #expect(SymbolAnchorOffsets.signed("bottom-right", -1, -3) == (-1, -3))
        #expect(SymbolAnchorOffsets.signed("left", -1, 5) == (1, 0))
        #expect(SymbolAnchorOffsets.signed("center", 4, 5) == (0, 0))
    }

    @Test func aLabelWhoseFirstAnchorCollidesTakesTheNextAnchorThatFits() throws {
        var r = try Self.renderer(Self.style(layout: #""text-variable-anchor": ["center", "top"], "text-radial-offset": 1"#))
        var frame = PixelBuffer(width: 300, height: 100)
        let c = Self.camera(0)
        r.render(camera: c, into: &frame)
        let blocker = try #require(Self.box(r, "blocker"))
        let label = try #require(Self.box(r, "label"))
        #expect(!label.overlaps(blocker))
        // `top` with a radial offset of 1 em (16 px): the text's top edge 16 px below the anchor, padding 2.
        #expect(abs(label.minY - (50 + 16 - 2)) < 0.5, "\(label)")
        #expect(abs((label.minX + label.maxX) / 2 - Self.anchorX(3.5, c)) < 0.5, "\(label)")
    }

    @Test func withoutVariableAnchorsTheCollidingLabelIsNotPlaced() throws {
        var r = try Self.renderer(Self.style(layout: #""text-anchor": "center""#))
        var frame = PixelBuffer(width: 300, height: 100)
        r.render(camera: Self.camera(0), into: &frame)
        #expect(Self.box(r, "blocker") != nil)
        #expect(Self.box(r, "label") == nil)
    }

    @Test func variableAnchorOffsetTakesPrecedenceAndUsesItsOwnOffsets() throws {
        var r = try Self.renderer(Self.style(layout: #"""
            "text-variable-anchor": ["center", "top"], "text-radial-offset": 1,
            "text-variable-anchor-offset": ["center", [0, 0], "bottom", [0, -2]]
            """#))
        var frame = PixelBuffer(width: 300, height: 100)
        r.render(camera: Self.camera(0), into: &frame)
        let label = try #require(Self.box(r, "label"))
        // `bottom` with offset [0, -2] ems: the text's bottom edge 32 px above the anchor.
        #expect(abs(label.maxY - (50 - 32 + 2)) < 0.5, "\(label)")
    }

    @Test func badVariableAnchorValuesAreRefusedNamingTheFile() throws {
        for layout in [#""text-variable-anchor": ["middle"]"#, #""text-variable-anchor-offset": ["top", [0, 1], "left"]"#,
                       #""text-variable-anchor-offset": ["top", [0, 1, 2]]"#] {
            #expect(throws: (any Error).self) { _ = try Self.renderer(Self.style(layout: layout)) }
            do { _ = try Self.renderer(Self.style(layout: layout)) } catch {
                #expect("\(error)".contains("anchors.json"), "\(error)")
            }
        }
    }

    /// A panning flight: the blocker's anchor leaves the frame, so its first anchor (`center`)
    /// becomes free again. A snapshot then puts the label at `center`; in the sequence it stays
    /// at `top` and moves exactly with the pan in every frame.
    @Test func aPlacedAnchorIsKeptWhileItFitsThroughAPanningFlight() throws {
        let json = Self.style(layout: #""text-variable-anchor": ["center", "top"], "text-radial-offset": 1"#)
        var r = try Self.renderer(json)
        var frame = PixelBuffer(width: 300, height: 100)
        var sawBlockerGone = false
        for k in 0...24 {
            let c = Self.camera(10 + Double(k) * 0.25)
            r.render(camera: c, time: Double(k) / 30, into: &frame)
            let label = try #require(Self.box(r, "label"), "frame \(k)")
            #expect(abs(label.minY - 64) < 0.5, "frame \(k): the label stays at its top anchor: \(label)")
            #expect(abs((label.minX + label.maxX) / 2 - Self.anchorX(3.5, c)) < 0.5, "frame \(k)")
            if Self.box(r, "blocker") == nil { sawBlockerGone = true }
        }
        #expect(sawBlockerGone)
        var snapshot = try Self.renderer(json)
        snapshot.render(camera: Self.camera(16), into: &frame)
        let fresh = try #require(Self.box(snapshot, "label"))
        #expect(abs((fresh.minY + fresh.maxY) / 2 - 50) < 0.5, "a snapshot takes the first anchor: \(fresh)")
    }
}
