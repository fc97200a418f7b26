import FlybyCore
import FlybyData
import FlybyRender

/// The data credits for frames drawn without the map renderer (the placeholder renderer, plots):
/// a licence requirement of OpenStreetMap, TrafficSense and Natural Earth. `MapRenderer` draws the
/// same line itself.
///
/// The text is laid out once with DejaVu Sans and kept as one filled path; each frame gets a
/// translucent white box in the bottom-right corner and the text over it, through a ``Painter``.
/// Deterministic: the same frame size gives the same pixels on every thread.
public struct AttributionOverlay {
    /// The attribution line.
    public static let text = MapRenderer.defaultAttribution

    private var painter: Painter
    private let textPath: Path
    private let box: Path
    private let boxColor = Color(red: 255, green: 255, blue: 255, alpha: 190)
    private let textColor = Color(rgb: 0x202631)

    /// Lays out the text for frames of `width × height` pixels: 11 px type (scaled down to fit
    /// narrow frames, at least 4 px), 4 px from the right and bottom edges.
    /// - Throws: when the built-in font is missing or unreadable.
    public init(width: Int, height: Int) throws {
        guard let fontPath = BuiltinData.path("fonts/DejaVuSans.ttf") else {
            throw InputError(file: "fonts/DejaVuSans.ttf", message: "the built-in font is missing")
        }
        let font = try TrueTypeFont(contentsOfFile: fontPath)
        var pixelSize: Float = 11
        let margin: Float = 3
        let natural = font.measure(AttributionOverlay.text, pixelSize: pixelSize)
        if natural + 2 * margin > Float(width) { pixelSize = max(4, pixelSize * (Float(width) - 2 * margin) / natural) }
        let line = font.layoutLine(AttributionOverlay.text, pixelSize: pixelSize)
        let ascent = Float(abs(font.ascender)) * font.scale(forPixelSize: pixelSize)
        let descent = Float(abs(font.descender)) * font.scale(forPixelSize: pixelSize)
        let boxWidth = line.width + 2 * margin, boxHeight = ascent + descent + 2
        let boxX = Float(width) - boxWidth, boxY = Float(height) - boxHeight
        let baseline = SIMD2<Float>(boxX + margin, boxY + 1 + ascent)
        var path = Path()
        var cache = GlyphCache(font: font)
        for g in line.glyphs {
            let outline = try cache.outline(g.glyph, pixelSize: pixelSize)
            for contour in outline.contours where contour.count > 2 {
                path.addPolygon(contour.map { ScreenPoint(x: Double($0.x + g.position.x + baseline.x), y: Double($0.y + baseline.y)) })
            }
        }
        textPath = path
        var b = Path()
        b.addRect(x: Double(boxX), y: Double(boxY), width: Double(boxWidth), height: Double(boxHeight))
        box = b
        painter = Painter(width: width, height: height)
    }

    /// Draws the box and the text over `buffer` (source-over).
    public mutating func draw(into buffer: inout PixelBuffer) {
        painter.fill(box, color: boxColor, into: &buffer)
        painter.fill(textPath, color: textColor, into: &buffer)
    }
}
