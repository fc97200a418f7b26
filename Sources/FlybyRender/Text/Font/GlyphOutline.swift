/// A glyph ready for a non-zero fill: closed polygons in **pixels, y down**, with the origin at the
/// glyph's pen position on the baseline (so the top of a capital has negative y).
///
/// Quadratic Bézier segments are flattened to line segments so that no point of the curve is
/// farther than the tolerance from the polygon (see ``TrueTypeFont/outline(of:pixelSize:tolerance:)``).
/// Each contour is implicitly closed: its last point connects back to its first, which is not
/// repeated. As in the font, outer contours run clockwise as seen on screen and holes
/// counter-clockwise (the shoelace area Σ(xᵢ·yᵢ₊₁ − xᵢ₊₁·yᵢ)/2 of an outer contour is positive in
/// these y-down coordinates); fill with the non-zero rule. Overlapping contours (common in
/// composites) are fine under non-zero.
public struct GlyphOutline: Sendable, Equatable {
    /// Closed polygons, pixels, y down, relative to the pen position on the baseline.
    public var contours: [[SIMD2<Float>]]
    /// Horizontal advance in pixels.
    public var advance: Float
    /// The smallest box holding every point (both corners `.zero` when there are no contours).
    public var boundsMin: SIMD2<Float>
    public var boundsMax: SIMD2<Float>

    public init(contours: [[SIMD2<Float>]], advance: Float) {
        self.contours = contours
        self.advance = advance
        var lo = SIMD2<Float>(repeating: .infinity), hi = SIMD2<Float>(repeating: -.infinity)
        for contour in contours {
            for p in contour {
                lo = pointwiseMin(lo, p)
                hi = pointwiseMax(hi, p)
            }
        }
        if lo.x > hi.x { lo = .zero; hi = .zero }
        boundsMin = lo
        boundsMax = hi
    }

    /// Whether there is nothing to fill (space).
    public var isEmpty: Bool { contours.isEmpty }

    /// The outline moved by `offset` pixels (to place a glyph at its layout position).
    public func translated(by offset: SIMD2<Float>) -> GlyphOutline {
        var copy = self
        copy.contours = contours.map { $0.map { $0 + offset } }
        copy.boundsMin += offset
        copy.boundsMax += offset
        return copy
    }
}

extension TrueTypeFont {
    /// The flattened outline of `glyph` at `pixelSize`, in pixels, y down, origin at the pen position
    /// on the baseline.
    /// - Parameters:
    ///   - pixelSize: the em size in pixels (font size), > 0.
    ///   - tolerance: the largest distance in pixels between the true curve and the polygon
    ///     (default 0.2 px, below what anti-aliasing shows).
    /// - Throws: ``FontError`` if the glyph data is malformed.
    public func outline(of glyph: GlyphID, pixelSize: Float, tolerance: Float = 0.2) throws(FontError) -> GlyphOutline {
        guard pixelSize.isFinite, pixelSize > 0, tolerance.isFinite, tolerance > 0 else {
            throw FontError(font: name, message: "pixel size \(pixelSize) and tolerance \(tolerance) must be positive and finite")
        }
        let raw = try contours(of: glyph)
        let s = scale(forPixelSize: pixelSize)
        return GlyphOutline(contours: GlyphFlattener.flatten(raw, scale: SIMD2(s, -s), tolerance: tolerance),
                            advance: Float(advanceWidth(of: glyph)) * s)
    }

    /// The flattened outline of the glyph for `scalar` (`.notdef` when the font lacks it).
    public func outline(of scalar: Unicode.Scalar, pixelSize: Float, tolerance: Float = 0.2) throws(FontError) -> GlyphOutline {
        try outline(of: glyphID(for: scalar), pixelSize: pixelSize, tolerance: tolerance)
    }
}

/// Turns TrueType quadratic contours into polygons.
enum GlyphFlattener {
    /// The most line segments one quadratic becomes.
    static let maxSegmentsPerCurve = 64

    /// Flattens every contour after scaling points by `scale` (use a negative y scale for y down).
    ///
    /// A quadratic B(t) with control points p0, p1, p2 has constant second derivative
    /// 2(p0 − 2p1 + p2); a chord over a parameter step h deviates from the curve by at most
    /// |p0 − 2p1 + p2|·h²/4. With n equal steps that is below `tolerance` when
    /// n ≥ √(|p0 − 2p1 + p2| / (4·tolerance)), so each curve gets its own n (adaptive per curve).
    static func flatten(_ glyph: GlyphContours, scale: SIMD2<Float>, tolerance: Float) -> [[SIMD2<Float>]] {
        let tol = max(tolerance, 1e-3)
        var result: [[SIMD2<Float>]] = []
        var start = 0
        for end in glyph.contourEnds {
            defer { start = end }
            let count = end - start
            guard count >= 2 else { continue }
            let pts = (start..<end).map { glyph.points[$0] * scale }
            let on = Array(glyph.onCurve[start..<end])
            // Start at an on-curve point, or at the implied midpoint when every point is off-curve.
            let first = on.firstIndex(of: true)
            let startPoint = first.map { pts[$0] } ?? (pts[count - 1] + pts[0]) * 0.5
            let rotation = first ?? 0
            var polygon: [SIMD2<Float>] = [startPoint]
            var current = startPoint
            var control: SIMD2<Float>?
            func lineTo(_ p: SIMD2<Float>) {
                if p != polygon[polygon.count - 1] { polygon.append(p) }
                current = p
            }
            func quadTo(_ c: SIMD2<Float>, _ p: SIMD2<Float>) {
                let d = current - 2 * c + p
                let deviation = (d * d).sum().squareRoot()
                let q = (deviation / (4 * tol)).squareRoot().rounded(.up)
                let n = q.isFinite ? min(maxSegmentsPerCurve, max(1, Int(min(q, Float(maxSegmentsPerCurve))))) : maxSegmentsPerCurve
                let p0 = current
                for i in 1...n {
                    let t = Float(i) / Float(n), u = 1 - t
                    lineTo(i == n ? p : u * u * p0 + 2 * u * t * c + t * t * p)
                }
            }
            // Visit every point once after the start, ending on the start point itself; when every
            // point is off-curve, visit 0 … count−1 and close through the pending control point.
            for k in 1...count {
                let i = first == nil ? k - 1 : (rotation + k) % count
                let p = pts[i]
                if on[i] {
                    if let c = control { quadTo(c, p); control = nil } else { lineTo(p) }
                } else if let c = control {
                    quadTo(c, (c + p) * 0.5)
                    control = p
                } else {
                    control = p
                }
            }
            if let c = control { quadTo(c, startPoint) }
            if polygon.count > 1 && polygon[polygon.count - 1] == polygon[0] { polygon.removeLast() }
            if polygon.count >= 3 { result.append(polygon) }
        }
        return result
    }
}
