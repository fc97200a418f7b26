import FlybyCore
import FlybyData

/// Finds the pieces of one feature *without an id* in neighbouring tiles, and chains the line
/// parts of a feature cut by tile edges back into whole lines for its labels (issue 16, item 6).
///
/// **Which pieces are one feature.** A feature with an id (or a `promoteId` value) is joined by
/// that key (``TiledSourceFrame/join(_:tiles:promoteId:)``). MapLibre matches symbols without an
/// id across tiles by their text and their position within a tolerance that depends on the
/// tiles' zoom (its documented cross-tile symbol index behaviour, restated). Flyby clips every
/// tile to its own square (``TilePiece``), so a feature cut by a tile edge ends on that edge in
/// both tiles at the same place; two id-less features of neighbouring tiles are taken as one when
/// they are of the same kind, have equal properties (hence the same label text for any
/// `text-field`), and have a vertex on their tiles' shared edge within ``tolerance(zoom:)`` of
/// each other. Points are never cut (a point belongs to exactly one tile), so only lines and
/// polygons are matched. The groups depend only on the pieces and their order (no dictionary
/// order reaches the result).
///
/// **Labels.** Joined pieces keep their own parts for drawing (the pixels of strokes, dashes and
/// fills stay what they were), but a label is placed on the whole line: parts whose ends meet
/// (within the tolerance) are chained into one part of a second geometry, ``labelLevel``, so
/// `symbol-placement: line` anchors are spaced along the whole line and `line-center` and
/// point-placed line labels find its middle, wherever the tile edges fall. A zoom flight that
/// swaps tiles of one zoom for another then moves a label no more than the geometry moves.
///
/// Coordinate spaces: unit Web Mercator (x east, y south, the world 0…1).
enum TileStitching {
    /// How far apart (unit Mercator) two cut ends may be and still be one place: 1/256 of a tile
    /// of zoom `zoom`, one pixel of a 256-pixel tile, which covers the difference between a line
    /// cut in a tile and in its generalised parent (tile makers simplify to about that).
    static func tolerance(zoom: Int) -> Double { 1 / (256 * Double(1 << min(max(zoom, 0), 30))) }

    /// The vertices of id-less features that lie on the sides of their tiles, with the feature
    /// they belong to (a node: the piece's feature offset plus the feature).
    private struct EdgePoint {
        var x: Double, y: Double
        var node: Int
        var piece: Int
    }

    /// For every feature of every piece (numbered piece by piece: `offsets[p] + f`), the node
    /// that stands for its group: features without a key (`hasKey` false) that continue across
    /// a tile edge share one root; every other feature is its own root.
    static func idlessRoots(_ pieces: [TilePiece], tiles: [TileID], offsets: [Int], hasKey: (Int, Int) -> Bool) -> [Int] {
        let total = offsets.last ?? 0
        var parent = Array(0..<total)
        guard pieces.count > 1, let coarsest = tiles.map(\.z).min() else { return parent }
        let cell = tolerance(zoom: coarsest)
        var points: [EdgePoint] = []
        for (p, piece) in pieces.enumerated() {
            let t = tiles[p]
            let n = Double(1 << t.z)
            let x0 = Double(t.x) / n, x1 = Double(t.x + 1) / n, y0 = Double(t.y) / n, y1 = Double(t.y + 1) / n
            let eps = 1e-6 / n   // a vertex the clipper put on the side (rounding only)
            for f in 0..<piece.features.count where piece.kinds[f] != .point && !hasKey(p, f) {
                let first = Int(piece.ringStart[Int(piece.featureRingStart[f])])
                let last = Int(piece.ringStart[Int(piece.featureRingStart[f + 1])])
                for k in first..<last {
                    let x = piece.xy[2 * k], y = piece.xy[2 * k + 1]
                    if abs(x - x0) < eps || abs(x - x1) < eps || abs(y - y0) < eps || abs(y - y1) < eps {
                        points.append(EdgePoint(x: x, y: y, node: offsets[p] + f, piece: p))
                    }
                }
            }
        }
        guard points.count > 1 else { return parent }
        func find(_ a: Int) -> Int {
            var a = a
            while parent[a] != a { parent[a] = parent[parent[a]]; a = parent[a] }
            return a
        }
        // A grid of cells one coarsest tolerance wide: a match is in the same or a next cell.
        struct Cell: Hashable { var x: Int, y: Int }
        var grid: [Cell: [Int]] = [:]
        let limit = Double(Int32.max)
        func cellOf(_ e: EdgePoint) -> Cell {
            Cell(x: Int(min(limit, e.x / cell)), y: Int(min(limit, e.y / cell)))
        }
        for i in points.indices { grid[cellOf(points[i]), default: []].append(i) }
        for i in points.indices {
            let a = points[i], c = cellOf(a)
            let (pa, fa) = locate(a.node, offsets)
            for dx in -1...1 {
                for dy in -1...1 {
                    for j in grid[Cell(x: c.x + dx, y: c.y + dy)] ?? [] where j > i {
                        let b = points[j]
                        guard b.piece != a.piece, find(a.node) != find(b.node) else { continue }
                        let tol = tolerance(zoom: min(tiles[a.piece].z, tiles[b.piece].z))
                        guard abs(a.x - b.x) <= tol && abs(a.y - b.y) <= tol else { continue }
                        let (pb, fb) = locate(b.node, offsets)
                        guard pieces[pa].kinds[fa] == pieces[pb].kinds[fb],
                              pieces[pa].features[fa].properties == pieces[pb].features[fb].properties else { continue }
                        // The lower node is the root, so a group's root is its first feature.
                        let ra = find(a.node), rb = find(b.node)
                        if ra < rb { parent[rb] = ra } else { parent[ra] = rb }
                    }
                }
            }
        }
        for i in 0..<total { parent[i] = find(i) }
        return parent
    }

    /// The piece and feature of node `node`.
    private static func locate(_ node: Int, _ offsets: [Int]) -> (Int, Int) {
        var lo = 0, hi = offsets.count - 1   // offsets[lo] <= node < offsets[hi]
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if offsets[mid] <= node { lo = mid } else { hi = mid }
        }
        return (lo, node - offsets[lo])
    }

    /// The joined geometry (its one full level) with the line parts of every feature in `multiPiece` chained where one
    /// part's last point is within `tolerance` of another's first (in the parts' order: each chain
    /// starts at its earliest part that no other part leads into); nil when nothing chains.
    /// Other rings are copied unchanged; every feature keeps its index.
    static func labelLevel(_ source: ProjectedSource, multiPiece: [Bool], tolerance: Double) -> GeometryLevel? {
        let level = source.levels[source.levels.count - 1]
        let xy = level.xy
        func near(_ a: Int, _ b: Int) -> Bool { abs(xy[2 * a] - xy[2 * b]) <= tolerance && abs(xy[2 * a + 1] - xy[2 * b + 1]) <= tolerance }
        var chains: [Int: [[Int]]] = [:]   // feature → its chained line rings (only features that chain)
        for f in multiPiece.indices where multiPiece[f] {
            let lines = level.rings(ofFeature: f).filter {
                level.ringFlags[$0] & RingFlags.line != 0 && level.points(ofRing: $0).count >= 2
            }
            guard lines.count > 1 else { continue }
            var next = [Int?](repeating: nil, count: lines.count), hasPrevious = [Bool](repeating: false, count: lines.count)
            for (i, r) in lines.enumerated() {
                let end = level.points(ofRing: r).upperBound - 1
                for (j, s) in lines.enumerated() where j != i && !hasPrevious[j] && near(end, level.points(ofRing: s).lowerBound) {
                    next[i] = j; hasPrevious[j] = true
                    break
                }
            }
            guard next.contains(where: { $0 != nil }) else { continue }
            var used = [Bool](repeating: false, count: lines.count), list: [[Int]] = []
            for start in lines.indices where !hasPrevious[start] && !used[start] {
                var chain: [Int] = [], k: Int? = start
                while let i = k, !used[i] { used[i] = true; chain.append(lines[i]); k = next[i] }
                list.append(chain)
            }
            for i in lines.indices where !used[i] { list.append([lines[i]]) }   // a closed loop of parts
            chains[f] = list
        }
        guard !chains.isEmpty else { return nil }
        var outXY: [Double] = [], ringStart: [Int32] = [0], ringFlags: [UInt8] = [], featureRingStart: [Int32] = [0]
        outXY.reserveCapacity(xy.count)
        let featureCount = level.featureRingStart.count - 1
        func copy(_ r: Int) {
            let range = level.points(ofRing: r)
            outXY.append(contentsOf: xy[(2 * range.lowerBound)..<(2 * range.upperBound)])
            ringStart.append(Int32(outXY.count / 2))
            ringFlags.append(level.ringFlags[r])
        }
        for f in 0..<featureCount {
            if let list = chains[f] {
                let chained = Set(list.joined())
                for r in level.rings(ofFeature: f) where !chained.contains(r) { copy(r) }
                for chain in list {
                    for (k, r) in chain.enumerated() {
                        let range = level.points(ofRing: r)
                        let from = k == 0 ? range.lowerBound : range.lowerBound + 1
                        outXY.append(contentsOf: xy[(2 * from)..<(2 * range.upperBound)])
                    }
                    ringStart.append(Int32(outXY.count / 2))
                    ringFlags.append(RingFlags.line)
                }
            } else {
                for r in level.rings(ofFeature: f) { copy(r) }
            }
            featureRingStart.append(Int32(ringFlags.count))
        }
        // Through ProjectedSource, whose tables it checks (its bounds and R-tree go unused).
        return ProjectedSource(projected: source.features, kinds: source.kinds, xy: outXY, ringStart: ringStart,
                               ringFlags: ringFlags, featureRingStart: featureRingStart).levels[0]
    }
}
