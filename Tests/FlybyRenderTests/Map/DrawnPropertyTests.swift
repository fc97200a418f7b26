import FlybyCore
import FlybyRender
import Testing

/// Each property below changes pixels the way the Style Specification says: a property that were
/// accepted and ignored would fail these.
@Suite struct DrawnPropertyTests {
    static let size = 160
    static let camera = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 8)

    /// A style of one layer over a white background; `coordinates` of a LineString, or a Point
    /// when `type` is `circle`.
    static func render(type: String, coordinates: String, layout: String = "", paint: String,
                       camera: CameraState = camera) throws -> PixelBuffer {
        let geometry = coordinates.hasPrefix("{") ? coordinates : type == "circle" ? #"{"type": "Point", "coordinates": \#(coordinates)}"#
            : #"{"type": "LineString", "coordinates": \#(coordinates)}"#
        let json = """
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Feature", "properties": {}, "geometry": \(geometry)}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "l", "type": "\(type)", "source": "s", "layout": {\(layout)}, "paint": {\(paint)}}]}
            """
        var r = try makeRenderer(json, width: size, height: size)
        r.attribution = ""
        var frame = PixelBuffer(width: size, height: size)
        r.render(camera: camera, into: &frame)
        return frame
    }

    /// How dark a pixel is (0 white … 1 black) for black ink on white.
    static func ink(_ f: PixelBuffer, _ x: Int, _ y: Int) -> Double { 1 - Double(f.color(x: x, y: y).red) / 255 }

    /// The dark rows of column `x` (ink > ½).
    static func darkRows(_ f: PixelBuffer, x: Int) -> [Int] { (0..<size).filter { ink(f, x, $0) > 0.5 } }

    static let eastbound = "[[-0.15, 0], [0.15, 0]]", westbound = "[[0.15, 0], [-0.15, 0]]"

    @Test func positiveLineOffsetMovesTheLineToTheRightOfItsDirection() throws {
        let plain = try Self.render(type: "line", coordinates: Self.eastbound, paint: #""line-width": 4"#)
        let east = try Self.render(type: "line", coordinates: Self.eastbound, paint: #""line-width": 4, "line-offset": 10"#)
        let west = try Self.render(type: "line", coordinates: Self.westbound, paint: #""line-width": 4, "line-offset": 10"#)
        let centre = Double(Self.darkRows(plain, x: 80).reduce(0, +)) / Double(Self.darkRows(plain, x: 80).count)
        let e = Self.darkRows(east, x: 80), w = Self.darkRows(west, x: 80)
        #expect(e.count == 4 && w.count == 4, "\(e) \(w)")
        // Right of travel: south (down) going east, north (up) going west.
        expectClose(Double(e.reduce(0, +)) / 4 - centre, 10, 0.51, "eastbound: \(e)")
        expectClose(Double(w.reduce(0, +)) / 4 - centre, -10, 0.51, "westbound: \(w)")
    }

    @Test(arguments: [false, true])
    func positiveLineOffsetInsetsAPolygonWhicheverWayItsRingRuns(reversed: Bool) throws {
        var ring = ["[-0.1, -0.1]", "[0.1, -0.1]", "[0.1, 0.1]", "[-0.1, 0.1]", "[-0.1, -0.1]"]
        if reversed { ring.reverse() }
        let polygon = #"{"type": "Polygon", "coordinates": [[\#(ring.joined(separator: ", "))]]}"#
        let f = try Self.render(type: "line", coordinates: polygon, paint: #""line-width": 2, "line-offset": 8"#)
        let t = MapTransform(size: ScreenSize(width: Double(Self.size), height: Double(Self.size)), state: Self.camera)
        let top = try #require(t.point(for: .init(latitude: 0.1, longitude: 0)))
        #expect(Self.ink(f, 80, Int(top.y) + 8) > 0.5, "8 px inside the top edge")
        #expect(Self.ink(f, 80, Int(top.y)) < 0.1 && Self.ink(f, 80, Int(top.y) - 8) < 0.1, "nothing on or outside it")
    }

    @Test func lineOffsetOfABentLineKeepsItsWidthAtTheJoin() throws {
        // An L: east then south; offset 10 to the right puts the corner 10 px inside (south-west).
        let f = try Self.render(type: "line", coordinates: "[[-0.15, 0.1], [0.1, 0.1], [0.1, -0.15]]",
                                layout: #""line-join": "miter""#, paint: #""line-width": 4, "line-offset": 10"#)
        let t = MapTransform(size: ScreenSize(width: Double(Self.size), height: Double(Self.size)), state: Self.camera)
        let corner = try #require(t.point(for: .init(latitude: 0.1, longitude: 0.1)))
        let x = Int(corner.x) - 10, y = Int(corner.y) + 10
        #expect(Self.ink(f, x, y) > 0.5, "the offset corner at \(x),\(y)")
        #expect(Self.ink(f, Int(corner.x), Int(corner.y)) < 0.1, "nothing on the geometry itself")
        #expect(Self.ink(f, x - 8, y) > 0.5 && Self.ink(f, x, y + 8) > 0.5, "both offset legs")
    }

    @Test func lineGapWidthDrawsTwoCasingsEachLineWidthWideAroundTheGap() throws {
        let f = try Self.render(type: "line", coordinates: Self.eastbound, paint: #""line-width": 4, "line-gap-width": 10"#)
        let rows = Self.darkRows(f, x: 80)
        // Two runs of 4 px, 10 px apart.
        #expect(rows.count == 8, "\(rows)")
        if rows.count == 8 {
            #expect(rows[3] - rows[0] == 3 && rows[7] - rows[4] == 3, "\(rows)")
            #expect(rows[4] - rows[3] == 11, "a 10 px gap: \(rows)")
        }
    }

    @Test func lineBlurRampsTheEdgeOverTheBlurWidth() throws {
        let sharp = try Self.render(type: "line", coordinates: Self.eastbound, paint: #""line-width": 20"#)
        let blurred = try Self.render(type: "line", coordinates: Self.eastbound, paint: #""line-width": 20, "line-blur": 8"#)
        func partial(_ f: PixelBuffer) -> [Double] { (0..<Self.size).map { Self.ink(f, 80, $0) }.filter { $0 > 0.05 && $0 < 0.95 } }
        #expect(partial(sharp).count <= 2)
        #expect(partial(blurred).count >= 12, "\(partial(blurred))")
        let column = (0..<Self.size).map { Self.ink(blurred, 80, $0) }
        #expect(column.max()! > 0.97, "the middle stays opaque")
        // The ramp rises steadily: no step of more than a third.
        let ramp = column.prefix { $0 < 0.97 }
        for (a, b) in zip(ramp, ramp.dropFirst()) { #expect(b - a < 0.34 && b >= a - 0.01, "\(Array(ramp))") }
    }

    @Test func roundJoinsOfShallowTurnsBecomeMitersUnderTheRoundLimit() throws {
        // East, then a 60° turn to the north-east: miter ratio 1/cos 30° ≈ 1.155.
        let line = "[[-0.15, 0], [0, 0], [0.05, 0.0866]]"
        let round = try Self.render(type: "line", coordinates: line, layout: #""line-join": "round""#, paint: #""line-width": 40"#)
        let miter = try Self.render(type: "line", coordinates: line, layout: #""line-join": "round", "line-round-limit": 1.2"#,
                                    paint: #""line-width": 40"#)
        let t = MapTransform(size: ScreenSize(width: Double(Self.size), height: Double(Self.size)), state: Self.camera)
        let b = try #require(t.point(for: .init(latitude: 0, longitude: 0)))
        // The outer corner's bisector (screen, y down) points (½, √3/2); the arc ends at 20 px,
        // the miter tip at 23.1 px.
        let x = Int(b.x + 21.8 * 0.5), y = Int(b.y + 21.8 * 0.866)
        #expect(Self.ink(round, x, y) < 0.2, "round join: outside the arc")
        #expect(Self.ink(miter, x, y) > 0.8, "miter join: inside the tip")
    }

    @Test func circleBlurOfOneLeavesOnlyTheCentreOpaque() throws {
        let sharp = try Self.render(type: "circle", coordinates: "[0, 0]", paint: #""circle-radius": 30"#)
        let blurred = try Self.render(type: "circle", coordinates: "[0, 0]", paint: #""circle-radius": 30, "circle-blur": 1"#)
        #expect(Self.ink(sharp, 80 + 15, 80) > 0.97)
        #expect(Self.ink(blurred, 80, 80) > 0.9, "the centre")
        // Halfway out, smoothstep(½) = ½; three quarters out, smoothstep(¼) ≈ 0.16.
        expectClose(Self.ink(blurred, 80 + 15, 80), 0.5, 0.08, "half radius")
        expectClose(Self.ink(blurred, 80, 80 + 22), 0.16, 0.08, "three quarters")
        #expect(Self.ink(blurred, 80 + 31, 80) < 0.02, "outside")
    }

    @Test func circleTranslateMovesTheCircleOnScreenWithTheMapOrTheViewport() throws {
        let turned = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 8, bearing: 90)
        let viewport = try Self.render(type: "circle", coordinates: "[0, 0]",
                                       paint: #""circle-radius": 6, "circle-translate": [30, 0], "circle-translate-anchor": "viewport""#,
                                       camera: turned)
        let map = try Self.render(type: "circle", coordinates: "[0, 0]", paint: #""circle-radius": 6, "circle-translate": [30, 0]"#,
                                  camera: turned)
        #expect(Self.ink(viewport, 110, 80) > 0.9 && Self.ink(viewport, 80, 80) < 0.05)
        // Map anchor: +x is east, which a bearing of 90° turns to the top of the screen.
        #expect(Self.ink(map, 80, 50) > 0.9 && Self.ink(map, 80, 80) < 0.05)
    }

    @Test func lineTranslateMovesTheLine() throws {
        let f = try Self.render(type: "line", coordinates: Self.eastbound, paint: #""line-width": 4, "line-translate": [0, 12]"#)
        let rows = Self.darkRows(f, x: 80)
        #expect(rows.count == 4 && rows.allSatisfy { $0 > 88 }, "\(rows)")
    }

    /// The dark run through (x, y) along a row and along a column, in pixels.
    static func extent(_ f: PixelBuffer, _ x: Int, _ y: Int) -> (width: Int, height: Int) {
        func run(_ dx: Int, _ dy: Int) -> Int {
            var n = 0, px = x + dx, py = y + dy
            while px >= 0 && py >= 0 && px < size && py < size && ink(f, px, py) > 0.5 { n += 1; px += dx; py += dy }
            return n
        }
        return (1 + run(1, 0) + run(-1, 0), 1 + run(0, 1) + run(0, -1))
    }

    /// Two circles of radius 8 in a frame pitched 60°: one near the bottom, one far up.
    static func pitchedCircles(_ paint: String) throws -> (near: (width: Int, height: Int), far: (width: Int, height: Int)) {
        let camera = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 8, pitch: 60)
        let points = #"{"type": "MultiPoint", "coordinates": [[0, -0.08], [0, 0.12]]}"#
        let f = try render(type: "circle", coordinates: points, paint: #""circle-radius": 8, "# + paint, camera: camera)
        let t = MapTransform(size: ScreenSize(width: Double(size), height: Double(size)), state: camera)
        let near = try #require(t.point(for: .init(latitude: -0.08, longitude: 0)))
        let far = try #require(t.point(for: .init(latitude: 0.12, longitude: 0)))
        return (extent(f, Int(near.x), Int(near.y)), extent(f, Int(far.x), Int(far.y)))
    }

    @Test func circlePitchScaleMapShrinksFarCirclesAndViewportKeepsTheirSize() throws {
        let map = try Self.pitchedCircles(#""circle-pitch-scale": "map""#)
        let viewport = try Self.pitchedCircles(#""circle-pitch-scale": "viewport""#)
        #expect(map.near.width > map.far.width + 3, "\(map)")
        #expect(abs(viewport.near.width - viewport.far.width) <= 1 && abs(viewport.near.width - 16) <= 1, "\(viewport)")
        #expect(abs(viewport.near.height - viewport.near.width) <= 1, "facing the viewer: round")
    }

    @Test func circlePitchAlignmentMapLaysTheCircleOnTheGround() throws {
        let flat = try Self.pitchedCircles(#""circle-pitch-alignment": "map""#)
        // Seen at 60° the ground circle is about half as tall as wide.
        #expect(Double(flat.near.height) < 0.75 * Double(flat.near.width), "\(flat)")
        #expect(flat.far.width < flat.near.width, "\(flat)")
    }
}
