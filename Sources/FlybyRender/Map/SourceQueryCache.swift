import FlybyData

/// The R-tree query results of one frame, by source: a source drawn by several layers (the city's
/// roads feed the footpaths, the casing, the roads and the street labels) is searched once per
/// frame and world copy instead of once per layer.
///
/// An entry is reused only for exactly the same source, box and zoom, so the features and their
/// order are those a fresh query returns. ``forget()`` runs at the start of each frame (and of
/// each band renderer's layers) and keeps the storage: no allocation once every source has an
/// entry.
struct SourceQueryCache {
    private struct Entry {
        var source: Int
        var box: MercatorBox
        var zoom: Double
        var isValid: Bool
        var hits: [Int32]
    }
    private var entries: [Entry] = []

    /// Marks every entry stale (called once per frame).
    mutating func forget() {
        for i in entries.indices { entries[i].isValid = false }
    }

    /// Appends the features of `source` (index `sourceIndex` in the style) whose boxes meet `box`
    /// and that have geometry at `zoom` (``ProjectedSource/query(_:zoom:into:)``) to `out`.
    mutating func query(_ source: LoadedSource, sourceIndex: Int, _ box: MercatorBox, zoom: Double,
                        into out: inout [Int32]) {
        if let i = entries.firstIndex(where: { $0.isValid && $0.source == sourceIndex && $0.box == box && $0.zoom == zoom }) {
            out.append(contentsOf: entries[i].hits)
            return
        }
        let first = out.count
        source.data.query(box, zoom: zoom, into: &out)
        // Reuse a stale entry's storage when there is one.
        let i = entries.firstIndex { !$0.isValid } ?? {
            entries.append(Entry(source: sourceIndex, box: box, zoom: zoom, isValid: false, hits: []))
            return entries.count - 1
        }()
        entries[i].source = sourceIndex
        entries[i].box = box
        entries[i].zoom = zoom
        entries[i].isValid = true
        entries[i].hits.removeAll(keepingCapacity: true)
        entries[i].hits.append(contentsOf: out[first...])
    }
}
