import FlybyCore

/// Moves every contour of a path sideways by a signed distance: the centre line of an offset
/// stroke (Style Specification, `line-offset`: "a positive value offsets the line to the right,
/// relative to the direction of the line"; for polygon rings, whose outer rings run clockwise on
/// a y-down screen, positive is an inset).
///
/// Distances are in pixels of the path's (screen, y down) space; the right normal of a unit
/// direction (dx, dy) is (−dy, dx). Each segment moves by the distance along its normal; at a
/// vertex the two moved segments are joined on the outer side of the turn by `join` (round: an
/// arc of radius |distance| around the vertex; miter: the meeting point while the miter ratio is
/// within `miterLimit`, else a bevel) and on the inner side cut where they meet when that point
/// lies within both segments, else through both moved end points (a small loop, covered by the
/// stroke drawn along it). Points closer than 1e-9 px to the previous one are dropped first.
public struct PathOffsetter: Sendable {
    var clean: [ScreenPoint] = []
    var directions: [ScreenPoint] = []
    var lengths: [Double] = []
    var moved: [ScreenPoint] = []

    public init() {}

    /// Appends every contour of `path` moved `distance` px to its right to `out`.
    public mutating func offset(_ path: Path, by distance: Double, join: LineJoin, miterLimit: Double, tolerance: Double,
                                into out: inout Path) {
        guard distance.isFinite else { return }
        for contour in path.contours {
            clean.removeAll(keepingCapacity: true)
            for i in contour.start..<contour.end {
                let p = path.points[i]
                guard p.x.isFinite && p.y.isFinite else { continue }
                if let l = clean.last, (p.x - l.x) * (p.x - l.x) + (p.y - l.y) * (p.y - l.y) <= 1e-18 { continue }
                clean.append(p)
            }
            var closed = contour.isClosed
            if closed, clean.count > 2, let f = clean.first, let l = clean.last,
               (f.x - l.x) * (f.x - l.x) + (f.y - l.y) * (f.y - l.y) <= 1e-18 { clean.removeLast() }
            if clean.count < 3 { closed = false }
            guard clean.count >= 2 else { continue }
            measure(closed: closed)
            moved.removeAll(keepingCapacity: true)
            let n = clean.count
            if closed {
                for i in 0..<n {
                    let previous = i == 0 ? n - 1 : i - 1
                    appendVertex(i, incoming: previous, outgoing: i, distance, join, miterLimit, tolerance)
                }
            } else {
                moved.append(Self.move(clean[0], directions[0], distance))
                for i in 1..<(n - 1) { appendVertex(i, incoming: i - 1, outgoing: i, distance, join, miterLimit, tolerance) }
                moved.append(Self.move(clean[n - 1], directions[n - 2], distance))
            }
            out.appendContour(moved, closed: closed)
        }
    }

    /// Unit directions and lengths of the segments of ``clean`` (one more, back to the start, when closed).
    private mutating func measure(closed: Bool) {
        directions.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        let n = clean.count
        for i in 0..<(closed ? n : n - 1) {
            let a = clean[i], b = clean[(i + 1) % n]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            directions.append(ScreenPoint(x: dx / length, y: dy / length))
            lengths.append(length)
        }
    }

    /// `p` moved `distance` along the right normal of unit direction `d`.
    @inline(__always)
    static func move(_ p: ScreenPoint, _ d: ScreenPoint, _ distance: Double) -> ScreenPoint {
        ScreenPoint(x: p.x - distance * d.y, y: p.y + distance * d.x)
    }

    /// Appends the moved points at vertex `i` between segments `incoming` and `outgoing`.
    private mutating func appendVertex(_ i: Int, incoming: Int, outgoing: Int, _ distance: Double, _ join: LineJoin,
                                       _ miterLimit: Double, _ tolerance: Double) {
        let p = clean[i], a = directions[incoming], b = directions[outgoing]
        let cross = a.x * b.y - a.y * b.x   // > 0: turning right (clockwise on a y-down screen)
        let dot = a.x * b.x + a.y * b.y
        if abs(cross) <= 1e-9 && dot > 0 {
            moved.append(Self.move(p, b, distance))  // straight on
            return
        }
        // Right normals of the two segments; the moved segments meet at p + d·(na + nb)/(1 + na·nb).
        let na = ScreenPoint(x: -a.y, y: a.x), nb = ScreenPoint(x: -b.y, y: b.x)
        let s = 1 + dot
        let inner = (cross > 0) == (distance > 0)
        if inner {
            // They meet |d|·tan(φ/2) = |d|·|cross|/(1 + dot) before and after the vertex.
            if s > 1e-9 && abs(distance) * abs(cross) <= s * min(lengths[incoming], lengths[outgoing]) {
                let k = distance / s
                moved.append(ScreenPoint(x: p.x + k * (na.x + nb.x), y: p.y + k * (na.y + nb.y)))
            } else {
                moved.append(Self.move(p, a, distance)); moved.append(Self.move(p, b, distance))
            }
            return
        }
        switch join {
        case .miter where s > 1e-12 && 2 <= miterLimit * miterLimit * s:
            let k = distance / s
            moved.append(ScreenPoint(x: p.x + k * (na.x + nb.x), y: p.y + k * (na.y + nb.y)))
        case .round:
            let r = abs(distance), sign = distance > 0 ? 1.0 : -1.0
            let u = ScreenPoint(x: sign * na.x, y: sign * na.y), v = ScreenPoint(x: sign * nb.x, y: sign * nb.y)
            moved.append(Self.move(p, a, distance))
            if s > 1e-9 {
                let levels = CircleDirections.halvings(radius: r, tolerance: tolerance, cosine: dot)
                CircleDirections.appendHalvedArc(center: p, radius: r, from: u, to: v, levels: max(levels, 1), into: &moved)
            } else {
                // A half turn: through the point straight ahead.
                moved.append(ScreenPoint(x: p.x + r * a.x, y: p.y + r * a.y))
            }
            moved.append(Self.move(p, b, distance))
        default:
            moved.append(Self.move(p, a, distance)); moved.append(Self.move(p, b, distance))
        }
    }
}
