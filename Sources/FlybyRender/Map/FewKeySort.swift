/// A stable sort for keys that take few distinct values (a road class, a line's paint), by
/// counting instead of comparing: one pass finds the distinct keys and counts them, one pass
/// deals each item into its key's place. O(n · d) for d distinct keys, with d ≤ 32 the linear
/// key search costs less than the O(n log n) comparisons of a general sort (measured: sorting
/// the roads' line items and sort keys by comparison was ~1.5 % of a city frame's instructions).
enum FewKeySort {
    /// The most distinct keys ``sort(_:scratch:maxKeys:key:)`` handles.
    static let keyLimit = 32

    /// Orders `items` by `key` ascending, items with equal keys keeping their order, when the keys
    /// take at most `maxKeys` (≤ ``keyLimit``) distinct values. Returns false, leaving `items` as
    /// they were, when there are more. `scratch` is working storage (its contents are replaced).
    /// Allocates nothing once `scratch` has grown to `items.count`.
    static func sort<T, K: Comparable>(_ items: inout [T], scratch: inout [T], maxKeys: Int = keyLimit,
                                       key: (T) -> K) -> Bool {
        let limit = min(maxKeys, keyLimit)
        guard items.count > 1 else { return true }
        return withUnsafeTemporaryAllocation(of: K.self, capacity: limit) { keys in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: limit) { slot in
                var distinct = 0
                defer { keys.baseAddress.unsafelyUnwrapped.deinitialize(count: distinct) }
                @inline(__always) func find(_ k: K) -> Int {
                    var i = 0
                    while i < distinct && keys[i] != k { i += 1 }
                    return i
                }
                // Pass 1: the distinct keys and how many items have each (in `slot` for now).
                for item in items {
                    let k = key(item)
                    let i = find(k)
                    if i == distinct {
                        guard distinct < limit else { return false }
                        (keys.baseAddress.unsafelyUnwrapped + i).initialize(to: k)
                        slot[i] = 0
                        distinct += 1
                    }
                    slot[i] += 1
                }
                guard distinct > 1 else { return true }
                // Each key's first place: the counts of the smaller keys summed.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: distinct) { counts in
                    for i in 0..<distinct { counts[i] = slot[i] }
                    for i in 0..<distinct {
                        var before = 0
                        for j in 0..<distinct where keys[j] < keys[i] { before += counts[j] }
                        slot[i] = before
                    }
                }
                // Pass 2: deal the items into their places, in order.
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: items)
                scratch.withUnsafeMutableBufferPointer { out in
                    for item in items {
                        let i = find(key(item))
                        out[slot[i]] = item
                        slot[i] += 1
                    }
                }
                swap(&items, &scratch)
                return true
            }
        }
    }
}
