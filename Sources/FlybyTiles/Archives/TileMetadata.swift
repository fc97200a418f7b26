import FlybyData

/// Reads the MBTiles-style metadata (MBTiles 1.3 §"Content": name/value strings; tippecanoe's
/// folder output writes the same pairs to `metadata.json`) into the `tiles info` fields.
enum TileMetadata {
    /// Fills `info` from name → value strings: `format`, `minzoom`, `maxzoom`, `bounds`
    /// ("w,s,e,n"), `center` ("lng,lat,zoom") and `json` (an object whose `vector_layers` is kept).
    static func apply(_ pairs: [(key: String, value: String)], to info: inout TileArchiveInfo) {
        func value(_ k: String) -> String? { pairs.last { $0.key == k }?.value }
        if let f = value("format") { info.tileType = tileType(format: f) }
        if let z = value("minzoom").flatMap({ Int($0.trimmingCharacters()) }) { info.minZoom = z }
        if let z = value("maxzoom").flatMap({ Int($0.trimmingCharacters()) }) { info.maxZoom = z }
        if let b = value("bounds").flatMap({ numbers($0, count: 4) }) { info.bounds = b }
        if let c = value("center").flatMap({ numbers($0, count: 3) }) { info.center = c }
        if let json = value("json"), let node = try? JSONParser.parse(json) { info.vectorLayers = node["vector_layers"] }
        info.metadata = JSONNode(.object(pairs.map { ($0.key, JSONNode(.string($0.value))) }))
    }

    /// MBTiles `format` → the tile type names of `tiles info`.
    static func tileType(format: String) -> String {
        switch format.lowercased() {
        case "pbf", "mvt": "mvt"
        case "png": "png"
        case "jpg", "jpeg": "jpeg"
        case "webp": "webp"
        case "avif": "avif"
        default: "unknown"
        }
    }

    static func numbers(_ text: String, count: Int) -> [Double]? {
        let parts = text.split(separator: ",").compactMap { Double(String($0).trimmingCharacters()) }
        return parts.count == count && parts.allSatisfy(\.isFinite) ? parts : nil
    }
}

extension String {
    /// Without leading and trailing spaces (no Foundation needed).
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
