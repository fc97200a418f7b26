/// A cubic Bézier timing function through (0, 0), (x1, y1), (x2, y2), (1, 1), as in CSS and
/// Core Animation: `solve(x)` returns y for a time fraction x.
///
/// Solver: the WebKit `UnitBezier` method described in docs/research/mapbox-camera-viewport.md §4 and
/// docs/research/maplibre-camera-algorithms.md §7 — polynomial coefficients c = 3·p1, b = 3·(p2 − p1) − c,
/// a = 1 − c − b; up to 8 Newton steps on x(t) = x, then bisection; ε = 1e-7 here (tighter than
/// the 1e-6 of GL JS so two platforms agree to the trace precision).
public struct UnitBezier: Hashable, Sendable {
    public let x1: Double, y1: Double, x2: Double, y2: Double
    @usableFromInline let ax: Double, bx: Double, cx: Double
    @usableFromInline let ay: Double, by: Double, cy: Double

    /// - Parameters: control points; x1 and x2 are clamped to 0…1 so x(t) is monotonic.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        let x1 = min(max(x1, 0), 1), x2 = min(max(x2, 0), 1)
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
        cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
    }

    @inlinable func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inlinable func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inlinable func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The parameter t with x(t) = x, for x in 0…1.
    @inlinable
    public func solveCurveX(_ x: Double, epsilon: Double = 1e-7) -> Double {
        var t = x
        for _ in 0..<8 {
            let err = sampleX(t) - x
            if abs(err) < epsilon { return t }
            let d = sampleDerivativeX(t)
            if abs(d) < 1e-6 { break }
            t -= err / d
        }
        var lo = 0.0, hi = 1.0
        t = x
        if t < lo { return lo }
        if t > hi { return hi }
        while lo < hi {
            let v = sampleX(t)
            if abs(v - x) < epsilon { return t }
            if x > v { lo = t } else { hi = t }
            let next = (hi - lo) * 0.5 + lo
            if next == t { return t }
            t = next
        }
        return t
    }

    /// y at time fraction x; exact 0 and 1 at the ends, x clamped to 0…1.
    @inlinable
    public func solve(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return sampleY(solveCurveX(x))
    }
}
