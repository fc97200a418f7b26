/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
/// a small seeded generator, so the soak, the benchmark scenes and random tests repeat exactly.
/// Not for anything that needs unpredictability.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A uniform Double in [0, 1) (the top 53 bits).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// A uniform Double in [lo, hi).
    public mutating func range(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }
    /// An integer in 0..<n (n > 0; modulo bias is below 2⁻⁵⁰ for the small n used here).
    public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
