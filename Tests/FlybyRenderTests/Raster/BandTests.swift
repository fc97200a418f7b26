import FlybyCore
import FlybyRender
import Testing

@Suite struct BandTests {
    /// Draws a mixed scene: polygons with holes (both rules), strokes of every join and cap,
    /// dashes, circles, a clipped fill, and geometry off the frame.
    static func drawScene(_ painter: inout Painter, _ view: PixelBufferView) {
        var rng = SplitMix64(seed: 42)
        for i in 0..<12 {
            let c = pt(rng.range(-5, 69), rng.range(-5, 53))
            var path = Path(rings: [randomRadialPolygon(&rng, center: c, maxRadius: 20)])
            path.addPolygon(randomRadialPolygon(&rng, center: c, maxRadius: 4).reversed())
            let color = Color(red: UInt8(rng.next() & 255), green: UInt8(rng.next() & 255),
                              blue: UInt8(rng.next() & 255), alpha: UInt8(100 + rng.next() % 156))
            painter.fill(path, color: color, rule: i % 2 == 0 ? .nonZero : .evenOdd, into: view)
            let joins: [LineJoin] = [.miter, .round, .bevel], caps: [LineCap] = [.butt, .round, .square]
            var line = Path()
            line.addPolyline(randomRadialPolygon(&rng, center: c, maxRadius: 25))
            let style = StrokeStyle(width: rng.range(0.3, 6), join: joins[i % 3], cap: caps[(i / 3) % 3],
                                    dashes: i % 4 == 3 ? [5, 3, 1, 3] : [], dashOffset: 2)
            painter.stroke(line, style: style, color: .black, clip: i == 5 ? PixelRect(x: 10, y: 7, width: 30, height: 23) : nil,
                           into: view)
        }
        // Hairlines, solid and dashed, crossing band edges at every angle.
        var thin = Path()
        thin.addPolyline((0..<9).map { k in pt(32 + 30 * sinCos(Double(k) * 0.7).1, 24 + 28 * sinCos(Double(k) * 0.7).0) })
        painter.strokeHairline(thin, width: 0.7, dashes: [], color: Color(rgb: 0x226644, alpha: 220), into: view)
        painter.strokeHairline(thin, width: 1, dashes: [2, 1.5], color: Color(rgb: 0x882200, alpha: 255), into: view)
        var ring = Path()
        ring.addCircle(center: pt(33.3, 24.6), radius: 17)
        painter.stroke(ring, style: StrokeStyle(width: 3), color: Color(rgb: 0x3366CC, alpha: 200), into: view)
    }

    /// One painter per row band (any split, drawn in any band order) gives exactly the pixels of
    /// one whole-frame painter.
    @Test(arguments: [[0, 64, 48], [0, 1, 2, 17, 30, 31, 48], [0, 24, 48], [0, 5, 11, 13, 40, 48]])
    func bandedRenderingEqualsWhole(splits: [Int]) {
        let (w, h) = (64, 48)
        var whole = PixelBuffer(width: w, height: h, color: .white)
        var painter = Painter(width: w, height: h)
        whole.withView { BandTests.drawScene(&painter, $0) }

        var banded = PixelBuffer(width: w, height: h, color: .white)
        let bounds = splits.filter { $0 <= h }
        banded.withView { view in
            for k in (0..<(bounds.count - 1)).reversed() where bounds[k] < bounds[k + 1] {
                var band = Painter(width: w, height: h, rows: bounds[k]..<bounds[k + 1])
                BandTests.drawScene(&band, view)
            }
        }
        let firstDifference = zip(whole.pixels, banded.pixels).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(firstDifference == nil, "first difference at pixel \(firstDifference?.offset ?? -1)")
        #expect(whole.pixels.contains { $0 != 0xFFFF_FFFF })
    }

    /// Paths taller than a strip (wide frame: strips of 16384 / width rows) render in strips; the
    /// result equals 8-row band painters, which render each band in one piece, and the exact area.
    @Test func stripsEqualBandsAndExactArea() {
        let (w, h) = (2048, 40)
        var rng = SplitMix64(seed: 9)
        var polygons: [[ScreenPoint]] = []
        for _ in 0..<6 {
            var ring = randomRadialPolygon(&rng, center: pt(rng.range(20, 2000), rng.range(10, 30)), maxRadius: 30)
            ring = ring.map { pt(($0.x - 1000) * 1.7 + 1000, $0.y) }
            polygons.append(ring)
        }
        var whole = PixelBuffer(width: w, height: h)
        var painter = Painter(width: w, height: h)
        for (i, ring) in polygons.enumerated() {
            painter.fill(Path(rings: [ring]), color: .white, rule: i % 2 == 0 ? .nonZero : .evenOdd, into: &whole)
        }
        var path = Path()
        path.addPolyline([pt(3, 3), pt(2040, 37), pt(1000, 4)])
        painter.stroke(path, style: StrokeStyle(width: 3, join: .round), color: Color(rgb: 0xFF0000, alpha: 128), into: &whole)

        var banded = PixelBuffer(width: w, height: h)
        banded.withView { view in
            for top in stride(from: 0, to: h, by: 8) {
                var band = Painter(width: w, height: h, rows: top..<(top + 8))
                for (i, ring) in polygons.enumerated() {
                    band.fill(Path(rings: [ring]), color: .white, rule: i % 2 == 0 ? .nonZero : .evenOdd, into: view)
                }
                band.stroke(path, style: StrokeStyle(width: 3, join: .round), color: Color(rgb: 0xFF0000, alpha: 128), into: view)
            }
        }
        #expect(whole.pixels == banded.pixels)
        let single = fillAlpha(Path(rings: [polygons[0]]), rule: .nonZero, width: w, height: h)
        let d = difference(single, exactCoverage(polygons[0], width: w, height: h))
        #expect(d.max <= 1, "max \(d.max) at \(d.at)")
    }
}
