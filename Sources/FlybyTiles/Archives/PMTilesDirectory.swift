/// One entry of a PMTiles directory (v3 §4.1): a run of `runLength` tiles from `tileID` stored at
/// `offset`/`length` in the tile data section, or (run length 0) a leaf directory at
/// `offset`/`length` in the leaf directories section.
struct PMTilesEntry: Equatable {
    var tileID: UInt64
    var offset: UInt64
    var length: UInt64
    var runLength: UInt64
}

/// Decodes a PMTiles directory (v3 §4.2, already decompressed): the entry count, then the
/// columns tile ids (delta-encoded), run lengths, lengths and offsets, all varints. An offset of
/// 0 after the first entry means "right after the previous entry" (offset + length); any other
/// value v is the offset v − 1.
enum PMTilesDirectory {
    struct Problem: Error { var message: String }

    static func decode(_ bytes: [UInt8]) throws(Problem) -> [PMTilesEntry] {
        let result: Result<[PMTilesEntry], Problem> = bytes.withUnsafeBufferPointer { buffer in
            do {
                var r = ProtobufReader(buffer)
                let count = try r.varint()
                // Each entry takes at least four bytes (one per column): bounds the allocation.
                guard count <= UInt64(buffer.count / 4) else {
                    return .failure(Problem(message: "directory claims \(count) entries but has only \(buffer.count) bytes"))
                }
                let n = Int(count)
                var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
                var last: UInt64 = 0
                for i in 0..<n {
                    let delta = try r.varint()
                    let (id, overflow) = last.addingReportingOverflow(delta)
                    guard !overflow, i == 0 || delta > 0 else {
                        return .failure(Problem(message: "directory tile ids are not increasing at entry \(i)"))
                    }
                    entries[i].tileID = id
                    last = id
                }
                for i in 0..<n { entries[i].runLength = try r.varint() }
                for i in 0..<n {
                    entries[i].length = try r.varint()
                    guard entries[i].length > 0 else { return .failure(Problem(message: "directory entry \(i) has length 0 (§4.1: MUST be greater than 0)")) }
                }
                for i in 0..<n {
                    let v = try r.varint()
                    if v == 0 && i > 0 {
                        let (o, overflow) = entries[i - 1].offset.addingReportingOverflow(entries[i - 1].length)
                        guard !overflow else { return .failure(Problem(message: "directory offsets overflow at entry \(i)")) }
                        entries[i].offset = o
                    } else if v == 0 {
                        return .failure(Problem(message: "the first directory entry has offset code 0 (no previous entry)"))
                    } else {
                        entries[i].offset = v - 1
                    }
                }
                return .success(entries)
            } catch {
                return .failure(Problem(message: "corrupt directory: \(error)"))
            }
        }
        return try result.get()
    }

    /// The entry that covers `tileID`: the last entry whose id is ≤ `tileID` (binary search),
    /// when it is a leaf pointer or its run reaches `tileID`; nil otherwise.
    static func find(_ tileID: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        var lo = 0, hi = entries.count - 1
        var found = -1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if entries[mid].tileID <= tileID { found = mid; lo = mid + 1 } else { hi = mid - 1 }
        }
        guard found >= 0 else { return nil }
        let e = entries[found]
        if e.runLength == 0 { return e }
        return tileID - e.tileID < e.runLength ? e : nil
    }
}
