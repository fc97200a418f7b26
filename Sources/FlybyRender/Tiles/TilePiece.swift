import FlybyCore
import FlybyData
import FlybyTiles

/// One layer of one decoded vector tile, ready to draw: its features clipped to the tile's own
/// square and projected to unit Web Mercator, in the flat layout of ``GeometryLevel``.
///
/// **Why clip to the square.** Tiles carry a buffer of geometry from their neighbours so that a
/// renderer can draw each tile alone. Flyby draws a frame's tiles as one source
/// (``TiledSourceFrame``), so the buffer would draw twice: translucent fills and lines would
/// darken along every tile edge. Clipping every feature to 0…extent (points: the half-open square,
/// so a point on an edge belongs to exactly one tile) leaves each place of the map in exactly one
/// tile. Pieces of one feature in neighbouring tiles then share their cut edge vertex for vertex:
/// both tiles compute the cut from the same integer tile coordinates (shifted by whole tiles) and
/// map it to unit coordinates with the same exact formula, so when the pieces are filled as one
/// path (same feature id, see ``TiledSourceFrame``) the shared edge cancels and no seam shows.
///
/// Coordinate spaces: MVT tile coordinates (x right, y down, 0…extent) in; unit Mercator (x east,
/// y south, the world 0…1) out, `unit = (tile + p / extent) / 2^z`.
struct TilePiece: Sendable {
    var features: [Feature] = []
    var kinds: [ProjectedSource.Kind] = []
    var xy: [Double] = []
    var ringStart: [Int32] = [0]
    var ringFlags: [UInt8] = []
    var featureRingStart: [Int32] = [0]

    /// Bytes held, for the cache's budget: the geometry arrays, 96 bytes a feature, and each
    /// feature's properties (``TilePiece/propertyBytes(_:)``). An estimate of what the
    /// allocator holds, not a count: it errs high for small strings, which Swift stores inline.
    var byteCount: Int {
        xy.count * 8 + ringStart.count * 5 + featureRingStart.count * 4 + ringFlags.count + kinds.count
            + features.reduce(0) { $0 + 96 + TilePiece.propertyBytes($1.properties) }
    }

    /// A property map's bytes: its array (32) and per entry 48 (key and value inline) plus the
    /// heap storage of strings longer than the 15 UTF-8 bytes Swift keeps inline (their bytes
    /// and a 32-byte header); nested arrays and objects counted the same way.
    static func propertyBytes(_ map: PropertyMap) -> Int {
        func heap(_ s: String) -> Int { s.utf8.count > 15 ? s.utf8.count + 32 : 0 }
        func value(_ v: PropertyValue) -> Int {
            switch v {
            case .string(let s): return heap(s)
            case .array(let items): return 32 + items.reduce(0) { $0 + 24 + value($1) }
            case .object(let m): return propertyBytes(m)
            case .null, .bool, .number: return 0
            }
        }
        return 32 + map.entries.reduce(0) { $0 + 48 + heap($1.key) + value($1.value) }
    }

    /// The features of `layer` of tile `tile`, clipped to the tile square.
    init(layer: VectorTileLayer, tile: TileID) {
        let extent = Double(max(layer.extent, 1))
        let n = Double(1 << tile.z)
        let scale = 1 / (extent * n)
        let ox = Double(tile.x) / n, oy = Double(tile.y) / n
        var clipper = SquareClipper(size: extent)
        for f in layer.features {
            let ringsBefore = ringFlags.count
            let g = f.geometry
            let kind: ProjectedSource.Kind
            switch f.type {
            case .point:
                kind = .point
                let start = xy.count
                for p in g.points {
                    let x = Double(p.x), y = Double(p.y)
                    guard x >= 0, x < extent, y >= 0, y < extent else { continue }
                    xy.append(ox + x * scale); xy.append(oy + y * scale)
                }
                if xy.count > start { closeRing(RingFlags.points) }
            case .lineString:
                kind = .line
                for i in 0..<g.partCount {
                    clipper.clipLine(g.part(i)) { piece in
                        for p in piece { xy.append(ox + p.x * scale); xy.append(oy + p.y * scale) }
                        closeRing(RingFlags.line)
                    }
                }
            case .polygon:
                kind = .polygon
                for j in 0..<g.polygonCount {
                    var exterior = true
                    for i in Int(g.polygonStarts[j])..<Int(g.polygonStarts[j + 1]) {
                        let (ring, cut) = clipper.clipRing(g.part(i))
                        if ring.count < 3 {
                            if exterior { break }   // nothing of this polygon is in the tile
                            continue
                        }
                        for p in ring { xy.append(ox + p.x * scale); xy.append(oy + p.y * scale) }
                        closeRing(RingFlags.polygon | (exterior ? RingFlags.exterior : 0) | (cut ? RingFlags.outlinedApart : 0))
                        exterior = false
                        if cut {
                            // The outline without the edges that run along the tile's sides.
                            SquareClipper.outlineRuns(ring, size: extent) { run in
                                for p in run { xy.append(ox + p.x * scale); xy.append(oy + p.y * scale) }
                                closeRing(RingFlags.outline)
                            }
                        }
                    }
                }
            case .unknown:
                continue
            }
            guard ringFlags.count > ringsBefore else { continue }
            featureRingStart.append(Int32(ringFlags.count))
            kinds.append(kind)
            features.append(Feature(id: f.id.map { .number(Double($0)) }, geometry: .geometryCollection([]),
                                    properties: layer.properties(of: f)))
        }
    }

    private mutating func closeRing(_ flags: UInt8) {
        ringStart.append(Int32(xy.count / 2))
        ringFlags.append(flags)
    }
}

/// Clips polylines and polygon rings to the square 0…size × 0…size (tile coordinates).
struct SquareClipper {
    let size: Double
    private var a: [(x: Double, y: Double)] = []
    private var b: [(x: Double, y: Double)] = []

    init(size: Double) { self.size = size }

    /// The parts of a polyline inside the square, each passed to `body` (at least 2 points).
    /// Segments are cut with Liang–Barsky's parametric test (Liang and Barsky, "A new concept and
    /// method for line clipping", ACM TOG 3(1), 1984).
    mutating func clipLine(_ points: ArraySlice<TilePoint>, _ body: ([(x: Double, y: Double)]) -> Void) {
        var piece: [(x: Double, y: Double)] = []
        var previous: (x: Double, y: Double)?
        for p in points {
            let q = (x: Double(p.x), y: Double(p.y))
            defer { previous = q }
            guard let s = previous else { continue }
            guard let (t0, t1) = clipSegment(s, q) else {
                if piece.count >= 2 { body(piece) }
                piece.removeAll(keepingCapacity: true)
                continue
            }
            let enter = t0 == 0 ? s : (s.x + (q.x - s.x) * t0, s.y + (q.y - s.y) * t0)
            let leave = t1 == 1 ? q : (s.x + (q.x - s.x) * t1, s.y + (q.y - s.y) * t1)
            if t0 > 0 || piece.isEmpty {
                if piece.count >= 2 { body(piece) }
                piece.removeAll(keepingCapacity: true)
                piece.append(enter)
            }
            piece.append(leave)
            if t1 < 1 {
                if piece.count >= 2 { body(piece) }
                piece.removeAll(keepingCapacity: true)
            }
        }
        if piece.count >= 2 { body(piece) }
    }

    /// The parameter range of segment s→q inside the square, nil when none of it is.
    private func clipSegment(_ s: (x: Double, y: Double), _ q: (x: Double, y: Double)) -> (Double, Double)? {
        var t0 = 0.0, t1 = 1.0
        let dx = q.x - s.x, dy = q.y - s.y
        for (p, r) in [(-dx, s.x), (dx, size - s.x), (-dy, s.y), (dy, size - s.y)] {
            if p == 0 {
                if r < 0 { return nil }
                continue
            }
            let t = r / p
            if p < 0 { if t > t1 { return nil }; if t > t0 { t0 = t } } else { if t < t0 { return nil }; if t < t1 { t1 = t } }
        }
        return t0 <= t1 ? (t0, t1) : nil
    }

    /// A ring clipped to the square (Sutherland and Hodgman, "Reentrant polygon clipping", CACM
    /// 17(1), 1974), open (first vertex not repeated), and whether anything was cut off. Concave
    /// rings may come back with edges along the square's sides that enclose no area; the non-zero
    /// fill draws nothing there.
    mutating func clipRing(_ ring: ArraySlice<TilePoint>) -> (ring: [(x: Double, y: Double)], cut: Bool) {
        a.removeAll(keepingCapacity: true)
        var inside = true
        for p in ring {
            let x = Double(p.x), y = Double(p.y)
            if x < 0 || y < 0 || x > size || y > size { inside = false }
            a.append((x, y))
        }
        if inside { return (a, false) }
        for edge in 0..<4 {
            b.removeAll(keepingCapacity: true)
            guard var s = a.last else { return ([], true) }
            for e in a {
                let eIn = Self.inside(e, edge, size), sIn = Self.inside(s, edge, size)
                if eIn {
                    if !sIn { b.append(Self.cut(s, e, edge, size)) }
                    b.append(e)
                } else if sIn {
                    b.append(Self.cut(s, e, edge, size))
                }
                s = e
            }
            swap(&a, &b)
        }
        return (a, true)
    }

    /// The runs of a clipped ring's edges that do not lie along a side of the square, each as an
    /// open polyline (at least 2 points), in ring order.
    static func outlineRuns(_ ring: [(x: Double, y: Double)], size: Double, _ body: ([(x: Double, y: Double)]) -> Void) {
        let n = ring.count
        func onSide(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double)) -> Bool {
            (p.x == 0 && q.x == 0) || (p.x == size && q.x == size) || (p.y == 0 && q.y == 0) || (p.y == size && q.y == size)
        }
        // Start after an edge on a side, so that no run wraps around the ring's start.
        guard let first = (0..<n).first(where: { onSide(ring[$0], ring[($0 + 1) % n]) }) else {
            body(ring + [ring[0]])
            return
        }
        var run: [(x: Double, y: Double)] = []
        for k in 1...n {
            let i = (first + k) % n, j = (i + 1) % n
            if onSide(ring[i], ring[j]) {
                if run.count >= 2 { body(run) }
                run.removeAll(keepingCapacity: true)
            } else {
                if run.isEmpty { run.append(ring[i]) }
                run.append(ring[j])
            }
        }
        if run.count >= 2 { body(run) }
    }

    private static func inside(_ p: (x: Double, y: Double), _ edge: Int, _ size: Double) -> Bool {
        switch edge {
        case 0: return p.x >= 0
        case 1: return p.x <= size
        case 2: return p.y >= 0
        default: return p.y <= size
        }
    }

    /// Where s→e crosses the edge's line, computed from s (the start in ring order), so two tiles
    /// that cut the same segment (whose tile coordinates differ by a whole extent, exactly) get
    /// the same fraction and the same crossing.
    private static func cut(_ s: (x: Double, y: Double), _ e: (x: Double, y: Double), _ edge: Int, _ size: Double) -> (x: Double, y: Double) {
        switch edge {
        case 0, 1:
            let x = edge == 0 ? 0 : size
            let t = (x - s.x) / (e.x - s.x)
            return (x, s.y + (e.y - s.y) * t)
        default:
            let y = edge == 2 ? 0 : size
            let t = (y - s.y) / (e.y - s.y)
            return (s.x + (e.x - s.x) * t, y)
        }
    }
}
