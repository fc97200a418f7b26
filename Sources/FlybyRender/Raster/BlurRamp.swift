/// A soft edge drawn as nested shapes: an opacity that ramps from 0 at a shape's outer edge to
/// full `ramp` pixels inside it (`line-blur`, `circle-blur` of the Style Specification) is painted
/// as `count` shapes, each one the last shrunk by `ramp / count` px, drawn one over the other in
/// one colour. Each is anti-aliased by its covered area, so the steps (≤ 1 px apart) blend into a
/// smooth ramp about `ramp + 1` px wide, as MapLibre's (its ramp adds one pixel of antialiasing).
///
/// Source-over blending does not add alphas, so each shape's alpha is chosen to make the stack's
/// alpha the profile's: after shapes 1…i, alpha · level(i / count) (see ``stepAlpha(_:level:previous:)``).
public enum BlurRamp {
    /// The most nested shapes of one edge (a wider ramp takes steps wider than a pixel).
    public static let maximumSteps = 48

    /// The number of shapes for a ramp of `ramp` pixels: one per pixel, 1 … ``maximumSteps``.
    public static func stepCount(ramp: Double) -> Int {
        guard ramp.isFinite, ramp > 0 else { return 1 }
        return max(1, min(maximumSteps, Int(ramp.rounded(.up))))
    }

    /// Calls `body(inset, level, previousLevel)` for each shape from the outermost in: `inset` is
    /// how far inside the outer edge its edge lies, as a fraction of the ramp ((i − ½) / count);
    /// the levels are the profile after this shape and before it (0 … 1).
    public static func forEachStep(count: Int, level: (Double) -> Double, _ body: (Double, Double, Double) -> Void) {
        var previous = 0.0
        for i in 1...max(1, count) {
            let now = level(Double(i) / Double(count))
            body((Double(i) - 0.5) / Double(count), now, previous)
            previous = now
        }
    }

    /// The alpha factor (of the colour's own alpha `alpha`, 0 … 1) of the shape that raises the
    /// stack from `alpha · previous` to `alpha · level`: 1 − (1 − αL) / (1 − αP), divided by α.
    public static func stepAlpha(_ alpha: Double, level: Double, previous: Double) -> Double {
        guard alpha > 0 else { return 0 }
        let below = 1 - alpha * previous
        guard below > 1e-9 else { return 0 }
        return max(0, min(1, (1 - (1 - alpha * level) / below) / alpha))
    }

    /// A linear ramp (`line-blur`).
    public static func linear(_ t: Double) -> Double { t }

    /// The smoothstep ramp t²(3 − 2t) that MapLibre's circles use (`circle-blur`).
    public static func smooth(_ t: Double) -> Double { t * t * (3 - 2 * t) }
}
