import FlybyCore

/// A pattern image (`fill-pattern`, `background-pattern`) fixed to the ground, and the map from
/// frame pixels to its texels.
///
/// Anchoring (Style Specification, `fill-pattern`; MapLibre anchors patterns to the tile grid):
/// at the integer zoom `Z = ⌊zoom⌋` one image pixel covers `1 / imageRatio` points of the world
/// at `Z` (512 · 2^Z points around the world), so an `@2x` image's pixels are half as large on
/// screen and a pattern pixel stays on the same ground point when the map pans. Between integer
/// zooms the pattern grows with the map by `2^(zoom − Z)`; at each integer zoom it snaps back to
/// its image size. Pitched and rotated frames: each pixel centre is taken back to the ground
/// through the inverse of the frame's ground homography (a projective map, so per pixel two
/// divisions) and the texel is read there.
///
/// Sampling is **nearest**: at integer zooms a pixel-art pattern is drawn crisp and exactly (a
/// 2× image at pixel ratio 2 equals the 1× image at ratio 1 scaled up); far away in a pitched
/// frame it aliases, as nearest sampling does. Texel space: `u` east, `v` south, image pixels,
/// wrapped (the image repeats; any size is accepted, no power of two needed).
struct WorldPattern {
    /// The image's premultiplied pixels, row by row.
    let pixels: [UInt32]
    let width: Int
    let height: Int
    /// Texel offsets of the frame pixel centre (x + ½, y + ½) from the reference texel, as the
    /// projective map `u = (ux·x + uy·y + u0) / (wx·x + wy·y + w0)` (likewise `v`).
    let ux, uy, u0, vx, vy, v0, wx, wy, w0: Double
    let inverseWidth, inverseHeight: Double

    /// The pattern of `image` (`imageRatio` image pixels per point) drawn at `zoom` (the
    /// point-sized map's zoom) through `h`, the unit-Mercator → frame-pixel homography of world
    /// copy 0 (translated as the layer is), around the unit point (`cx`, `cy`) near the frame's
    /// centre (only used to keep the numbers small). Nil for an empty image.
    init?(image: PixelBuffer, imageRatio: Double, zoom: Double, h: Homography, cx: Double, cy: Double) {
        guard image.width > 0, image.height > 0, imageRatio > 0, zoom.isFinite else { return nil }
        pixels = image.pixels
        width = image.width
        height = image.height
        inverseWidth = 1 / Double(image.width)
        inverseHeight = 1 / Double(image.height)
        // Texels per unit Mercator at the integer zoom.
        let s = WebMercator.worldSize(zoom: zoom.rounded(.down)) * imageRatio
        // A reference ground point at a whole number of image repeats, so texel offsets from it
        // are small and the repeat phase is exact.
        let rx = (cx * s / Double(width)).rounded(.down) * Double(width) / s
        let ry = (cy * s / Double(height)).rounded(.down) * Double(height) / s
        // M maps texel offsets (du, dv, 1) to homogeneous frame coordinates relative to h's origin.
        let m00 = h.m00 / s, m01 = h.m01 / s, m02 = h.m02 + h.m00 * rx + h.m01 * ry
        let m10 = h.m10 / s, m11 = h.m11 / s, m12 = h.m12 + h.m10 * rx + h.m11 * ry
        let m20 = h.m20 / s, m21 = h.m21 / s, m22 = h.m22 + h.m20 * rx + h.m21 * ry
        // Its adjugate maps frame coordinates back (projectively, the inverse).
        let a00 = m11 * m22 - m12 * m21, a01 = m02 * m21 - m01 * m22, a02 = m01 * m12 - m02 * m11
        let a10 = m12 * m20 - m10 * m22, a11 = m00 * m22 - m02 * m20, a12 = m02 * m10 - m00 * m12
        let a20 = m10 * m21 - m11 * m20, a21 = m01 * m20 - m00 * m21, a22 = m00 * m11 - m01 * m10
        // Frame pixel centre (x + ½, y + ½) relative to the origin: X = x + ½ − ox.
        let ox = 0.5 - h.originX, oy = 0.5 - h.originY
        ux = a00; uy = a01; u0 = a00 * ox + a01 * oy + a02
        vx = a10; vy = a11; v0 = a10 * ox + a11 * oy + a12
        wx = a20; wy = a21; w0 = a20 * ox + a21 * oy + a22
        guard [ux, uy, u0, vx, vy, v0, wx, wy, w0].allSatisfy(\.isFinite) else { return nil }
    }

    /// The premultiplied texel under frame pixel (`x`, `y`); 0 where the pixel does not see
    /// the ground (behind the camera, or too far for the texel arithmetic).
    ///
    /// A pure function of the pixel (no stepping from a neighbour), so bands and fills that
    /// start at different columns read the same texels. One division per pixel; the repeat is
    /// taken with a multiply by the reciprocal of the image size instead of integer divisions.
    @inline(__always)
    func texel(x: Int, y: Int) -> UInt32 {
        let fx = Double(x), fy = Double(y)
        let inverse = 1 / (wx * fx + wy * fy + w0)
        let u = (ux * fx + uy * fy + u0) * inverse, v = (vx * fx + vy * fy + v0) * inverse
        guard abs(u) < 1e15, abs(v) < 1e15 else { return 0 }
        let fw = Double(width), fh = Double(height)
        var i = FastMath.floor(u - fw * Double(FastMath.floor(u * inverseWidth)))
        var j = FastMath.floor(v - fh * Double(FastMath.floor(v * inverseHeight)))
        // The reciprocal can leave the remainder one repeat off at the edge.
        if i >= width { i -= width } else if i < 0 { i += width }
        if j >= height { j -= height } else if j < 0 { j += height }
        return pixels[min(max(j, 0), height - 1) * width + min(max(i, 0), width - 1)]
    }
}

extension MapRenderer {
    /// The world-anchored pattern of image `name` for this frame through `h` (see
    /// ``WorldPattern``); nil when no image of that name exists (the caller draws the layer's
    /// plain colour instead and the missing image is reported once, as for icons).
    func worldPattern(_ name: String, _ g: FrameGeometry, _ h: Homography) -> WorldPattern? {
        guard !name.isEmpty, let image = images[name] else { return nil }
        let ratio = imageInfo[name]?.pixelRatio ?? 1
        // The frame draws `pixelRatio` pixels per point; g.zoom is the point-sized map's zoom,
        // while h is in frame pixels, so the pattern's texels per frame pixel already include it.
        return WorldPattern(image: image, imageRatio: ratio, zoom: g.zoom, h: h,
                            cx: g.transform.centerX / g.worldSize, cy: g.transform.centerY / g.worldSize)
    }

    /// Blends `pattern` × `opacity` over the pixels of `rect` (clipped to this renderer's rows).
    func fillPattern(_ pattern: WorldPattern, opacity: Double, rect: PixelRect, _ view: PixelBufferView) {
        let r = rect.intersection(painter.rowRect)
        guard !r.isEmpty else { return }
        let k = UInt32(min(255, max(0, (opacity * 255).rounded())))
        guard k != 0 else { return }
        for y in r.minY..<r.maxY {
            let row = view.row(y)
            for x in r.minX..<r.maxX {
                var t = pattern.texel(x: x, y: y)
                if k != 255 { t = PixelBlend.scale(t, by: k) }
                if t != 0 { row[x] = PixelBlend.sourceOver(t, row[x]) }
            }
        }
    }

    /// Fills `path` with `pattern` × `opacity` under the non-zero rule: the path's coverage is
    /// rasterised into ``patternMask`` (the same anti-aliased coverage a plain fill gets), then
    /// each covered pixel takes its texel scaled by coverage and opacity; the mask is cleared
    /// behind.
    mutating func fillPath(_ path: Path, pattern: WorldPattern, opacity: Double, _ view: PixelBufferView) {
        guard let b = path.finiteBounds else { return }
        let k = UInt32(min(255, max(0, (opacity * 255).rounded())))
        guard k != 0 else { return }
        var mask = patternMask ?? PixelBuffer(width: width, height: height)
        patternMask = nil
        defer { patternMask = mask }
        let box = PixelRect(minX: Int(max(-1, b.minX).rounded(.down)), minY: Int(max(-1, b.minY).rounded(.down)),
                            maxX: Int(min(Double(width) + 1, b.maxX).rounded(.up)),
                            maxY: Int(min(Double(height) + 1, b.maxY).rounded(.up)))
            .intersection(view.bounds).intersection(painter.rowRect)
        guard !box.isEmpty else { return }
        mask.withView { m in
            painter.fill(path, color: .white, rule: .nonZero, into: m)
            MapRenderer.compositeCoverage(m, box: box, opacity: k, into: view) { x, y in pattern.texel(x: x, y: y) }
        }
    }

    /// Blends, over `box`, the colour `colorAt(x, y)` (premultiplied; nil: nothing) of every
    /// pixel the coverage scratch `mask` covers, × its coverage × `opacity` (0…255), and clears
    /// the scratch behind.
    @inline(__always)
    static func compositeCoverage(_ mask: PixelBufferView, box: PixelRect, opacity k: UInt32, into view: PixelBufferView,
                                  _ colorAt: (Int, Int) -> UInt32?) {
        for y in box.minY..<box.maxY {
            let cover = mask.row(y), row = view.row(y)
            for x in box.minX..<box.maxX {
                let c = cover[x] >> 24
                guard c != 0 else { continue }
                cover[x] = 0
                guard let color = colorAt(x, y) else { continue }
                let t = PixelBlend.scale(color, by: (c * k + 127) / 255)
                if t != 0 { row[x] = PixelBlend.sourceOver(t, row[x]) }
            }
        }
    }
}
