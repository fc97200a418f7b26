import FlybyCore
import FlybyFlight
import FlybyMedia
import FlybyRender

/// `flyby plot TRACE --out FILE.(png|svg)`.
enum PlotCommand: FlybyCommand {
    static let name = "plot"
    static let summary = "chart zoom, pitch, bearing, speed and viewport of a trace (PNG or SVG)"
    static let about = """
    Charts a trace against time: zoom, pitch, bearing (°) and ground speed (m/s, the haversine
    distance between consecutive camera centres over the frame time) in four panels, the viewport
    status as coloured bands above them (transitions in a darker shade of their target state) and
    animator and viewport events as marks. PNG is drawn by Flyby's own rasterizer and font; SVG is
    written as text.
    """
    static let positionals = Positionals.exactly("TRACE", "takes one trace file")
    static let options = [
        OptionSpec("out", .string, "FILE.(png|svg)", help: "the chart: a .png image or an .svg document", required: true),
        OptionSpec("size", .size(maxSide: PixelSize.maxSide), "WxH", help: "chart size in pixels, at least 300x240", default: "1200x900"),
    ]

    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
        let dest = parsed.string("out")!
        let size = parsed.size("size")!
        guard size.width >= 300, size.height >= 240 else { throw CommandError("--size for 'plot' must be at least 300x240") }
        let path = parsed.positional[0]
        let bytes = try readFile(path)
        guard TraceReader.isTrace(bytes) else { throw CommandError("\(path): not a trace (the first line must be a header with \"kind\":\"trace\")") }
        let trace = try TraceReader.read(bytes: bytes, file: path)
        guard !trace.frames.isEmpty else { throw CommandError("\(path): the trace has no frames") }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let plot = TracePlot(trace: trace, title: name, width: size.width, height: size.height)
        let lower = dest.lowercased()
        if lower.hasSuffix(".svg") {
            try writeOutput(dest, Array(plot.svg().utf8))
        } else if lower.hasSuffix(".png") {
            let pixels = try plot.renderPixels()
            let png: [UInt8]
            do { png = try PNGEncoder().encode(pixels: pixels.pixels, width: pixels.width, height: pixels.height) } catch {
                throw CommandError("\(dest): \(error)")
            }
            try writeOutput(dest, png)
        } else {
            throw CommandError("\(dest): --out must end in .png or .svg")
        }
    }
}
