import FlybyCore
@testable import FlybyRender
import Testing

/// The filler's crossing rounding (`roundToInt32`) must give exactly what the truncating
/// conversion it replaced gave, or filled pixels would change.
@Suite struct FixedPointRoundingTests {
    /// The replaced formula: bias, truncate with a checked `Int64(_:)`, unbias.
    static func truncated(_ v: Double) -> Int32 {
        Int32(truncatingIfNeeded: Int64(v + 1_073_741_824.5) &- 1_073_741_824)
    }

    @Test func roundingMatchesTruncation() {
        var rng = SplitMix64(seed: 4)
        var values: [Double] = [0, -0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999, -0.50000000001,
                                536_870_911.5, -536_870_911.5, 1e-300, -1e-300]
        for _ in 0..<200_000 {
            // Crossings as the filler makes them: a fixed-point distance times a slope.
            let d = Double(Int32.random(in: -400_000...400_000, using: &rng))
            let slope = Double.random(in: -3...3, using: &rng)
            values.append(d * slope)
            // Half-integers and their neighbours, where the two roundings could disagree.
            let k = Double(Int.random(in: -300_000_000...300_000_000, using: &rng))
            values += [k, k + 0.5, (k + 0.5).nextUp, (k + 0.5).nextDown, k.nextDown, k.nextUp]
            values.append(Double.random(in: -536_870_911...536_870_911, using: &rng))
        }
        let mismatches = values.filter { roundToInt32($0) != FixedPointRoundingTests.truncated($0) }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }
}
