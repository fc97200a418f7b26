/// A static R-tree over boxes, packed bottom-up with Sort-Tile-Recursive (Leutenegger, Lopez and
/// Edgington, "STR: a simple and efficient algorithm for R-tree packing", ICDE 1997).
///
/// Built once; nodes are flat arrays (no per-node objects). ``search(_:into:)`` appends the ids
/// of every item whose box intersects the query box, then sorts them ascending, so callers see
/// items in insertion (document) order.
public struct PackedRTree: Sendable {
    /// Children per node.
    public static let nodeSize = 16

    /// Boxes of every level, leaves first: 4 numbers (minX, minY, maxX, maxY) per entry.
    let levelBoxes: [[Double]]
    /// Item id of each leaf entry (leaf entries are in STR order).
    let leafIds: [Int32]
    /// One more than the largest item id (the number of boxes given).
    let idLimit: Int

    /// Builds the tree. Empty boxes are left out (they can never intersect).
    public init(boxes: [MercatorBox]) {
        var entries: [(box: MercatorBox, id: Int32)] = []
        entries.reserveCapacity(boxes.count)
        for (k, b) in boxes.enumerated() where !b.isEmpty { entries.append((b, Int32(k))) }
        // STR: sort by centre x, cut into vertical slices of about √(n/M) nodes, sort each by centre y.
        idLimit = boxes.count
        let n = entries.count
        let m = PackedRTree.nodeSize
        entries.sort { ($0.box.minX + $0.box.maxX, $0.id) < ($1.box.minX + $1.box.maxX, $1.id) }
        let leafCount = (n + m - 1) / m
        let sliceCount = max(1, Int(Double(leafCount).squareRoot().rounded(.up)))
        let sliceSize = max(1, ((n + sliceCount - 1) / sliceCount + m - 1) / m * m)
        var start = 0
        while start < n {
            let end = min(n, start + sliceSize)
            entries[start..<end].sort { ($0.box.minY + $0.box.maxY, $0.id) < ($1.box.minY + $1.box.maxY, $1.id) }
            start = end
        }
        var level: [Double] = []
        level.reserveCapacity(4 * n)
        for e in entries { level += [e.box.minX, e.box.minY, e.box.maxX, e.box.maxY] }
        leafIds = entries.map(\.id)
        var levels = [level]
        while level.count > 4 * m {
            var up: [Double] = []
            let count = level.count / 4
            var k = 0
            while k < count {
                var b = MercatorBox.empty
                for c in k..<min(count, k + m) {
                    b = b.union(MercatorBox(minX: level[4 * c], minY: level[4 * c + 1], maxX: level[4 * c + 2], maxY: level[4 * c + 3]))
                }
                up += [b.minX, b.minY, b.maxX, b.maxY]
                k += m
            }
            levels.append(up)
            level = up
        }
        levelBoxes = levels
    }

    /// Appends the ids of all items whose box intersects `box` (edges touching count), sorted
    /// ascending. Does not clear `out`; allocates only when `out` must grow (and, for many hits,
    /// one temporary bitmap of n bits).
    /// - Complexity: O(log n + k) for k results, plus ordering them: a comparison sort of up to
    ///   64 hits, otherwise a bitmap of all ids read in order, O(k + n/64) (measured: sorting the
    ///   hits was 1.3 % of a city frame's instructions).
    public func search(_ box: MercatorBox, into out: inout [Int32]) {
        let first = out.count
        guard let top = levelBoxes.last else { return }
        let topCount = top.count / 4
        for k in 0..<topCount { visit(level: levelBoxes.count - 1, node: k, box, &out) }
        let hits = out.count - first
        guard hits > 64 else {
            out[first...].sort()
            return
        }
        let words = (idLimit + 63) >> 6
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: words) { bits in
            bits.initialize(repeating: 0)
            for r in first..<out.count {
                let id = Int(out[r])
                bits[id >> 6] |= 1 << UInt64(id & 63)
            }
            var w = first
            for k in 0..<words {
                var word = bits[k]
                while word != 0 {
                    out[w] = Int32(truncatingIfNeeded: k << 6 | word.trailingZeroBitCount)
                    w += 1
                    word &= word &- 1
                }
            }
        }
    }

    private func visit(level: Int, node: Int, _ q: MercatorBox, _ out: inout [Int32]) {
        let b = levelBoxes[level]
        let i = 4 * node
        guard b[i] <= q.maxX && q.minX <= b[i + 2] && b[i + 1] <= q.maxY && q.minY <= b[i + 3] else { return }
        if level == 0 { out.append(leafIds[node]); return }
        let childCount = levelBoxes[level - 1].count / 4
        let m = PackedRTree.nodeSize
        for c in (node * m)..<min(childCount, node * m + m) { visit(level: level - 1, node: c, q, &out) }
    }
}
