import FlybyCore

/// Anti-aliased thin lines (width ≤ 1 px), solid or dashed, drawn straight into the frame without
/// the general stroker and the area filler.
///
/// docs/research/render-baselines.md found the 1 px outline costing more than the fill in every library but
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
/// **Arithmetic.** Per segment, the band's near edge at the middle of column i is
/// `edge0 + i · step` in 32.32 fixed point (``Fixed``; `edge0` the edge at column 0, `step` the
/// slope). The whole columns step it by integer additions, which are exact, so it is the same
/// value whichever column a walk starts at. A column's two or three pixels get integer shares of
/// the band (from the edge to the first pixel's far side, then whole pixels, then the rest), each
/// times the column's weight (alpha per full pixel in 8.8; 255 for a whole solid column) and
/// rounded half up to an alpha: no Double and no rounding call per pixel. The (at most two)
/// partial end columns compute their edge and weight in Double. A segment whose centre line stays
/// well inside the box skips the per-pixel range test, and the walk is compiled once per ``Ink``
/// (opaque colours blend with ``PixelBlend/blendOpaque(spread:coverage:_:)``).
///
/// **Dashes** are not cut into pieces: a column's length is replaced by the part of it that lies
/// in "on" stretches of the pattern, from the pattern's cumulative on-length `F(s)` at the arc
/// lengths where the segment enters and leaves the column. Each column is blended once, however
/// many dash ends fall in it, and nothing is allocated. The pattern restarts at every contour's
/// first point (as ``Dasher`` does with offset 0) and runs on through invisible stretches, so the
/// dashes do not depend on the clip or the band. For one dash and one gap longer than a column's
/// arc length (every dashed line of the bundled styles), the whole columns take the arc length's
/// phase in the pattern in fixed point instead (``Walker/FixedDash``): reduced modulo the period
/// once per segment, then stepped by exact integer additions, a column's on-share being the
/// overlap of its phase interval with the dash.
///
/// Every per-column value is a function of the segment and the column alone (values stepped from
/// column to column are exact integers, equal to the ones computed directly), so a painter that
/// draws only some rows (a band) gives those rows exactly the pixels a whole-frame painter gives
/// them. Units: screen pixels, origin top-left, y down.
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
        let pattern = DashPattern(dashes)
        if source >> 24 == 255 {
            let walker = Walker(width: w, ink: OpaqueInk(source: source), box: box, base: base, stride: view.width,
                                pattern: pattern)
            walker.stroke(path)
        } else {
            let walker = Walker(width: w, ink: TranslucentInk(source: source), box: box, base: base,
                                stride: view.width, pattern: pattern)
            walker.stroke(path)
        }
    }

    /// How a pixel takes the line's colour at a coverage: a type per case, so that the walk is
    /// compiled once for each and tests nothing per pixel.
    protocol Ink {
        /// `destination` with the line drawn over it at `alpha` (1…255).
        func blend(_ alpha: UInt32, onto destination: UInt32) -> UInt32
    }

    /// An opaque colour (premultiplied `0xAARRGGBB`, alpha 255).
    struct OpaqueInk: Ink {
        let source: UInt64
        init(source: UInt32) { self.source = PixelBlend.spread(source) }
        @inline(__always)
        func blend(_ alpha: UInt32, onto destination: UInt32) -> UInt32 {
            PixelBlend.blendOpaque(spread: source, coverage: alpha, destination)
        }
    }

    /// A translucent colour (premultiplied `0xAARRGGBB`).
    struct TranslucentInk: Ink {
        let source: UInt32
        @inline(__always)
        func blend(_ alpha: UInt32, onto destination: UInt32) -> UInt32 {
            PixelBlend.sourceOver(source, coverage: alpha, destination)
        }
    }

    /// Whether a walk tests each pixel's minor index against the box: a type per case, so that the
    /// walk functions (too large to inline into the segment loop) are compiled once for each
    /// instead of testing a flag per pixel.
    protocol RangeTest { static var isNeeded: Bool { get } }
    /// The segment may leave the box's minor range: every pixel is tested.
    enum Checked: RangeTest { static var isNeeded: Bool { true } }
    /// The segment stays well inside the box's minor range: no pixel is tested.
    enum Unchecked: RangeTest { static var isNeeded: Bool { false } }

    /// A dash pattern as its cumulative on-length function (see ``onLength(upTo:)``).
    struct DashPattern {
        /// On/off lengths, an even count (an odd pattern is repeated once, as SVG does).
        var lengths: [Double] = []
        var period = 0.0
        var inversePeriod = 0.0
        var onPerPeriod = 0.0
        /// The first dash when the pattern is one dash and one gap (the common case, taken
        /// without the loop over `lengths`); nil otherwise.
        var singleDash: Double?

        /// nil for solid lines.
        init?(_ dashes: [Double]) {
            guard Dasher.isValidPattern(dashes) else { return nil }
            lengths = dashes.count % 2 == 1 ? dashes + dashes : dashes
            for (k, d) in lengths.enumerated() {
                period += d
                if k % 2 == 0 { onPerPeriod += d }
            }
            inversePeriod = 1 / period
            if lengths.count == 2 { singleDash = lengths[0] }
        }

        /// The total length of "on" stretches in arc lengths `0…s` (`s ≥ 0`, pixels).
        @inline(__always)
        func onLength(upTo s: Double) -> Double {
            let periods = Double(FastMath.floor(s * inversePeriod))
            var rest = s - periods * period
            var on = periods * onPerPeriod
            if let singleDash { return rest > 0 ? on + min(rest, singleDash) : on }
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
    struct Walker<PixelInk: Ink> {
        let width: Double
        let ink: PixelInk
        let box: PixelRect
        let minX: Double, minY: Double, maxX: Double, maxY: Double
        let base: UnsafeMutablePointer<UInt32>
        let stride: Int
        let pattern: DashPattern?
        /// `pattern != nil`, kept apart so the solid path never touches the optional array.
        let isDashed: Bool

        init(width: Double, ink: PixelInk, box: PixelRect, base: UnsafeMutablePointer<UInt32>, stride: Int,
             pattern: DashPattern?) {
            self.width = width; self.ink = ink
            self.box = box; self.base = base; self.stride = stride; self.pattern = pattern
            isDashed = pattern != nil
            minX = Double(box.minX) - 1; minY = Double(box.minY) - 1
            maxX = Double(box.maxX) + 1; maxY = Double(box.maxY) + 1
        }

        /// Strokes every contour of `path`, closing closed ones; the dash pattern restarts at each.
        func stroke(_ path: Path) {
            path.points.withUnsafeBufferPointer { pts in
                for c in path.contours {
                    guard c.end - c.start >= 2 else { continue }
                    var arc = 0.0
                    var i = c.start
                    while i < c.end - 1 {
                        segment(pts[i], pts[i + 1], arcStart: &arc)
                        i += 1
                    }
                    if c.isClosed && c.end - c.start > 2 { segment(pts[c.end - 1], pts[c.start], arcStart: &arc) }
                }
            }
        }

        /// Draws segment a→b; `arcStart` is the contour's arc length at `a` and is advanced to `b`.
        @inline(__always)
        func segment(_ a: ScreenPoint, _ b: ScreenPoint, arcStart: inout Double) {
            let dx = b.x - a.x, dy = b.y - a.y
            let s0 = arcStart
            if isDashed {
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
                band(Axes(majorLo: box.minX, majorHi: box.maxX, minorLo: box.minY, minorHi: box.maxY,
                          majorStep: 1, minorStep: stride),
                     from: a.x, to: b.x, minorAtStart: a.y, minorAtEnd: b.y, slope: dy / dx, arcStart: s0)
            } else {
                band(Axes(majorLo: box.minY, majorHi: box.maxY, minorLo: box.minX, minorHi: box.maxX,
                          majorStep: stride, minorStep: 1),
                     from: a.y, to: b.y, minorAtStart: a.x, minorAtEnd: b.x, slope: dx / dy, arcStart: s0)
            }
        }

        /// The box and the pixel layout seen along a segment's major axis: cell (major i, minor j)
        /// is drawn when `majorLo ≤ i < majorHi` and `minorLo ≤ j < minorHi`, at
        /// `base + i·majorStep + j·minorStep`.
        struct Axes {
            let majorLo: Int, majorHi: Int, minorLo: Int, minorHi: Int
            let majorStep: Int, minorStep: Int
        }

        /// Walks the major-axis cells (columns) `[i, i+1)` of a segment from major coordinate `a`
        /// to `b` (either order), minor position `minorAtStart + slope · (t − a)` (`minorAtEnd` at
        /// `b`); the segment's arc length at `a` is `arcStart`.
        @inline(__always)
        func band(_ axes: Axes, from a: Double, to b: Double, minorAtStart: Double, minorAtEnd: Double, slope m: Double,
                  arcStart: Double) {
            let major0 = FastMath.larger(FastMath.smaller(a, b), -1e9)
            let major1 = FastMath.smaller(FastMath.larger(a, b), 1e9)
            let floor0 = FastMath.floor(major0), floor1 = FastMath.floor(major1)
            let ceil0 = Double(floor0) == major0 ? floor0 : floor0 &+ 1
            let ceil1 = Double(floor1) == major1 ? floor1 : floor1 &+ 1
            // The columns the segment crosses, inside the box…
            var start = max(axes.majorLo, floor0), end = min(axes.majorHi &- 1, ceil1 &- 1)
            // …and, when it leaves the minor range, only those where its centre line passes within
            // a pixel of that range (the band reaches 0.71 px from the centre line at most), plus a
            // column on each side for the end columns' off-centre samples and rounding. A column
            // kept in vain draws nothing, so the pixels do not depend on this range.
            let minorLo = Double(axes.minorLo) - 1, minorHi = Double(axes.minorHi) + 1
            let lowest = FastMath.smaller(minorAtStart, minorAtEnd)
            let highest = FastMath.larger(minorAtStart, minorAtEnd)
            if lowest < minorLo || highest > minorHi {
                guard m != 0 else { return }
                let t0 = a + (minorLo - minorAtStart) / m, t1 = a + (minorHi - minorAtStart) / m
                start = max(start, FastMath.floor(FastMath.larger(FastMath.smaller(t0, t1), -1e9)) &- 1)
                end = min(end, FastMath.floor(FastMath.smaller(FastMath.larger(t0, t1), 1e9)) &+ 1)
            }
            guard start <= end else { return }

            let stretch = (1 + m * m).squareRoot()   // arc length per unit of the major axis
            let height = width * stretch             // the band's height across the minor axis
            // The band's near edge at the middle of column 0: column i's is `edge0 + i · step`,
            // exact in integers, so every band of rows gets the same value. Kept columns have
            // their centre line within a few pixels of the box, so the limit only fails for views
            // wider or taller than 2^17 pixels.
            let edge0 = minorAtStart + m * (0.5 - a) - 0.5 * height
            guard abs(edge0) < Fixed.limit else { return }
            let line = Fixed.Band(edge0: Fixed.from(edge0), step: Fixed.from(m), height: Fixed.from(height))
            // The columns the segment crosses whole; the (at most two) others are partial.
            let span = Span(axes: axes, major0: major0, major1: major1, a: a, minorAtStart: minorAtStart, slope: m,
                            halfHeight: 0.5 * height, start: start, end: end, wholeFirst: max(start, ceil0),
                            wholeLast: min(end, floor1 &- 1), line: line)
            // A segment whose centre line stays a pixel inside the minor range on the near side
            // and three on the far side puts every column's two or three pixels inside it (the band
            // reaches 0.71 px from the centre line at most): no pixel needs the range test.
            let inside = lowest >= minorLo + 2 && highest <= minorHi - 4
            guard isDashed, let pattern else {
                if inside { solid(span, Unchecked.self) } else { solid(span, Checked.self) }
                return
            }
            let arcs = Arcs(start: arcStart, perMajor: b >= a ? stretch : -stretch, inverseStretch: 1 / stretch)
            if let dash = FixedDash(pattern, arcs, a: a) {
                if inside {
                    dashedSingle(span, pattern, arcs, dash, Unchecked.self)
                } else {
                    dashedSingle(span, pattern, arcs, dash, Checked.self)
                }
            } else if inside {
                dashed(span, pattern, arcs, Unchecked.self)
            } else {
                dashed(span, pattern, arcs, Checked.self)
            }
        }

        /// One segment's walk, every value computed from the segment alone.
        struct Span {
            let axes: Axes
            /// The segment's major extent (clamped to ±10^9); its centre line is at `minorAtStart`
            /// at major coordinate `a` and rises `slope` per unit of the major axis.
            let major0: Double, major1: Double, a: Double, minorAtStart: Double, slope: Double
            /// Half the band's height across the minor axis, pixels.
            let halfHeight: Double
            /// The columns to walk, and the ones among them the segment crosses whole.
            let start: Int, end: Int, wholeFirst: Int, wholeLast: Int
            let line: Fixed.Band

            /// The segment's part `ma…mb` (major coordinates) in column `i`.
            @inline(__always)
            func part(_ i: Int) -> (ma: Double, mb: Double) {
                let cellLo = Double(i)
                return (FastMath.larger(cellLo, major0), FastMath.smaller(cellLo + 1, major1))
            }

            /// The band's near edge (fixed point) in a partial column `ma…mb`: centred on the
            /// centre line at the part's middle.
            @inline(__always)
            func partialEdge(_ ma: Double, _ mb: Double) -> Int {
                Fixed.from(minorAtStart + slope * ((ma + mb) * 0.5 - a) - halfHeight)
            }
        }

        /// Where a dashed segment's columns fall in its contour's arc length: `start` at major
        /// coordinate `a`, `perMajor` more per unit of the major axis (negative when the segment
        /// runs towards lower major coordinates); `inverseStretch` turns arc length into major length.
        struct Arcs {
            let start: Double, perMajor: Double, inverseStretch: Double
        }

        /// A solid segment: the partial column before the whole ones, the whole ones (the band's
        /// edge stepped by exact integer additions, weight constant), the partial one after.
        @inline(__always)
        func solid<Test: RangeTest>(_ span: Span, _ test: Test.Type) {
            let checked = Test.isNeeded
            var i = span.start
            while i < span.wholeFirst && i <= span.end { partialColumn(span, i, test); i &+= 1 }
            var edge = span.line.edge(i)
            var cells = columnStart(span.axes, i)
            while i <= span.wholeLast {
                column(span.axes, cells, edge: edge, height: span.line.height, weight: Fixed.fullWeight,
                       checked: checked, skipsZeroAlpha: false)
                edge &+= span.line.step
                cells += span.axes.majorStep
                i &+= 1
            }
            i = max(i, span.wholeLast &+ 1)
            while i <= span.end { partialColumn(span, i, test); i &+= 1 }
        }

        /// A column the segment crosses only part of: weighted by that part's length.
        @inline(__always)
        func partialColumn<Test: RangeTest>(_ span: Span, _ i: Int, _ test: Test.Type) {
            let checked = Test.isNeeded
            let (ma, mb) = span.part(i)
            column(span.axes, columnStart(span.axes, i), edge: span.partialEdge(ma, mb), height: span.line.height,
                   weight: Fixed.weight(partLength: mb - ma), checked: checked)
        }

        /// A dashed segment: each column's length is its on-share, from the pattern's cumulative
        /// on-length at its edges. The on-length at the far edge of one column is the one at the
        /// near edge of the next (the same Double, so reusing it changes nothing).
        @inline(__always)
        func dashed<Test: RangeTest>(_ span: Span, _ pattern: DashPattern, _ arcs: Arcs, _ test: Test.Type) {
            let checked = Test.isNeeded
            var boundary = Double.nan, onAtBoundary = 0.0
            var i = span.start
            while i <= span.end {
                let (ma, mb) = span.part(i)
                let onA = ma == boundary ? onAtBoundary
                    : pattern.onLength(upTo: max(0, arcs.start + (ma - span.a) * arcs.perMajor))
                let onB = pattern.onLength(upTo: max(0, arcs.start + (mb - span.a) * arcs.perMajor))
                boundary = mb; onAtBoundary = onB
                let weight = Fixed.weight(abs(onB - onA) * arcs.inverseStretch)
                if weight > 0 {
                    let edge = i >= span.wholeFirst && i <= span.wholeLast ? span.line.edge(i) : span.partialEdge(ma, mb)
                    column(span.axes, columnStart(span.axes, i), edge: edge, height: span.line.height, weight: weight,
                           checked: checked)
                }
                i &+= 1
            }
        }

        /// A dashed segment whose pattern is one dash and one gap longer than a column's arc
        /// length (the common case), in 32.32 fixed point: the arc length at column edge `i` is
        /// `arc0 + i · arcStep`, so its phase in the pattern steps by exact integer additions
        /// (taken modulo the period once, at the first column), and a whole column's on-share is
        /// the overlap of its phase interval with the dash. Exact integers make the phase the same
        /// whatever column a band starts at. Partial columns take ``dashed(_:_:_:_:)``'s way.
        @inline(__always)
        func dashedSingle<Test: RangeTest>(_ span: Span, _ pattern: DashPattern, _ arcs: Arcs, _ dash: FixedDash,
                                          _ test: Test.Type) {
            let checked = Test.isNeeded
            var i = span.start
            while i < span.wholeFirst && i <= span.end { dashedPartialColumn(span, i, pattern, arcs, test); i &+= 1 }
            if i <= span.wholeLast {
                // The phase of the column's lower arc end: edge i going forwards, edge i + 1 backwards.
                let d = abs(dash.step)
                var phase = (dash.arc0 &+ (dash.step < 0 ? i &+ 1 : i) &* dash.step) % dash.period
                if phase < 0 { phase &+= dash.period }
                // The step taken modulo the period into 0…period (|step| ≤ period): the phase then
                // only ever wraps downwards, with one test per column.
                let advance = dash.step < 0 ? dash.step &+ dash.period : dash.step
                var edge = span.line.edge(i)
                var cells = columnStart(span.axes, i)
                while i <= span.wholeLast {
                    let top = phase &+ d
                    let on = max(0, min(top, dash.on) &- phase) &+ max(0, min(top, dash.period &+ dash.on) &- dash.period)
                    if on > 0 {
                        let weight = on >= d ? Fixed.fullWeight : (on &* dash.weightPerArc &+ (1 << 31)) >> 32
                        column(span.axes, cells, edge: edge, height: span.line.height, weight: weight, checked: checked)
                    }
                    phase &+= advance
                    if phase >= dash.period { phase &-= dash.period }
                    edge &+= span.line.step
                    cells += span.axes.majorStep
                    i &+= 1
                }
            }
            i = max(i, span.wholeLast &+ 1)
            while i <= span.end { dashedPartialColumn(span, i, pattern, arcs, test); i &+= 1 }
        }

        /// A partial column of a dashed segment: its on-share from the pattern's cumulative on-length.
        @inline(__always)
        func dashedPartialColumn<Test: RangeTest>(_ span: Span, _ i: Int, _ pattern: DashPattern, _ arcs: Arcs,
                                                 _ test: Test.Type) {
            let checked = Test.isNeeded
            let (ma, mb) = span.part(i)
            let onA = pattern.onLength(upTo: max(0, arcs.start + (ma - span.a) * arcs.perMajor))
            let onB = pattern.onLength(upTo: max(0, arcs.start + (mb - span.a) * arcs.perMajor))
            let weight = Fixed.weight(abs(onB - onA) * arcs.inverseStretch)
            guard weight > 0 else { return }
            column(span.axes, columnStart(span.axes, i), edge: span.partialEdge(ma, mb), height: span.line.height,
                   weight: weight, checked: checked)
        }

        /// A one-dash pattern along one segment in 32.32 fixed point: the arc length at column
        /// edge `i` is `arc0 + i · step`; `period` and `on` are the pattern's; a whole column's
        /// weight is its on-length times `weightPerArc` (2^-32 units).
        struct FixedDash {
            let arc0: Int, step: Int, period: Int, on: Int, weightPerArc: Int

            /// nil when the pattern is not one dash and one gap, its period is not longer than a
            /// column's arc length, or the values leave the fixed-point range.
            init?(_ pattern: DashPattern, _ arcs: Arcs, a: Double) {
                guard let dash = pattern.singleDash, pattern.period > abs(arcs.perMajor), pattern.period < Fixed.limit
                else { return nil }
                let arc0 = arcs.start - a * arcs.perMajor
                guard abs(arc0) < Fixed.limit else { return nil }
                self.arc0 = Fixed.from(arc0); step = Fixed.from(arcs.perMajor)
                period = Fixed.from(pattern.period); on = Fixed.from(dash)
                guard abs(step) > 0 else { return nil }
                weightPerArc = (Fixed.fullWeight << 32) / abs(step)
            }
        }

        /// Where column `i`'s pixels start: its cell at minor index 0 (an address only formed, never
        /// read, for cells outside the box). The whole-column walks step it by `majorStep` instead.
        @inline(__always)
        func columnStart(_ axes: Axes, _ i: Int) -> UnsafeMutablePointer<UInt32> { base + i &* axes.majorStep }

        /// Blends the column whose minor index 0 is at `cells`: a band from minor coordinate `edge`
        /// (fixed point) `height` high (fixed point, at most √2), each pixel getting its overlap with
        /// the band times `weight` (see ``Fixed/weight(_:)``): the two or three pixels from the one
        /// holding `edge`; when `checked`, only those inside the minor range. `skipsZeroAlpha`: see
        /// ``plot(_:_:_:_:checked:skipsZeroAlpha:)``.
        @inline(__always)
        func column(_ axes: Axes, _ cells: UnsafeMutablePointer<UInt32>, edge: Int, height: Int, weight: Int,
                    checked: Bool, skipsZeroAlpha: Bool = true) {
            let j = edge >> Fixed.bits
            let p = cells + j &* axes.minorStep
            // The band's share of pixel j: from `edge` to the pixel's far side, or all of it.
            let first = Fixed.one &- (edge & Fixed.fraction)
            if first >= height {
                plot(p, j, Fixed.alpha(height, weight), axes, checked: checked, skipsZeroAlpha: skipsZeroAlpha)
                return
            }
            plot(p, j, Fixed.alpha(first, weight), axes, checked: checked, skipsZeroAlpha: skipsZeroAlpha)
            let rest = height &- first
            let q = p + axes.minorStep
            if rest <= Fixed.one {
                plot(q, j &+ 1, Fixed.alpha(rest, weight), axes, checked: checked, skipsZeroAlpha: skipsZeroAlpha)
            } else {
                plot(q, j &+ 1, Fixed.alpha(Fixed.one, weight), axes, checked: checked, skipsZeroAlpha: skipsZeroAlpha)
                plot(q + axes.minorStep, j &+ 2, Fixed.alpha(rest &- Fixed.one, weight), axes, checked: checked,
                     skipsZeroAlpha: skipsZeroAlpha)
            }
        }

        /// Blends `alpha` (0…255) onto pixel `p`, minor index `j`; when `checked`, only if `j`
        /// is inside the minor range. Alpha 0 leaves the pixel as it is with either ink (both
        /// blends round `d · 255 / 255` back to `d` exactly), so skipping it only saves work:
        /// `skipsZeroAlpha` is false where alpha 0 is rare (whole solid columns: only a band share
        /// under 1/510 px gives it) and the test would cost more than the blends it saves.
        @inline(__always)
        func plot(_ p: UnsafeMutablePointer<UInt32>, _ j: Int, _ alpha: UInt32, _ axes: Axes, checked: Bool,
                  skipsZeroAlpha: Bool) {
            if checked { guard UInt(bitPattern: j &- axes.minorLo) < UInt(bitPattern: axes.minorHi &- axes.minorLo) else { return } }
            if skipsZeroAlpha { guard alpha != 0 else { return } }
            p.pointee = ink.blend(alpha, onto: p.pointee)
        }
    }

    /// Fixed-point arithmetic of the walk: positions in 32.32 (`Int`, 32 fraction bits, so a
    /// slope rounded to 2^-33 drifts by less than 10^-5 px over 65,536 columns, and the integer
    /// sums `edge0 + i · step` are exact, whatever order they are formed in), and weights as alpha
    /// per full pixel in 8.8 (255 · 256 for a whole column).
    enum Fixed {
        static let bits = 32
        static let one = 1 << bits
        static let fraction = one - 1
        /// The largest magnitude ``from(_:)`` accepts, in pixels (its rounding needs |x · 2^32| < 2^51).
        static let limit = Double(1 << 18)
        /// A whole column's weight: alpha 255 in 8.8 fixed point.
        static let fullWeight = 255 << 8

        /// `x` (pixels, |x| < ``limit``) in 32.32 fixed point, rounded to nearest.
        @inline(__always)
        static func from(_ x: Double) -> Int { FastMath.nearest(x * 4_294_967_296) }

        /// The weight of a column `length` long along the major axis (0…1 px).
        @inline(__always)
        static func weight(_ length: Double) -> Int { weight(partLength: FastMath.smaller(length, 1)) }

        /// ``weight(_:)`` of a length known to be at most 1 px (a segment's part in one column).
        @inline(__always)
        static func weight(partLength length: Double) -> Int { FastMath.nearest(length * Double(fullWeight)) }

        /// The alpha of a pixel covered over `share` (32.32, at most one pixel) with `weight`
        /// (8.8): `share · weight`, rounded half up to an integer 0…255.
        @inline(__always)
        static func alpha(_ share: Int, _ weight: Int) -> UInt32 {
            UInt32(truncatingIfNeeded: (share &* weight &+ (1 << (bits + 7))) >> (bits + 8))
        }

        /// A segment's band in fixed point: its near edge at the middle of column `i` is
        /// `edge0 + i · step`.
        struct Band {
            let edge0: Int, step: Int, height: Int
            @inline(__always)
            func edge(_ i: Int) -> Int { edge0 &+ i &* step }
        }
    }
}
