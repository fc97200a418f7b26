#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Thin wrappers over libm for the map renderer (the raster core stays free of libm).

@inline(__always) func mapCos(_ x: Double) -> Double { cos(x) }
@inline(__always) func mapSin(_ x: Double) -> Double { sin(x) }
@inline(__always) func mapAtan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) func mapLog10(_ x: Double) -> Double { log10(x) }
@inline(__always) func mapLog2(_ x: Double) -> Double { log2(x) }
@inline(__always) func mapExp2(_ x: Double) -> Double { exp2(x) }
@inline(__always) func mapPow(_ x: Double, _ y: Double) -> Double { pow(x, y) }

/// Squared distance from point p to the segment a–b (to a when a = b).
@inline(__always)
func pointSegmentDistanceSquared(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
    let dx = bx - ax, dy = by - ay
    let len2 = dx * dx + dy * dy
    let t = len2 > 0 ? min(max(((px - ax) * dx + (py - ay) * dy) / len2, 0), 1) : 0
    let ex = ax + t * dx - px, ey = ay + t * dy - py
    return ex * ex + ey * ey
}
