/// What the viewport is doing (Mapbox's `ViewportStatus`).
public enum ViewportStatus: CustomStringConvertible {
    case idle
    case state(ViewportState)
    case transition(ViewportTransition, toState: ViewportState)

    /// Identity comparison, as Mapbox does.
    public static func === (a: ViewportStatus, b: ViewportStatus) -> Bool {
        switch (a, b) {
        case (.idle, .idle): return true
        case (.state(let x), .state(let y)): return x === y
        case (.transition(let t1, let s1), .transition(let t2, let s2)): return t1 === t2 && s1 === s2
        default: return false
        }
    }

    /// The trace name: `idle`, the state's name, or `transition:<state>`.
    public var description: String {
        switch self {
        case .idle: return "idle"
        case .state(let s): return s.name
        case .transition(_, let s): return "transition:\(s.name)"
        }
    }
}

/// Why the status changed (Mapbox's `ViewportStatusChangeReason`).
public enum ViewportStatusChangeReason: String, Sendable {
    case idleRequested
    case transitionStarted
    case transitionSucceeded
    case transitionFailed
    case userInteraction
}

/// Told when the viewport status changes; called at the end of the tick in which it changed, in
/// the order the changes happened (so traces stay deterministic).
public typealias ViewportStatusObserver = (_ from: ViewportStatus, _ to: ViewportStatus, _ reason: ViewportStatusChangeReason) -> Void

/// Options of the viewport manager (Mapbox's `ViewportOptions`).
public struct ViewportOptions: Sendable {
    /// When true (the default), a pan, double tap or two-finger tap sends the viewport to idle.
    public var transitionsToIdleUponUserInteraction = true
    public init(transitionsToIdleUponUserInteraction: Bool = true) {
        self.transitionsToIdleUponUserInteraction = transitionsToIdleUponUserInteraction
    }
}

/// What viewport states and transitions read each tick.
public final class ViewportContext {
    public let map: FlybyMap
    public let camera: CameraAnimationsManager
    /// The interpolated puck of this tick, when a location is active.
    public internal(set) var puck: PuckState?
    /// Set when the puck moved in this tick.
    public internal(set) var puckMoved = false
    /// The style's root camera (the styleDefault state's camera).
    public var styleDefaultCamera: CameraOptions
    /// Every coordinate of the active location track (the overview geometry `"track"`).
    public var trackCoordinates: [LocationCoordinate2D] = []

    init(map: FlybyMap, camera: CameraAnimationsManager, styleDefaultCamera: CameraOptions) {
        self.map = map; self.camera = camera; self.styleDefaultCamera = styleDefaultCamera
    }
}

/// A source of target cameras (Mapbox's `ViewportState`). Flyby's states are pulled once per tick
/// by the viewport instead of pushing through `observeDataSource`, which keeps the order of work in
/// a tick fixed.
public protocol ViewportState: AnyObject {
    /// Short name for traces and logs (`followPuck`, `overview`, …).
    var name: String { get }
    /// The camera the state wants now; nil while it has none (e.g. no puck yet).
    func camera(in context: ViewportContext) -> CameraOptions?
    /// Called when the viewport enters this state after a successful transition.
    func startUpdatingCamera(in context: ViewportContext)
    /// Called when the viewport leaves this state.
    func stopUpdatingCamera(in context: ViewportContext)
    /// Called every tick while the state is active: move the camera to follow the target.
    func updateCamera(in context: ViewportContext)
}

/// One running transition (returned by `ViewportTransition.run`).
public protocol ViewportTransitionRun: Cancelable {
    /// Called every tick: follow a moving target.
    func update(in context: ViewportContext)
}

/// Moves the camera to a state (Mapbox's `ViewportTransition`). It must call `completion` exactly
/// once with true (arrived) or false (interrupted), unless it is cancelled first.
public protocol ViewportTransition: AnyObject {
    func run(to state: ViewportState, in context: ViewportContext, completion: @escaping (Bool) -> Void) -> ViewportTransitionRun
}
