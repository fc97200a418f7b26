/// A viewport state as a value: the one vocabulary that flight scripts (`"viewport": {"state": …}`),
/// the declarative FlybyMaps `Viewport` and the tools describe a state in. ``make(in:)`` turns it
/// into the engine's state with the ``ViewportManager`` factories (Mapbox names), so adding a state
/// means a case here, its factory, and a test.
public enum ViewportStateDescriptor: Hashable, Sendable {
    /// No state: the camera stays where it is and gestures move it (`viewport.idle()`).
    case idle
    /// The style's default camera (``ViewportContext/styleDefaultCamera``).
    case styleDefault
    /// A fixed camera; absent fields keep their values.
    case camera(CameraOptions)
    /// The camera that shows all of a geometry.
    case overview(OverviewViewportStateOptions)
    /// Follows the location puck.
    case followPuck(FollowPuckViewportStateOptions)

    /// The state, made by `viewport`'s factory; nil for ``idle``, which is no state (call
    /// ``ViewportManager/idle()``, or use ``ViewportManager/transition(to:transition:completion:)``
    /// with descriptors, which does).
    public func make(in viewport: ViewportManager) -> ViewportState? {
        switch self {
        case .idle: nil
        case .styleDefault: viewport.makeStyleDefaultViewportState()
        case .camera(let c): viewport.makeCameraViewportState(camera: c)
        case .overview(let o): viewport.makeOverviewViewportState(options: o)
        case .followPuck(let o): viewport.makeFollowPuckViewportState(options: o)
        }
    }
}

/// A viewport transition as a value (flight scripts' `"transition"`, FlybyMaps' `ViewportAnimation`).
public enum ViewportTransitionDescriptor: Hashable, Sendable {
    /// Mapbox's default transition: a flight or an ease, whichever the distance calls for, at most
    /// `maxDuration` seconds.
    case `default`(maxDuration: Double)
    /// A jump, then the camera follows the state.
    case immediate
    /// A `fly(to:)` arc; nil duration = automatic.
    case fly(duration: Double?)
    /// An ease over `duration` seconds with `curve`.
    case ease(duration: Double, curve: AnimationCurve)

    /// The engine transition that runs this, made by `viewport`'s factories.
    public func make(in viewport: ViewportManager) -> ViewportTransition {
        switch self {
        case .default(let d): viewport.makeDefaultViewportTransition(options: DefaultViewportTransitionOptions(maxDuration: d))
        case .immediate: viewport.makeImmediateViewportTransition()
        case .fly(let d): AnimationViewportTransition(.fly(duration: d))
        case .ease(let d, let curve): AnimationViewportTransition(.ease(duration: d, curve: curve))
        }
    }
}

extension ViewportManager {
    /// Goes to the state `state` describes with the transition `transition` describes; for
    /// ``ViewportStateDescriptor/idle`` goes idle at once and returns false (`completion` is not
    /// called, as there is no transition). Returns true when a transition was started.
    @discardableResult
    public func transition(to state: ViewportStateDescriptor, transition: ViewportTransitionDescriptor,
                           completion: ((Bool) -> Void)? = nil) -> Bool {
        guard let made = state.make(in: self) else {
            idle()
            return false
        }
        self.transition(to: made, transition: transition.make(in: self), completion: completion)
        return true
    }
}
