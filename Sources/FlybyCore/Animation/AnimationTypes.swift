/// Who started an animation; animations are cancelled by owner. Mapbox's `AnimationOwner`.
///
/// Raw values are short names, used as they are in flight scripts (`"owner": "tour"`,
/// `{"cancel": {"owners": ["cameraAnimationsManager"]}}`).
public struct AnimationOwner: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Reserved for gesture-driven animations.
    public static let gestures = AnimationOwner(rawValue: "gestures")
    /// The default owner of `makeAnimator`.
    public static let unspecified = AnimationOwner(rawValue: "unspecified")
    /// The compass ornament.
    public static let compass = AnimationOwner(rawValue: "compass")
    /// `ease(to:)`, `fly(to:)`, pan deceleration, double-tap and two-finger-tap zoom.
    public static let cameraAnimationsManager = AnimationOwner(rawValue: "cameraAnimationsManager")
    /// Viewport transitions.
    public static let defaultViewportTransition = AnimationOwner(rawValue: "defaultViewportTransition")

    public var description: String { rawValue }
}

/// The kind of an animation, for cancelling by type (Mapbox's internal `AnimationType`).
public enum AnimationType: Hashable, Sendable {
    case unspecified
    case deceleration
}

/// Where an animation ended: UIKit's `UIViewAnimatingPosition`.
public enum UIViewAnimatingPosition: String, Hashable, Sendable {
    /// At the to-values: it finished.
    case end
    /// At the from-values (a reversed animation that ran back to its start).
    case start
    /// Wherever it was: it was stopped or cancelled.
    case current
}

/// UIKit's `UIViewAnimatingState`: inactive before start and after completion, active while
/// running or paused. (`stopped` is only transient: stopping finishes at `.current` at once.)
public enum UIViewAnimatingState: Hashable, Sendable {
    case inactive
    case active
    case stopped
}

/// A completion handler, told where the animation ended.
public typealias AnimationCompletion = (UIViewAnimatingPosition) -> Void

/// A camera animation with an identity, an owner and a lifecycle (Mapbox's `CameraAnimator`).
public protocol CameraAnimator: Cancelable {
    /// Creation order within its manager, from 1 (used in trace events: `animator 3 started`).
    var id: Int { get }
    var owner: AnimationOwner { get }
    var animationType: AnimationType { get }
    var state: UIViewAnimatingState { get }
    /// Stops at the current values; completions get `.current`.
    func stopAnimation()
}

extension CameraAnimator {
    public func cancel() { stopAnimation() }
}

/// What the manager drives each tick (internal to the engine).
protocol RunnableCameraAnimator: CameraAnimator {
    /// Advances to the tick's time (seconds of simulation time). The manager is passed in so the
    /// hot path needs no weak-reference load.
    func update(at now: Double, manager m: CameraAnimationsManager)
}

/// Progress reaches the end within this many seconds of the nominal end time: a tick time computed
/// as i / fps differs from the exact end by at most a few ulps, and the animation must finish in
/// the tick the contract names, not one tick later.
public let timeEpsilon = 1e-9
