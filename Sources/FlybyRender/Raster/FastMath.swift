/// Rounding and min/max of `Double`s for per-pixel and per-row code, without libm calls (a
/// baseline x86-64 build calls `round`/`floor`/`ceil` out of line for `.rounded(_:)`) or the
/// range checks of `Int(_:)`. Every function is exact and deterministic in IEEE double arithmetic.
enum FastMath {
    /// `x` rounded to the nearest integer (ties to even) for |x| < 2^51: adding 1.5 · 2^52 leaves
    /// the integer in the low mantissa bits (the classic "magic number" rounding).
    @inline(__always)
    static func nearest(_ x: Double) -> Int {
        let magic = 6_755_399_441_055_744.0
        return Int(truncatingIfNeeded: (x + magic).bitPattern &- magic.bitPattern)
    }

    /// ⌊x⌋ for |x| < 2^51, from ``nearest(_:)``.
    @inline(__always)
    static func floor(_ x: Double) -> Int {
        let i = nearest(x)
        return Double(i) > x ? i &- 1 : i
    }

    /// ⌈x⌉ for |x| < 2^51.
    @inline(__always)
    static func ceil(_ x: Double) -> Int { 0 &- floor(-x) }

    /// The smaller of `x` and `y` (`y` when they are equal or either is NaN): the form that
    /// compiles to one `minsd`, where `Swift.min` on `Double` does too but `Swift.max` (which
    /// prefers `y` on ties, `y >= x ? y : x`) cannot use `maxsd` and takes a compare-and-select.
    @inline(__always)
    static func smaller(_ x: Double, _ y: Double) -> Double { x < y ? x : y }

    /// The larger of `x` and `y` (`y` when they are equal or either is NaN): one `maxsd` (see
    /// ``smaller(_:_:)``).
    @inline(__always)
    static func larger(_ x: Double, _ y: Double) -> Double { x > y ? x : y }
}
