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
    }

    var clean: [ScreenPoint] = []
    var side: [ScreenPoint] = []
    var directions: [ScreenPoint] = []
    var lengths: [Double] = []

    public init() {}

    /// Appends the outline of every contour of `path` stroked with `style` (dashes ignored: see
    /// ``Dasher``) to `outline`.
    public mutating func stroke(_ path: Path, style strokeStyle: StrokeStyle, into outline: inout Path) {
        // The scalar part of the style: passing it by value retains nothing (StrokeStyle holds
        // the dash array, whose retain/release per join showed up in profiles).
        let style = Shape(join: strokeStyle.join, cap: strokeStyle.cap, miterLimit: strokeStyle.miterLimit,
                          tolerance: strokeStyle.tolerance)
        let halfWidth = strokeStyle.width / 2
        guard halfWidth > 0, halfWidth.isFinite else { return }
        for contour in path.contours {
            clean.removeAll(keepingCapacity: true)
            var previous = ScreenPoint(x: .nan, y: .nan)
            for i in contour.start..<contour.end {
                let p = path.points[i]
                guard p.x.isFinite && p.y.isFinite else { continue }
                let dx = p.x - previous.x, dy = p.y - previous.y
                if clean.isEmpty || dx * dx + dy * dy > 1e-18 { clean.append(p); previous = p }
            }
            if contour.isClosed && clean.count > 1 {
                let f = clean[0], l = clean[clean.count - 1]
                if (f.x - l.x) * (f.x - l.x) + (f.y - l.y) * (f.y - l.y) <= 1e-18 { clean.removeLast() }
            }
            if clean.count == 1 {
                addDot(clean[0], halfWidth, style, into: &outline)
            } else if clean.count >= 2 {
                if contour.isClosed {
                    strokeClosed(halfWidth, style, into: &outline)
                } else {
                    strokeOpen(halfWidth, style, into: &outline)
                }
            }
        }
    }

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

    private mutating func strokeOpen(_ h: Double, _ style: Shape, into outline: inout Path) {
        side.removeAll(keepingCapacity: true)
        let n = clean.count
        var firstLength = 0.0, lastLength = 0.0
        let first = direction(clean[0], clean[1], &firstLength)
        let last = direction(clean[n - 2], clean[n - 1], &lastLength)
        // Left side, forward.
        side.append(offset(clean[0], first, h))
        var incoming = first, incomingLength = firstLength, outgoingLength = 0.0
        for i in 1..<(n - 1) {
            let outgoing = direction(clean[i], clean[i + 1], &outgoingLength)
            appendJoin(clean[i], incoming, incomingLength, outgoing, outgoingLength, h, style)
            incoming = outgoing; incomingLength = outgoingLength
        }
        side.append(offset(clean[n - 1], last, h))
        appendCap(clean[n - 1], last, h, style)
        // Right side, backward: the left side of the reversed polyline.
        side.append(offset(clean[n - 1], negate(last), h))
        incoming = negate(last); incomingLength = lastLength
        for i in stride(from: n - 2, to: 0, by: -1) {
            let outgoing = negate(direction(clean[i - 1], clean[i], &outgoingLength))
            appendJoin(clean[i], incoming, incomingLength, outgoing, outgoingLength, h, style)
            incoming = outgoing; incomingLength = outgoingLength
        }
        side.append(offset(clean[0], negate(first), h))
        appendCap(clean[0], negate(first), h, style)
        outline.appendContour(side, closed: true)
    }

    private mutating func strokeClosed(_ h: Double, _ style: Shape, into outline: inout Path) {
        let n = clean.count
        // Segment i runs from point i to point i + 1 (mod n); both sides reuse its direction.
        directions.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        var length = 0.0
        for i in 0..<n {
            directions.append(direction(clean[i], clean[i + 1 == n ? 0 : i + 1], &length))
            lengths.append(length)
        }
        side.removeAll(keepingCapacity: true)
        for i in 0..<n {
            let previous = i == 0 ? n - 1 : i - 1
            appendJoin(clean[i], directions[previous], lengths[previous], directions[i], lengths[i], h, style)
        }
        outline.appendContour(side, closed: true)
        side.removeAll(keepingCapacity: true)
        for i in stride(from: n - 1, through: 0, by: -1) {
            let previous = i == 0 ? n - 1 : i - 1
            appendJoin(clean[i], negate(directions[i]), lengths[i], negate(directions[previous]), lengths[previous],
                       h, style)
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
    /// of `lengthA` px) and `b` (out, over `lengthB` px).
    private mutating func appendJoin(_ p: ScreenPoint, _ a: ScreenPoint, _ lengthA: Double, _ b: ScreenPoint,
                                     _ lengthB: Double, _ h: Double, _ style: Shape) {
        let cross = a.x * b.y - a.y * b.x
        let dot = a.x * b.x + a.y * b.y
        let na = ScreenPoint(x: -a.y, y: a.x), nb = ScreenPoint(x: -b.y, y: b.x)
        if cross > 1e-9 {
            // Turning towards the left: the left side is the inner side. The inner offset lines
            // meet h·tan(φ/2) = h·cross/(1 + dot) before and after the vertex; when that is within
            // half of both segments, the meeting point alone is the exact outline (no overlap).
            // Otherwise go through the vertex itself, which is right for any lengths.
            let s = 1 + dot
            if s > 1e-9 && h * cross <= 0.5 * s * min(lengthA, lengthB) {
                let k = h / s
                side.append(ScreenPoint(x: p.x + k * (na.x + nb.x), y: p.y + k * (na.y + nb.y)))
            } else {
                side.append(offset(p, a, h)); side.append(p); side.append(offset(p, b, h))
            }
            return
        }
        if cross >= -1e-9 && dot > 0 {
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
            side.append(offset(p, a, h))
            let sum = ScreenPoint(x: na.x + nb.x, y: na.y + nb.y)
            if sum.x * sum.x + sum.y * sum.y < 1e-12 {
                appendHalfTurn(p, from: na, through: a, to: nb, h, style.tolerance)
            } else {
                let levels = CircleDirections.halvings(radius: h, tolerance: style.tolerance,
                                                       cosine: na.x * nb.x + na.y * nb.y)
                CircleDirections.appendHalvedArc(center: p, radius: h, from: na, to: nb, levels: levels, into: &side)
            }
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
