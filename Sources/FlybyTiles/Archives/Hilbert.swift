import FlybyCore
/// PMTiles tile ids (PMTiles v3 §4.1 "TileID"): tiles are numbered zoom by zoom, (4^z − 1) / 3
/// tiles before zoom z, and within a zoom along a Hilbert curve over the 2^z × 2^z grid.
enum PMTilesTileID {
    /// The id of tile z/x/y (XYZ, row 0 north). Requires z ≤ 31 and x, y < 2^z.
    static func id(z: Int, x: Int, y: Int) -> UInt64 {
        let base = ((UInt64(1) << (2 * UInt64(z))) - 1) / 3
        return base + hilbertIndex(order: z, x: UInt64(x), y: UInt64(y))
    }

    /// Position of (x, y) along the Hilbert curve filling a 2^order grid: at each scale s, the
    /// quadrant adds s² · (3·rx XOR ry), and the point is reflected and transposed into the
    /// quadrant's own orientation (the classic xy → d conversion).
    static func hilbertIndex(order: Int, x: UInt64, y: UInt64) -> UInt64 {
        let n = UInt64(1) << UInt64(order)
        var x = x, y = y
        var d: UInt64 = 0
        var s = n >> 1
        while s > 0 {
            let rx: UInt64 = (x & s) != 0 ? 1 : 0
            let ry: UInt64 = (y & s) != 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 { x = n - 1 - x; y = n - 1 - y }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }
}
