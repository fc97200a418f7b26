import FlybyData
import FlybyRender
import Testing

@Suite struct MapThemeTests {
    let orange = StyleColor(r8: 0xE0, g8: 0x82, b8: 0x2C, alpha: 0.5)

    static func saturation(_ c: StyleColor) -> Double { max(c.red, c.green, c.blue) - min(c.red, c.green, c.blue) }

    @Test func defaultLeavesColoursAlone() {
        #expect(MapTheme.default.apply(orange) == orange)
    }

    @Test func monochromeIsNearlyGreyAndKeepsAlpha() {
        let c = MapTheme.monochrome.apply(orange)
        #expect(MapThemeTests.saturation(c) < 0.03)
        #expect(c.alpha == 0.5)
    }

    @Test func fadedIsLessSaturatedAndLighterForDarkColours() {
        let c = MapTheme.faded.apply(orange)
        #expect(MapThemeTests.saturation(c) < MapThemeTests.saturation(orange) * 0.5)
        let dark = StyleColor(r8: 0x20, g8: 0x20, b8: 0x40)
        #expect(MapTheme.faded.apply(dark).red > dark.red)
    }

    @Test func aThemedStyleTransformsEveryColourConstantIncludingInsideExpressions() throws {
        let json = #"""
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#e0822c"}},
                    {"id": "f", "type": "fill", "source": "s",
                     "paint": {"fill-color": ["match", ["get", "k"], "a", "#ff0000", "#00ff00"], "fill-opacity": 0.5}}]}
        """#
        let style = try Style.parse(Array(json.utf8), file: "theme.json")
        let mono = style.themed(.monochrome)
        let bg = try #require(mono.layer(id: "bg")?.color(.backgroundColor, zoom: 10))
        #expect(MapThemeTests.saturation(bg) < 0.03)
        let fill = try #require(mono.layer(id: "f"))
        let red = try #require(fill.color(.fillColor, zoom: 10, feature: FeatureContext(properties: PropertyMap([("k", .string("a"))]))))
        let green = try #require(fill.color(.fillColor, zoom: 10, feature: FeatureContext(properties: PropertyMap([("k", .string("b"))]))))
        #expect(MapThemeTests.saturation(red) < 0.03 && MapThemeTests.saturation(green) < 0.03)
        // Pure green is brighter than pure red in luma, and stays so.
        #expect(green.red > red.red)
        // Numbers are untouched.
        #expect(fill.number(.fillOpacity, zoom: 10) == 0.5)
        #expect(style.themed(.default).layer(id: "bg")?.color(.backgroundColor, zoom: 10) == style.layer(id: "bg")?.color(.backgroundColor, zoom: 10))
    }
}
