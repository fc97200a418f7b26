import FlybyCore

/// Anti-aliased thin lines (width ≤ 1 px), solid or dashed, drawn straight into the frame without
/// the general stroker and the area filler.
///
/// docs/render-baselines.md found the 1 px outline costing more than the fill in every library but
/// Skia, which draws such strokes as "hairlines". This is our own hairline: each segment is walked
/// along its major axis one pixel column (or row) at a time; in each column the line is taken as a
/// vertical band of height `width · √(1 + m²)` (m the slope) centred on the centre line at the
/// middle of the segment's part in the column, and each pixel gets the band's overlap with it
/// times the length (along the major axis) of the segment inside the column: a box-filter
/// estimate of the covered area. End columns get their fractional share, so consecutive segments
/// of a polyline add up to one full column at the shared vertex. Diagonal lines keep their weight
/// (unlike Wu's algorithm, whose 45° lines come out lighter by √2). Pixels where two segments
/// cross are blended twice, as with any per-segment hairline.
///
/// **Dashes** are not cut into pieces: a column's length is replaced by the part of it that lies
/// in "on" stretches of the pattern, from the pattern's cumulative on-length `F(s)` at the arc
/// lengths where the segment enters and leaves the column. Each column is blended once, however
/// many dash ends fall in it, and nothing is allocated. The pattern restarts at every contour's
/// first point (as ``Dasher`` does with offset 0) and runs on through invisible stretches, so the
/// dashes do not depend on the clip or the band.
///
/// Every per-column value is computed from the segment alone (never stepped from the previous
/// column), so a painter that draws only some rows (a band) gives those rows exactly the pixels a
/// whole-frame painter gives them. Units: screen pixels, origin top-left, y down.
enum Hairline {
    /// Strokes every contour of `path` (closing closed ones) with a `width`-pixel line of `color`
    /// (width clamped to 0…1), dashed by `dashes` (on/off lengths in pixels, see
    /// ``Dasher/isValidPattern(_:)``; invalid or empty: solid), only inside `clip`.
    static func stroke(_ path: Path, width: Double, dashes: [Double] = [], color: Color, clip: PixelRect? = nil,
                       into view: PixelBufferView) {
        let w = min(max(width, 0), 1)
        let source = color.premultipliedARGB
        guard w > 0, source >> 24 != 0, let base = view.base else { return }
        var box = view.bounds
        if let clip { box = box.intersection(clip) }
        guard !box.isEmpty else { return }
        var walker = Walker(width: w, source: source, box: box, base: base, stride: view.width,
                            pattern: DashPattern(dashes))
        path.points.withUnsafeBufferPointer { pts in
            for c in path.contours {
                guard c.end - c.start >= 2 else { continue }
                var arc = 0.0
                var i = c.start
                while i < c.end - 1 {
                    walker.segment(pts[i], pts[i + 1], arcStart: &arc)
                    i += 1
                }
                if c.isClosed && c.end - c.start > 2 { walker.segment(pts[c.end - 1], pts[c.start], arcStart: &arc) }
            }
        }
    }

    /// `x` rounded to the nearest integer (ties to even) for |x| < 2^51, without a checked
    /// conversion: adding 1.5 · 2^52 leaves the integer in the low mantissa bits (the classic
    /// "magic number" rounding; exact and deterministic in IEEE double arithmetic).
    @inline(__always)
    static func roundedInt(_ x: Double) -> Int {
        let magic = 6_755_399_441_055_744.0
        return Int(truncatingIfNeeded: (x + magic).bitPattern &- magic.bitPattern)
    }

    /// ⌊x⌋ for |x| < 2^51, from ``roundedInt(_:)``.
    @inline(__always)
    static func floor(_ x: Double) -> Int {
        let i = roundedInt(x)
        return Double(i) > x ? i &- 1 : i
    }

    /// A dash pattern as its cumulative on-length function (see ``onLength(upTo:)``).
    struct DashPattern {
        /// On/off lengths, an even count (an odd pattern is repeated once, as SVG does).
        var lengths: [Double] = []
        var period = 0.0
        var inversePeriod = 0.0
        var onPerPeriod = 0.0

        /// nil for solid lines.
        init?(_ dashes: [Double]) {
            guard Dasher.isValidPattern(dashes) else { return nil }
            lengths = dashes.count % 2 == 1 ? dashes + dashes : dashes
            for (k, d) in lengths.enumerated() {
                period += d
                if k % 2 == 0 { onPerPeriod += d }
            }
            inversePeriod = 1 / period
        }

        /// The total length of "on" stretches in arc lengths `0…s` (`s ≥ 0`, pixels).
        @inline(__always)
        func onLength(upTo s: Double) -> Double {
            let periods = Double(Hairline.floor(s * inversePeriod))
            var rest = s - periods * period
            var on = periods * onPerPeriod
            var k = 0
            while k < lengths.count && rest > 0 {
                let d = lengths[k]
                if k % 2 == 0 { on += min(rest, d) }
                rest -= d
                k += 1
            }
            return on
        }
    }

    /// The per-call state: where to draw and with what.
    struct Walker {
        let width: Double
        let source: UInt32
        let sourceIsOpaque: Bool
        let box: PixelRect
        let minX: Double, minY: Double, maxX: Double, maxY: Double
        let base: UnsafeMutablePointer<UInt32>
        let stride: Int
        let pattern: DashPattern?

        init(width: Double, source: UInt32, box: PixelRect, base: UnsafeMutablePointer<UInt32>, stride: Int,
             pattern: DashPattern?) {
            self.width = width; self.source = source; self.sourceIsOpaque = source >> 24 == 255
            self.box = box; self.base = base; self.stride = stride; self.pattern = pattern
            minX = Double(box.minX) - 1; minY = Double(box.minY) - 1
            maxX = Double(box.maxX) + 1; maxY = Double(box.maxY) + 1
        }

        /// Draws segment a→b; `arcStart` is the contour's arc length at `a` and is advanced to `b`.
        @inline(__always)
        mutating func segment(_ a: ScreenPoint, _ b: ScreenPoint, arcStart: inout Double) {
            let dx = b.x - a.x, dy = b.y - a.y
            let s0 = arcStart
            if pattern != nil {
                let length = (dx * dx + dy * dy).squareRoot()
                if length.isFinite { arcStart += length }
            }
            // Off-screen segments (most of a large country's coastline when zoomed in) cost nothing.
            if (a.x < minX && b.x < minX) || (a.x > maxX && b.x > maxX) || (a.y < minY && b.y < minY) || (a.y > maxY && b.y > maxY) {
                return
            }
            guard dx.isFinite && dy.isFinite else { return }
            if abs(dx) >= abs(dy) {
                guard dx != 0 else { return }
                band(from: a.x, to: b.x, minorAtStart: a.y, slope: dy / dx, arcStart: s0,
                     majorLo: box.minX, majorHi: box.maxX, minorLo: box.minY, minorHi: box.maxY,
                     majorStep: 1, minorStep: stride)
            } else {
                band(from: a.y, to: b.y, minorAtStart: a.x, slope: dx / dy, arcStart: s0,
                     majorLo: box.minY, majorHi: box.maxY, minorLo: box.minX, minorHi: box.maxX,
                     majorStep: stride, minorStep: 1)
            }
        }

        /// Walks the major-axis cells `[i, i+1)` of a segment from major coordinate `a` to `b`
        /// (either order), minor position `minorAtStart + slope · (t − a)`; the segment's arc
        /// length at `a` is `arcStart`. Pixel (major i, minor j) is at `base + i·majorStep + j·minorStep`.
        @inline(__always)
        func band(from a: Double, to b: Double, minorAtStart: Double, slope m: Double, arcStart: Double,
                  majorLo: Int, majorHi: Int, minorLo: Int, minorHi: Int, majorStep: Int, minorStep: Int) {
            let major0 = min(a, b), major1 = max(a, b)
            let stretch = (1 + m * m).squareRoot()   // arc length per unit of the major axis
            let half = 0.5 * width * stretch
            // Arc length at major coordinate t: arcStart + (t − a) · stretch · direction.
            let arcPerMajor = b >= a ? stretch : -stretch
            let start = max(majorLo, Hairline.floor(max(-1e9, major0)))
            let end = min(majorHi - 1, -Hairline.floor(-min(1e9, major1)) - 1)
            guard start <= end else { return }
            // The pattern's on-length at the far edge of the previous column: the near edge of
            // this one (the same Double, so reusing it changes nothing and halves the lookups).
            var boundary = Double.nan, onAtBoundary = 0.0
            var i = start
            while i <= end {
                let cellLo = Double(i)
                let ma = max(major0, cellLo), mb = min(major1, cellLo + 1)
                var length = mb - ma
                if let pattern {
                    let onA = ma == boundary ? onAtBoundary : pattern.onLength(upTo: max(0, arcStart + (ma - a) * arcPerMajor))
                    let onB = pattern.onLength(upTo: max(0, arcStart + (mb - a) * arcPerMajor))
                    boundary = mb; onAtBoundary = onB
                    length = abs(onB - onA) / stretch
                }
                if length > 0 {
                    let center = minorAtStart + m * ((ma + mb) * 0.5 - a)
                    let lo = center - half, hi = center + half
                    let first = Hairline.floor(max(-1e9, lo)), last = Hairline.floor(min(1e9, hi))
                    let weight = length * 255
                    // The band's overlap with each row: partial at the ends, whole between.
                    let column = base + i &* majorStep
                    if first == last {
                        plot(column, first, (hi - lo) * weight, minorLo, minorHi, minorStep)
                    } else {
                        plot(column, first, (Double(first &+ 1) - lo) * weight, minorLo, minorHi, minorStep)
                        var j = first &+ 1
                        while j < last {
                            plot(column, j, weight, minorLo, minorHi, minorStep)
                            j &+= 1
                        }
                        plot(column, last, (hi - Double(last)) * weight, minorLo, minorHi, minorStep)
                    }
                }
                i &+= 1
            }
        }

        /// Blends `coverage` (0…255, a Double) onto minor index `j` of a column, when `j` is inside
        /// `minorLo..<minorHi`. Wrapping arithmetic: the index is checked, and the overflow checks
        /// cost instructions on every pixel.
        @inline(__always)
        func plot(_ column: UnsafeMutablePointer<UInt32>, _ j: Int, _ coverage: Double, _ minorLo: Int, _ minorHi: Int,
                  _ minorStep: Int) {
            guard j >= minorLo && j < minorHi else { return }
            let alpha = UInt32(truncatingIfNeeded: min(255, Hairline.roundedInt(coverage)))
            let p = column + j &* minorStep
            if alpha == 255 && sourceIsOpaque {
                p.pointee = source
            } else if alpha != 0 {
                p.pointee = sourceIsOpaque ? PixelBlend.blendOpaque(source, coverage: alpha, p.pointee)
                    : PixelBlend.sourceOver(source, coverage: alpha, p.pointee)
            }
        }
    }
}
