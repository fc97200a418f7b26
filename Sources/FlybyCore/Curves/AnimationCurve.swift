/// A timing curve: maps the fraction of an animation's time (0…1) to the fraction of its change.
///
/// The named cases are the UIKit / Core Animation / CSS curves (`UIView.AnimationCurve`), used by
/// `ease(to:)` and `makeAnimator(curve:)`: easeIn (0.42, 0, 1, 1), easeOut (0, 0, 0.58, 1),
/// easeInOut (0.42, 0, 0.58, 1). `TimingCurve` holds Mapbox's own, more aggressive family.
public enum AnimationCurve: Hashable, Sendable {
    case linear
    case easeIn
    case easeOut
    case easeInOut
    /// A cubic Bézier through the two control points.
    case cubicBezier(UnitBezier)
    /// A damped spring that settles by the end of the duration.
    case spring(SpringCurve)

    /// Cubic Bézier from control points (x1, y1), (x2, y2).
    public static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> AnimationCurve {
        .cubicBezier(UnitBezier(x1, y1, x2, y2))
    }

    /// A spring curve with a damping ratio (1 = critically damped).
    public static func spring(dampingRatio: Double) -> AnimationCurve { .spring(SpringCurve(dampingRatio: dampingRatio)) }

    /// The curves with a name, in the order the flight-script error text and the soak list them:
    /// the one table from which flight scripts parse `"curve": "easeIn"`, FlybyMaps names its
    /// `ViewportAnimation`s and the soak picks curves. A new named curve is a case and a row here.
    public static let named: [(name: String, curve: AnimationCurve)] = [
        ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInOut", .easeInOut),
    ]

    /// The named curve called `name` (``named``), or nil.
    public init?(name: String) {
        guard let hit = AnimationCurve.named.first(where: { $0.name == name }) else { return nil }
        self = hit.curve
    }

    /// This curve's name in ``named``; nil for a Bézier or a spring.
    public var name: String? { AnimationCurve.named.first { $0.curve == self }?.name }

    @usableFromInline static let easeInBezier = UnitBezier(0.42, 0, 1, 1)
    @usableFromInline static let easeOutBezier = UnitBezier(0, 0, 0.58, 1)
    @usableFromInline static let easeInOutBezier = UnitBezier(0.42, 0, 0.58, 1)

    /// The eased fraction at time fraction `t` (clamped to 0…1; exactly 0 and 1 at the ends).
    @inlinable
    public func value(at t: Double) -> Double {
        switch self {
        case .linear: return min(max(t, 0), 1)
        case .easeIn: return AnimationCurve.easeInBezier.solve(t)
        case .easeOut: return AnimationCurve.easeOutBezier.solve(t)
        case .easeInOut: return AnimationCurve.easeInOutBezier.solve(t)
        case .cubicBezier(let b): return b.solve(t)
        case .spring(let s): return s.value(t)
        }
    }
}

/// Mapbox's `TimingCurve` family (used by `fly(to:)` and the viewport transitions). Its easeIn and
/// easeOut differ from UIKit's: easeIn (0.58, 0, 1, 1), easeOut (0, 0, 0.42, 1)
/// (docs/research/mapbox-camera-viewport.md §4).
public struct TimingCurve: Hashable, Sendable {
    public let bezier: UnitBezier

    public init(p1: (Double, Double), p2: (Double, Double)) { bezier = UnitBezier(p1.0, p1.1, p2.0, p2.1) }

    public static let linear = TimingCurve(p1: (0, 0), p2: (1, 1))
    public static let easeIn = TimingCurve(p1: (0.58, 0), p2: (1, 1))
    public static let easeOut = TimingCurve(p1: (0, 0), p2: (0.42, 1))
    public static let easeInOut = TimingCurve(p1: (0.42, 0), p2: (0.58, 1))

    /// As an `AnimationCurve`, for APIs that take any curve.
    public var animationCurve: AnimationCurve { .cubicBezier(bezier) }
}
