import FlybyCore

/// Features projected once to Web Mercator unit coordinates, stored flat, with per-feature
/// bounding boxes, a spatial index and precomputed simplification levels: what the renderer
/// walks every frame.
///
/// Coordinates: x east, y south, the world is 0…1 (see ``WebMercator/unitX(longitude:)`` and
/// ``WebMercator/unitY(latitude:)``); at zoom z one unit is 512·2^z screen pixels. Longitudes beyond
/// ±180° project outside 0…1; the renderer draws the world copies by shifting its query box by
/// whole units (``MercatorBox/shifted(byWorlds:)``).
///
/// **Simplification.** Douglas–Peucker (Douglas and Peucker, "Algorithms for the reduction of the
/// number of points required to represent a digitized line or its caricature", The Canadian
/// Cartographer 10(2), 1973) is run once per ring to give each vertex its effective tolerance
/// (the largest tolerance at which DP still keeps it, made monotone down the recursion). A level
/// then keeps the vertices whose tolerance exceeds ½ px at its zoom: levels exist at zooms
/// 0, 2, 4, … and a zoom z uses the first level at or above z, so the error on screen is at most
/// ½ px. The last level is the full-resolution geometry.
///
/// **Shared borders.** Vertices where three or more edges meet (or where two rings part ways) are
/// junctions of the planar graph of all rings; they are always kept, and DP runs between
/// consecutive junctions. Two neighbours therefore simplify a shared border between the same
/// fixed ends with the same distances, and get the same vertices back (up to exact ties in
/// distance, which may resolve differently in the two directions).
///
/// **Fillable rings.** A polygon ring keeps at least 3 vertices; one whose extent is below the
/// level's tolerance is dropped at that level instead (it would cover under a pixel). Polygon
/// rings are stored open (the closing vertex is not repeated); lines keep both end points.
public struct ProjectedSource: Sendable {
    /// The dimension of a feature's geometry, as the style's `geometry-type` sees it.
    public enum Kind: UInt8, Sendable {
        case point, line, polygon
    }

    /// The source features (properties, ids and the original geometry in degrees).
    public let features: [Feature]
    /// The kind of each feature (the highest dimension in a geometry collection).
    public let kinds: [Kind]
    /// The bounding box of each feature in unit coordinates (empty for an empty geometry).
    public let bounds: [MercatorBox]
    /// Simplification levels, coarse to fine; the last one is the full resolution.
    public let levels: [GeometryLevel]
    let index: PackedRTree

    /// Zoom levels at which a simplified level is made (tolerance ½ px at that zoom).
    public static let levelZooms: [Double] = [0, 2, 4, 6, 8, 10, 12, 14]
    /// Tolerance of a level in screen pixels.
    public static let tolerancePixels = 0.5

    /// Projects, indexes and simplifies `collection`.
    /// - Complexity: O(n log n) in the number of vertices.
    public init(_ collection: FeatureCollection) {
        features = collection.features
        var builder = ProjectionBuilder()
        var kinds: [Kind] = []
        var bounds: [MercatorBox] = []
        kinds.reserveCapacity(features.count)
        bounds.reserveCapacity(features.count)
        for f in features {
            let startRing = builder.ringFlags.count
            builder.add(f.geometry)
            builder.featureRingStart.append(Int32(builder.ringFlags.count))
            var b = MercatorBox.empty
            var kind = Kind.point
            for r in startRing..<builder.ringFlags.count {
                let flags = builder.ringFlags[r]
                if flags & RingFlags.polygon != 0 { kind = .polygon } else if flags & RingFlags.line != 0, kind == .point { kind = .line }
                for k in Int(builder.ringStart[r])..<Int(builder.ringStart[r + 1]) {
                    b.include(x: builder.xy[2 * k], y: builder.xy[2 * k + 1])
                }
            }
            kinds.append(kind)
            bounds.append(b)
        }
        self.kinds = kinds
        self.bounds = bounds
        index = PackedRTree(boxes: bounds)
        let importance = builder.importance()
        var levels: [GeometryLevel] = []
        let full = GeometryLevel(zoom: .infinity, tolerance: 0, xy: builder.xy, ringStart: builder.ringStart,
                                 ringFlags: builder.ringFlags, featureRingStart: builder.featureRingStart)
        for z in ProjectedSource.levelZooms {
            let tolerance = ProjectedSource.tolerancePixels / (WebMercator.tileSize * pow2(z))
            let level = builder.level(zoom: z, tolerance: tolerance, importance: importance)
            // A level that keeps nearly everything is not worth its memory: use the full one.
            if level.pointCount * 10 >= full.pointCount * 9 { break }
            levels.append(level)
        }
        levels.append(full)
        self.levels = levels
    }

    /// Features whose geometry is already in unit Mercator and already simplified for the zoom it
    /// is drawn at (the features of vector tiles): no reprojection and no simplification levels,
    /// only the bounding boxes and the spatial index. The arrays are laid out as in
    /// ``GeometryLevel``; `features[f].geometry` is not read by the renderer.
    /// - Precondition: `kinds.count == features.count`, `featureRingStart.count == features.count + 1`,
    ///   `ringStart.count == ringFlags.count + 1`, and the tables end at the counts of what they index.
    public init(projected features: [Feature], kinds: [Kind], xy: [Double], ringStart: [Int32], ringFlags: [UInt8],
                featureRingStart: [Int32]) {
        precondition(kinds.count == features.count && featureRingStart.count == features.count + 1
                     && ringStart.count == ringFlags.count + 1 && Int(ringStart.last ?? 0) * 2 == xy.count
                     && Int(featureRingStart.last ?? 0) == ringFlags.count, "inconsistent projected geometry tables")
        self.features = features
        self.kinds = kinds
        var bounds: [MercatorBox] = []
        bounds.reserveCapacity(features.count)
        for f in 0..<features.count {
            var b = MercatorBox.empty
            for r in Int(featureRingStart[f])..<Int(featureRingStart[f + 1]) {
                for k in Int(ringStart[r])..<Int(ringStart[r + 1]) { b.include(x: xy[2 * k], y: xy[2 * k + 1]) }
            }
            bounds.append(b)
        }
        self.bounds = bounds
        index = PackedRTree(boxes: bounds)
        levels = [GeometryLevel(zoom: .infinity, tolerance: 0, xy: xy, ringStart: ringStart, ringFlags: ringFlags,
                                featureRingStart: featureRingStart)]
    }

    /// The level to draw at `zoom`: the coarsest whose tolerance is at most ½ px at that zoom.
    public func level(forZoom zoom: Double) -> GeometryLevel {
        for l in levels where zoom <= l.zoom { return l }
        return levels[levels.count - 1]
    }

    /// Index of ``level(forZoom:)`` in ``levels``.
    public func levelIndex(forZoom zoom: Double) -> Int {
        for (k, l) in levels.enumerated() where zoom <= l.zoom { return k }
        return levels.count - 1
    }

    /// Appends the indices of the features whose bounding box intersects `box` (unit Mercator)
    /// and that keep at least one ring at `zoom`'s level, in ascending (document) order.
    /// Does not clear `out`; allocates only when `out` must grow.
    public func query(_ box: MercatorBox, zoom: Double, into out: inout [Int32]) {
        let first = out.count
        index.search(box, into: &out)
        let level = level(forZoom: zoom)
        var w = first
        for r in first..<out.count {
            let f = Int(out[r])
            if level.featureRingStart[f + 1] > level.featureRingStart[f] { out[w] = out[r]; w += 1 }
        }
        out.removeSubrange(w..<out.count)
    }

    /// Appends the indices of the features whose bounding box intersects `box`, ascending.
    public func query(_ box: MercatorBox, into out: inout [Int32]) {
        index.search(box, into: &out)
    }

    /// Total vertex count of the full-resolution geometry.
    public var vertexCount: Int { levels[levels.count - 1].pointCount }
}

/// Flags of a ring in a ``GeometryLevel``.
public enum RingFlags {
    /// The ring belongs to a polygon (else a line or points).
    public static let polygon: UInt8 = 1
    /// The ring is the exterior ring of its polygon (the holes that follow belong to it).
    public static let exterior: UInt8 = 2
    /// The ring is a line string.
    public static let line: UInt8 = 4
    /// The "ring" is a list of points (a Point or MultiPoint).
    public static let points: UInt8 = 8
    /// An open piece of a polygon's outline, drawn only where the polygon is drawn as lines (a
    /// line layer or a fill outline); fills never see it. Tiles use it for polygons cut at the
    /// tile edge, whose cut is not part of the outline.
    public static let outline: UInt8 = 16
    /// A polygon ring whose outline is given by ``outline`` rings instead of the ring itself.
    public static let outlinedApart: UInt8 = 32
}

/// One simplification level of a ``ProjectedSource``: every feature's rings as flat arrays.
///
/// Feature f owns rings `featureRingStart[f] ..< featureRingStart[f + 1]`; ring r owns points
/// `ringStart[r] ..< ringStart[r + 1]`; point k is at (`xy[2k]`, `xy[2k + 1]`) in unit Mercator.
public struct GeometryLevel: Sendable {
    /// The highest zoom this level serves (∞ for full resolution).
    public let zoom: Double
    /// The simplification tolerance in unit Mercator coordinates (0 for full resolution).
    public let tolerance: Double
    public let xy: [Double]
    public let ringStart: [Int32]
    /// ``RingFlags`` bits of each ring.
    public let ringFlags: [UInt8]
    public let featureRingStart: [Int32]

    public var pointCount: Int { xy.count / 2 }
    public var ringCount: Int { ringFlags.count }

    @inlinable public func rings(ofFeature f: Int) -> Range<Int> { Int(featureRingStart[f])..<Int(featureRingStart[f + 1]) }
    @inlinable public func points(ofRing r: Int) -> Range<Int> { Int(ringStart[r])..<Int(ringStart[r + 1]) }

    /// The point ranges of the rings that draw feature `f` as lines (its line strings, polygon
    /// rings and outline pieces, without points and without the rings ``RingFlags/outlinedApart``
    /// stands in for), each with at least two points, and whether it closes (a polygon ring).
    @inlinable public func forEachLineRing(ofFeature f: Int, _ body: (_ points: Range<Int>, _ closed: Bool) -> Void) {
        for r in rings(ofFeature: f) {
            let flags = ringFlags[r]
            if flags & RingFlags.points != 0 || flags & RingFlags.outlinedApart != 0 { continue }
            let points = points(ofRing: r)
            if points.count >= 2 { body(points, flags & RingFlags.polygon != 0) }
        }
    }

    /// True when feature `f` has polygon rings outlined apart (``RingFlags/outlinedApart``).
    @inlinable public func hasOutlinePieces(feature f: Int) -> Bool {
        rings(ofFeature: f).contains { ringFlags[$0] & RingFlags.outlinedApart != 0 }
    }
}

/// 2^z for a whole, non-negative z (the level zooms).
func pow2(_ z: Double) -> Double { Double(sign: .plus, exponent: Int(z), significand: 1) }

/// Builds the full-resolution flat arrays, then the levels.
struct ProjectionBuilder {
    var xy: [Double] = []
    var ringStart: [Int32] = [0]
    var ringFlags: [UInt8] = []
    var featureRingStart: [Int32] = [0]

    mutating func add(_ g: Geometry) {
        switch g {
        case .point(let c): addRing([c], flags: RingFlags.points, closed: false)
        case .multiPoint(let cs): if !cs.isEmpty { addRing(cs, flags: RingFlags.points, closed: false) }
        case .lineString(let cs): addRing(cs, flags: RingFlags.line, closed: false)
        case .multiLineString(let ls): for l in ls { addRing(l, flags: RingFlags.line, closed: false) }
        case .polygon(let rings): addPolygon(rings)
        case .multiPolygon(let polys): for p in polys { addPolygon(p) }
        case .geometryCollection(let gs): for g in gs { add(g) }
        }
    }

    mutating func addPolygon(_ rings: [[LocationCoordinate2D]]) {
        for (k, r) in rings.enumerated() {
            addRing(r, flags: RingFlags.polygon | (k == 0 ? RingFlags.exterior : 0), closed: true)
        }
    }

    mutating func addRing(_ cs: [LocationCoordinate2D], flags: UInt8, closed: Bool) {
        var n = cs.count
        if closed, n > 1, cs[0] == cs[n - 1] { n -= 1 }
        // Consecutive duplicates add nothing to a path; drop them (after projection, so clamped
        // polar vertices that become equal go too).
        var lastX = Double.nan, lastY = Double.nan
        let start = xy.count / 2
        for k in 0..<n {
            let x = WebMercator.unitX(longitude: cs[k].longitude), y = WebMercator.unitY(latitude: cs[k].latitude)
            if x == lastX && y == lastY && flags & RingFlags.points == 0 { continue }
            xy.append(x); xy.append(y)
            lastX = x; lastY = y
        }
        if closed, xy.count / 2 - start > 1, xy[2 * start] == lastX, xy[2 * start + 1] == lastY {
            xy.removeLast(2)
        }
        ringStart.append(Int32(xy.count / 2))
        ringFlags.append(flags)
    }

    struct VertexKey: Hashable {
        var x: UInt64
        var y: UInt64
    }

    /// The effective Douglas–Peucker tolerance of every vertex (unit Mercator); `.infinity` for
    /// vertices that every level keeps (junctions, line ends, the anchors of a ring).
    func importance() -> [Double] {
        let pointCount = xy.count / 2
        var result = [Double](repeating: .infinity, count: pointCount)
        // 1. Junctions: number the distinct vertices of line and polygon rings, and record up to
        //    two distinct neighbours of each; a third neighbour makes it a junction.
        var ids = [Int32](repeating: -1, count: pointCount)
        var table: [VertexKey: Int32] = [:]
        table.reserveCapacity(pointCount)
        for r in 0..<ringFlags.count where ringFlags[r] & RingFlags.points == 0 {
            for k in Int(ringStart[r])..<Int(ringStart[r + 1]) {
                let key = VertexKey(x: xy[2 * k].bitPattern, y: xy[2 * k + 1].bitPattern)
                if let id = table[key] { ids[k] = id } else {
                    let id = Int32(table.count)
                    table[key] = id
                    ids[k] = id
                }
            }
        }
        var n1 = [Int32](repeating: -1, count: table.count)
        var n2 = [Int32](repeating: -1, count: table.count)
        var junction = [Bool](repeating: false, count: table.count)
        func addNeighbour(_ v: Int32, _ w: Int32) {
            let i = Int(v)
            if n1[i] == w || n2[i] == w { return }
            if n1[i] < 0 { n1[i] = w } else if n2[i] < 0 { n2[i] = w } else { junction[i] = true }
        }
        for r in 0..<ringFlags.count where ringFlags[r] & RingFlags.points == 0 {
            let s = Int(ringStart[r]), e = Int(ringStart[r + 1])
            let n = e - s
            guard n >= 2 else { continue }
            let closed = ringFlags[r] & RingFlags.polygon != 0
            for k in s..<e {
                if k > s { addNeighbour(ids[k], ids[k - 1]) } else if closed { addNeighbour(ids[k], ids[e - 1]) } else { junction[Int(ids[k])] = true }
                if k < e - 1 { addNeighbour(ids[k], ids[k + 1]) } else if closed { addNeighbour(ids[k], ids[s]) } else { junction[Int(ids[k])] = true }
            }
        }
        // 2. Douglas–Peucker between consecutive fixed vertices of each ring.
        var fixed: [Int] = []
        var stack: [(a: Int, b: Int, cap: Double)] = []
        for r in 0..<ringFlags.count where ringFlags[r] & RingFlags.points == 0 {
            let s = Int(ringStart[r]), e = Int(ringStart[r + 1])
            let n = e - s
            guard n >= 3 else { continue }
            let closed = ringFlags[r] & RingFlags.polygon != 0
            fixed.removeAll(keepingCapacity: true)
            for k in s..<e where junction[Int(ids[k])] { fixed.append(k) }
            if closed && fixed.count < 2 {
                // An island: anchor the first (or the junction) vertex and the farthest from it.
                let a = fixed.first ?? s
                var far = a, best = -1.0
                for k in s..<e {
                    let dx = xy[2 * k] - xy[2 * a], dy = xy[2 * k + 1] - xy[2 * a + 1]
                    let d = dx * dx + dy * dy
                    if d > best { best = d; far = k }
                }
                fixed = a == far ? [a] : [min(a, far), max(a, far)]
            }
            for k in s..<e { result[k] = 0 }
            for k in fixed { result[k] = .infinity }
            // Spans between consecutive fixed vertices (cyclic for rings), as offsets from s
            // that may run past e (taken modulo n).
            var spans: [(Int, Int)] = []
            if closed {
                if fixed.count == 1 {
                    spans.append((fixed[0] - s, fixed[0] - s + n))
                } else {
                    for j in 0..<fixed.count {
                        let a = fixed[j] - s
                        let b = j + 1 < fixed.count ? fixed[j + 1] - s : fixed[0] - s + n
                        spans.append((a, b))
                    }
                }
            } else {
                for j in 0..<(fixed.count - 1) { spans.append((fixed[j] - s, fixed[j + 1] - s)) }
            }
            for (a0, b0) in spans where b0 - a0 > 1 {
                stack.append((a0, b0, .infinity))
                while let (a, b, cap) = stack.popLast() {
                    guard b - a > 1 else { continue }
                    let ia = s + a % n, ib = s + b % n
                    let ax = xy[2 * ia], ay = xy[2 * ia + 1], bx = xy[2 * ib], by = xy[2 * ib + 1]
                    var best = -1.0, bestK = a + 1
                    for m in (a + 1)..<b {
                        let im = s + m % n
                        let d = segmentDistanceSquared(xy[2 * im], xy[2 * im + 1], ax, ay, bx, by)
                        if d > best { best = d; bestK = m }
                    }
                    let tol = min(cap, best.squareRoot())
                    result[s + bestK % n] = tol
                    stack.append((a, bestK, tol))
                    stack.append((bestK, b, tol))
                }
            }
        }
        return result
    }

    /// The level that keeps the vertices whose effective tolerance exceeds `tolerance`.
    func level(zoom: Double, tolerance: Double, importance: [Double]) -> GeometryLevel {
        var outXY: [Double] = []
        outXY.reserveCapacity(xy.count / 4)
        var outRingStart: [Int32] = [0]
        var outFlags: [UInt8] = []
        var outFeatureRingStart: [Int32] = [0]
        var top: [Int] = []
        for f in 0..<(featureRingStart.count - 1) {
            for r in Int(featureRingStart[f])..<Int(featureRingStart[f + 1]) {
                let s = Int(ringStart[r]), e = Int(ringStart[r + 1])
                let flags = ringFlags[r]
                if flags & RingFlags.points != 0 || e - s < 3 {
                    for k in s..<e { outXY.append(xy[2 * k]); outXY.append(xy[2 * k + 1]) }
                } else {
                    var kept = 0
                    for k in s..<e where importance[k] > tolerance { kept += 1 }
                    if flags & RingFlags.polygon != 0 && kept < 3 {
                        var b = MercatorBox.empty
                        for k in s..<e { b.include(x: xy[2 * k], y: xy[2 * k + 1]) }
                        if max(b.maxX - b.minX, b.maxY - b.minY) < tolerance { continue }  // sub-pixel: drop
                        // Keep the three most important vertices, in ring order.
                        top = Array(s..<e).sorted { (importance[$0], -$0) > (importance[$1], -$1) }
                        top = Array(top.prefix(3)).sorted()
                        for k in top { outXY.append(xy[2 * k]); outXY.append(xy[2 * k + 1]) }
                    } else {
                        for k in s..<e where importance[k] > tolerance { outXY.append(xy[2 * k]); outXY.append(xy[2 * k + 1]) }
                    }
                }
                outRingStart.append(Int32(outXY.count / 2))
                outFlags.append(flags)
            }
            outFeatureRingStart.append(Int32(outFlags.count))
        }
        return GeometryLevel(zoom: zoom, tolerance: tolerance, xy: outXY, ringStart: outRingStart,
                             ringFlags: outFlags, featureRingStart: outFeatureRingStart)
    }
}

/// Squared distance from point p to the segment a–b (to a itself when a = b).
@inline(__always)
func segmentDistanceSquared(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
    let dx = bx - ax, dy = by - ay
    let len2 = dx * dx + dy * dy
    var t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0
    t = min(max(t, 0), 1)
    let ex = ax + t * dx - px, ey = ay + t * dy - py
    return ex * ex + ey * ey
}
