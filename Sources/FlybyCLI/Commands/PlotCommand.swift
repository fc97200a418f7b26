import FlybyFlight
import FlybyMedia
import FlybyRender

/// `flyby plot TRACE --out FILE.(png|svg)`.
enum PlotCommand {
    static let help = """
    usage: flyby plot TRACE --out FILE.(png|svg) [--size WxH]

    Charts a trace against time: zoom, pitch, bearing (°) and ground speed (m/s, the haversine
    distance between consecutive camera centres over the frame time) in four panels, the viewport
    status as coloured bands above them (transitions in a darker shade of their target state) and
    animator and viewport events as marks. PNG is drawn by Flyby's own rasterizer and font; SVG is
    written as text. Default size 1200x900 pixels.
    """

    static func run(_ args: [String], _ out: CommandOutput) throws {
        let o = try Options(args, command: "plot", valued: ["out", "size"])
        guard o.positional.count == 1 else { throw CommandError("'plot' takes one trace file (see 'flyby help plot')") }
        guard let dest = o.values["out"] else { throw CommandError("'plot' needs --out FILE.png or FILE.svg (see 'flyby help plot')") }
        let size = try o.values["size"].map { try PlayCommand.parseSize($0) } ?? (width: 1200, height: 900)
        guard size.width >= 300, size.height >= 240 else { throw CommandError("--size for 'plot' must be at least 300x240") }
        let path = o.positional[0]
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
