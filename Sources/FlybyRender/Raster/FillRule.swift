/// Which points a path's contours enclose.
public enum FillRule: Hashable, Sendable {
    /// Inside where the winding number is not zero: overlapping contours of the same direction
    /// merge; a hole must run the other way (RFC 7946 rings do).
    case nonZero
    /// Inside where the winding number is odd: every nested contour toggles, whatever its direction.
    case evenOdd
}

/// Turns an accumulated signed coverage into an 8-bit alpha under one fill rule.
///
/// Coverage is in units of 1/``CoverageUnits/full`` of a pixel (see ``PathFiller``). Generic
/// specialisation (same module) keeps the rule out of the per-pixel code path.
@usableFromInline
protocol CoverageRule {
    static func alpha(_ coverage: Int32) -> UInt32
}

@usableFromInline
enum CoverageUnits {
    /// One fully covered pixel: 2 · 256 · 256 (area doubled, 8 fractional bits in x and y).
    static let full: Int32 = 1 << 17
}

/// `round(min(|c|, 1) · 255)`: winding numbers beyond ±1 count as fully inside.
@usableFromInline
enum NonZeroRule: CoverageRule {
    @inline(__always) @usableFromInline
    static func alpha(_ coverage: Int32) -> UInt32 {
        let a = min(coverage < 0 ? 0 &- coverage : coverage, CoverageUnits.full)
        return UInt32(truncatingIfNeeded: (a &* 255 &+ (1 << 16)) >> 17)
    }
}

/// Coverage folded into 0…1 with period 2 (a triangle wave): odd windings inside, even outside.
@usableFromInline
enum EvenOddRule: CoverageRule {
    @inline(__always) @usableFromInline
    static func alpha(_ coverage: Int32) -> UInt32 {
        var a = (coverage < 0 ? 0 &- coverage : coverage) & (2 &* CoverageUnits.full &- 1)
        if a > CoverageUnits.full { a = 2 &* CoverageUnits.full &- a }
        return UInt32(truncatingIfNeeded: (a &* 255 &+ (1 << 16)) >> 17)
    }
}
