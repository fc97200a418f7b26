import Dispatch
import FlybyCore

/// The signed distance from every texel of a small grid to a glyph's outline, sampled once at a
/// fixed resolution and then drawn at any size, angle and sub-pixel position (see
/// ``GlyphFieldPainter``).
///
/// The technique is C. Green, "Improved Alpha-Tested Magnification for Vector Textures and Special
/// Effects", SIGGRAPH 2007 Courses: a glyph's distance field, bilinearly sampled, gives the
/// distance to the outline at any point, so the text and a halo around it are both thresholds of
/// one sample.
///
/// How a field is made: the texels the outline's segments pass through are the seeds; the exact
/// Euclidean distance transform of P. Felzenszwalb and D. Huttenlocher, "Distance Transforms of
/// Sampled Functions", Theory of Computing 8 (2012), finds every texel's nearest seed, and the
/// texel's distance is then measured exactly to the outline segments at and around that seed. The
/// sign comes from the outline's coverage of the texel rasterized by ``PathFiller`` (0 or 1:
/// outside or inside) and, for the texels the outline cuts, from the non-zero winding number at
/// the texel's centre. Measuring to the segments rather than to seed centres matters: the plain
/// transform of a thresholded raster is off by up to half a texel, which showed as edges up to
/// 0.17 px too sharp at 16 px (both sides of a stem biased outward).
///
/// Units and spaces: a texel is `1 / texelsPerEm` em. Texel `(i, j)` has its centre at
/// `(originX + i + 0.5, originY + j + 0.5)` texels from the glyph's pen position on the baseline,
/// y down (the space of ``GlyphOutline`` scaled to `texelsPerEm` pixels per em). Distances are
/// stored as bytes: `(value − 128) / quantaPerEm` em, positive outside the glyph.
struct GlyphDistanceField: Sendable {
    /// Texels per em of a field made at full resolution: 4× oversampled for 12 px labels.
    static let baseTexelsPerEm = 48
    /// Stored steps per em (1/6 texel at 48 texels per em; 1/24 px for a 12 px label).
    static let quantaPerEm: Float = 288
    /// Free border around the outline, in em: the widest halo the style spec allows is a quarter of
    /// the text size (``GlyphFieldPainter`` clamps wider ones), plus half a pixel of anti-aliasing
    /// at sizes down to 4 px, plus a texel for the bilinear neighbour.
    static let paddingEm: Float = 20.0 / 48
    /// Largest width or height in texels; bigger glyphs are sampled at half the resolution, then a
    /// quarter…, so no single field exceeds `maxSide²` bytes even for a malformed font.
    static let maxSide = 256

    /// Texels per em of this field (``baseTexelsPerEm`` unless the glyph is huge).
    var texelsPerEm: Float
    var width: Int, height: Int
    /// Position of the field's top-left corner in texels from the pen position (y down).
    var originX: Int, originY: Int
    /// The ink box (outline bounds) in sample coordinates (texel `i` has sample coordinate `i`).
    var inkMin: SIMD2<Float>, inkMax: SIMD2<Float>
    /// `width · height` encoded distances, row by row.
    var values: [UInt8]

    /// Bytes held by this field (its values; the rest is a few words).
    var byteCount: Int { values.count }

    /// The distance in texels at sample coordinates `(u, v)` (texel `(i, j)` at `(i, j)`),
    /// bilinearly interpolated; outside the grid the nearest border texel's value.
    func distanceTexels(u: Float, v: Float) -> Float {
        let uc = min(max(u, 0), Float(width - 1)), vc = min(max(v, 0), Float(height - 1))
        let i = min(Int(uc), width - 2), j = min(Int(vc), height - 2)
        let fu = uc - Float(i), fv = vc - Float(j)
        func at(_ x: Int, _ y: Int) -> Float { Float(values[y * width + x]) }
        let top = at(i, j) + (at(i + 1, j) - at(i, j)) * fu
        let bottom = at(i, j + 1) + (at(i + 1, j + 1) - at(i, j + 1)) * fu
        return (top + (bottom - top) * fv - 128) / GlyphDistanceField.quantaPerEm * texelsPerEm
    }

    /// The field of `glyph` of `font`, or nil for a glyph without contours (a space).
    /// - Throws: ``FontError`` if the glyph data is malformed.
    init?(glyph: GlyphID, of font: TrueTypeFont) throws(FontError) {
        var resolution = Float(GlyphDistanceField.baseTexelsPerEm)
        // Curves flattened to 1/20 texel: the field then follows the true outline, not a polygon.
        var outline = try font.outline(of: glyph, pixelSize: resolution, tolerance: 0.05)
        guard !outline.isEmpty else { return nil }
        func side(_ o: GlyphOutline, _ r: Float) -> Float {
            max(o.boundsMax.x - o.boundsMin.x, o.boundsMax.y - o.boundsMin.y) + 2 * (GlyphDistanceField.paddingEm * r).rounded(.up) + 2
        }
        while side(outline, resolution) > Float(GlyphDistanceField.maxSide) && resolution > 1 {
            resolution /= 2
            outline = try font.outline(of: glyph, pixelSize: resolution, tolerance: 0.05)
        }
        guard side(outline, resolution).isFinite else { return nil }
        self.init(outline: outline, texelsPerEm: resolution)
    }

    /// The field of `outline`, given in texels (``GlyphOutline`` at `texelsPerEm` pixels per em).
    init(outline: GlyphOutline, texelsPerEm: Float) {
        let pad = Int((GlyphDistanceField.paddingEm * texelsPerEm).rounded(.up))
        let x0 = Int(outline.boundsMin.x.rounded(.down)) - pad, y0 = Int(outline.boundsMin.y.rounded(.down)) - pad
        let w = Int(outline.boundsMax.x.rounded(.up)) - x0 + pad, h = Int(outline.boundsMax.y.rounded(.up)) - y0 + pad
        self.texelsPerEm = texelsPerEm
        width = w; height = h; originX = x0; originY = y0
        inkMin = outline.boundsMin - SIMD2(Float(x0) + 0.5, Float(y0) + 0.5)
        inkMax = outline.boundsMax - SIMD2(Float(x0) + 0.5, Float(y0) + 0.5)

        // Segments in texel-grid coordinates (texel (i, j) is the square [i, i+1) × [j, j+1)).
        var segments: [(a: SIMD2<Double>, b: SIMD2<Double>)] = []
        var path = Path()
        for contour in outline.contours {
            path.beginContour()
            var previous = contour[contour.count - 1]
            for p in contour {
                let a = SIMD2(Double(previous.x) - Double(x0), Double(previous.y) - Double(y0))
                let b = SIMD2(Double(p.x) - Double(x0), Double(p.y) - Double(y0))
                segments.append((a, b))
                path.appendPoint(ScreenPoint(x: b.x, y: b.y))
                previous = p
            }
            path.endContour(closed: true, minimumCount: 3)
        }
        // Coverage of every texel by the outline (non-zero, as the glyph is drawn).
        var coverage = PixelBuffer(width: w, height: h)
        var filler = PathFiller(width: w, height: h)
        coverage.withView { filler.fill(path, premultiplied: 0xFF00_0000, rule: .nonZero, into: $0) }

        // Buckets: the segments whose bounding box meets each texel (compressed rows).
        var start = [Int](repeating: 0, count: w * h + 1)
        func texelRange(_ s: (a: SIMD2<Double>, b: SIMD2<Double>)) -> (ClosedRange<Int>, ClosedRange<Int>) {
            let lo = pointwiseMin(s.a, s.b), hi = pointwiseMax(s.a, s.b)
            let i0 = max(0, Int(lo.x.rounded(.down))), i1 = min(w - 1, Int(hi.x.rounded(.down)))
            let j0 = max(0, Int(lo.y.rounded(.down))), j1 = min(h - 1, Int(hi.y.rounded(.down)))
            return (i0...max(i0, i1), j0...max(j0, j1))
        }
        for s in segments {
            let (ii, jj) = texelRange(s)
            for j in jj { for i in ii { start[j * w + i + 1] += 1 } }
        }
        for k in 0..<(w * h) { start[k + 1] += start[k] }
        var fill = start
        var members = [Int](repeating: 0, count: start[w * h])
        for (n, s) in segments.enumerated() {
            let (ii, jj) = texelRange(s)
            for j in jj { for i in ii { members[fill[j * w + i]] = n; fill[j * w + i] += 1 } }
        }

        // Nearest seed texel of every texel.
        var squared = (0..<(w * h)).map { start[$0 + 1] > start[$0] ? 0.0 : 1e20 }
        var nearest = [Int](repeating: 0, count: w * h)
        DistanceTransform.nearestSeeds(&squared, nearest: &nearest, width: w, height: h)

        // Candidates of each seed: the segments of the 5 × 5 texels around it, each once. (The
        // nearest seed by centre can lie on another stroke than the nearest segment, up to about
        // 1.4 texels farther; 3 × 3 missed some, measured as 0.2 px errors at 16 px.)
        var candidateStart = [Int](repeating: 0, count: w * h + 1)
        var candidates: [Int] = []
        var lastSeed = [Int](repeating: -1, count: segments.count)
        for t in 0..<(w * h) {
            candidateStart[t] = candidates.count
            guard start[t + 1] > start[t] else { continue }
            let ti = t % w, tj = t / w
            for nj in max(0, tj - 2)...min(h - 1, tj + 2) {
                for ni in max(0, ti - 2)...min(w - 1, ti + 2) {
                    let u = nj * w + ni
                    for m in start[u]..<start[u + 1] where lastSeed[members[m]] != t {
                        lastSeed[members[m]] = t
                        candidates.append(members[m])
                    }
                }
            }
        }
        candidateStart[w * h] = candidates.count

        let quantaPerTexel = Double(GlyphDistanceField.quantaPerEm) / Double(texelsPerEm)
        let farthest = 128 / quantaPerTexel + 1.5   // beyond it every value clamps
        var inside = [Int](repeating: 0, count: w)
        values = [UInt8](repeating: 255, count: w * h)
        for j in 0..<h {
            GlyphDistanceField.windings(atRowCentre: Double(j) + 0.5, segments, into: &inside)
            for i in 0..<w {
                let k = j * w + i
                let a = coverage.pixels[k] >> 24
                let isInside = a == 255 || (a != 0 && inside[i] != 0)
                var best = squared[k]
                if best.squareRoot() < farthest {
                    // Exact distance to the nearest seed's candidate segments.
                    let centre = SIMD2(Double(i) + 0.5, Double(j) + 0.5)
                    best = .infinity
                    for m in candidateStart[nearest[k]]..<candidateStart[nearest[k] + 1] {
                        best = min(best, GlyphDistanceField.squaredDistance(centre, segments[candidates[m]]))
                    }
                }
                let d = best.squareRoot() * (isInside ? -1 : 1) * quantaPerTexel
                values[k] = UInt8(min(255, max(0, (d + 128).rounded())))
            }
        }
    }

    /// The squared distance from `p` to the segment `s`.
    static func squaredDistance(_ p: SIMD2<Double>, _ s: (a: SIMD2<Double>, b: SIMD2<Double>)) -> Double {
        let ab = s.b - s.a, ap = p - s.a
        let length = (ab * ab).sum()
        let t = length > 0 ? min(1, max(0, (ap * ab).sum() / length)) : 0
        let d = ap - ab * t
        return (d * d).sum()
    }

    /// The winding numbers of the closed polygons made of `segments` around the texel centres
    /// `(i + 0.5, y)` of one row, `i` in `0..<winding.count`: the signed count of edges crossing
    /// the row to the right of each centre (upward edges +1, downward −1, ends half-open).
    static func windings(atRowCentre y: Double, _ segments: [(a: SIMD2<Double>, b: SIMD2<Double>)],
                         into winding: inout [Int]) {
        for i in winding.indices { winding[i] = 0 }
        for (a, b) in segments {
            let up = a.y > y && b.y <= y, down = a.y <= y && b.y > y
            guard up || down else { continue }
            let x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
            // Centres left of the crossing: i + 0.5 < x.
            let count = min(winding.count, max(0, Int((x - 0.5).rounded(.up))))
            let step = down ? 1 : -1
            for i in 0..<count { winding[i] += step }
        }
    }
}

/// The exact squared Euclidean distance transform of sampled functions: for every grid point
/// `q`, `min over p of |q − p|² + f(p)` and the `p` where it is reached (Felzenszwalb &
/// Huttenlocher 2012, §2–3), in time linear in the number of points: the lower envelope of the
/// parabolas rooted at each sample is built once, then read off left to right. In 2-D it runs
/// over the columns (for a seed image, two scans suffice), then the rows.
enum DistanceTransform {
    /// Replaces `f` (row-major `width × height` values, `≥ 0`: 0 at the seeds, huge elsewhere) by
    /// its squared-distance transform and sets `nearest[k]` to the index of the grid point where
    /// point `k`'s minimum is reached (its nearest seed).
    static func nearestSeeds(_ f: inout [Double], nearest: inout [Int], width: Int, height: Int) {
        let n = max(width, height)
        guard width > 0, height > 0, f.count >= width * height, nearest.count >= width * height else { return }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * n) { ints in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * n + 1) { doubles in
                let roots = ints.baseAddress.unsafelyUnwrapped, argmin = roots + n
                let input = doubles.baseAddress.unsafelyUnwrapped, output = input + n, bounds = input + 2 * n
                f.withUnsafeMutableBufferPointer { fb in
                    nearest.withUnsafeMutableBufferPointer { nb in
                        let f = fb.baseAddress.unsafelyUnwrapped, near = nb.baseAddress.unsafelyUnwrapped
                        // Columns: with 0/huge input each column's transform is the squared
                        // distance to the nearest seed in it, found by a scan down and a scan up
                        // (the first phase of Meijster, Roerdink & Hesselink 2000); `near` holds
                        // that seed's row (ties go up).
                        for x in 0..<width {
                            var above = -1
                            for y in 0..<height {
                                if f[y * width + x] == 0 { above = y }
                                near[y * width + x] = above
                            }
                            var below = -1
                            for y in stride(from: height - 1, through: 0, by: -1) {
                                let k = y * width + x
                                if f[k] == 0 { below = y }
                                let up = near[k]
                                let seed = up < 0 ? below : below < 0 || y - up <= below - y ? up : below
                                near[k] = max(seed, 0)
                                if seed >= 0 { f[k] = Double((y - seed) * (y - seed)) }
                            }
                        }
                        // Rows: the minimum over columns x' of (x − x')² + the column minimum at (x', y).
                        for y in 0..<height {
                            let row = y * width
                            for x in 0..<width { input[x] = f[row + x] }
                            transform1D(width, input, output, argmin, roots, bounds)
                            for x in 0..<width { argmin[x] = near[row + argmin[x]] * width + argmin[x] }
                            for x in 0..<width {
                                f[row + x] = output[x]
                                near[row + x] = argmin[x]
                            }
                        }
                    }
                }
            }
        }
    }

    /// `output[q] = min over p of (q − p)² + input[p]`, reached at `argmin[q]`, for `q` in `0..<n`;
    /// `roots` (n) and `bounds` (n + 1) are scratch: the lower envelope's parabola roots and the
    /// boundaries between them (parabola `k` is lowest on `bounds[k]…bounds[k+1]`).
    private static func transform1D(_ n: Int, _ input: UnsafeMutablePointer<Double>, _ output: UnsafeMutablePointer<Double>,
                                    _ argmin: UnsafeMutablePointer<Int>, _ roots: UnsafeMutablePointer<Int>,
                                    _ bounds: UnsafeMutablePointer<Double>) {
        guard n > 0 else { return }
        var k = 0
        roots[0] = 0
        bounds[0] = -.infinity
        bounds[1] = .infinity
        var q = 1
        while q < n {
            // Where parabola q meets the envelope's last one; drop envelope parabolas it hides.
            let fq = input[q] + Double(q * q)
            var s: Double
            while true {
                let r = roots[k]
                s = (fq - (input[r] + Double(r * r))) / Double(2 * (q - r))
                if s > bounds[k] || k == 0 { break }
                k -= 1
            }
            k += 1
            roots[k] = q
            bounds[k] = s
            bounds[k + 1] = .infinity
            q += 1
        }
        k = 0
        for q in 0..<n {
            while bounds[k + 1] < Double(q) { k += 1 }
            let r = roots[k], d = q - r
            output[q] = Double(d * d) + input[r]
            argmin[q] = r
        }
    }
}

/// Distance fields of one font's glyphs, made on first use and kept: keyed by glyph only, so a
/// moving or zooming camera reuses them as much as a still one.
///
/// Memory: ``byteCount`` counts the field bytes held; when adding a field would pass
/// ``byteBudget`` the cache starts over (results never depend on what is cached). A field is at
/// most ``GlyphDistanceField/maxSide``² = 64 KB, so the worst case is `byteBudget + 64 KB` of
/// field values plus ~100 bytes of bookkeeping per glyph; a Latin label set at 48 texels per em
/// takes ~4.5 KB per glyph (about 2 MB for 400 glyphs of both fonts).
public struct GlyphFieldCache: Sendable {
    /// The font whose glyphs are cached.
    public let font: TrueTypeFont
    /// The most field bytes kept before the cache starts over.
    public let byteBudget: Int
    /// Field bytes now held.
    public private(set) var byteCount = 0
    /// Fields by glyph; nil for glyphs without contours or whose data is malformed.
    private var fields: [GlyphID: GlyphDistanceField?] = [:]

    public init(font: TrueTypeFont, byteBudget: Int = 4 << 20) {
        self.font = font
        self.byteBudget = max(0, byteBudget)
    }

    /// Number of glyphs looked up since the cache last started over.
    public var count: Int { fields.count }

    /// The field of `glyph`, or nil when it has no ink (a space) or its data is malformed (such a
    /// glyph is left out of the drawing, never a crash).
    mutating func field(_ glyph: GlyphID) -> GlyphDistanceField? {
        if let cached = fields[glyph] { return cached }
        let made: GlyphDistanceField?
        do { made = try GlyphDistanceField(glyph: glyph, of: font) } catch { made = nil }
        let bytes = made?.byteCount ?? 0
        if byteCount + bytes > byteBudget {
            fields.removeAll(keepingCapacity: true)
            byteCount = 0
        }
        fields[glyph] = .some(made)
        byteCount += bytes
        return made
    }

    /// Makes the fields of those of `glyphs` not cached yet on every core at once, then caches
    /// them in `glyphs` order (so the cache ends as ``field(_:)`` called in that order leaves it).
    /// A glyph's field takes about 2.8 M instructions (the attribution's ~35 glyphs were a tenth
    /// of a cold first frame); the fields do not depend on the thread that made them.
    mutating func prepare(_ glyphs: [GlyphID]) {
        var missing: [GlyphID] = []
        for g in glyphs where fields[g] == nil && !missing.contains(g) { missing.append(g) }
        guard missing.count > 1 else { return }
        let (font, todo) = (font, missing)
        let made = GlyphDistanceField.concurrently(todo.count) { k -> GlyphDistanceField? in
            do { return try GlyphDistanceField(glyph: todo[k], of: font) } catch { return nil }
        }
        adopt(missing, made)
    }

    /// Caches `made[k]`, the field of `glyphs[k]` made elsewhere (``GlyphFieldPrewarm``), for those
    /// glyphs not cached yet, in `glyphs` order (as ``prepare(_:)`` caches them).
    mutating func adopt(_ glyphs: [GlyphID], _ made: [GlyphDistanceField?]) {
        for (k, g) in glyphs.enumerated() where k < made.count && fields[g] == nil {
            let bytes = made[k]?.byteCount ?? 0
            if byteCount + bytes > byteBudget {
                fields.removeAll(keepingCapacity: true)
                byteCount = 0
            }
            fields[g] = .some(made[k])
            byteCount += bytes
        }
    }
}

/// The distance fields of some glyphs of a built-in font, made on a background thread while the
/// frame that will draw them is prepared (a cold first frame drew the attribution's ~35 glyph
/// fields, ~100 M instructions, after everything else). ``fields()`` waits for them. A field is a
/// pure function of its glyph, so the pixels do not depend on which thread made it or when.
final class GlyphFieldPrewarm: @unchecked Sendable {
    let glyphs: [GlyphID]
    private let group = DispatchGroup()
    /// Written once by the background job, read only after `group` has finished.
    private var made: [GlyphDistanceField?] = []

    /// Starts making the fields of `glyphs` of `font` (each once, in first-seen order).
    init(glyphs: [GlyphID], font: TrueTypeFont) {
        var unique: [GlyphID] = []
        for g in glyphs where !unique.contains(g) { unique.append(g) }
        self.glyphs = unique
        let todo = unique
        DispatchQueue.global().async(group: group) { [self] in
            made = GlyphDistanceField.concurrently(todo.count) { k -> GlyphDistanceField? in
                do { return try GlyphDistanceField(glyph: todo[k], of: font) } catch { return nil }
            }
        }
    }

    /// The fields, `fields()[k]` that of `glyphs[k]` (waits for the background job).
    func fields() -> [GlyphDistanceField?] {
        group.wait()
        return made
    }
}

extension GlyphDistanceField {
    /// `make(0) … make(count − 1)`, computed on every core at once (`DispatchQueue.concurrentPerform`),
    /// in index order. `make` must depend only on its index (fields are pure functions of a glyph).
    static func concurrently(_ count: Int, _ make: @Sendable (Int) -> GlyphDistanceField?) -> [GlyphDistanceField?] {
        var results = [GlyphDistanceField?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let base = out.baseAddress.unsafelyUnwrapped
            DispatchQueue.concurrentPerform(iterations: count) { k in
                base[k] = make(k)   // each slot written by one iteration only
            }
        }
        return results
    }
}
