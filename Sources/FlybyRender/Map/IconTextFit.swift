import FlybyCore

/// `icon-text-fit` (Style Specification, layout property of symbol layers): the icon is
/// stretched around its label's box — in `width`, `height` or `both` — grown by
/// `icon-text-fit-padding` (`[top, right, bottom, left]`, points). With the sprite's `content`
/// box the content area (not the whole image) is what covers the label; with `stretchX` /
/// `stretchY` only those columns / rows stretch and the rest keep their size × `icon-size`
/// (the rounded ends of a shield stay round), else the whole image is scaled.
enum IconTextFit {
    /// The largest side of a stretched icon in frame pixels (a 10⁶-character label asks for more).
    static let maximumSide = 4096

    /// The icon's rectangle relative to the label's anchor, in frame pixels (before the label's
    /// rotation): `text` is the label's box there, `own` the icon's box as laid out without fitting.
    static func rectangle(fit: String, padding p: [Double], text: (x: Double, y: Double, w: Double, h: Double),
                          own: (x: Double, y: Double, w: Double, h: Double), image: (w: Int, h: Int),
                          info: SpriteImageInfo?, scale k: Double) -> (x: Double, y: Double, w: Double, h: Double) {
        let top = p.count == 4 ? p[0] : 0, right = p.count == 4 ? p[1] : 0
        let bottom = p.count == 4 ? p[2] : 0, left = p.count == 4 ? p[3] : 0
        let c = info?.content ?? (0, 0, Double(image.w), Double(image.h))
        var r = own
        if fit == "width" || fit == "both" {
            let x0 = text.x - left, x1 = text.x + text.w + right
            r.x = x0 - c.left * k
            r.w = (x1 - x0) + (Double(image.w) - (c.right - c.left)) * k
        }
        if fit == "height" || fit == "both" {
            let y0 = text.y - top, y1 = text.y + text.h + bottom
            r.y = y0 - c.top * k
            r.h = (y1 - y0) + (Double(image.h) - (c.bottom - c.top)) * k
        }
        r.w = min(max(r.w, 1), Double(maximumSide)); r.h = min(max(r.h, 1), Double(maximumSide))
        return r
    }

    /// `image` resampled (bilinear, premultiplied) to `width × height` frame pixels: each axis
    /// mapped piecewise linearly so the fixed parts keep `scale` frame pixels per image pixel and
    /// the stretch zones share the rest in proportion to their lengths; when the fixed parts do not
    /// fit, or there are no zones, the axis is scaled evenly.
    static func stretched(_ image: PixelBuffer, width: Int, height: Int, info: SpriteImageInfo?, scale k: Double) -> PixelBuffer {
        let xs = axis(length: image.width, zones: info?.stretchX ?? [], target: Double(width), scale: k)
        let ys = axis(length: image.height, zones: info?.stretchY ?? [], target: Double(height), scale: k)
        var out = PixelBuffer(width: width, height: height)
        let iw = image.width, ih = image.height
        func texel(_ i: Int, _ j: Int) -> UInt32 { image.pixels[min(max(j, 0), ih - 1) * iw + min(max(i, 0), iw - 1)] }
        for y in 0..<height {
            let v = source(ys, Double(y) + 0.5) - 0.5
            let vi = Int(v.rounded(.down)), fv = UInt32(min(255, max(0, (v - Double(vi)) * 256)))
            for x in 0..<width {
                let u = source(xs, Double(x) + 0.5) - 0.5
                let ui = Int(u.rounded(.down)), fu = UInt32(min(255, max(0, (u - Double(ui)) * 256)))
                out.pixels[y * width + x] = bilinear(texel(ui, vi), texel(ui + 1, vi), texel(ui, vi + 1), texel(ui + 1, vi + 1), fu, fv)
            }
        }
        return out
    }

    /// Breakpoints `(target, source)` of one axis, both ascending from (0, 0) to (target, length).
    static func axis(length: Int, zones: [ClosedRange<Double>], target: Double, scale k: Double) -> [(Double, Double)] {
        let total = Double(length)
        let stretchable = zones.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
        let fixed = total - stretchable
        guard stretchable > 0, fixed * k <= target else { return [(0, 0), (target, total)] }
        let perZoneUnit = (target - fixed * k) / stretchable
        var points: [(Double, Double)] = [(0, 0)]
        var t = 0.0, s = 0.0
        for z in zones {
            t += (z.lowerBound - s) * k; s = z.lowerBound
            points.append((t, s))
            t += (z.upperBound - z.lowerBound) * perZoneUnit; s = z.upperBound
            points.append((t, s))
        }
        points.append((target, total))
        return points
    }

    /// The source coordinate of target coordinate `t` on the piecewise-linear axis.
    static func source(_ points: [(Double, Double)], _ t: Double) -> Double {
        for k in 1..<points.count where t <= points[k].0 || k == points.count - 1 {
            let (t0, s0) = points[k - 1], (t1, s1) = points[k]
            return t1 > t0 ? s0 + (t - t0) / (t1 - t0) * (s1 - s0) : s1
        }
        return points.last?.1 ?? 0
    }
}
