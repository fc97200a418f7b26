import FlybyCore

/// Contours of straight segments in pixel space (origin top-left, y down, pixel centres at +0.5).
///
/// A path is a list of contours; each contour is a run of points in ``points``. For filling,
/// every contour is closed implicitly (a polygon ring; holes are just more contours, with the fill
/// rule deciding what is inside). For stroking, ``Contour/isClosed`` says whether the last point
/// joins back to the first. Storage is two flat arrays, so a path can be rebuilt every frame with
/// ``removeAll()`` without allocating once it has grown.
public struct Path: Sendable {
    /// One contour: the points `points[start..<end]`.
    public struct Contour: Hashable, Sendable {
        public var start: Int
        public var end: Int
        /// Whether a stroke joins the last point back to the first (fills always close).
        public var isClosed: Bool
        public var count: Int { end - start }
    }

    public internal(set) var points: [ScreenPoint] = []
    public internal(set) var contours: [Contour] = []

    public init() {}

    /// A path of closed polygon rings (the first ring of a polygon and its holes, or several polygons).
    public init(rings: [[ScreenPoint]]) {
        for ring in rings { addPolygon(ring) }
    }

    public var isEmpty: Bool { contours.isEmpty }

    /// Removes every contour, keeping the storage for reuse.
    public mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        contours.removeAll(keepingCapacity: true)
    }

    /// Starts a new open contour at `p`.
    public mutating func move(to p: ScreenPoint) {
        contours.append(Contour(start: points.count, end: points.count + 1, isClosed: false))
        points.append(p)
    }

    /// Adds a straight segment from the current point to `p` (starts a contour if there is none).
    public mutating func line(to p: ScreenPoint) {
        guard !contours.isEmpty else { move(to: p); return }
        points.append(p)
        contours[contours.count - 1].end = points.count
    }

    /// Marks the current contour closed (for strokes: the last point joins the first).
    public mutating func close() {
        guard !contours.isEmpty else { return }
        contours[contours.count - 1].isClosed = true
    }

    /// Adds a closed contour through `ring` (a repeated closing point is harmless).
    public mutating func addPolygon(_ ring: [ScreenPoint]) {
        guard let first = ring.first else { return }
        move(to: first)
        for p in ring.dropFirst() { line(to: p) }
        close()
    }

    /// Adds an open (or, with `closed`, a closed) polyline through `points`.
    public mutating func addPolyline(_ line: [ScreenPoint], closed: Bool = false) {
        guard let first = line.first else { return }
        move(to: first)
        for p in line.dropFirst() { self.line(to: p) }
        if closed { close() }
    }

    /// Adds the axis-aligned rectangle `[x, x+width] × [y, y+height]` as a closed contour.
    public mutating func addRect(x: Double, y: Double, width: Double, height: Double) {
        move(to: ScreenPoint(x: x, y: y))
        line(to: ScreenPoint(x: x + width, y: y))
        line(to: ScreenPoint(x: x + width, y: y + height))
        line(to: ScreenPoint(x: x, y: y + height))
        close()
    }

    /// Adds a circle as a closed regular polygon of at least 8 vertices (4·2^k) whose chords stay
    /// within `tolerance` pixels of the circle.
    ///
    /// The vertices sit at radius `r·√(θ / sin θ)` (θ = 2π/n, the angle per side), slightly outside
    /// the circle, so the polygon has exactly the circle's area πr² (an inscribed polygon would
    /// look a little light). They come from repeated halving of arcs (bisector = normalised sum of
    /// the two end directions), so no trigonometry is needed and every platform gets the same points.
    public mutating func addCircle(center: ScreenPoint, radius: Double, tolerance: Double = 0.1) {
        guard radius > 0, radius.isFinite, center.x.isFinite, center.y.isFinite else { return }
        let k = max(1, CircleDirections.halvings(radius: radius, tolerance: tolerance, cosine: 0))
        var cosHalfStep = (0.5).squareRoot()   // cos(π/4): half of a quarter turn
        for _ in 0..<k { cosHalfStep = ((1 + cosHalfStep) / 2).squareRoot() }
        let theta = 2 * Double.pi / Double(4 << k)
        let sinTheta = 2 * cosHalfStep * (1 - cosHalfStep * cosHalfStep).squareRoot()
        let r = radius * (theta / sinTheta).squareRoot()
        // Written straight into `points` (no temporary arrays: circles are drawn per frame).
        let start = points.count
        var axis = ScreenPoint(x: 1, y: 0)
        for _ in 0..<4 {
            let next = ScreenPoint(x: -axis.y, y: axis.x)   // a quarter turn towards +y
            points.append(ScreenPoint(x: center.x + r * axis.x, y: center.y + r * axis.y))
            CircleDirections.appendHalvedArc(center: center, radius: r, from: axis, to: next, levels: k, into: &points)
            axis = next
        }
        contours.append(Contour(start: start, end: points.count, isClosed: true))
    }

    /// Starts an empty contour; follow with ``appendPoint(_:)`` and ``endContour(closed:)``.
    /// The bulk form of ``move(to:)``/``line(to:)`` for renderers that emit many points.
    public mutating func beginContour() {
        contours.append(Contour(start: points.count, end: points.count, isClosed: false))
    }

    /// Appends a point to the contour opened by ``beginContour()`` (its end is set by ``endContour(closed:)``).
    public mutating func appendPoint(_ p: ScreenPoint) { points.append(p) }

    /// Finishes the contour opened by ``beginContour()``; one with fewer than `minimumCount`
    /// points is removed again (with its points).
    public mutating func endContour(closed: Bool, minimumCount: Int = 2) {
        guard let last = contours.last else { return }
        if points.count - last.start < minimumCount {
            points.removeSubrange(last.start..<points.count)
            contours.removeLast()
            return
        }
        contours[contours.count - 1].end = points.count
        contours[contours.count - 1].isClosed = closed
    }

    /// The number of points in the open (last) contour so far.
    public var openContourCount: Int { points.count - (contours.last?.start ?? points.count) }

    /// Appends `ring` as one contour (closed or open) in one step.
    mutating func appendContour(_ ring: [ScreenPoint], closed: Bool) {
        guard !ring.isEmpty else { return }
        contours.append(Contour(start: points.count, end: points.count + ring.count, isClosed: closed))
        points.append(contentsOf: ring)
    }

    /// Reverses the closed contours from index `first` on where needed so that each runs clockwise on
    /// a y-down screen (`clockwise`, shoelace area > 0) or counter-clockwise.
    mutating func orientContours(from first: Int, clockwise: Bool) {
        guard first < contours.count else { return }
        for c in contours[first...] where c.isClosed && c.count >= 3 {
            var area = 0.0
            var previous = points[c.end - 1]
            for k in c.start..<c.end {
                let p = points[k]
                area += previous.x * p.y - p.x * previous.y
                previous = p
            }
            if (area > 0) != clockwise { points[c.start..<c.end].reverse() }
        }
    }

    /// Appends every contour of `other`.
    public mutating func append(_ other: Path) {
        let offset = points.count
        points.append(contentsOf: other.points)
        for c in other.contours {
            contours.append(Contour(start: c.start + offset, end: c.end + offset, isClosed: c.isClosed))
        }
    }

    /// The smallest box holding every finite point, or nil when there is none.
    public var finiteBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        finiteBoundsAndFiniteness?.bounds
    }

    /// ``finiteBounds`` and whether every point is finite, in one pass.
    public var finiteBoundsAndFiniteness: (bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double), allFinite: Bool)? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        // The usual case first, without a branch per point: `x · 0` is 0 for a finite x and NaN
        // for an infinite or NaN one, so the sum stays 0 exactly when every point is finite
        // (and then the plain bounds are the finite bounds).
        var poison = 0.0
        points.withUnsafeBufferPointer { points in
            for p in points {
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
                poison += p.x * 0 + p.y * 0
            }
        }
        if poison == 0 {
            guard minX <= maxX else { return nil }
            return (bounds: (minX: minX, minY: minY, maxX: maxX, maxY: maxY), allFinite: true)
        }
        minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
        var finite = 0
        points.withUnsafeBufferPointer { points in
            for p in points where p.x.isFinite && p.y.isFinite {
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
                finite &+= 1
            }
        }
        guard minX <= maxX else { return nil }
        return (bounds: (minX: minX, minY: minY, maxX: maxX, maxY: maxY), allFinite: finite == points.count)
    }

    /// The smallest box holding every point, or nil for an empty path.
    public var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        guard let first = points.first else { return nil }
        var b = (minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        for p in points {
            b.minX = min(b.minX, p.x); b.maxX = max(b.maxX, p.x)
            b.minY = min(b.minY, p.y); b.maxY = max(b.maxY, p.y)
        }
        return b
    }
}

/// Unit direction vectors for flattening circles and arcs without trigonometry.
///
/// An arc is split by repeated halving: the bisector of directions `u` and `v` is `(u + v) / |u + v|`.
/// Halving stops when the sagitta `r·(1 − cos(φ/2))` of a segment of angle φ is within the
/// tolerance; `cos(φ/2)` follows from the half-angle formula `cos(α/2) = √((1 + cos α) / 2)`.
enum CircleDirections {
    /// Halvings needed for an arc whose directions have dot product `cosine` (angle < half turn).
    static func halvings(radius: Double, tolerance: Double, cosine: Double) -> Int {
        let tol = max(tolerance, 1e-3)
        var cosHalf = ((1 + min(1, max(-1, cosine))) / 2).squareRoot()
        var k = 0
        while radius * (1 - cosHalf) > tol && k < 10 {
            cosHalf = ((1 + cosHalf) / 2).squareRoot()
            k += 1
        }
        return k
    }

    /// Appends `center + radius · m` for the interior directions `m` of the arc from unit vector `u`
    /// to unit vector `v` (less than a half turn), halved `levels` times: `2^levels − 1` points.
    static func appendHalvedArc(center: ScreenPoint = ScreenPoint(x: 0, y: 0), radius: Double = 1,
                                from u: ScreenPoint, to v: ScreenPoint, levels: Int, into out: inout [ScreenPoint]) {
        guard levels > 0 else { return }
        var m = ScreenPoint(x: u.x + v.x, y: u.y + v.y)
        let len = (m.x * m.x + m.y * m.y).squareRoot()
        guard len > 1e-12 else { return }
        m.x /= len; m.y /= len
        appendHalvedArc(center: center, radius: radius, from: u, to: m, levels: levels - 1, into: &out)
        out.append(ScreenPoint(x: center.x + radius * m.x, y: center.y + radius * m.y))
        appendHalvedArc(center: center, radius: radius, from: m, to: v, levels: levels - 1, into: &out)
    }
}
