import FlybyCore
import FlybyData

/// The GeoJSON text (`[lng,lat]`, Swift's shortest round-trip numbers) of tile-coordinate
/// vertices, each distinct longitude and latitude formatted once.
///
/// A vertex's longitude depends only on its x and its latitude only on its y (``TileProjection``:
/// a scale and an origin per axis, then the spherical Mercator inverse of that axis), and a tile's
/// vertices share few distinct x and y values (a z14 city tile: 17,142 positions), so the text of
/// each is kept, for x and y in −extent ..< 2 · extent (the tile and a buffer of a whole tile each
/// side); coordinates outside, or extents over 65,536, are formatted every time. The bytes are
/// exactly those of formatting each number (the same `Double`, the same writer).
///
/// Memory: two tables of 3 · extent entries (4 bytes each), plus at most 32 bytes of text per
/// distinct coordinate.
struct CoordinateText {
    let projection: TileProjection
    /// The first coordinate kept and how many per axis (0: none).
    private let low: Int
    private let span: Int
    /// The text kept, and per coordinate `offset << 6 | length` into it (0: not made yet).
    private var text: [UInt8] = []
    private var longitudes: [UInt32]
    private var latitudes: [UInt32]

    init(_ projection: TileProjection) {
        self.projection = projection
        let e = projection.extent
        span = e > 0 && e <= 1 << 16 ? 3 * e : 0
        low = -e
        longitudes = [UInt32](repeating: 0, count: span)
        latitudes = [UInt32](repeating: 0, count: span)
    }

    /// Appends `[lng,lat]` of `p`.
    mutating func append(_ p: TilePoint, to out: inout [UInt8]) {
        out.append(0x5B)
        appendAxis(Int(p.x), latitude: false, to: &out)
        out.append(0x2C)
        appendAxis(Int(p.y), latitude: true, to: &out)
        out.append(0x5D)
    }

    private func value(_ c: Int, latitude: Bool) -> Double {
        // The arithmetic of TileProjection.coordinate, one axis at a time.
        let u = projection.unit(TilePoint(x: Int32(truncatingIfNeeded: c), y: Int32(truncatingIfNeeded: c)))
        return latitude ? WebMercator.latitude(unitY: u.y) : WebMercator.longitude(unitX: u.x)
    }

    private mutating func appendAxis(_ c: Int, latitude: Bool, to out: inout [UInt8]) {
        let k = c - low
        guard k >= 0 && k < span else {
            JSONWriter.appendNumber(value(c, latitude: latitude), to: &out)
            return
        }
        let entry = latitude ? latitudes[k] : longitudes[k]
        if entry != 0 {
            let start = Int(entry >> 6), count = Int(entry & 63)
            text.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<(start + count)])) }
            return
        }
        let start = text.count
        JSONWriter.appendNumber(value(c, latitude: latitude), to: &text)
        let count = text.count - start
        let made = UInt32(start) << 6 | UInt32(count)
        if latitude { latitudes[k] = made } else { longitudes[k] = made }
        out.append(contentsOf: text[start...])
    }
}
