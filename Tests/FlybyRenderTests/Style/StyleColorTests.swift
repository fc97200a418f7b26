import FlybyRender
import Testing

struct ColorCase: Sendable, CustomTestStringConvertible {
    var text: String
    var rgba: (UInt8, UInt8, UInt8, UInt8)
    var testDescription: String { text }
    static let all: [ColorCase] = [
        .init(text: "red", rgba: (255, 0, 0, 255)),
        .init(text: "RebeccaPurple", rgba: (0x66, 0x33, 0x99, 255)),
        .init(text: "lightgoldenrodyellow", rgba: (0xFA, 0xFA, 0xD2, 255)),
        .init(text: "transparent", rgba: (0, 0, 0, 0)),
        .init(text: "#f80", rgba: (255, 0x88, 0, 255)),
        .init(text: "#f808", rgba: (255, 0x88, 0, 0x88)),
        .init(text: "#1a2B3c", rgba: (0x1A, 0x2B, 0x3C, 255)),
        .init(text: "#1a2b3c80", rgba: (0x1A, 0x2B, 0x3C, 0x80)),
        .init(text: "rgb(10, 20, 30)", rgba: (10, 20, 30, 255)),
        .init(text: "rgb(100%, 0%, 50%)", rgba: (255, 0, 128, 255)),
        .init(text: "rgba(10, 20, 30, 0.5)", rgba: (10, 20, 30, 128)),
        .init(text: "rgba(300, -5, 30, 2)", rgba: (255, 0, 30, 255)),
        .init(text: "rgb(10 20 30 / 50%)", rgba: (10, 20, 30, 128)),
        .init(text: "hsl(120, 100%, 50%)", rgba: (0, 255, 0, 255)),
        .init(text: "hsl(0, 0%, 100%)", rgba: (255, 255, 255, 255)),
        .init(text: "hsla(240, 100%, 50%, 0.25)", rgba: (0, 0, 255, 64)),
        .init(text: "hsl(-120deg 100% 25%)", rgba: (0, 0, 128, 255)),
        .init(text: "  White ", rgba: (255, 255, 255, 255)),
    ]
}

@Suite struct StyleColorTests {
    @Test(arguments: ColorCase.all)
    func parsesCSSColour(_ c: ColorCase) throws {
        let color = try #require(StyleColor(css: c.text))
        let q = color.rgba8
        #expect(q.r == c.rgba.0 && q.g == c.rgba.1 && q.b == c.rgba.2 && q.a == c.rgba.3, "\(q)")
    }

    @Test(arguments: ["", "#12", "#12345", "#ggg", "redd", "rgb(1,2)", "rgb(1,2,3,4,5)", "rgb(a,b,c)", "hsl(10, 20, 30)",
                      "rgba(1,2,3", "hsl(1%, 2%, 3%)", "cmyk(1,2,3,4)", "#1234567"])
    func rejectsBadColour(_ text: String) {
        #expect(StyleColor(css: text) == nil)
    }

    @Test func interpolatesInPremultipliedRGB() {
        let a = StyleColor(red: 1, green: 0, blue: 0, alpha: 1)
        let b = StyleColor(red: 0, green: 0, blue: 1, alpha: 0)
        let mid = StyleColor.interpolate(a, b, 0.5)
        // Fading to transparent keeps the hue instead of passing through the hidden blue.
        #expect(mid.red == 1 && mid.blue == 0 && mid.alpha == 0.5)
        #expect(StyleColor.interpolate(.black, .white, 0.25).green == 0.25)
    }

    @Test func describesAsRGBA() {
        #expect(StyleColor(css: "#ff000080")?.description == "rgba(255,0,0,0.5019607843137255)")
        #expect(StyleColor.white.description == "rgba(255,255,255,1)")
    }
}
