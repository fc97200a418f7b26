import FlybyCore
import FlybyData
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ground slope of a DEM tile: per pixel the height gradient east (`dx`) and south (`dy`), in
/// metres of height per metre of ground, computed once per tile and cached by its source.
///
/// Gradients use Horn's 3 × 3 weighted differences (B. K. P. Horn, "Hill shading and the
/// reflectance map", Proc. IEEE 69(1), 1981; the method `gdaldem hillshade` uses by default):
/// for the window `a b c / d e f / g h i` around a pixel,
/// `dz/dx = ((c + 2f + i) − (a + 2d + g)) / (8 Δ)` and `dz/dy = ((g + 2h + i) − (a + 2b + c)) / (8 Δ)`,
/// Δ being the ground size of a pixel at the row's latitude (the Mercator pixel size times
/// cos φ). The window of an edge pixel reaches into the neighbouring tiles (all eight), so the
/// slope, and the shading, runs on across tile borders without a seam; where a neighbour is
/// missing (the edge of the data, or of the world north and south) the tile's own edge row is
/// repeated. A window touching a no-data pixel (transparent in the tile) counts as flat.
final class SlopeTile: CachedTile {
    let size: Int
    let dx: [Float]
    let dy: [Float]
    /// Per pixel the vertical component of the unit surface normal, `1 / √(dx² + dy² + 1)`:
    /// it does not depend on the light, so every shading of the tile shares it.
    let normalUp: [Float]
    var byteCount: Int { 128 + 12 * size * size }

    init(size: Int, dx: [Float], dy: [Float]) {
        self.size = size; self.dx = dx; self.dy = dy
        normalUp = (0..<(size * size)).map { k in 1 / (dx[k] * dx[k] + dy[k] * dy[k] + 1).squareRoot() }
    }

    /// The slope of tile `id` from its elevations and its neighbours' (nil entries: missing).
    /// `neighbours` is the 3 × 3 block around the tile, row by row (index 4 is the tile itself).
    static func compute(_ id: TileID, _ neighbours: [ElevationTile?]) -> SlopeTile {
        let center = neighbours[4].unsafelyUnwrapped
        let n = center.size
        let m = n + 2
        // The padded grid: the tile with a one-pixel frame from its neighbours.
        var grid = [Float](repeating: 0, count: m * m)
        func height(_ gx: Int, _ gy: Int) -> Float {
            // gx, gy in −1 … n: which neighbour, and where in it.
            let tx = gx < 0 ? 0 : gx >= n ? 2 : 1, ty = gy < 0 ? 0 : gy >= n ? 2 : 1
            if let t = neighbours[ty * 3 + tx], t.size == n {
                return t.heights[((gy + n) % n) * n + (gx + n) % n]
            }
            return center.heights[min(max(gy, 0), n - 1) * n + min(max(gx, 0), n - 1)]
        }
        for gy in -1...n {
            if gy >= 0 && gy < n {
                grid[(gy + 1) * m] = height(-1, gy)
                for gx in 0..<n { grid[(gy + 1) * m + gx + 1] = center.heights[gy * n + gx] }
                grid[(gy + 1) * m + n + 1] = height(n, gy)
            } else {
                for gx in -1...n { grid[(gy + 1) * m + gx + 1] = height(gx, gy) }
            }
        }
        var dx = [Float](repeating: 0, count: n * n), dy = [Float](repeating: 0, count: n * n)
        let worldPixels = Double(n) * Double(1 << id.z)
        // EPSG:3857's sphere: the WGS 84 equatorial radius.
        let mercatorPixel = 2 * Double.pi * 6_378_137 / worldPixels
        grid.withUnsafeBufferPointer { g in
            for y in 0..<n {
                // Latitude of the row's centre: y = (1 − ln(tan φ + sec φ)/π)/2 inverted.
                let unitY = (Double(id.y * n + y) + 0.5) / worldPixels
                let lat = atan(sinh(Double.pi * (1 - 2 * unitY)))
                let inv = Float(1 / (8 * mercatorPixel * cos(lat)))
                for x in 0..<n {
                    let r0 = y * m + x, r1 = r0 + m, r2 = r1 + m
                    let a = g[r0], b = g[r0 + 1], c = g[r0 + 2]
                    let d = g[r1], f = g[r1 + 2]
                    let gg = g[r2], h = g[r2 + 1], i = g[r2 + 2]
                    let gx = ((c + 2 * f + i) - (a + 2 * d + gg)) * inv
                    let gy = ((gg + 2 * h + i) - (a + 2 * b + c)) * inv
                    // No data anywhere in the window (NaN): flat, so drawn transparent.
                    dx[y * n + x] = gx.isFinite ? gx : 0
                    dy[y * n + x] = gy.isFinite && gx.isFinite ? gy : 0
                }
            }
        }
        return SlopeTile(size: n, dx: dx, dy: dy)
    }
}

extension RasterTileSet {
    /// The slope of DEM tile `id` (with its neighbours' edges), or nil when the archive has no tile
    /// there.
    /// - Throws: ``InputError`` naming the tile when it (or a neighbour) cannot be decoded.
    func slope(_ id: TileID) throws(InputError) -> SlopeTile? {
        let key = TileID(z: id.z, x: id.x, y: id.y)
        if case .slope(let hit)? = cached(.slope, key) { return hit }
        guard let center = try elevation(key) else { return nil }
        var block: [ElevationTile?] = []
        let side = 1 << key.z
        for dy in -1...1 {
            for dx in -1...1 {
                if dx == 0 && dy == 0 { block.append(center); continue }
                let y = key.y + dy
                guard y >= 0 && y < side else { block.append(nil); continue }
                let x = (key.x + dx + side) % side   // east and west wrap round the world
                block.append(try elevation(TileID(z: key.z, x: x, y: y)))
            }
        }
        let tile = SlopeTile.compute(key, block)
        keep(.slope(tile), key)
        return tile
    }
}

/// What a hillshade layer's pixels depend on in a frame (Style Specification, layers ›
/// hillshade): the light's azimuth on the map, the exaggeration and the three colours.
struct HillshadePaint: Equatable {
    /// Degrees clockwise from north that the light comes from, on the map (a `viewport` anchor
    /// has had the camera's bearing added).
    var azimuth: Double
    var exaggeration: Double
    var shadow: UInt32, highlight: UInt32, accent: UInt32

    /// The light's altitude above the horizon (degrees): fixed, as the specification has no
    /// property for it; 45° is also `gdaldem hillshade`'s default, so the two can be compared.
    static let altitude = 45.0

    /// The shading of one slope tile as premultiplied pixels.
    ///
    /// Lambert's cosine law with the surface normal of the gradient, `N = (−dx, dy, 1)/|…|`
    /// (x east, y north), and the light `L = (sin A cos h, cos A cos h, sin h)` for azimuth A and
    /// altitude h: `N · L` is what `gdaldem hillshade` computes. Flat ground (`N · L = sin h`)
    /// stays transparent; the difference `d = N · L − sin h` is drawn as the highlight colour
    /// (d > 0, facing the light) or the shadow colour (d < 0), with alpha `|d| · 2e`, e being
    /// `hillshade-exaggeration`; the accent colour is laid over steep ground with alpha
    /// `(1 − N_z) · e` (the specification: "accentuate rugged terrain like sharp cliffs and
    /// gorges"). This is Flyby's own rendering of the properties the specification describes.
    func shade(_ slope: SlopeTile) -> RasterImage {
        let n = slope.size
        let a = azimuth * Double.pi / 180, h = HillshadePaint.altitude * Double.pi / 180
        let lx = Float(sin(a) * cos(h)), ly = Float(cos(a) * cos(h)), lz = Float(sin(h))
        let strength = Float(2 * exaggeration), accentStrength = Float(exaggeration)
        // The three colours scaled by every alpha 0…255 (`PixelBlend.scale`), looked up per pixel.
        // One table: highlights at 0…255, shadows at 256…511, accents at 512…767.
        let table = [highlight, shadow, accent].flatMap { c in (0...255).map { PixelBlend.scale(c, by: UInt32($0)) } }
        var pixels = [UInt32](repeating: 0, count: n * n)
        slope.dx.withUnsafeBufferPointer { dx in
            slope.dy.withUnsafeBufferPointer { dy in
                slope.normalUp.withUnsafeBufferPointer { up in
                    pixels.withUnsafeMutableBufferPointer { out in
                        table.withUnsafeBufferPointer { table in
                            // The light's arithmetic four pixels at a time (the same
                            // operations lane by lane, so the same levels), the lookups one
                            // by one; the last group may be partial (lanes past the end read 0).
                            let count = n * n
                            for k in stride(from: 0, to: count, by: 4) {
                                let lanes = min(4, count - k)
                                func load(_ p: UnsafeBufferPointer<Float>) -> SIMD4<Float> {
                                    if lanes == 4 { return UnsafeRawPointer(p.baseAddress! + k).loadUnaligned(as: SIMD4<Float>.self) }
                                    var v = SIMD4<Float>()
                                    for i in 0..<lanes { v[i] = p[k + i] }
                                    return v
                                }
                                let gx = load(dx), gn = -load(dy)   // north gradient = −(south gradient)
                                let norm = load(up)
                                let dot = (-gx * lx - gn * ly + lz) * norm
                                let d = dot - lz
                                let alpha = atMostOne(d.replacing(with: -d, where: d .< 0) * strength)
                                let level = alpha * 255 + 0.5
                                let accentAlpha = atMostOne((1 - norm) * accentStrength)
                                let accentLevel = accentAlpha * 255 + 0.5
                                for i in 0..<lanes {
                                    let l = Int(UInt32(level[i]))
                                    var p = table[d[i] >= 0 ? l : 256 + l]
                                    if accentAlpha[i] > 0 { p = PixelBlend.sourceOver(table[512 + Int(UInt32(accentLevel[i]))], p) }
                                    out[k + i] = p
                                }
                            }
                        }
                    }
                }
            }
        }
        return RasterImage(size: n, pixels: pixels)
    }
}
