import FlybyCore
import FlybyData
import FlybyRender

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A chart of a trace (`flyby plot`): zoom, pitch, bearing and ground speed against time in four
/// stacked panels sharing the time axis, the viewport status as coloured bands above them, and
/// animator and viewport events as marks.
///
/// The layout is computed once as a list of ``Shape``s in pixel coordinates (origin top-left,
/// y down), then drawn either to pixels with Flyby's own ``Painter`` and font (``renderPixels()``)
/// or written as SVG text (``svg()``), so both outputs show the same picture.
public struct TracePlot {
    /// A drawing primitive of the chart, pixels.
    public enum Shape: Equatable {
        case rect(x: Double, y: Double, width: Double, height: Double, color: Color)
        case polyline([ScreenPoint], width: Double, color: Color)
        /// Text with its baseline at `y`; `anchor` 0 = start at x, 0.5 = centred, 1 = end at x.
        case text(String, x: Double, y: Double, size: Double, anchor: Double, color: Color)
    }

    /// Chart size in pixels.
    public let width: Int, height: Int
    /// The shapes, back to front.
    public private(set) var shapes: [Shape] = []

    /// Ground speed of each frame in metres per second: the haversine distance between the
    /// centres of the previous and this frame over their time difference (0 for frame 0).
    public static func groundSpeeds(_ frames: [FrameRecord]) -> [Double] {
        guard !frames.isEmpty else { return [] }
        var out = [0.0]
        for i in 1..<frames.count {
            let dt = frames[i].t - frames[i - 1].t
            let d = Geodesy.distance(from: frames[i - 1].camera.center, to: frames[i].camera.center)
            out.append(dt > 0 ? d / dt : 0)
        }
        return out
    }

    /// The top of an axis that a lone spike cannot flatten: the largest value, unless it is over
    /// four times the 98th percentile (a jump at t = 0, a teleport), then 1.25 × that percentile;
    /// larger values are drawn clipped at the top.
    static func robustMax(_ values: [Double]) -> Double {
        let finite = values.filter(\.isFinite).sorted()
        guard let top = finite.last else { return 1 }
        let q = finite[Int((Double(finite.count - 1) * 0.98).rounded(.down))]
        return q > 0 && top > 4 * q ? 1.25 * q : top
    }

    /// Lays out the chart of `trace` at `width × height` pixels (default 1200 × 900).
    public init(trace: Trace, title: String, width: Int = 1200, height: Int = 900) {
        self.width = width
        self.height = height
        let frames = trace.frames
        let times = frames.map(\.t)
        let tMax = max(times.last ?? 0, 1e-9)
        let left = 78.0, right = Double(width) - 24, top = 44.0, bottom = Double(height) - 56
        let ink = Color(rgb: 0x222831), grid = Color(rgb: 0xDADDE3), faint = Color(rgb: 0x5A6270)
        shapes.append(.rect(x: 0, y: 0, width: Double(width), height: Double(height), color: .white))
        let duration = times.last ?? 0
        shapes.append(.text("\(title) — \(frames.count) frames at \(TracePlot.format(trace.fps)) fps, \(TracePlot.format(duration)) s, \(Int(trace.size.width))×\(Int(trace.size.height)), style \(trace.style)",
                            x: left, y: 24, size: 15, anchor: 0, color: ink))
        func x(_ t: Double) -> Double { left + (right - left) * t / tMax }

        // Viewport status bands.
        let bandTop = top + 18, bandHeight = 22.0
        shapes.append(.text("viewport", x: left - 8, y: bandTop + 15, size: 11, anchor: 1, color: faint))
        var statuses: [String] = []
        var segStart = 0
        for i in 1...max(frames.count, 1) where i == frames.count || frames[i].viewport != frames[segStart].viewport {
            guard segStart < frames.count else { break }
            let s = frames[segStart].viewport
            let x0 = x(times[segStart]), x1 = i < frames.count ? x(times[i]) : right
            shapes.append(.rect(x: x0, y: bandTop, width: max(x1 - x0, 1), height: bandHeight, color: TracePlot.statusColor(s)))
            if x1 - x0 > TracePlot.approximateWidth(s, size: 11) + 8 { shapes.append(.text(s, x: x0 + 4, y: bandTop + 15, size: 11, anchor: 0, color: ink)) }
            if !statuses.contains(s) { statuses.append(s) }
            segStart = i
        }
        // Legend of the statuses present, right-aligned above the band.
        var lx = right
        for s in statuses.reversed() {
            let w = TracePlot.approximateWidth(s, size: 11) + 22
            lx -= w
            shapes.append(.rect(x: lx, y: top + 2, width: 12, height: 10, color: TracePlot.statusColor(s)))
            shapes.append(.text(s, x: lx + 16, y: top + 12, size: 11, anchor: 0, color: faint))
        }

        // Panels.
        let panelsTop = bandTop + bandHeight + 14, gap = 18.0
        let panelHeight = (bottom - panelsTop - 3 * gap) / 4
        let speeds = TracePlot.groundSpeeds(frames)
        let series: [(String, [Double], Color, Bool)] = [
            ("zoom", frames.map(\.camera.zoom), Color(rgb: 0x1F77B4), false),
            ("pitch (°)", frames.map(\.camera.pitch), Color(rgb: 0x2CA02C), false),
            ("bearing (°)", frames.map(\.camera.bearing), Color(rgb: 0x9467BD), true),
            ("ground speed (m/s)", speeds, Color(rgb: 0xD62728), false),
        ]
        let timeTicks = TracePlot.niceTicks(0, tMax, target: 10).filter { $0 <= tMax + 1e-9 }
        for (p, (name, values, color, wraps)) in series.enumerated() {
            let y0 = panelsTop + Double(p) * (panelHeight + gap), y1 = y0 + panelHeight
            var lo = values.min() ?? 0, hi = values.max() ?? 1
            if wraps { lo = 0; hi = 360 }
            if p == 1 { lo = min(lo, 0) }
            if p == 3 { lo = 0; hi = TracePlot.robustMax(values) }
            if hi - lo < 1e-9 { lo -= 1; hi += 1 }
            let ticks = wraps ? [0, 90, 180, 270, 360] : TracePlot.niceTicks(lo, hi, target: 4)
            lo = min(lo, ticks.first ?? lo); hi = max(hi, ticks.last ?? hi)
            func y(_ v: Double) -> Double { y1 - (y1 - y0) * (v - lo) / (hi - lo) }
            shapes.append(.rect(x: left, y: y0, width: right - left, height: panelHeight, color: Color(rgb: 0xFAFBFC)))
            for t in timeTicks { shapes.append(.polyline([ScreenPoint(x: x(t), y: y0), ScreenPoint(x: x(t), y: y1)], width: 1, color: grid)) }
            for v in ticks {
                shapes.append(.polyline([ScreenPoint(x: left, y: y(v)), ScreenPoint(x: right, y: y(v))], width: 1, color: grid))
                shapes.append(.text(TracePlot.format(v), x: left - 6, y: y(v) + 4, size: 11, anchor: 1, color: faint))
            }
            // The curve; bearing breaks where it wraps past north.
            var run: [ScreenPoint] = []
            for i in values.indices {
                let pt = ScreenPoint(x: x(times[i]), y: y(min(values[i], hi)))  // a clipped spike stays in its panel
                if wraps, i > 0, abs(values[i] - values[i - 1]) > 180 {
                    if run.count > 1 { shapes.append(.polyline(run, width: 2, color: color)) }
                    run = []
                }
                run.append(pt)
            }
            if run.count > 1 { shapes.append(.polyline(run, width: 2, color: color)) }
            else if run.count == 1 { shapes.append(.rect(x: run[0].x - 1.5, y: run[0].y - 1.5, width: 3, height: 3, color: color)) }
            shapes.append(.polyline([ScreenPoint(x: left, y: y0), ScreenPoint(x: right, y: y0), ScreenPoint(x: right, y: y1),
                                     ScreenPoint(x: left, y: y1), ScreenPoint(x: left, y: y0)], width: 1, color: Color(rgb: 0xA0A6B0)))
            shapes.append(.text(name, x: left + 6, y: y0 + 14, size: 12, anchor: 0, color: color))
        }

        // Events: a mark in the band strip and a faint line through the panels.
        var eventKinds: [(String, Color)] = []
        for f in frames {
            for e in f.events {
                let (kind, c) = TracePlot.eventStyle(e)
                let ex = x(f.t)
                shapes.append(.polyline([ScreenPoint(x: ex, y: panelsTop), ScreenPoint(x: ex, y: bottom)], width: 1, color: c.withAlphaScaled(by: 0.35)))
                shapes.append(.rect(x: ex - 2, y: bandTop - 7, width: 4, height: 7 + bandHeight, color: c))
                if !eventKinds.contains(where: { $0.0 == kind }) { eventKinds.append((kind, c)) }
            }
        }
        // Time axis.
        for t in timeTicks {
            shapes.append(.polyline([ScreenPoint(x: x(t), y: bottom), ScreenPoint(x: x(t), y: bottom + 5)], width: 1, color: faint))
            shapes.append(.text(TracePlot.format(t), x: x(t), y: bottom + 19, size: 11, anchor: 0.5, color: faint))
        }
        shapes.append(.text("time (s)", x: right, y: bottom + 40, size: 12, anchor: 1, color: ink))
        // Event legend, bottom-left under the time axis.
        var ex = left
        if !eventKinds.isEmpty { shapes.append(.text("events:", x: ex, y: bottom + 40, size: 11, anchor: 0, color: faint)); ex += 50 }
        for (k, kc) in eventKinds {
            shapes.append(.rect(x: ex, y: bottom + 30, width: 4, height: 12, color: kc))
            shapes.append(.text(k, x: ex + 8, y: bottom + 40, size: 11, anchor: 0, color: faint))
            ex += TracePlot.approximateWidth(k, size: 11) + 22
        }
    }

    // MARK: Styling

    /// The fill colour of a viewport status band; transitions are a stronger shade of their target.
    public static func statusColor(_ status: String) -> Color {
        let transition = status.hasPrefix("transition:")
        let base = transition ? String(status.dropFirst("transition:".count)) : status
        let rgb: UInt32
        switch base {
        case "idle": rgb = 0xE4E6EA
        case "camera": rgb = 0xF6E3A1
        case "overview": rgb = 0xBFE3B4
        case "followPuck": rgb = 0xB5D3F2
        case "styleDefault": rgb = 0xF4C9A3
        default: rgb = 0xD9C8E8
        }
        var c = Color(rgb: rgb)
        if transition { c = Color(red: UInt8(Double(c.red) * 0.78), green: UInt8(Double(c.green) * 0.78), blue: UInt8(Double(c.blue) * 0.78)) }
        return c
    }

    /// The legend name and colour of an event line (`animator 3 started` → `animator started`).
    public static func eventStyle(_ event: String) -> (kind: String, color: Color) {
        let words = event.split(separator: " ")
        let kind: String
        if words.first == "animator", words.count >= 3 { kind = "animator " + words[2] }
        else if words.first == "viewport", words.count >= 2 { kind = "viewport " + words[1] }
        else { kind = words.first.map(String.init) ?? event }
        let rgb: UInt32
        if kind.contains("started") || kind.contains("Started") { rgb = 0x2E9E44 }
        else if kind.contains("cancel") || kind.contains("Failed") { rgb = 0xD0312D }
        else if kind.contains("finished") || kind.contains("Succeeded") { rgb = 0x2F5FD0 }
        else if kind.hasPrefix("viewport") { rgb = 0x8E44AD }
        else { rgb = 0x6B7280 }
        return (kind, Color(rgb: rgb))
    }

    /// About 1, 2 or 5 × 10ⁿ spaced ticks covering [lo, hi], roughly `target` of them.
    public static func niceTicks(_ lo: Double, _ hi: Double, target: Int) -> [Double] {
        guard hi > lo, lo.isFinite, hi.isFinite else { return [lo] }
        let raw = (hi - lo) / Double(max(target, 1))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        var ticks: [Double] = []
        var v = (lo / step).rounded(.down) * step
        while v <= hi + step * 0.999 && ticks.count < 100 {
            ticks.append(abs(v) < step * 1e-9 ? 0 : v)
            if v >= hi { break }
            v += step
        }
        return ticks
    }

    /// A short label for a number: up to 3 decimals without trailing zeros; k/M for big values.
    public static func format(_ v: Double) -> String {
        if abs(v) >= 1e6 { return format(v / 1e6) + "M" }
        if abs(v) >= 1e4 { return format(v / 1e3) + "k" }
        let r = (v * 1000).rounded() / 1000
        if r == r.rounded() { return String(Int(r)) }
        var s = String(r)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }

    /// An estimate of text width for layout before fonts are involved (DejaVu Sans averages ~0.6 em).
    static func approximateWidth(_ s: String, size: Double) -> Double { Double(s.unicodeScalars.count) * size * 0.62 }

    // MARK: Output

    /// Draws the chart into pixels with ``Painter`` and DejaVu Sans.
    /// - Throws: when the built-in font is missing or broken.
    public func renderPixels() throws -> PixelBuffer {
        let font = try TrueTypeFont.builtin()
        var cache = GlyphCache(font: font)
        var buffer = PixelBuffer(width: width, height: height, color: .white)
        var painter = Painter(width: width, height: height)
        for shape in shapes {
            switch shape {
            case .rect(let x, let y, let w, let h, let color):
                var p = Path()
                p.addRect(x: x, y: y, width: w, height: h)
                painter.fill(p, color: color, into: &buffer)
            case .polyline(let points, let w, let color):
                var p = Path()
                p.addPolyline(points)
                painter.stroke(p, style: StrokeStyle(width: w, join: .round, cap: .butt), color: color, into: &buffer)
            case .text(let s, let x, let y, let size, let anchor, let color):
                let line = font.layoutLine(s, pixelSize: Float(size))
                let originX = Float(x) - line.width * Float(anchor)
                var p = Path()
                for g in line.glyphs {
                    let outline = try cache.outline(g.glyph, pixelSize: Float(size))
                    for contour in outline.contours where contour.count > 2 {
                        p.addPolygon(contour.map { ScreenPoint(x: Double($0.x + g.position.x + originX), y: Double($0.y) + y) })
                    }
                }
                if !p.isEmpty { painter.fill(p, color: color, into: &buffer) }
            }
        }
        return buffer
    }

    /// The chart as an SVG document.
    public func svg() -> String {
        func n(_ v: Double) -> String { TracePlot.format((v * 100).rounded() / 100) }
        func c(_ color: Color) -> String {
            let hex = String(UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue), radix: 16)
            let rgb = "#" + String(repeating: "0", count: 6 - hex.count) + hex
            return color.alpha == 255 ? "\"\(rgb)\"" : "\"\(rgb)\" fill-opacity=\"\(n(Double(color.alpha) / 255))\" stroke-opacity=\"\(n(Double(color.alpha) / 255))\""
        }
        func escape(_ s: String) -> String {
            var r = ""
            for ch in s {
                switch ch {
                case "&": r += "&amp;"
                case "<": r += "&lt;"
                case ">": r += "&gt;"
                default: r.append(ch)
                }
            }
            return r
        }
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n"
        for shape in shapes {
            switch shape {
            case .rect(let x, let y, let w, let h, let color):
                s += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\(c(color))/>\n"
            case .polyline(let points, let w, let color):
                let pts = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
                s += "<polyline points=\"\(pts)\" fill=\"none\" stroke-width=\"\(n(w))\" stroke-linejoin=\"round\" stroke=\(c(color))/>\n"
            case .text(let text, let x, let y, let size, let anchor, let color):
                let a = anchor == 0 ? "start" : anchor == 1 ? "end" : "middle"
                s += "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" text-anchor=\"\(a)\" fill=\(c(color))>\(escape(text))</text>\n"
            }
        }
        return s + "</svg>\n"
    }
}
