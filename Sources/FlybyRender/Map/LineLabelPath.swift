import FlybyCore
import FlybyData

/// Where the labels of a `symbol-placement: line` or `line-center` layer go along one part (ring)
/// of a line feature, in unit Web Mercator (MapLibre Style Specification, `symbol-placement`,
/// `symbol-spacing`).
///
/// **Why world space.** An anchor is a point *of the line*, chosen from the line's geometry and a
/// spacing that depends only on the integer zoom level (below), never from where the line happens
/// to be on screen: while the camera turns, pans, pitches or zooms within a zoom level, every label
/// stays at the same place of its street and moves continuously with it.
///
/// **Spacing.** `symbol-spacing` is in pixels (Style Specification); as in tiled renderers it is
/// measured in pixels of the map at the integer zoom level at or below the camera's (the zoom of
/// the tiles), so between zoom 15 and 16 the labels of a street are 250 to 500 screen pixels apart
/// and their places do not move; at the next level they are measured again.
///
/// Restated from MapLibre's behaviour: the spacing is at least the label's length plus a quarter
/// of the spacing, so repeats keep some clear line between them; along a part the first anchor is
/// half the label's length plus two ems from the part's start (modulo the spacing) and the next ones
/// follow every spacing; an anchor needs half the label's length (at the camera's zoom) of line on
/// either side. A part
/// long enough for the label but with no such anchor gets one at its middle. With `line-center`
/// each part long enough has one anchor, at the middle of its length.
struct LineLabelAnchor: Equatable {
    /// The ring in the level and the index of the segment's first point (a point index of the ring).
    var ring: Int
    var segment: Int
    /// Where on the segment, 0…1.
    var t: Double
    /// The anchor, unit Mercator.
    var x: Double, y: Double

    /// Most anchors kept for one part in one frame (a bound on the work a tiny `symbol-spacing`
    /// can ask for; only anchors inside the visible ground are kept, so it is never reached by
    /// ordinary styles).
    static let maxAnchorsPerPart = 4096

    /// The part `t0…t1` (of 0…1) of the segment from (x, y) along (dx, dy) inside `box`, nil
    /// when it misses the box (Liang–Barsky clipping).
    static func clip(_ x: Double, _ y: Double, _ dx: Double, _ dy: Double, to box: MercatorBox) -> (Double, Double)? {
        var t0 = 0.0, t1 = 1.0
        // One axis: false when the segment runs beside the box (no array: this runs per segment).
        func axis(_ p: Double, _ d: Double, _ lo: Double, _ hi: Double) -> Bool {
            if d == 0 { return p >= lo && p <= hi }
            let ta = (lo - p) / d, tb = (hi - p) / d
            t0 = max(t0, min(ta, tb)); t1 = min(t1, max(ta, tb))
            return true
        }
        guard axis(x, dx, box.minX, box.maxX), axis(y, dy, box.minY, box.maxY) else { return nil }
        return t0 <= t1 ? (t0, t1) : nil
    }

    /// The anchors of feature `f`'s line parts that lie in `window` (the visible ground, unit
    /// Mercator). `spacing`, `labelLength` and `em` are in unit Mercator lengths (pixels ÷ pixels
    /// per unit at the layout zoom); `room` is the label's length at the camera's zoom (the line it
    /// needs on screen, so shorter between zoom levels: it decides only whether an anchor is kept,
    /// never where anchors are); `center` is `line-center`. Work: one pass over the part's points
    /// plus the anchors kept.
    static func anchors(_ level: GeometryLevel, feature f: Int, spacing: Double, labelLength: Double, room: Double, em: Double,
                        center: Bool, window: MercatorBox, into out: inout [LineLabelAnchor]) {
        out.removeAll(keepingCapacity: true)
        let xy = level.xy
        for r in level.rings(ofFeature: f) where level.ringFlags[r] & RingFlags.points == 0 {
            let range = level.points(ofRing: r)
            guard range.count >= 2 else { continue }
            var length = 0.0
            for k in range.lowerBound..<(range.upperBound - 1) {
                let dx = xy[2 * k + 2] - xy[2 * k], dy = xy[2 * k + 3] - xy[2 * k + 1]
                length += (dx * dx + dy * dy).squareRoot()
            }
            guard length > 0, length >= room, length.isFinite else { continue }
            let lo = room / 2, hi = length - room / 2
            var spaced = false
            if !center {
                let step = max(spacing, labelLength + spacing / 4)
                let offset = (labelLength / 2 + 2 * em).truncatingRemainder(dividingBy: step)
                // Is there an anchor anywhere on the part (seen or not)? Else it gets the middle one.
                let first = offset + max(0, ((lo - offset) / step).rounded(.up)) * step
                spaced = step > 0 && first <= hi
                if spaced {
                    // `tries` bounds the loop even where a step is lost in rounding.
                    var walked = 0.0, tries = 0, last = -1.0
                    for k in range.lowerBound..<(range.upperBound - 1) where tries < maxAnchorsPerPart {
                        let x0 = xy[2 * k], y0 = xy[2 * k + 1], dx = xy[2 * k + 2] - x0, dy = xy[2 * k + 3] - y0
                        let seg = (dx * dx + dy * dy).squareRoot()
                        defer { walked += seg }
                        guard seg > 0, let (t0, t1) = clip(x0, y0, dx, dy, to: window) else { continue }
                        let a = max(walked + t0 * seg, lo), b = min(walked + t1 * seg, hi)
                        guard a <= b else { continue }
                        var n = max(0, ((a - offset) / step).rounded(.up))
                        while tries < maxAnchorsPerPart {
                            let d = offset + n * step
                            guard d <= b else { break }
                            if d > last {
                                let t = min(1, max(0, (d - walked) / seg))
                                out.append(LineLabelAnchor(ring: r, segment: k, t: t, x: x0 + dx * t, y: y0 + dy * t))
                                last = d
                            }
                            n += 1
                            tries += 1
                        }
                    }
                }
            }
            if !spaced { append(at: length / 2) }

            func append(at target: Double) {
                var walked = 0.0
                for k in range.lowerBound..<(range.upperBound - 1) {
                    let dx = xy[2 * k + 2] - xy[2 * k], dy = xy[2 * k + 3] - xy[2 * k + 1]
                    let seg = (dx * dx + dy * dy).squareRoot()
                    if walked + seg >= target && seg > 0 {
                        let t = min(1, max(0, (target - walked) / seg))
                        out.append(LineLabelAnchor(ring: r, segment: k, t: t, x: xy[2 * k] + dx * t, y: xy[2 * k + 1] + dy * t))
                        return
                    }
                    walked += seg
                }
            }
        }
    }
}

/// A line part projected to the screen on both sides of a label's anchor, for laying the glyphs
/// of the label along it. Screen pixels, y down; angles in radians, clockwise on screen (the
/// direction of travel from the part's first point towards its last).
struct LineLabelPath {
    /// From the anchor forwards (towards the part's end) and backwards (towards its start), each
    /// starting at the anchor; with the distance walked at each point.
    var forward: [ScreenPoint] = [], forwardDistance: [Double] = []
    var backward: [ScreenPoint] = [], backwardDistance: [Double] = []

    /// Projects the points of `anchor`'s part around it until `reach` pixels each way (or the end
    /// of the part, or a point outside the depth strip, which ends that side). False when the
    /// anchor itself is not in front of the camera.
    mutating func build(_ level: GeometryLevel, _ anchor: LineLabelAnchor, h: Homography, near: Double, far: Double,
                        reach: Double) -> Bool {
        forward.removeAll(keepingCapacity: true); forwardDistance.removeAll(keepingCapacity: true)
        backward.removeAll(keepingCapacity: true); backwardDistance.removeAll(keepingCapacity: true)
        let w = h.depth(x: anchor.x, y: anchor.y)
        guard w >= near && w <= far else { return false }
        let a = h.project(anchor.x, anchor.y)
        let xy = level.xy
        walkBothWays(level, anchor, from: a, reach: reach) { k in
            let x = xy[2 * k], y = xy[2 * k + 1]
            let d = h.depth(x: x, y: y)
            return d >= near && d <= far ? h.project(x, y) : nil
        }
        return true
    }

    /// Fills ``forward`` and ``backward`` from `a` (the anchor's point): the points `point(k)` of
    /// the anchor's part after and before it, each kept when it is more than 1e-9 from the last
    /// one kept, with the distance walked, until `reach` or the part's end; a nil point ends that
    /// side.
    private mutating func walkBothWays(_ level: GeometryLevel, _ anchor: LineLabelAnchor, from a: ScreenPoint, reach: Double,
                                       _ point: (Int) -> ScreenPoint?) {
        let range = level.points(ofRing: anchor.ring)
        func walk(_ start: Int, _ step: Int, _ points: inout [ScreenPoint], _ distances: inout [Double]) {
            points.append(a); distances.append(0)
            var k = start, walked = 0.0, last = a
            while k >= range.lowerBound && k < range.upperBound && walked < reach {
                guard let p = point(k) else { return }
                let seg = ((p.x - last.x) * (p.x - last.x) + (p.y - last.y) * (p.y - last.y)).squareRoot()
                if seg > 1e-9 {
                    walked += seg
                    points.append(p); distances.append(walked)
                    last = p
                }
                k += step
            }
        }
        walk(anchor.segment + 1, 1, &forward, &forwardDistance)
        walk(anchor.segment, -1, &backward, &backwardDistance)
    }

    /// The length of path on each side of the anchor, pixels.
    var forwardLength: Double { forwardDistance.last ?? 0 }
    var backwardLength: Double { backwardDistance.last ?? 0 }

    /// The point `s` pixels along the path from the anchor (negative: backwards) and the direction
    /// of travel there; nil past either end.
    func point(at s: Double) -> (p: ScreenPoint, angle: Double)? {
        let forwards = s >= 0
        let points = forwards ? forward : backward, distances = forwards ? forwardDistance : backwardDistance
        let target = abs(s)
        guard points.count >= 2, target <= distances[distances.count - 1] else {
            // A zero-length label at the anchor: the direction of whichever side has a segment.
            guard s == 0 else { return nil }
            if forward.count >= 2 { return (forward[0], angleOf(forward[0], forward[1])) }
            if backward.count >= 2 { return (backward[0], angleOf(backward[1], backward[0])) }
            return nil
        }
        var i = 1
        while i < distances.count - 1 && distances[i] < target { i += 1 }
        let p0 = points[i - 1], p1 = points[i]
        let span = distances[i] - distances[i - 1]
        let u = span > 0 ? (target - distances[i - 1]) / span : 0
        let p = ScreenPoint(x: p0.x + (p1.x - p0.x) * u, y: p0.y + (p1.y - p0.y) * u)
        return (p, forwards ? angleOf(p0, p1) : angleOf(p1, p0))
    }

    /// The largest sum of turning angles (radians) at the path's points within any stretch of
    /// `window` pixels between `from` and `to` pixels along the path (negative: backwards).
    /// `text-max-angle` (Style Specification: "maximum angle change between adjacent characters")
    /// is compared with it: a label over a bend sharper than that is not placed.
    func largestTurn(from: Double, to: Double, window: Double) -> Double {
        // The path's inner points in order from the start side, with their turns.
        var turns: [(s: Double, turn: Double)] = []
        func add(_ points: [ScreenPoint], _ distances: [Double], sign: Double) {
            guard points.count >= 3 else { return }
            for i in 1..<(points.count - 1) {
                let s = sign * distances[i]
                guard s >= from && s <= to else { continue }
                let a0 = sign > 0 ? angleOf(points[i - 1], points[i]) : angleOf(points[i + 1], points[i])
                let a1 = sign > 0 ? angleOf(points[i], points[i + 1]) : angleOf(points[i], points[i - 1])
                turns.append((s, abs(Self.turn(from: a0, to: a1))))
            }
        }
        add(backward, backwardDistance, sign: -1)
        turns.reverse()
        // The anchor itself is a point of the line when it falls on a vertex.
        if forward.count >= 2 && backward.count >= 2 && from <= 0 && to >= 0 {
            turns.append((0, abs(Self.turn(from: angleOf(backward[1], backward[0]), to: angleOf(forward[0], forward[1])))))
        }
        add(forward, forwardDistance, sign: 1)
        var best = 0.0, sum = 0.0, first = 0
        for i in turns.indices {
            sum += turns[i].turn
            while turns[i].s - turns[first].s > window { sum -= turns[first].turn; first += 1 }
            best = max(best, sum)
        }
        return best
    }

    /// The turn from direction `a` to direction `b`, radians in −π…π.
    static func turn(from a: Double, to b: Double) -> Double {
        var d = b - a
        while d > Double.pi { d -= 2 * Double.pi }
        while d < -Double.pi { d += 2 * Double.pi }
        return d
    }

    private func angleOf(_ a: ScreenPoint, _ b: ScreenPoint) -> Double { mapAtan2(b.y - a.y, b.x - a.x) }
}

extension LineLabelPath {
    /// Like ``build(_:_:h:near:far:reach:)`` but on the ground: the part's points around the anchor
    /// in pixels of the map at the camera's centre distance (unit Mercator × `worldSize`, y south),
    /// relative to the anchor, until `reach` such pixels each way. Distances and angles are then
    /// those of the ground (for labels lying on it, ``GroundFrame``).
    mutating func buildOnGround(_ level: GeometryLevel, _ anchor: LineLabelAnchor, worldSize: Double, reach: Double) {
        forward.removeAll(keepingCapacity: true); forwardDistance.removeAll(keepingCapacity: true)
        backward.removeAll(keepingCapacity: true); backwardDistance.removeAll(keepingCapacity: true)
        let xy = level.xy
        walkBothWays(level, anchor, from: ScreenPoint(x: 0, y: 0), reach: reach) { k in
            ScreenPoint(x: (xy[2 * k] - anchor.x) * worldSize, y: (xy[2 * k + 1] - anchor.y) * worldSize)
        }
    }
}
