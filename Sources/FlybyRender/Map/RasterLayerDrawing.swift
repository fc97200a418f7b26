#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import FlybyCore
import FlybyData

/// The colour operations of a `raster` layer's paint (Style Specification, layers › raster), as
/// one affine map of premultiplied RGB: `c' = M · c + t · alpha`, applied in this order:
///
/// 1. `raster-hue-rotate` θ (degrees): a rotation of the colour about the grey axis (1, 1, 1)/√3
///    (Rodrigues' rotation formula), which turns hues and keeps greys.
/// 2. `raster-saturation` s (−1…1): the colour's distance from its grey (the mean of R, G, B)
///    times `1 + s` for s ≤ 0 (−1: grey) and `1/(1 − s)` for s > 0 (stronger with s; s is
///    limited to 0.999).
/// 3. `raster-contrast` k (−1…1): the distance from mid-grey 0.5 times `1 + k` for k ≤ 0 and
///    `1/(1 − k)` for k > 0 (likewise limited).
/// 4. `raster-brightness-min/max` (0…1): `c' = min + c · (max − min)`, mapping black to `min`
///    and white to `max`, as the specification describes the two properties.
///
/// The specification states what each property does, not a formula; these are Flyby's, chosen
/// to meet its descriptions (θ = 0, s = k = 0, min 0, max 1 change nothing). Results are clamped
/// to 0…alpha. `raster-opacity` then scales the whole pixel.
struct RasterPaint {
    var m: (Float, Float, Float, Float, Float, Float, Float, Float, Float) = (1, 0, 0, 0, 1, 0, 0, 0, 1)
    var t: (Float, Float, Float) = (0, 0, 0)
    var isIdentity = true
    /// `raster-opacity` × 255.
    var opacity: UInt32 = 255
    var nearest = false

    init(_ layer: StyleLayer, zoom z: Double) {
        opacity = UInt32((layer.number(.rasterOpacity, zoom: z) * 255).rounded())
        nearest = layer.string(.rasterResampling, zoom: z) == "nearest"
        let hue = layer.number(.rasterHueRotate, zoom: z) * Double.pi / 180
        let s = min(0.999, layer.number(.rasterSaturation, zoom: z))
        let k = min(0.999, layer.number(.rasterContrast, zoom: z))
        let lo = layer.number(.rasterBrightnessMin, zoom: z), hi = layer.number(.rasterBrightnessMax, zoom: z)
        guard hue != 0 || s != 0 || k != 0 || lo != 0 || hi != 1 else { return }
        isIdentity = false
        // Hue rotation about the grey axis.
        let c = cos(hue), sn = sin(hue), third = (1 - c) / 3, r3 = sn / 3.0.squareRoot()
        let a = c + third, b = third - r3, d = third + r3
        var mat: [Double] = [a, b, d, d, a, b, b, d, a]
        var off: [Double] = [0, 0, 0]
        // Saturation about the grey (mean), then contrast about 0.5, then brightness: compose.
        let fs = s > 0 ? 1 / (1 - s) : 1 + s
        let fc = k > 0 ? 1 / (1 - k) : 1 + k
        let sat: [Double] = (0..<9).map { i in (i % 4 == 0 ? fs : 0) + (1 - fs) / 3 }
        mat = RasterPaint.multiply(sat, mat)
        let span = hi - lo
        for i in 0..<9 { mat[i] *= fc * span }
        for i in 0..<3 { off[i] = (0.5 * (1 - fc)) * span + lo }
        m = (Float(mat[0]), Float(mat[1]), Float(mat[2]), Float(mat[3]), Float(mat[4]), Float(mat[5]),
             Float(mat[6]), Float(mat[7]), Float(mat[8]))
        t = (Float(off[0]), Float(off[1]), Float(off[2]))
    }

    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { i in
            let r = i / 3, c = i % 3
            return a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c]
        }
    }

    /// A premultiplied pixel through the colour map.
    @inline(__always)
    func apply(_ p: UInt32) -> UInt32 {
        let a = Float(p >> 24)
        let r = Float(p >> 16 & 0xFF), g = Float(p >> 8 & 0xFF), b = Float(p & 0xFF)
        func channel(_ v: Float) -> UInt32 { UInt32(min(max(v, 0), a) + 0.5) }
        let r2 = channel(m.0 * r + m.1 * g + m.2 * b + t.0 * a)
        let g2 = channel(m.3 * r + m.4 * g + m.5 * b + t.1 * a)
        let b2 = channel(m.6 * r + m.7 * g + m.8 * b + t.2 * a)
        return p & 0xFF00_0000 | r2 << 16 | g2 << 8 | b2
    }
}

/// The inverse of a frame's ground homography: screen pixel → unit Web Mercator.
struct InverseHomography {
    var i00, i01, i02, i10, i11, i12, i20, i21, i22: Double
    var originX, originY: Double

    init?(_ h: Homography) {
        let det = h.m00 * (h.m11 * h.m22 - h.m12 * h.m21) - h.m01 * (h.m10 * h.m22 - h.m12 * h.m20)
            + h.m02 * (h.m10 * h.m21 - h.m11 * h.m20)
        guard det != 0 && det.isFinite else { return nil }
        let s = 1 / det
        i00 = (h.m11 * h.m22 - h.m12 * h.m21) * s; i01 = (h.m02 * h.m21 - h.m01 * h.m22) * s; i02 = (h.m01 * h.m12 - h.m02 * h.m11) * s
        i10 = (h.m12 * h.m20 - h.m10 * h.m22) * s; i11 = (h.m00 * h.m22 - h.m02 * h.m20) * s; i12 = (h.m02 * h.m10 - h.m00 * h.m12) * s
        i20 = (h.m10 * h.m21 - h.m11 * h.m20) * s; i21 = (h.m01 * h.m20 - h.m00 * h.m21) * s; i22 = (h.m00 * h.m11 - h.m01 * h.m10) * s
        originX = h.originX; originY = h.originY
    }
}

extension MapRenderer {
    /// Draws a `raster` or `hillshade` layer: every screen pixel of this renderer's rows is mapped
    /// back to the map (the inverse ground homography, so bearing and pitch need nothing special)
    /// and sampled from the finest tile the frame holds there (``RasterFrame``): bilinear
    /// (`raster-resampling` `linear`, the default, and always for hillshade) or nearest, with
    /// 8-bit weights on the tile's pixel centres. Where the scale is one tile pixel per screen
    /// pixel (an integer zoom at the tile size's level, no bearing, no pitch), the layer is first
    /// moved by less than half a pixel so that tile pixel centres fall on screen pixel centres
    /// (MapLibre likewise draws raster tiles with a pixel-aligned matrix then, so they stay sharp),
    /// and rows are copied from the tile directly: each tile pixel lands on one screen pixel.
    ///
    /// In a sequence of frames a tile that has just appeared is mixed with the retained tiles
    /// under it, its weight rising over `raster-fade-duration` (``TileFade``; docs/raster.md).
    func drawRasterLayer(_ index: Int, _ layer: StyleLayer, _ g: FrameGeometry, _ view: PixelBufferView) {
        guard let tiles = rasters.layers[index], !tiles.images.isEmpty,
              var inv = InverseHomography(g.unitHomography(copy: 0)) else { return }
        let paint = RasterPaint(layer: layer, zoom: g.zoom)
        if paint.opacity == 0 { return }
        let rows = painter.rows
        let firstRow = g.pitched ? max(rows.lowerBound, Int(max(0, g.horizonY).rounded(.down))) : rows.lowerBound
        guard firstRow < rows.upperBound else { return }
        let affine = inv.i20 == 0 && inv.i21 == 0
        let axisAligned = affine && inv.i01 == 0 && inv.i10 == 0
        var lookup = RasterLookup(tiles)
        var under = rasters.retained[index].map(RasterLookup.init)
        if axisAligned { RasterLookup.snapToPixels(&inv, &lookup, width: width, height: height) }
        for y in firstRow..<rows.upperBound {
            let dst = view.row(y)
            let v = Double(y) + 0.5 - inv.originY
            var x = 0, end = width
            if let textureRegion {
                let span = textureRegion.spans[y]
                x = Int(span.x); end = Int(span.y)
            }
            while x < end {
                let u = Double(x) + 0.5 - inv.originX
                guard let at = RasterPoint(inv, u: u, v: v), let hit = lookup.find(at.x, at.y) else { x += 1; continue }
                let n = hit.size
                let sx = (at.x * hit.scale - hit.originX), sy = (at.y * hit.scale - hit.originY)   // tile pixels, 0…n
                if lookup.lastFade < 256, under != nil {
                    Self.drawFading(hit, sx, sy, at, lookup.lastFade, &under!, paint, into: dst + x)
                    x += 1
                    continue
                }
                if axisAligned {
                    // Exact copy when one tile pixel is one screen pixel and the centres coincide.
                    let step = inv.i00 * at.iw * hit.scale
                    let col = (sx - 0.5).rounded(), row = (sy - 0.5).rounded()
                    if abs(step - 1) < 1e-9 && abs(sx - 0.5 - col) < 1e-6 && abs(sy - 0.5 - row) < 1e-6 {
                        let c = min(max(Int(col), 0), n - 1), r = min(max(Int(row), 0), n - 1)
                        let count = min(end - x, n - c)
                        copySpan(hit.pixels + r * n + c, opaque: hit.isOpaque, count: count, paint, into: dst + x)
                        x += count
                        continue
                    }
                }
                paint.blend(paint.sample(hit, sx, sy), into: dst + x)
                x += 1
            }
        }
    }

    /// A pixel of a tile fading in (``TileFade``): its sample mixed with the retained tile's
    /// under it (`under`), then painted; the tile's alone where none is under it. Kept out of
    /// line so that the drawing loop's own sampling stays inlined.
    @inline(never)
    private static func drawFading(_ hit: RasterLookup.Hit, _ sx: Double, _ sy: Double, _ at: RasterPoint, _ weight: UInt32,
                                   _ under: inout RasterLookup, _ paint: RasterPaint, into dst: UnsafeMutablePointer<UInt32>) {
        var p = paint.sample(hit, sx, sy)
        if let old = under.find(at.x, at.y) {
            p = RasterSampling.lerp(paint.sample(old, at.x * old.scale - old.originX, at.y * old.scale - old.originY), p, weight)
        }
        paint.blend(p, into: dst)
    }

    @inline(__always)
    private func copySpan(_ src: UnsafePointer<UInt32>, opaque: Bool, count: Int, _ paint: RasterPaint,
                          into dst: UnsafeMutablePointer<UInt32>) {
        if paint.isIdentity && paint.opacity == 255 {
            if opaque { dst.update(from: src, count: count); return }
            for k in 0..<count {
                let p = src[k], a = p >> 24
                if a == 255 { dst[k] = p } else if a != 0 { dst[k] = PixelBlend.sourceOver(p, dst[k]) }
            }
        } else {
            for k in 0..<count { paint.blend(src[k], into: dst + k) }
        }
    }
}

extension RasterPaint {
    /// No colour change, opacity `opacity` (0…255), bilinear.
    init(opacity: UInt32) { self.opacity = opacity }

    /// The paint of a `raster` layer, or of a `hillshade` layer (its tiles are already shaded:
    /// drawn as they are).
    init(layer: StyleLayer, zoom z: Double) {
        self = layer.type == .hillshade ? RasterPaint(opacity: 255) : RasterPaint(layer, zoom: z)
    }

    /// The tile `hit` sampled at tile pixel (`sx`, `sy`) (0…size), nearest or bilinear.
    /// (Nearest sampling, the rarer, stays a call, so that the bilinear path inlines into the
    /// per-pixel loops: with both inlined Swift declined to inline this at all.)
    @inline(__always)
    func sample(_ hit: RasterLookup.Hit, _ sx: Double, _ sy: Double) -> UInt32 {
        if nearest { return Self.nearestSample(hit, sx, sy) }
        return RasterSampling.bilinear(hit.pixels, hit.size, sx, sy)
    }

    @inline(never)
    static func nearestSample(_ hit: RasterLookup.Hit, _ sx: Double, _ sy: Double) -> UInt32 {
        RasterSampling.nearest(hit.pixels, hit.size, sx, sy)
    }

    /// `source` through the colour map and the opacity, blended over `dst`.
    @inline(__always)
    func blend(_ source: UInt32, into dst: UnsafeMutablePointer<UInt32>) { dst.pointee = blend(source, over: dst.pointee) }

    /// `source` through the colour map and the opacity, over `dst` (premultiplied).
    @inline(__always)
    func blend(_ source: UInt32, over dst: UInt32) -> UInt32 {
        var p = isIdentity ? source : apply(source)
        if opacity != 255 { p = PixelBlend.scale(p, by: opacity) }
        let a = p >> 24
        return a == 255 ? p : a != 0 ? PixelBlend.sourceOver(p, dst) : dst
    }
}

/// The map point a frame pixel sees: the inverse homography at (`u`, `v`) (pixels from the
/// homography's origin), in unit Web Mercator with x brought into the primary world (0…1).
/// Nil behind the horizon or off the world's rows.
struct RasterPoint {
    let x: Double
    let y: Double
    /// 1 / the homogeneous w (for the axis-aligned copy's scale test); 0 for a point not found
    /// through a homography.
    let iw: Double

    @inline(__always)
    init?(_ inv: InverseHomography, u: Double, v: Double) {
        let pw = inv.i20 * u + inv.i21 * v + inv.i22
        guard pw > 0 else { return nil }
        let iw = 1 / pw
        self.init(unitX: (inv.i00 * u + inv.i01 * v + inv.i02) * iw, unitY: (inv.i10 * u + inv.i11 * v + inv.i12) * iw, iw: iw)
    }

    /// Unit Web Mercator point (`X`, `Y`), x brought into the primary world; nil off the world's rows.
    @inline(__always)
    init?(unitX X: Double, unitY Y: Double, iw: Double) {
        guard Y >= 0 && Y < 1 && X.isFinite else { return nil }
        x = X - RasterSampling.floor(X); y = Y; self.iw = iw
    }
}

/// Finds the tile over a map point, remembering the last one (a row crosses few tiles).
struct RasterLookup {
    let tiles: RasterFrame.LayerTiles
    var lastKey = (x: -1, y: -1)
    var last: Hit?
    /// The tile of ``last`` when no finer image lies under it (so it serves every key inside
    /// it), as its level's shift below the finest and its x, y.
    var lastLeaf: (shift: Int, x: Int, y: Int)?
    let finestScale: Double
    /// Whether the last tile found has no finer tile of the frame under it.
    var lastIsLeaf: Bool { lastLeaf != nil }

    /// The tile found: its pixels (alive while the frame's ``RasterFrame`` holds the image), size
    /// and opacity, and where it lies.
    struct Hit {
        let pixels: UnsafePointer<UInt32>
        let size: Int
        let isOpaque: Bool
        /// Tile pixels per unit Mercator at the tile's level (2^z · size), and the tile's origin in them.
        let scale: Double, originX: Double, originY: Double
    }
    /// The last tile's weight over the retained tiles under it while it fades in, in 1/256 (256:
    /// drawn fully; ``RasterFrame/LayerTiles/fading``). Kept out of ``Hit``, which the drawing
    /// loops copy per pixel.
    var lastFade: UInt32 = 256

    init(_ tiles: RasterFrame.LayerTiles) {
        self.tiles = tiles
        finestScale = Double(1 << tiles.finest)
    }

    /// Moves an unrotated, unpitched mapping by less than half a pixel so that, where one tile
    /// pixel is one screen pixel (at the tile under the screen centre), tile pixel centres fall
    /// on screen pixel centres.
    static func snapToPixels(_ inv: inout InverseHomography, _ lookup: inout RasterLookup, width: Int, height: Int) {
        let u = Double(width / 2) + 0.5 - inv.originX, v = Double(height / 2) + 0.5 - inv.originY
        let X = (inv.i00 * u + inv.i02) / inv.i22, Y = (inv.i11 * v + inv.i12) / inv.i22
        guard Y >= 0 && Y < 1 && X.isFinite, let hit = lookup.find(X - X.rounded(.down), Y) else { return }
        guard abs(inv.i00 / inv.i22 * hit.scale - 1) < 1e-9 && abs(inv.i11 / inv.i22 * hit.scale - 1) < 1e-9 else { return }
        let tx = X * hit.scale - 0.5, ty = Y * hit.scale - 0.5
        inv.i02 -= (tx - tx.rounded()) / hit.scale * inv.i22
        inv.i12 -= (ty - ty.rounded()) / hit.scale * inv.i22
    }

    /// The hit for unit point (x, y) in the primary world (0 ≤ x, y < 1).
    @inline(__always)
    mutating func find(_ x: Double, _ y: Double) -> Hit? {
        let kx = min(Int(x * finestScale), (1 << tiles.finest) - 1), ky = min(Int(y * finestScale), (1 << tiles.finest) - 1)
        if kx == lastKey.x && ky == lastKey.y { return last }
        lastKey = (kx, ky)
        if let leaf = lastLeaf, kx >> leaf.shift == leaf.x && ky >> leaf.shift == leaf.y { return last }
        last = nil
        lastLeaf = nil
        var z = tiles.finest
        while z >= tiles.coarsest {
            let shift = tiles.finest - z
            let id = TileID(z: z, x: kx >> shift, y: ky >> shift)
            if let image = tiles.images[id] {
                let n = Double(image.size)
                last = Hit(pixels: UnsafePointer(image.storage), size: image.size, isOpaque: image.isOpaque, scale: Double(1 << z) * n, originX: Double(id.x) * n, originY: Double(id.y) * n)
                lastFade = tiles.fading.isEmpty ? 256 : tiles.fading[id] ?? 256
                if !tiles.ancestors.contains(id) { lastLeaf = (shift, id.x, id.y) }
                break
            }
            z -= 1
        }
        return last
    }
}

/// Samples a tile at a point in its pixel coordinates (0…size, pixel centres at k + 0.5);
/// outside the tile the edge pixels are repeated.
enum RasterSampling {
    @inline(__always)
    static func nearest(_ px: UnsafePointer<UInt32>, _ n: Int, _ x: Double, _ y: Double) -> UInt32 {
        let c = min(max(Int(floor(x)), 0), n - 1), r = min(max(Int(floor(y)), 0), n - 1)
        return px[r * n + c]
    }

    /// Bilinear interpolation with weights in 1/256 steps, on premultiplied pixels (two channels
    /// per 32-bit lane, as ``PixelBlend`` does).
    ///
    /// In fixed point: t = ⌊256·(x − ½) + ½⌋ is the sample position in 1/256 texels rounded half
    /// up: its high bits are the left texel, its low 8 bits the right texel's weight (a fraction
    /// that rounds to a whole texel moves to the next texel with weight 0: the same pixel). The
    /// sum is taken 256 texels up, so that it is non-negative down to x = −255.5 and its floor a
    /// truncation. (The sum rounds to the double nearest; only a position within 2^−36 of a
    /// half-step can round to the other weight.)
    @inline(__always)
    static func bilinear(_ px: UnsafePointer<UInt32>, _ n: Int, _ x: Double, _ y: Double) -> UInt32 {
        let tx = floorInt(x * 256 + 65_408.5) - 65_536, ty = floorInt(y * 256 + 65_408.5) - 65_536
        let wx = UInt32(truncatingIfNeeded: tx & 255), wy = UInt32(truncatingIfNeeded: ty & 255)
        let cx = tx >> 8, cy = ty >> 8
        let x0 = min(max(cx, 0), n - 1), y0 = min(max(cy, 0), n - 1)
        let x1 = min(max(cx + 1, 0), n - 1), y1 = min(max(cy + 1, 0), n - 1)
        let r0 = px + y0 * n, r1 = px + y1 * n
        let top = lerp(r0[x0], r0[x1], wx)
        let bottom = lerp(r1[x0], r1[x1], wx)
        return lerp(top, bottom, wy)
    }

    /// ⌊x⌋, exactly as `x.rounded(.down)`, without a libm call where 0 ≤ x < 2^53 (there
    /// truncation is the floor, and every sampled coordinate on the map is there).
    @inline(__always)
    static func floor(_ x: Double) -> Double {
        x >= 0 && x < 9_007_199_254_740_992 ? Double(Int(x)) : x.rounded(.down)
    }

    /// ⌊x⌋ as an integer; a truncation where 0 ≤ x < 2^53.
    @inline(__always)
    static func floorInt(_ x: Double) -> Int {
        x >= 0 && x < 9_007_199_254_740_992 ? Int(x) : Int(x.rounded(.down))
    }

    /// `a · (256 − w) + b · w`, / 256 rounded, per channel; w is 0…256.
    @inline(__always)
    static func lerp(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
        if w == 0 { return a }
        if w >= 256 { return b }
        let iw = 256 - w
        let rb = ((a & 0x00FF_00FF) &* iw &+ (b & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8 & 0x00FF_00FF
        let ag = (((a >> 8) & 0x00FF_00FF) &* iw &+ ((b >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080) & 0xFF00_FF00
        return rb | ag
    }
}
