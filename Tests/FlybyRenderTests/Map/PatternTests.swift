import FlybyCore
import FlybyData
import FlybyRender
import Foundation
import Testing

/// `fill-pattern`, `background-pattern`, `line-pattern`, `line-gradient` and the halo blurs
/// change pixels as the Style Specification says (docs/style-properties.md).
@Suite struct PatternTests {
    static let camera = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 8)

    /// A deterministic 8 × 6 image of distinct opaque colours (not a power of two in width or height).
    static func image(scale: Int = 1) -> PixelBuffer {
        let w = 8, h = 6
        var b = PixelBuffer(width: w * scale, height: h * scale)
        for y in 0..<(h * scale) {
            for x in 0..<(w * scale) {
                let i = (y / scale) * w + x / scale
                b.pixels[y * w * scale + x] = Color(red: UInt8(i * 5 % 256), green: UInt8(255 - i * 4), blue: UInt8((i * 37) % 256)).premultipliedARGB
            }
        }
        return b
    }

    /// A polygon covering the whole view, filled with the pattern `p`.
    static let bigFill = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Feature", "properties": {},
          "geometry": {"type": "Polygon", "coordinates": [[[-5, -5], [5, -5], [5, 5], [-5, 5], [-5, -5]]]}}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "f", "type": "fill", "source": "s", "paint": {"fill-color": "#ff0000", "fill-pattern": "p"}}]}
        """

    static func render(_ json: String, camera: CameraState = camera, size: (Int, Int) = (96, 64), pixelRatio: Int = 1,
                       images: [(String, PixelBuffer, Double)] = [("p", image(), 1)]) throws -> PixelBuffer {
        let style = try Style.parse(Array(json.utf8), file: "test-style.json")
        var loader = StyleLoader()
        var r = try MapRenderer(style: try loader.load(style: style), width: size.0 * pixelRatio, height: size.1 * pixelRatio,
                                pixelRatio: Double(pixelRatio))
        r.showsOrnaments = false
        r.attribution = ""
        for (name, image, ratio) in images { r.addImage(name: name, image: image, info: SpriteImageInfo(pixelRatio: ratio)) }
        var frame = PixelBuffer(width: r.width, height: r.height)
        r.render(camera: camera, into: &frame)
        return frame
    }

    /// The camera moved so that the map shifts by (−dx, −dy) whole pixels on screen.
    static func panned(_ c: CameraState, dx: Double, dy: Double, size: (Int, Int)) throws -> CameraState {
        let t = MapTransform(size: ScreenSize(width: Double(size.0), height: Double(size.1)), state: c)
        var moved = c
        moved.center = try #require(t.coordinate(for: ScreenPoint(x: Double(size.0) / 2 + dx, y: Double(size.1) / 2 + dy)))
        return moved
    }

    @Test func aFillPatternPixelStaysOnItsGroundPointWhenTheCameraPansByWholePixels() throws {
        let size = (96, 64)
        let a = try Self.render(Self.bigFill, size: size)
        for (dx, dy) in [(5, 3), (-13, 7), (1, -1)] {
            let b = try Self.render(Self.bigFill, camera: try Self.panned(Self.camera, dx: Double(dx), dy: Double(dy), size: size), size: size)
            var same = 0, checked = 0
            for y in 16..<48 {
                for x in 20..<76 {
                    checked += 1
                    if b.pixel(x: x, y: y) == a.pixel(x: x + dx, y: y + dy) { same += 1 }
                }
            }
            #expect(same == checked, "pan (\(dx), \(dy)): \(checked - same) pixels swam")
        }
        // And it is the image, not a colour: 8 × 6 texels of distinct colours.
        var colours: Set<UInt32> = []
        for y in 0..<6 { for x in 0..<8 { colours.insert(a.pixel(x: 40 + x, y: 30 + y)) } }
        #expect(colours.count == 48)
        #expect(Set(Self.image().pixels) == colours)
    }

    @Test func anAt2xImageAtPixelRatioTwoEqualsTheAt1xImageScaledUp() throws {
        let one = try Self.render(Self.bigFill, size: (48, 32))
        let two = try Self.render(Self.bigFill, size: (48, 32), pixelRatio: 2, images: [("p", Self.image(scale: 2), 2)])
        var differ = 0
        for y in 0..<32 { for x in 0..<48 where two.pixel(x: 2 * x + 1, y: 2 * y) != one.pixel(x: x, y: y)
                            || two.pixel(x: 2 * x, y: 2 * y + 1) != one.pixel(x: x, y: y) { differ += 1 } }
        #expect(differ == 0)
    }

    @Test func betweenIntegerZoomsThePatternGrowsWithTheMap() throws {
        var c = Self.camera
        c.zoom = 8.99
        let a = try Self.render(Self.bigFill, camera: c, size: (96, 64))
        // At zoom 8.99 a texel is ≈ 2 px: neighbouring pixel pairs agree far more often than at 8.
        let b = try Self.render(Self.bigFill, size: (96, 64))
        func runs(_ f: PixelBuffer) -> Int { (10..<80).filter { f.pixel(x: $0, y: 30) == f.pixel(x: $0 + 1, y: 30) }.count }
        #expect(runs(a) > 25 && runs(b) == 0, "\(runs(a)) \(runs(b))")
    }

    @Test func fillOpacityScalesThePattern() throws {
        let json = Self.bigFill.replacingOccurrences(of: #""fill-pattern": "p""#, with: #""fill-pattern": "p", "fill-opacity": 0.5"#)
        let f = try Self.render(json)
        let c = f.color(x: 40, y: 30)
        // Half the texel over white: every channel at least half-way to white.
        #expect(c.red >= 127 && c.green >= 127 && c.blue >= 127 && c.alpha == 255)
    }

    @Test func aMissingPatternImageFallsBackToTheFillColour() throws {
        let f = try Self.render(Self.bigFill, images: [])
        #expect(isRed(f.color(x: 40, y: 30)))
    }

    @Test func backgroundPatternTilesTheWholeFrame() throws {
        let json = """
            {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-pattern": "p"}}]}
            """
        let f = try Self.render(json)
        let fill = try Self.render(Self.bigFill)
        #expect(f.pixels == fill.pixels, "the same world-anchored texels as a fill-pattern")
    }

    @Test func aPitchedAndRotatedPatternIsSampledThroughTheProjection() throws {
        var c = Self.camera
        c.pitch = 50; c.bearing = 30
        let f = try Self.render(Self.bigFill, camera: c)
        let texels = Set(Self.image().pixels)
        // Below the horizon, the fully covered pixels are texels of the image.
        let inside = (40..<64).flatMap { y in (0..<96).map { f.pixel(x: $0, y: y) } }
        #expect(inside.allSatisfy { texels.contains($0) })
        #expect(Set(inside).count > 20)
    }

    // MARK: line-pattern

    static func lineStyle(_ paint: String, lineMetrics: Bool = false, coordinates: String = "[[-0.1, 0], [0.1, 0]]") -> String {
        """
        {"version": 8, "sources": {"s": {"type": "geojson", \(lineMetrics ? #""lineMetrics": true,"# : "")
          "data": {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": \(coordinates)}}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "l", "type": "line", "source": "s", "paint": {\(paint)}}]}
        """
    }

    @Test func aLinePatternRunsAlongTheLineWithItsHeightFittedToTheWidth() throws {
        // The line is 12 px wide, the image 6 px high: each texel is 2 × 2 px; the line is 72 px long.
        let f = try Self.render(Self.lineStyle(#""line-width": 12, "line-pattern": "p""#))
        let img = Self.image()
        let start = 48 - 36
        // Row 0 of the image along the top of the line, row 5 along its bottom; columns every 2 px.
        for k in 0..<16 {
            let x = start + 2 * k
            #expect(f.pixel(x: x, y: 26) == img.pixels[k % 8], "top texel \(k)")
            #expect(f.pixel(x: x, y: 37) == img.pixels[5 * 8 + k % 8], "bottom texel \(k)")
        }
    }

    // MARK: line-gradient

    static let gradient = ##""line-width": 8, "line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "#ff0000", 1, "#0000ff"]"##

    @Test func aLineGradientStartsAtTheFirstStopAndEndsAtTheLast() throws {
        let f = try Self.render(Self.lineStyle(Self.gradient, lineMetrics: true))
        let first = f.color(x: 12, y: 32), last = f.color(x: 83, y: 32), middle = f.color(x: 48, y: 32)
        #expect(first.red >= 250 && first.blue <= 5, "\(first)")
        #expect(last.blue >= 250 && last.red <= 5, "\(last)")
        #expect(abs(Int(middle.red) - 128) <= 6 && abs(Int(middle.blue) - 128) <= 6, "\(middle)")
    }

    @Test func lineProgressIsTheMercatorLengthAlongTheWholeLine() throws {
        // Two segments of 0.05° and 0.15°: progress 0.25 at the bend.
        let f = try Self.render(Self.lineStyle(Self.gradient, lineMetrics: true, coordinates: "[[-0.1, 0], [-0.05, 0], [0.1, 0]]"))
        let bend = f.color(x: 30, y: 32)
        #expect(abs(Int(bend.red) - 191) <= 6 && abs(Int(bend.blue) - 64) <= 6, "\(bend)")
    }

    @Test func aLineGradientNeedsALineMetricsSource() {
        #expect {
            _ = try Style.parse(Array(Self.lineStyle(Self.gradient).utf8), file: "g.json")
        } throws: { error in
            "\(error)".contains("lineMetrics") && "\(error)".contains("g.json") && "\(error)".contains("line-gradient")
        }
    }

    @Test func aLineGradientTakesNoZoomOrFeatureData() {
        for bad in [#"["interpolate", ["linear"], ["zoom"], 0, "red", 10, "blue"]"#, #"["to-color", ["get", "c"]]"#] {
            let json = Self.lineStyle(#""line-gradient": \#(bad)"#, lineMetrics: true)
            #expect(throws: InputError.self) { _ = try Style.parse(Array(json.utf8), file: "g.json") }
        }
    }

    // MARK: halo blur

    /// Pixels of the halo whose coverage is partial (neither background nor full halo colour).
    static func partialHaloPixels(blur: Double, icon: Bool = false) throws -> Int {
        let json = """
            {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": {},
              "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "t", "type": "symbol", "source": "p", "layout": {"text-field": "Halo", "text-size": 24},
                         "paint": {"text-color": "rgba(0, 0, 0, 0)", "text-halo-color": "#000000", "text-halo-width": 3,
                                   "text-halo-blur": \(blur)}}]}
            """
        let f = try Self.render(json, size: (120, 60), images: [])
        return f.pixels.filter { p in
            let ink = 255 - Int(Color(premultipliedARGB: p).red)
            return ink > 8 && ink < 247
        }.count
    }

    @Test func textHaloBlurWidensTheHaloEdgeRamp() throws {
        let sharp = try Self.partialHaloPixels(blur: 0)
        let blurred = try Self.partialHaloPixels(blur: 3)
        // A 1 px ramp becomes 4 px: far more pixels are partly covered.
        #expect(sharp > 50 && blurred > 2 * sharp, "sharp \(sharp), blurred \(blurred)")
    }
}
