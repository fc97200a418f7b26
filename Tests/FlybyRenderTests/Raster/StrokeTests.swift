import FlybyCore
import FlybyRender
import Testing

/// The ideal stroke of the polyline a → b → c: one rectangle per segment (extended at the ends
/// for square caps), plus the join wedge (or disc) at b on the outer side, plus discs at the ends
/// for round caps. Points are tested exactly; the supersampler turns that into coverage.
struct IdealStroke {
    var a: ScreenPoint, b: ScreenPoint, c: ScreenPoint
    var style: StrokeStyle

    func contains(_ x: Double, _ y: Double) -> Bool {
        let h = style.width / 2
        let square = style.cap == .square ? h : 0
        if inRect(a, b, x, y, h, startExtension: square, endExtension: 0) { return true }
        if inRect(b, c, x, y, h, startExtension: 0, endExtension: square) { return true }
        if style.cap == .round && (dist2(a, x, y) <= h * h || dist2(c, x, y) <= h * h) { return true }
        switch style.join {
        case .round:
            return dist2(b, x, y) <= h * h
        case .bevel, .miter:
            let da = unit(a, b), db = unit(b, c)
            let cross = da.x * db.y - da.y * db.x
            let s: Double = cross > 0 ? -1 : 1   // the outer side
            let na = pt(-da.y * s, da.x * s), nb = pt(-db.y * s, db.x * s)
            let o1 = pt(b.x + h * na.x, b.y + h * na.y), o2 = pt(b.x + h * nb.x, b.y + h * nb.y)
            let k = 1 + na.x * nb.x + na.y * nb.y
            if style.join == .miter && 2 / k <= style.miterLimit * style.miterLimit {
                let m = pt(b.x + h * (na.x + nb.x) / k, b.y + h * (na.y + nb.y) / k)
                return inConvex([b, o1, m, o2], x, y)
            }
            return inConvex([b, o1, o2], x, y)
        }
    }

    func unit(_ p: ScreenPoint, _ q: ScreenPoint) -> ScreenPoint {
        let l = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
        return pt((q.x - p.x) / l, (q.y - p.y) / l)
    }
    func dist2(_ p: ScreenPoint, _ x: Double, _ y: Double) -> Double { (x - p.x) * (x - p.x) + (y - p.y) * (y - p.y) }
    func inRect(_ p: ScreenPoint, _ q: ScreenPoint, _ x: Double, _ y: Double, _ h: Double,
                startExtension: Double, endExtension: Double) -> Bool {
        let d = unit(p, q)
        let len = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
        let t = (x - p.x) * d.x + (y - p.y) * d.y
        let n = -(x - p.x) * d.y + (y - p.y) * d.x
        return t >= -startExtension && t <= len + endExtension && abs(n) <= h
    }
    func inConvex(_ poly: [ScreenPoint], _ x: Double, _ y: Double) -> Bool {
        var sign = 0.0
        for i in poly.indices {
            let p = poly[i], q = poly[(i + 1) % poly.count]
            let cr = (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x)
            if cr != 0 {
                if sign == 0 { sign = cr } else if (cr > 0) != (sign > 0) { return false }
            }
        }
        return true
    }
}

@Suite struct StrokeTests {
    func strokeAlpha(_ line: [ScreenPoint], _ style: StrokeStyle, closed: Bool = false, width: Int = 40,
                     height: Int = 24) -> [Int] {
        var path = Path()
        path.addPolyline(line, closed: closed)
        return renderedAlpha(width: width, height: height) { p, b in p.stroke(path, style: style, color: .white, into: &b) }
    }

    @Test func horizontalLineHasItsWidth() {
        let w = 40
        let a = strokeAlpha([pt(3, 10), pt(27, 10)], StrokeStyle(width: 4))
        for x in 0..<w {
            for y in 0..<24 {
                let inside = x >= 3 && x < 27 && y >= 8 && y < 12
                #expect(a[y * w + x] == (inside ? 255 : 0), "(\(x), \(y))")
            }
        }
        // Width 3 centred on a pixel boundary: half pixels above and below.
        let b = strokeAlpha([pt(3, 10), pt(27, 10)], StrokeStyle(width: 3))
        #expect(b[8 * w + 10] == 128 && b[9 * w + 10] == 255 && b[10 * w + 10] == 255 && b[11 * w + 10] == 128)
        // A 1 px line through pixel centres is exactly one row.
        let c = strokeAlpha([pt(3, 10.5), pt(27, 10.5)], StrokeStyle(width: 1))
        #expect(c[10 * w + 10] == 255 && c[9 * w + 10] == 0 && c[11 * w + 10] == 0)
    }

    /// Square and round caps reach width/2 past the end points; butt caps stop at them.
    @Test(arguments: [LineCap.butt, .square, .round])
    func capsExtendByHalfWidth(cap: LineCap) {
        let w = 40
        let style = StrokeStyle(width: 4, cap: cap, tolerance: 0.01)
        let a = strokeAlpha([pt(10, 10.5), pt(30, 10.5)], style)
        let row = 10
        let reach = cap == .butt ? 0 : 2
        #expect(a[row * w + 10 - reach] > 0 || cap == .butt)
        #expect(a[row * w + 10 - reach - 1] == 0)
        #expect(a[row * w + 29 + reach] > 0)
        #expect(a[row * w + 30 + reach] == 0)
        if cap != .round {
            #expect(a[row * w + 10 - reach] == 255 && a[row * w + 29 + reach] == 255)
        }
        let ideal = IdealStroke(a: pt(10, 10.5), b: pt(20, 10.5), c: pt(30, 10.5), style: style)
        let reference = supersampled(width: w, height: 24) { ideal.contains($0, $1) }
        let d = difference(a, reference)
        #expect(d.max <= 24 && d.mean < 1, "\(cap): max \(d.max) at \(d.at), mean \(d.mean)")
    }

    /// Join shapes against the ideal stroke (segment rectangles plus the join wedge), sampled
    /// 16×16: up to 16 levels of sampling error per edge in a pixel, and the polygonal round join
    /// (0.01 px tolerance), so at most 24 levels per pixel and a mean under 1.
    @Test(arguments: [LineJoin.miter, .round, .bevel], [true, false])
    func joinShapesMatchIdeal(join: LineJoin, turnLeft: Bool) {
        let (w, h) = (40, 32)
        let a = pt(4.3, 26.2), b = pt(19.6, turnLeft ? 6.4 : 7.1), c = pt(turnLeft ? 36.1 : 35.2, 25.7)
        let (p, q) = turnLeft ? (a, c) : (c, a)
        let style = StrokeStyle(width: 6.5, join: join, miterLimit: 4, tolerance: 0.01)
        let got = strokeAlpha([p, b, q], style, width: w, height: h)
        let ideal = IdealStroke(a: p, b: b, c: q, style: style)
        let reference = supersampled(width: w, height: h) { ideal.contains($0, $1) }
        let d = difference(got, reference)
        #expect(d.max <= 24 && d.mean < 1, "\(join): max \(d.max) at \(d.at), mean \(d.mean)")
        // The miter tip pokes out above the bevel's flat cut, the round join lies in between.
        let tipRow = Int(b.y - 3.25 * 1.3)   // above where the bevel ends
        let above = (0..<w).reduce(0) { $0 + got[tipRow * w + $1] }
        switch join {
        case .miter: #expect(above > 0)
        case .bevel, .round: #expect(above == 0)
        }
    }

    /// A miter longer than the limit falls back to a bevel.
    @Test func miterLimitTurnsSharpMitersIntoBevels() {
        let line = [pt(5, 30), pt(20, 4), pt(35, 30)]   // ≈ 60° turn: miter ratio 1/sin(30°) = 2
        let miter = strokeAlpha(line, StrokeStyle(width: 4, join: .miter, miterLimit: 2.1), height: 34)
        let limited = strokeAlpha(line, StrokeStyle(width: 4, join: .miter, miterLimit: 1.9), height: 34)
        let bevel = strokeAlpha(line, StrokeStyle(width: 4, join: .bevel), height: 34)
        #expect(limited == bevel)
        #expect(miter != bevel)
        #expect(miter.reduce(0, +) > bevel.reduce(0, +))
    }

    @Test func thinLinesUseOnePixelWidthWithScaledAlpha() {
        let w = 40
        let a = strokeAlpha([pt(3, 10.5), pt(27, 10.5)], StrokeStyle(width: 0.5))
        #expect(a[10 * w + 10] == 128 && a[9 * w + 10] == 0)
        // A 45° line of width 0.25: per column, alpha sums to 0.25·√2·255 ≈ 90.
        let d = strokeAlpha([pt(2, 2), pt(22, 22)], StrokeStyle(width: 0.25))
        let column = (0..<24).reduce(0) { $0 + d[$1 * w + 12] }
        #expect(abs(column - 90) <= 3, "column sum \(column)")
    }

    @Test func circles() {
        let fill = renderedAlpha(width: 32, height: 32) { p, b in
            p.fillCircle(center: pt(15.7, 16.2), radius: 10, color: .white, into: &b)
        }
        let area = Double(fill.reduce(0, +)) / 255
        #expect(abs(area - Double.pi * 100) < 0.003 * Double.pi * 100, "disc area \(area)")
        let ring = renderedAlpha(width: 32, height: 32) { p, b in
            p.strokeCircle(center: pt(15.7, 16.2), radius: 10, style: StrokeStyle(width: 2), color: .white, into: &b)
        }
        let ringArea = Double(ring.reduce(0, +)) / 255
        #expect(abs(ringArea - 2 * Double.pi * 10 * 2) < 0.01 * 40 * Double.pi, "ring area \(ringArea)")
        #expect(ring[16 * 32 + 15] == 0 && fill[16 * 32 + 15] == 255)
    }

    /// A closed square outline has the same width on every side and filled corners.
    @Test func closedContourHasJoinsAtEveryCorner() {
        let w = 40
        let a = strokeAlpha([pt(10, 5), pt(30, 5), pt(30, 20), pt(10, 20)], StrokeStyle(width: 2), closed: true)
        for (x, y) in [(9, 4), (30, 4), (30, 20), (9, 20), (20, 4), (20, 5), (9, 12), (30, 12)] {
            #expect(a[y * w + x] == 255, "(\(x), \(y))")
        }
        #expect(a[12 * w + 20] == 0 && a[3 * w + 20] == 0 && a[6 * w + 20] == 0)
    }

    /// Degenerate input draws nothing or a dot, never traps: empty paths, zero or NaN widths,
    /// non-finite points, and a polyline that collapses to one point (a dot for round and square
    /// caps, nothing for butt).
    @Test func degenerateInputs() {
        let empty = renderedAlpha(width: 20, height: 20) { p, b in
            p.stroke(Path(), style: StrokeStyle(width: 2), color: .white, into: &b)
            var line = Path()
            line.addPolyline([pt(2, 2), pt(15, 15)])
            p.stroke(line, style: StrokeStyle(width: 0), color: .white, into: &b)
            p.stroke(line, style: StrokeStyle(width: .nan), color: .white, into: &b)
            var butt = Path()
            butt.addPolyline([pt(10, 10), pt(10, 10)])
            p.stroke(butt, style: StrokeStyle(width: 4), color: .white, into: &b)
            p.fill(Path(rings: [[pt(.infinity, 1), pt(3, 3), pt(1, 5)]]), color: .white, into: &b)
        }
        #expect(empty.allSatisfy { $0 == 0 })
        for cap in [LineCap.round, .square] {
            let dot = renderedAlpha(width: 20, height: 20) { p, b in
                var point = Path()
                point.addPolyline([pt(10, 10), pt(10, 10), pt(.nan, 3)])
                p.stroke(point, style: StrokeStyle(width: 4, cap: cap), color: .white, into: &b)
            }
            let area = Double(dot.reduce(0, +)) / 255
            let expected = cap == .round ? Double.pi * 4 : 16
            #expect(abs(area - expected) < 0.1, "\(cap): area \(area)")
        }
    }
}
