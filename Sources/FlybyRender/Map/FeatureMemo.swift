import Dispatch

/// Per-feature results of one layer's feature-dependent expressions (filter, sort key, paint),
/// kept from frame to frame while what they read stays the same.
///
/// A value is computed the first time a frame needs it and reused until the zoom changes (when
/// the expressions read the zoom) or the feature state changes (when they read feature-state):
/// panning, rotating and pitching at one zoom evaluate nothing again. The memo never changes a
/// result, only when it is computed, so pixels are the same with or without it.
struct FeatureMemo<Value> {
    private var zoom = Double.nan
    private var stateGeneration = -1
    private var values: [Value?] = []

    /// Makes the memo valid for a frame at `zoom` with feature-state generation `generation`
    /// over `count` features, forgetting every value when an input it depends on changed.
    mutating func prepare(count: Int, zoom z: Double, readsZoom: Bool, generation: Int, readsState: Bool) {
        let zoomChanged = readsZoom && z != zoom
        let stateChanged = readsState && generation != stateGeneration
        if values.count != count || zoomChanged || stateChanged {
            values.removeAll(keepingCapacity: true)
            values.append(contentsOf: repeatElement(nil, count: count))
        }
        zoom = z
        stateGeneration = generation
    }

    /// The value of feature `f`, nil until stored.
    subscript(f: Int) -> Value? {
        get { values[f] }
        set { values[f] = newValue }
    }

    /// Fewest features not yet known for ``fillConcurrently(_:_:)`` to split the work.
    static var concurrentMinimum: Int { 512 }

    /// Stores `compute(f)` for the features of `features` not known yet, on every core at once
    /// when there are at least ``concurrentMinimum`` of them (a cold first frame evaluates every
    /// layer's filter for every feature in view; that was about a third of it). `compute` must
    /// depend only on its feature (style expressions are pure), so the values, and the pixels, are
    /// the same as computed one by one on this thread.
    mutating func fillConcurrently(_ features: [Int32], _ compute: @escaping (Int) -> Value) {
        var todo: [Int32] = []
        for f in features where values[Int(f)] == nil { todo.append(f) }
        guard todo.count >= Self.concurrentMinimum else { return }
        let chunks = 8, n = todo.count
        var results = [Value?](repeating: nil, count: n)
        results.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let base = out.baseAddress.unsafelyUnwrapped
            nonisolated(unsafe) let compute = compute
            let list = todo
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                for k in (n * c / chunks)..<(n * (c + 1) / chunks) { base[k] = compute(Int(list[k])) }   // each slot written once
            }
        }
        for k in 0..<n { values[Int(todo[k])] = results[k] }
    }
}

/// The memos of one style layer (see ``FeatureMemo``).
struct LayerMemo {
    /// The filter's verdict per feature.
    var accepted = FeatureMemo<Bool>()
    /// The sort key per feature (`fill-sort-key`, `line-sort-key`, …).
    var sortKey = FeatureMemo<Double>()
    /// Line colour, width, gap, offset and blur per feature, before the pitch scaling.
    var linePaint = FeatureMemo<LinePaint>()
    /// Fill and outline colour per feature.
    var fillPaint = FeatureMemo<(color: Color, outline: Color)>()
    /// A symbol layer's layout per feature.
    var symbolLayout = FeatureMemo<SymbolLayout>()
}
