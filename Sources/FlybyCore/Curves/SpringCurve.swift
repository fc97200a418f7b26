#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A spring timing curve from a damping ratio, the counterpart of UIKit's
/// `UIViewPropertyAnimator(duration:dampingRatio:)`, whose constants are not published.
///
/// Model: a unit mass on a spring released at rest from 0 toward 1, a damped harmonic oscillator
/// x″ + 2ζω·x′ + ω²·x = ω² with ζ = `dampingRatio` (0 < ζ; ζ < 1 oscillates, ζ = 1 is critically
/// damped, ζ > 1 creeps). Time is the fraction of the duration (0…1). The natural frequency ω is
/// chosen so the motion has **settled by the end**: the envelope of |1 − x| is 0.1 %
/// (`settleTolerance`) at t = 1, i.e. ω = ln(1 / (ε·√(1 − ζ²))) / ζ for ζ < 1, and the smallest ω
/// with (1 + ω·t)·e^(−ω·t) ≤ ε at t = 1 for ζ ≥ 1 (solved once by bisection). The value at t ≥ 1
/// is exactly 1, which hides the last ≤ 0.1 %. ζ is clamped to 0.05…10: below 0.05 the curve would
/// ring for hundreds of cycles.
public struct SpringCurve: Hashable, Sendable {
    public static let settleTolerance = 1e-3
    public let dampingRatio: Double
    /// Natural angular frequency, radians per unit time.
    public let omega: Double

    public init(dampingRatio: Double) {
        let zeta = min(max(dampingRatio.isFinite ? dampingRatio : 1, 0.05), 10)
        self.dampingRatio = zeta
        let eps = SpringCurve.settleTolerance
        if zeta < 1 {
            omega = log(1 / (eps * (1 - zeta * zeta).squareRoot())) / zeta
        } else {
            // Overdamped motion is slower than critical; the slow exponent is ω(ζ − √(ζ²−1)).
            // Find ω with envelope(1) = ε by bisection on a monotone function.
            func envelope(_ w: Double) -> Double {
                if zeta == 1 { return (1 + w) * exp(-w) }
                let s = (zeta * zeta - 1).squareRoot()
                let r1 = -w * (zeta - s), r2 = -w * (zeta + s)
                // x = 1 − (r2·e^{r1 t} − r1·e^{r2 t}) / (r2 − r1)
                return abs((r2 * exp(r1) - r1 * exp(r2)) / (r2 - r1))
            }
            var lo = 0.1, hi = 10_000.0
            for _ in 0..<200 {
                let mid = (lo + hi) / 2
                if envelope(mid) > eps { lo = mid } else { hi = mid }
            }
            omega = hi
        }
    }

    /// Position (0 → 1, may overshoot when ζ < 1) at time fraction t.
    @inlinable
    public func value(_ t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= 1 { return 1 }
        let z = dampingRatio, w = omega
        if z < 1 {
            let wd = w * (1 - z * z).squareRoot()
            return 1 - exp(-z * w * t) * (cos(wd * t) + z * w / wd * sin(wd * t))
        } else if z == 1 {
            return 1 - (1 + w * t) * exp(-w * t)
        } else {
            let s = (z * z - 1).squareRoot()
            let r1 = -w * (z - s), r2 = -w * (z + s)
            return 1 - (r2 * exp(r1 * t) - r1 * exp(r2 * t)) / (r2 - r1)
        }
    }
}
