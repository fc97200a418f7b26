import FlybyCore
import FlybyData
import FlybyRender
import Foundation
import Synchronization
import Testing

/// Icons from a style's sprite sheet (Fixtures/sprites): `icon-image` tokens, missing images,
/// SDF icons, `icon-text-fit`, the @2x sheet and pixel ratios.
@Suite struct SpriteIconTests {
    static let sprite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/sprites/icons").path

    /// A style with one point at (0, 0) whose properties are `properties`, drawn by `layer` (the
    /// JSON members of a symbol layer after its id), over a white background.
    static func style(_ layer: String, properties: String = "{}", sprite: Bool = true) -> String {
        """
        {"version": 8, \(sprite ? "\"sprite\": \"\(Self.sprite)\"," : "")
         "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": \(properties),
                       "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "s", "type": "symbol", "source": "p", \(layer)}]}
        """
    }

    static func render(_ json: String, pixelRatio: Int = 1, size: (Int, Int) = (100, 60),
                       missing: (@Sendable (String) -> Void)? = nil) throws -> (PixelBuffer, MapRenderer) {
        let style = try Style.parse(Array(json.utf8), file: "test-style.json")
        var loader = StyleLoader()
        loader.spritePixelRatio = pixelRatio
        var r = try MapRenderer(style: try loader.load(style: style), width: size.0 * pixelRatio, height: size.1 * pixelRatio,
                                pixelRatio: Double(pixelRatio))
        r.showsOrnaments = false
        r.attribution = ""
        if let missing { r.missingImages.handler = missing }
        var frame = PixelBuffer(width: r.width, height: r.height)
        r.render(camera: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 3), into: &frame)
        return (frame, r)
    }

    /// Pixels of `frame` for which `test` holds.
    static func count(_ frame: PixelBuffer, _ test: (Color) -> Bool) -> Int {
        var n = 0
        for y in 0..<frame.height { for x in 0..<frame.width where test(frame.color(x: x, y: y)) { n += 1 } }
        return n
    }

    @Test func iconImageTokensNameTheFeaturesImage() throws {
        let (frame, _) = try Self.render(Self.style(#""layout": {"icon-image": "{kind}"}"#, properties: #"{"kind": "square"}"#))
        #expect(isRed(frame.color(x: 50, y: 30)), "\(frame.color(x: 50, y: 30))")
        // 8 × 8 points at pixel ratio 1: 64 red pixels.
        #expect(Self.count(frame, isRed) == 64)
    }

    @Test func aMissingImageIsReportedOncePerNameAndDrawsNothing() throws {
        let names = Mutex<[String]>([])
        let json = Self.style(#""layout": {"icon-image": "nothere"}"#)
        let style = try Style.parse(Array(json.utf8), file: "test-style.json")
        var loader = StyleLoader()
        var r = try MapRenderer(style: try loader.load(style: style), width: 100, height: 60)
        r.missingImages.handler = { name in names.withLock { $0.append(name) } }
        var frame = PixelBuffer(width: 100, height: 60)
        for zoom in [3.0, 3.5, 4] { r.render(camera: CameraState(center: .init(latitude: 0, longitude: 0), zoom: zoom), into: &frame) }
        #expect(names.withLock { $0 } == ["nothere"])
        #expect(frame.color(x: 50, y: 30) == .white)
    }

    @Test func pixelRatioTwoUsesTheAt2xSheetAndDoublesTheIcon() throws {
        let (frame, _) = try Self.render(Self.style(#""layout": {"icon-image": "square"}"#), pixelRatio: 2)
        #expect(frame.width == 200 && frame.height == 120)
        let green = Self.count(frame) { $0.green > 200 && $0.red < 60 && $0.blue < 60 }
        #expect(green == 256, "the 8-point square is 16 × 16 pixels of the green @2x image, not \(green)")
        #expect(Self.count(frame, isRed) == 0)
    }

    @Test func iconSizeOpacityAndOffsetApply() throws {
        let (frame, _) = try Self.render(Self.style(
            #""layout": {"icon-image": "square", "icon-size": 2, "icon-offset": [5, 0]}, "paint": {"icon-opacity": 0.5}"#))
        // 16 × 16 pixels (bilinear: the outermost ring blends with the transparent edge), centred
        // 10 px right of the point, half transparent over white.
        let pink = Self.count(frame) { $0.red > 240 && (110...145).contains(Int($0.green)) && $0.green == $0.blue }
        #expect(pink >= 196 && pink <= 256, "\(pink)")
        let notWhite = Self.count(frame) { $0 != .white }
        #expect(notWhite >= 256 && notWhite <= 324, "\(notWhite)")
        #expect(frame.color(x: 60, y: 30) != .white && frame.color(x: 54, y: 30) != .white && frame.color(x: 50, y: 30) == .white)
    }

    @Test func sdfIconsAreTintedByIconColorWithAHalo() throws {
        for name in ["disc", "mask"] {
            let plain = try Self.render(Self.style(##""layout": {"icon-image": "\##(name)"}, "paint": {"icon-color": "#0000ff"}"##)).0
            #expect(isBlue(plain.color(x: 50, y: 30)), "\(name): \(plain.color(x: 50, y: 30))")
            // The disc has radius 5: 7 px from its centre is outside it.
            #expect(plain.color(x: 57, y: 30) == .white, "\(name): \(plain.color(x: 57, y: 30))")
            let haloed = try Self.render(Self.style(##"""
                "layout": {"icon-image": "\##(name)"},
                "paint": {"icon-color": "#0000ff", "icon-halo-color": "#ff0000", "icon-halo-width": 3}
                """##)).0
            #expect(isBlue(haloed.color(x: 50, y: 30)))
            #expect(isRed(haloed.color(x: 56, y: 30)), "\(name): halo pixel \(haloed.color(x: 56, y: 30))")
            #expect(haloed.color(x: 60, y: 30) == .white, "\(name): beyond the halo \(haloed.color(x: 60, y: 30))")
        }
    }

    @Test func iconHaloBlurWidensTheIconHaloEdge() throws {
        func partial(_ blur: Double) throws -> Int {
            let frame = try Self.render(Self.style(##"""
                "layout": {"icon-image": "disc"},
                "paint": {"icon-color": "#0000ff", "icon-halo-color": "#ff0000", "icon-halo-width": 2, "icon-halo-blur": \##(blur)}
                """##)).0
            // Halo over white: partly covered pixels are pink (neither white nor full red), away from the blue disc.
            return frame.pixels.filter { p in
                let c = Color(premultipliedARGB: p)
                return c.red > 200 && c.blue < 250 && c.green > 10 && c.green < 245 && c.blue > 10
            }.count
        }
        let sharp = try partial(0), blurred = try partial(3)
        #expect(sharp > 0 && blurred > sharp + 20, "sharp \(sharp), blurred \(blurred)")
    }

    @Test func iconTextFitStretchesTheShieldAroundTheLabel() throws {
        let layer = #"""
            "layout": {"icon-image": "shield", "icon-text-fit": "both", "icon-text-fit-padding": [2, 4, 2, 4],
                       "text-field": "WWWWWW", "text-size": 12}
            """#
        let (frame, r) = try Self.render(Self.style(layer), size: (200, 60))
        let boxes = r.placedSymbolBoxes
        let text = try #require(boxes.first { !$0.text.isEmpty }), icon = try #require(boxes.first { $0.text.isEmpty })
        // Text box (padding 2) within the icon box (the content box plus the fit padding).
        #expect(icon.minX < text.minX && icon.maxX > text.maxX, "icon \(icon) text \(text)")
        #expect(icon.maxX - icon.minX > 40, "stretched far past its 16 points")
        // The border stays 2 px (not stretched): dark blue at the left edge, white inside.
        let y = Int((icon.minY + icon.maxY) / 2)
        let left = Int(icon.minX + 2 + 1)  // icon padding 2, then the 2 px border
        let navy: (Color) -> Bool = { $0.blue > 100 && $0.red < 40 && $0.green < 40 }
        #expect(navy(frame.color(x: left, y: y)), "\(frame.color(x: left, y: y))")
        #expect(frame.color(x: left + 3, y: y) == .white, "\(frame.color(x: left + 3, y: y))")
    }

    @Test func aOnePixelLineIsTwoPixelsWideAtPixelRatioTwo() throws {
        func coverage(_ ratio: Int) throws -> Double {
            let json = """
            {"version": 8, "sources": {"l": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[-20, 0], [20, 0]]}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "l", "type": "line", "source": "l", "paint": {"line-color": "#000000", "line-width": 1}}]}
            """
            let (frame, _) = try Self.render(json, pixelRatio: ratio)
            // The darkness summed down one column crossing the line: its width in pixels.
            let x = frame.width / 2
            return (0..<frame.height).reduce(0.0) { $0 + (255 - Double(frame.color(x: x, y: $1).red)) / 255 }
        }
        let one = try coverage(1), two = try coverage(2)
        #expect(abs(one - 1) < 0.15, "\(one)")
        #expect(abs(two - 2) < 0.15, "\(two)")
    }

    @Test func aStretchZoneOutsideTheImageIsAnErrorNamingIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flyby-sprite-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.sprite + ".png", toPath: dir + "/s.png")
        let json = #"{"a": {"x": 0, "y": 0, "width": 8, "height": 8, "stretchX": [[2, 12]]}}"#
        FileManager.default.createFile(atPath: dir + "/s.json", contents: Data(json.utf8))
        #expect { try SpriteSheet(path: dir + "/s") } throws: { e in
            "\(e)".contains("s.json") && "\(e)".contains("stretchX") && "\(e)".contains("out of range")
        }
    }
}

/// `localizeLabels`: text-field names read `name:LANG` first.
@Suite struct LabelLocalizationTests {
    func label(_ json: String, language: String, properties: PropertyMap) throws -> String {
        let style = try Style.parse(Array(json.utf8), file: "test-style.json").localized(into: language)
        let layer = try #require(style.layers.first { $0.type == .symbol })
        return layer.string(.textField, zoom: 10, feature: FeatureContext(properties: properties, kind: .point))
    }

    static let json = """
    {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
     "layers": [{"id": "a", "type": "symbol", "source": "p", "layout": {"text-field": ["get", "name"]}},
                {"id": "b", "type": "symbol", "source": "p", "layout": {"text-field": "{name:latin}\\n{name:nonlatin}"}}]}
    """

    @Test func aFeatureWithTheLanguagesNameShowsIt() throws {
        let props = PropertyMap([("name", .string("Helsinki")), ("name:fi", .string("Helsinki FI")), ("name:sv", .string("Helsingfors"))])
        #expect(try label(Self.json, language: "sv", properties: props) == "Helsingfors")
        #expect(try label(Self.json, language: "fi", properties: props) == "Helsinki FI")
    }

    @Test func aFeatureWithoutItKeepsItsName() throws {
        #expect(try label(Self.json, language: "fi", properties: PropertyMap([("name", .string("Töölö"))])) == "Töölö")
    }

    @Test func tokenNamesAreLocalizedButNotTheNonLatinLine() throws {
        let style = try Style.parse(Array(Self.json.utf8), file: "t.json").localized(into: "sv")
        let layer = try #require(style.layers.last)
        let ctx = FeatureContext(properties: PropertyMap([("name:latin", .string("Helsinki")), ("name:sv", .string("Helsingfors"))]), kind: .point)
        #expect(layer.string(.textField, zoom: 10, feature: ctx) == "Helsingfors\n")
    }

    @Test func aCodeOutsideTheAlphabetIsAnError() throws {
        let style = try Style.parse(Array(Self.json.utf8), file: "t.json")
        #expect { try style.localized(into: "f i") } throws: { e in "\(e)".contains("language code") }
        #expect { try style.localized(into: "") } throws: { _ in true }
    }
}
