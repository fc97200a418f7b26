import FlybyCore

/// Turns polylines into outline polygons that, filled with ``FillRule/nonZero``, paint the stroke.
///
/// Each side of a contour is offset by width/2. On the outer side of a corner the join is inserted
/// (miter, round or bevel). On the inner side the two offset lines are cut where they meet when
/// that point lies within half of each segment (the usual case; the outline then has no overlap
/// there); otherwise the outline goes through the vertex itself ("pivot"). With the pivot the
/// outline is the chain sum of one quadrilateral per segment plus one join wedge per corner, all
/// with the same orientation, so its winding number is ≥ 1 exactly on their union whatever the
/// segment lengths and angles. An open contour becomes one closed outline
/// (left side forward, end cap, right side backward, start cap); a closed one becomes two (left
/// side forward, right side backward). Round parts are flattened by arc halving (``Path/addCircle``).
///
/// Points closer than 1e-9 px to the previous one are dropped first; a contour that collapses to a
/// point draws a disc (round cap), a square (square cap) or nothing (butt).
public struct Stroker: Sendable {
    /// The joins, caps and flattening of a ``StrokeStyle``.
    struct Shape {
        var join: LineJoin
        var cap: LineCap
        var miterLimit: Double
        var tolerance: Double
        var roundLimit: Double
    }

    var clean: [ScreenPoint] = []
    /// Empty, or for each point of ``clean`` whether two contours were joined there.
    var joints: [Bool] = []
    var side: [ScreenPoint] = []
    var directions: [ScreenPoint] = []
    var lengths: [Double] = []
    /// Scratch for joining contours end to end (see ``stroke(_:style:into:)``): every contour's
    /// cleaned points, contour `c`'s at `pieces[pieceStart[c]..<pieceStart[c + 1]]`.
    var pieces: [ScreenPoint] = []
    var pieceStart: [Int] = []
    /// The end points of the open contours that can be joined, in code order.
    var ends: [ContourEnd] = []
    /// Scratch for ``pairEnds(contourCount:)``: per table slot, the index in ``ends`` of the first
    /// end at the slot's point (−1: empty) and the code of the end there waiting for a partner (−1: none).
    var slots: [(key: Int32, waiting: Int32)] = []
    /// By end code (``ContourEnd/code``): the code of the end it is joined to, or −1.
    var partner: [Int32] = []
    /// By contour: already stroked as part of a chain.
    var chained: [Bool] = []

    public init() {}

    /// Appends the outline of every contour of `path` stroked with `style` (dashes ignored: see
    /// ``Dasher``) to `outline`.
    ///
    /// With round caps and round joins, open contours that end at exactly the same point are
    /// stroked as one polyline, with a round join there instead of two round caps. Both strokes
    /// are the set of points within width/2 of the lines (the union of the parts), so the look
    /// is the same, with fewer edges: map data splits roads into many short ways that meet end to
    /// end. Which ends join is decided at each point from the ends that meet there alone (in
    /// contour order), and a join where contours meet keeps the offset points of both ends (the
    /// inner side goes through the point itself), so every edge farther than width/2 from that
    /// point is the edge of the contour stroked alone: leaving out a contour changes the outline
    /// only within its own reach, and band renderers that skip features outside their rows still
    /// draw the same pixels, to the fixed-point rounding of each edge.
    public mutating func stroke(_ path: Path, style strokeStyle: StrokeStyle, into outline: inout Path) {
        // The scalar part of the style: passing it by value retains nothing (StrokeStyle holds
        // the dash array, whose retain/release per join showed up in profiles).
        let style = Shape(join: strokeStyle.join, cap: strokeStyle.cap, miterLimit: strokeStyle.miterLimit,
                          tolerance: strokeStyle.tolerance, roundLimit: strokeStyle.roundLimit)
        let halfWidth = strokeStyle.width / 2
        guard halfWidth > 0, halfWidth.isFinite else { return }
        if style.cap == .round && style.join == .round && path.contours.count > 1 {
            strokeJoiningEnds(path, halfWidth, style, into: &outline)
            return
        }
        joints.removeAll(keepingCapacity: true)
        for contour in path.contours {
            clean.removeAll(keepingCapacity: true)
            Stroker.appendCleaned(path, contour, to: &clean)
            strokeClean(closed: contour.isClosed, halfWidth, style, into: &outline)
        }
    }

    /// Appends the finite points of `contour` to `out`, leaving out each point closer than
    /// 1e-9 px to the one kept before it.
    private static func appendCleaned(_ path: Path, _ contour: Path.Contour, to out: inout [ScreenPoint]) {
        var previous = ScreenPoint(x: .nan, y: .nan)
        var first = true
        for i in contour.start..<contour.end {
            let p = path.points[i]
            guard p.x.isFinite && p.y.isFinite else { continue }
            let dx = p.x - previous.x, dy = p.y - previous.y
            if first || dx * dx + dy * dy > 1e-18 { out.append(p); previous = p; first = false }
        }
    }

    /// Strokes the polyline in ``clean`` (a ring when `closed`).
    private mutating func strokeClean(closed: Bool, _ halfWidth: Double, _ style: Shape, into outline: inout Path) {
        if closed && clean.count > 1 {
            let f = clean[0], l = clean[clean.count - 1]
            if (f.x - l.x) * (f.x - l.x) + (f.y - l.y) * (f.y - l.y) <= 1e-18 {
                clean.removeLast()
                if !joints.isEmpty { joints.removeLast() }
            }
        }
        if clean.count == 1 {
            addDot(clean[0], halfWidth, style, into: &outline)
        } else if clean.count >= 2 {
            if closed {
                strokeClosed(halfWidth, style, into: &outline)
            } else {
                strokeOpen(halfWidth, style, into: &outline)
            }
        }
    }

    /// Strokes `path` with its open contours joined end to end into chains (or rings, when a
    /// chain comes back to where it started); see ``stroke(_:style:into:)``.
    private mutating func strokeJoiningEnds(_ path: Path, _ halfWidth: Double, _ style: Shape,
                                            into outline: inout Path) {
        let count = path.contours.count
        pieces.removeAll(keepingCapacity: true)
        pieceStart.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        for (c, contour) in path.contours.enumerated() {
            let start = pieces.count
            pieceStart.append(start)
            Stroker.appendCleaned(path, contour, to: &pieces)
            if !contour.isClosed && pieces.count - start >= 2 {
                let a = pieces[start], b = pieces[pieces.count - 1]
                ends.append(ContourEnd(x: a.x, y: a.y, code: Int32(2 * c)))
                ends.append(ContourEnd(x: b.x, y: b.y, code: Int32(2 * c + 1)))
            }
        }
        pieceStart.append(pieces.count)
        pairEnds(contourCount: count)
        chained.removeAll(keepingCapacity: true)
        chained.append(contentsOf: repeatElement(false, count: count))
        for c in 0..<count where !chained[c] {
            let contour = path.contours[c]
            let pieceCount = pieceStart[c + 1] - pieceStart[c]
            guard !contour.isClosed && pieceCount >= 2 else {
                clean.removeAll(keepingCapacity: true)
                joints.removeAll(keepingCapacity: true)
                clean.append(contentsOf: pieces[pieceStart[c]..<pieceStart[c + 1]])
                strokeClean(closed: contour.isClosed, halfWidth, style, into: &outline)
                continue
            }
            // Walk back to the chain's free end; coming back to c means a ring.
            var entry = Int32(2 * c)
            var isRing = false
            while true {
                let previous = partner[Int(entry)]
                if previous < 0 { break }
                entry = previous ^ 1
                if Int(entry >> 1) == c { isRing = true; break }
            }
            // Walk forward, appending each contour in the direction it is entered.
            clean.removeAll(keepingCapacity: true)
            joints.removeAll(keepingCapacity: true)
            let first = Int(entry >> 1)
            while true {
                let k = Int(entry >> 1)
                chained[k] = true
                appendPiece(k, reversed: entry & 1 == 1)
                let next = partner[Int(entry ^ 1)]
                if next < 0 || Int(next >> 1) == first { break }
                entry = next
            }
            if isRing { joints[0] = true }
            strokeClean(closed: isRing, halfWidth, style, into: &outline)
        }
    }

    /// Fills ``partner``: the ends in ``ends`` (in code order) that meet at each point are paired
    /// in contour order, 1st with 2nd, 3rd with 4th, …
    ///
    /// The ends are grouped by position with an open-addressing table (linear probing) instead
    /// of a sort: each end finds its point's slot, which holds the end still waiting for a partner.
    private mutating func pairEnds(contourCount: Int) {
        partner.removeAll(keepingCapacity: true)
        partner.append(contentsOf: repeatElement(-1, count: 2 * contourCount))
        var capacity = 16
        while capacity < 2 * ends.count { capacity <<= 1 }
        let mask = capacity - 1
        slots.removeAll(keepingCapacity: true)
        slots.append(contentsOf: repeatElement((key: -1, waiting: -1), count: capacity))
        for e in ends.indices {
            let end = ends[e]
            // + 0 turns −0 into +0, so that points that compare equal hash alike.
            let hx = (end.x + 0).bitPattern, hy = (end.y + 0).bitPattern
            var s = Int(truncatingIfNeeded: (((hx &* 0x9E37_79B9_7F4A_7C15) ^ hy) &* 0xC2B2_AE3D_27D4_EB4F) >> 32) & mask
            while true {
                let slot = slots[s]
                if slot.key < 0 {
                    slots[s] = (key: Int32(e), waiting: end.code)
                    break
                }
                let key = ends[Int(slot.key)]
                if key.x == end.x && key.y == end.y {
                    if slot.waiting < 0 {
                        slots[s].waiting = end.code
                    } else {
                        partner[Int(slot.waiting)] = end.code
                        partner[Int(end.code)] = slot.waiting
                        slots[s].waiting = -1
                    }
                    break
                }
                s = (s + 1) & mask
            }
        }
    }

    /// Appends contour `k`'s cleaned points to ``clean`` (backwards when `reversed`), without the
    /// first one when it repeats the last point already there, which becomes a joint.
    private mutating func appendPiece(_ k: Int, reversed: Bool) {
        let range = pieceStart[k]..<pieceStart[k + 1]
        let head = pieces[reversed ? range.upperBound - 1 : range.lowerBound]
        var skip = 0
        if let last = clean.last, (head.x - last.x) * (head.x - last.x) + (head.y - last.y) * (head.y - last.y) <= 1e-18 {
            skip = 1
            joints[joints.count - 1] = true
        }
        // Element by element: pieces hold a few points each, and the generic
        // `append(contentsOf:)` costs more per call than these loops.
        if reversed {
            for i in stride(from: range.upperBound - 1 - skip, through: range.lowerBound, by: -1) {
                clean.append(pieces[i]); joints.append(false)
            }
        } else {
            for i in (range.lowerBound + skip)..<range.upperBound { clean.append(pieces[i]); joints.append(false) }
        }
    }

    /// Whether point `i` of ``clean`` is a joint (see ``joints``).
    @inline(__always) private func isJoint(_ i: Int) -> Bool { !joints.isEmpty && joints[i] }

    private mutating func addDot(_ p: ScreenPoint, _ h: Double, _ style: Shape, into outline: inout Path) {
        switch style.cap {
        case .butt: return
        case .round: outline.addCircle(center: p, radius: h, tolerance: style.tolerance)
        case .square: outline.addRect(x: p.x - h, y: p.y - h, width: 2 * h, height: 2 * h)
        }
    }

    /// Unit direction from `a` to `b`, with the distance in `length`.
    @inline(__always)
    private func direction(_ a: ScreenPoint, _ b: ScreenPoint, _ length: inout Double) -> ScreenPoint {
        let dx = b.x - a.x, dy = b.y - a.y
        length = (dx * dx + dy * dy).squareRoot()
        let inverse = 1 / length
        return ScreenPoint(x: dx * inverse, y: dy * inverse)
    }

    /// Fills ``directions`` and ``lengths`` for the segments of ``clean``: segment i runs from
    /// point i to point i + 1 (mod the count when `closed`, which adds the closing segment).
    private mutating func measureSegments(closed: Bool) {
        let n = clean.count
        directions.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        var length = 0.0
        for i in 0..<(closed ? n : n - 1) {
            directions.append(direction(clean[i], clean[i + 1 == n ? 0 : i + 1], &length))
            lengths.append(length)
        }
    }

    private mutating func strokeOpen(_ h: Double, _ style: Shape, into outline: inout Path) {
        side.removeAll(keepingCapacity: true)
        let n = clean.count
        // The backward side reuses the segments' directions and lengths (negating is exact, so
        // the points are those of recomputing them).
        measureSegments(closed: false)
        let first = directions[0], last = directions[n - 2]
        // Left side, forward.
        side.append(offset(clean[0], first, h))
        for i in 1..<(n - 1) {
            appendJoin(clean[i], directions[i - 1], lengths[i - 1], directions[i], lengths[i], h, style,
                       joint: isJoint(i))
        }
        side.append(offset(clean[n - 1], last, h))
        appendCap(clean[n - 1], last, h, style)
        // Right side, backward: the left side of the reversed polyline.
        side.append(offset(clean[n - 1], negate(last), h))
        for i in stride(from: n - 2, to: 0, by: -1) {
            appendJoin(clean[i], negate(directions[i]), lengths[i], negate(directions[i - 1]), lengths[i - 1], h, style,
                       joint: isJoint(i))
        }
        side.append(offset(clean[0], negate(first), h))
        appendCap(clean[0], negate(first), h, style)
        outline.appendContour(side, closed: true)
    }

    private mutating func strokeClosed(_ h: Double, _ style: Shape, into outline: inout Path) {
        let n = clean.count
        measureSegments(closed: true)   // both sides reuse each segment's direction
        side.removeAll(keepingCapacity: true)
        for i in 0..<n {
            let previous = i == 0 ? n - 1 : i - 1
            appendJoin(clean[i], directions[previous], lengths[previous], directions[i], lengths[i], h, style,
                       joint: isJoint(i))
        }
        outline.appendContour(side, closed: true)
        side.removeAll(keepingCapacity: true)
        for i in stride(from: n - 1, through: 0, by: -1) {
            let previous = i == 0 ? n - 1 : i - 1
            appendJoin(clean[i], negate(directions[i]), lengths[i], negate(directions[previous]), lengths[previous],
                       h, style, joint: isJoint(i))
        }
        outline.appendContour(side, closed: true)
    }

    @inline(__always) private func negate(_ d: ScreenPoint) -> ScreenPoint { ScreenPoint(x: -d.x, y: -d.y) }

    /// `p` moved by `h` along the left normal of direction `d`: (−d.y, d.x).
    @inline(__always)
    private func offset(_ p: ScreenPoint, _ d: ScreenPoint, _ h: Double) -> ScreenPoint {
        ScreenPoint(x: p.x - h * d.y, y: p.y + h * d.x)
    }

    /// Appends the left-side outline at vertex `p` between unit directions `a` (in, over a segment
    /// of `lengthA` px) and `b` (out, over `lengthB` px). At a `joint` (where two contours were
    /// joined) the outline always passes through both offset points `offset(p, a)` and
    /// `offset(p, b)`, the last and first points of the two contours stroked alone.
    private mutating func appendJoin(_ p: ScreenPoint, _ a: ScreenPoint, _ lengthA: Double, _ b: ScreenPoint,
                                     _ lengthB: Double, _ h: Double, _ style: Shape, joint: Bool = false) {
        let cross = a.x * b.y - a.y * b.x
        let dot = a.x * b.x + a.y * b.y
        let na = ScreenPoint(x: -a.y, y: a.x), nb = ScreenPoint(x: -b.y, y: b.x)
        if cross > 1e-9 {
            // Turning towards the left: the left side is the inner side. The inner offset lines
            // meet h·tan(φ/2) = h·cross/(1 + dot) before and after the vertex; when that is within
            // half of both segments, the meeting point alone is the exact outline (no overlap).
            // Otherwise go through the vertex itself, which is right for any lengths. At a joint
            // the offset points stay, with the meeting point between them (zero-area spikes
            // along the offset lines).
            let s = 1 + dot
            if s > 1e-9 && h * cross <= 0.5 * s * min(lengthA, lengthB) {
                let k = h / s
                if joint { side.append(offset(p, a, h)) }
                side.append(ScreenPoint(x: p.x + k * (na.x + nb.x), y: p.y + k * (na.y + nb.y)))
                if joint { side.append(offset(p, b, h)) }
            } else {
                side.append(offset(p, a, h)); side.append(p); side.append(offset(p, b, h))
            }
            return
        }
        if cross >= -1e-9 && dot > 0 {
            if joint { side.append(offset(p, a, h)) }
            side.append(offset(p, b, h))   // straight on
            return
        }
        switch style.join {
        case .bevel:
            side.append(offset(p, a, h)); side.append(offset(p, b, h))
        case .miter:
            // The offset lines meet at p + h·(na + nb)/(1 + na·nb); the miter ratio is
            // 1/cos(φ/2) = √(2/(1 + na·nb)) for the angle φ between the normals.
            let s = 1 + (na.x * nb.x + na.y * nb.y)
            if s > 1e-12 && 2 <= style.miterLimit * style.miterLimit * s {
                let k = h / s
                side.append(ScreenPoint(x: p.x + k * (na.x + nb.x), y: p.y + k * (na.y + nb.y)))
            } else {
                side.append(offset(p, a, h)); side.append(offset(p, b, h))
            }
        case .round:
            let sum = ScreenPoint(x: na.x + nb.x, y: na.y + nb.y)
            if sum.x * sum.x + sum.y * sum.y < 1e-12 {
                side.append(offset(p, a, h))
                appendHalfTurn(p, from: na, through: a, to: nb, h, style.tolerance)
                side.append(offset(p, b, h))
                return
            }
            let cosine = na.x * nb.x + na.y * nb.y
            // `line-round-limit`: a shallow turn (miter ratio √(2/(1 + cos φ)) under the limit)
            // gets the miter point instead of the arc; at a joint both offset points stay.
            if style.roundLimit > 0 && 2 < style.roundLimit * style.roundLimit * (1 + cosine) {
                let k = h / (1 + cosine)
                if joint { side.append(offset(p, a, h)) }
                side.append(ScreenPoint(x: p.x + k * sum.x, y: p.y + k * sum.y))
                if joint { side.append(offset(p, b, h)) }
                return
            }
            let levels = CircleDirections.halvings(radius: h, tolerance: style.tolerance, cosine: cosine)
            // A gentle turn whose arc needs no inner point: its chord lies h·(1 − cos(φ/2)) inside
            // the arc, the miter point h·(1/cos(φ/2) − 1) outside it (1/cos(φ/2) = √(2/(1 + cos φ))).
            // Within the tolerance, the miter point alone is one outline point instead of two.
            // Not at a joint, which keeps both offset points (see stroke(_:style:into:)).
            let s = 1 + cosine
            if levels == 0 && !joint && h * ((2 / s).squareRoot() - 1) <= style.tolerance {
                let k = h / s
                side.append(ScreenPoint(x: p.x + k * sum.x, y: p.y + k * sum.y))
                return
            }
            side.append(offset(p, a, h))
            CircleDirections.appendHalvedArc(center: p, radius: h, from: na, to: nb, levels: levels, into: &side)
            side.append(offset(p, b, h))
        }
    }

    /// Appends the interior of a half-turn arc around `p` from `u` through `mid` to `v` (unit vectors).
    private mutating func appendHalfTurn(_ p: ScreenPoint, from u: ScreenPoint, through mid: ScreenPoint,
                                         to v: ScreenPoint, _ h: Double, _ tolerance: Double) {
        let levels = CircleDirections.halvings(radius: h, tolerance: tolerance, cosine: 0)
        CircleDirections.appendHalvedArc(center: p, radius: h, from: u, to: mid, levels: levels, into: &side)
        side.append(ScreenPoint(x: p.x + h * mid.x, y: p.y + h * mid.y))
        CircleDirections.appendHalvedArc(center: p, radius: h, from: mid, to: v, levels: levels, into: &side)
    }

    /// Appends the cap at end point `p` of a line arriving in direction `d`, between the left
    /// offset point (already appended) and the right one (appended by the caller).
    private mutating func appendCap(_ p: ScreenPoint, _ d: ScreenPoint, _ h: Double, _ style: Shape) {
        let n = ScreenPoint(x: -d.y, y: d.x)
        switch style.cap {
        case .butt:
            return
        case .square:
            side.append(ScreenPoint(x: p.x + h * (n.x + d.x), y: p.y + h * (n.y + d.y)))
            side.append(ScreenPoint(x: p.x + h * (d.x - n.x), y: p.y + h * (d.y - n.y)))
        case .round:
            appendHalfTurn(p, from: n, through: d, to: negate(n), h, style.tolerance)
        }
    }
}

/// One end point of an open contour, for joining contours end to end.
struct ContourEnd {
    var x: Double
    var y: Double
    /// 2 × contour index, + 1 for the contour's last point.
    var code: Int32
}
