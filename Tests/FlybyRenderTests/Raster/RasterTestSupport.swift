import FlybyCore
import FlybyRender
@_exported import FlybyTestSupport



func pt(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x, y: y) }

/// The stroker's outline of `polylines` (each an open contour of one path) in `style`.
func strokeOutline(_ polylines: [[ScreenPoint]], _ style: StrokeStyle) -> Path {
    var path = Path()
    for line in polylines { path.addPolyline(line) }
    var stroker = Stroker()
    var outline = Path()
    stroker.stroke(path, style: style, into: &outline)
    return outline
}

/// Alpha (0…255) of every pixel after filling `path` opaque white onto a transparent buffer.
func renderedAlpha(width: Int, height: Int, _ draw: (inout Painter, inout PixelBuffer) -> Void) -> [Int] {
    var painter = Painter(width: width, height: height)
    var buffer = PixelBuffer(width: width, height: height)
    draw(&painter, &buffer)
    return buffer.pixels.map { Int($0 >> 24) }
}

func fillAlpha(_ path: Path, rule: FillRule, width: Int, height: Int) -> [Int] {
    renderedAlpha(width: width, height: height) { p, b in p.fill(path, color: .white, rule: rule, into: &b) }
}

/// Winding number of `path` (all contours closed) around point (`x`, `y`), crossing-number style.
func winding(_ path: Path, _ x: Double, _ y: Double) -> Int {
    var w = 0
    for c in path.contours {
        var a = path.points[c.end - 1]
        for i in c.start..<c.end {
            let b = path.points[i]
            if a.y <= y {
                if b.y > y && (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) > 0 { w += 1 }
            } else if b.y <= y && (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) < 0 {
                w -= 1
            }
            a = b
        }
    }
    return w
}

/// Coverage (0…255, rounded) of each pixel by `inside`, sampled on an `n × n` grid of sample centres.
func supersampled(width: Int, height: Int, n: Int = 16, _ inside: (Double, Double) -> Bool) -> [Int] {
    var out = [Int](repeating: 0, count: width * height)
    for py in 0..<height {
        for px in 0..<width {
            var count = 0
            for sy in 0..<n {
                let y = Double(py) + (Double(sy) + 0.5) / Double(n)
                for sx in 0..<n where inside(Double(px) + (Double(sx) + 0.5) / Double(n), y) { count += 1 }
            }
            out[py * width + px] = (count * 255 + n * n / 2) / (n * n)
        }
    }
    return out
}

func supersampled(_ path: Path, rule: FillRule, width: Int, height: Int, n: Int = 16) -> [Int] {
    supersampled(width: width, height: height, n: n) { x, y in
        let w = winding(path, x, y)
        return rule == .nonZero ? w != 0 : w % 2 != 0
    }
}

/// Exact area of a simple polygon inside each pixel (Sutherland–Hodgman clip to the pixel square,
/// then the shoelace formula), as 0…255 rounded.
func exactCoverage(_ polygon: [ScreenPoint], width: Int, height: Int) -> [Int] {
    var out = [Int](repeating: 0, count: width * height)
    let xs = polygon.map(\.x), ys = polygon.map(\.y)
    let x0 = max(0, Int(xs.min()!.rounded(.down))), x1 = min(width, Int(xs.max()!.rounded(.up)))
    let y0 = max(0, Int(ys.min()!.rounded(.down))), y1 = min(height, Int(ys.max()!.rounded(.up)))
    guard x0 < x1, y0 < y1 else { return out }
    for py in y0..<y1 {
        for px in x0..<x1 {
            var poly = polygon
            let x0 = Double(px), x1 = x0 + 1, y0 = Double(py), y1 = y0 + 1
            poly = clip(poly, { $0.x >= x0 }, { a, b in pt(x0, a.y + (b.y - a.y) * (x0 - a.x) / (b.x - a.x)) })
            poly = clip(poly, { $0.x <= x1 }, { a, b in pt(x1, a.y + (b.y - a.y) * (x1 - a.x) / (b.x - a.x)) })
            poly = clip(poly, { $0.y >= y0 }, { a, b in pt(a.x + (b.x - a.x) * (y0 - a.y) / (b.y - a.y), y0) })
            poly = clip(poly, { $0.y <= y1 }, { a, b in pt(a.x + (b.x - a.x) * (y1 - a.y) / (b.y - a.y), y1) })
            var area = 0.0
            if poly.count >= 3 {
                var a = poly[poly.count - 1]
                for b in poly { area += a.x * b.y - b.x * a.y; a = b }
            }
            out[py * width + px] = Int((abs(area) / 2 * 255).rounded())
        }
    }
    return out
}

private func clip(_ poly: [ScreenPoint], _ inside: (ScreenPoint) -> Bool,
                  _ cut: (ScreenPoint, ScreenPoint) -> ScreenPoint) -> [ScreenPoint] {
    guard let last = poly.last else { return [] }
    var out: [ScreenPoint] = []
    var a = last
    for b in poly {
        switch (inside(a), inside(b)) {
        case (true, true): out.append(b)
        case (true, false): out.append(cut(a, b))
        case (false, true): out.append(cut(a, b)); out.append(b)
        case (false, false): break
        }
        a = b
    }
    return out
}

/// A simple (non-self-intersecting) polygon: random radii at sorted random angles around a centre.
func randomRadialPolygon(_ rng: inout SplitMix64, center: ScreenPoint, maxRadius: Double) -> [ScreenPoint] {
    let n = 3 + Int(rng.next() % 12)
    var angles = (0..<n).map { _ in rng.range(0, 1) }
    angles.sort()
    return angles.map { t in
        let r = rng.range(maxRadius * 0.2, maxRadius)
        let (s, c) = sinCos(t)
        return pt(center.x + r * c, center.y + r * s)
    }
}

/// sin and cos of a full-turn fraction `t` via Taylor series (tests avoid importing libm).
func sinCos(_ t: Double) -> (Double, Double) {
    let a = t * 2 * Double.pi
    var s = 0.0, c = 0.0, term = 1.0
    for k in 0..<40 {
        if k % 2 == 0 { c += (k % 4 == 0 ? 1 : -1) * term } else { s += (k % 4 == 1 ? 1 : -1) * term }
        term *= a / Double(k + 1)
    }
    return (s, c)
}

struct Difference { var max: Int; var mean: Double; var at: Int }

func difference(_ a: [Int], _ b: [Int]) -> Difference {
    var d = Difference(max: 0, mean: 0, at: -1)
    var sum = 0
    for i in a.indices {
        let e = abs(a[i] - b[i])
        sum += e
        if e > d.max { d.max = e; d.at = i }
    }
    d.mean = Double(sum) / Double(max(1, a.count))
    return d
}
