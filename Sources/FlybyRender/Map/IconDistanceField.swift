import FlybyCore

extension GlyphDistanceField {
    /// Texels per "em" of an icon's field: the glyph fields' resolution, so one byte step is
    /// 1/6 image pixel and the bytes reach ±21 image pixels from the edge.
    static let iconTexelsPerEm: Float = 48

    /// The distance field of an `sdf: true` sprite image, for ``GlyphFieldPainter`` (Style
    /// Specification, "Sprite": SDF icons are recoloured by `icon-color` and get `icon-halo-*`).
    ///
    /// Two kinds of images are read:
    /// - **A distance field** (what sprite tools write for `sdf: true`, as MapLibre draws them): the
    ///   alpha is `255 · (0.75 − d / 8)` for a signed distance `d` in image pixels (positive
    ///   outside), so the edge is alpha 192 and one pixel is 32 alpha steps. It is decoded as
    ///   `d = 6 − 8 · alpha / 255`; the field covers the image (the image's own border is its padding).
    /// - **A plain alpha mask** (coverage, as an ordinary icon): recognised because fewer than half
    ///   of its non-transparent pixels are partly transparent (a distance field's alpha ramps over
    ///   eight pixels, so nearly all of it is). Its field is computed: pixels with alpha ≥ 128 are
    ///   inside; each pixel's distance is the exact Euclidean distance between pixel centres to
    ///   the nearest pixel of the other side less half a pixel (``DistanceTransform``), and pixels
    ///   on the edge (alpha strictly between 0 and 255) take `0.5 − alpha / 255`. The field is
    ///   padded by ``iconMaskPadding`` pixels all round, so a halo can reach past the image.
    ///
    /// Units: image pixels; texel `(i, j)` is image pixel `(i + originX, j + originY)`.
    init(sdfIcon image: PixelBuffer) {
        let w = image.width, h = image.height
        let perTexel = GlyphDistanceField.quantaPerEm / GlyphDistanceField.iconTexelsPerEm
        func alpha(_ x: Int, _ y: Int) -> Int {
            x >= 0 && y >= 0 && x < w && y < h ? Int(image.pixels[y * w + x] >> 24) : 0
        }
        var nonZero = 0, partial = 0
        for p in image.pixels {
            let a = p >> 24
            if a != 0 { nonZero += 1; if a != 255 { partial += 1 } }
        }
        let isMask = 2 * partial < nonZero
        let pad = isMask ? GlyphDistanceField.iconMaskPadding : 0
        let fw = max(2, w + 2 * pad), fh = max(2, h + 2 * pad)
        var values = [UInt8](repeating: 0, count: fw * fh)
        func store(_ k: Int, _ d: Float) { values[k] = UInt8(min(max(128 + d * perTexel, 0), 255).rounded()) }
        if !isMask {
            for j in 0..<fh {
                for i in 0..<fw { store(j * fw + i, 6 - 8 * Float(alpha(i, j)) / 255) }
            }
        } else {
            // Squared distances to the nearest inside pixel and to the nearest outside pixel.
            let n = fw * fh, far = Double(4 * n * n + 1)
            var toInside = [Double](repeating: far, count: n), toOutside = toInside
            for j in 0..<fh {
                for i in 0..<fw {
                    if alpha(i - pad, j - pad) >= 128 { toInside[j * fw + i] = 0 } else { toOutside[j * fw + i] = 0 }
                }
            }
            var nearest = [Int](repeating: 0, count: n)
            DistanceTransform.nearestSeeds(&toInside, nearest: &nearest, width: fw, height: fh)
            DistanceTransform.nearestSeeds(&toOutside, nearest: &nearest, width: fw, height: fh)
            for j in 0..<fh {
                for i in 0..<fw {
                    let k = j * fw + i, a = alpha(i - pad, j - pad)
                    let d: Float
                    if a > 0 && a < 255 {
                        d = 0.5 - Float(a) / 255
                    } else if a >= 128 {
                        d = toOutside[k] >= far ? -Float(max(fw, fh)) : 0.5 - Float(toOutside[k].squareRoot())
                    } else {
                        d = toInside[k] >= far ? Float(max(fw, fh)) : Float(toInside[k].squareRoot()) - 0.5
                    }
                    store(k, d)
                }
            }
        }
        texelsPerEm = GlyphDistanceField.iconTexelsPerEm
        width = fw; height = fh; originX = -pad; originY = -pad
        inkMin = SIMD2(0, 0); inkMax = SIMD2(Float(fw - 1), Float(fh - 1))
        self.values = values
    }

    /// Border added around a plain-mask SDF icon's field, in image pixels.
    static let iconMaskPadding = 4
}
