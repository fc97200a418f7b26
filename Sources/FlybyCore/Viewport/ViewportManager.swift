/// The viewport state machine (Mapbox's `ViewportManager`, `mapView.viewport`): idle, a state, or a
/// transition to a state, with the change reasons and observers of docs/research/mapbox-camera-viewport.md §6.
///
/// Deliberate differences: states are updated by the viewport once per tick (phase 2 of the tick)
/// instead of pushing cameras asynchronously; observers are called at the end of the tick in which
/// the status changed, in order; only the active state is ever updated, so leaving follow mode by a
/// gesture can never snap the camera back to the puck (mapbox-maps-android#2147).
public final class ViewportManager {
    public let context: ViewportContext
    public private(set) var status: ViewportStatus = .idle
    public var options = ViewportOptions()
    /// Used when `transition(to:transition:)` gets no transition.
    public lazy var defaultTransition: ViewportTransition = DefaultViewportTransition()

    private var observers: [(id: Int, observer: ViewportStatusObserver)] = []
    private var nextObserverID = 0
    private var pending: [(ViewportStatus, ViewportStatus, ViewportStatusChangeReason)] = []
    private var currentRun: ViewportTransitionRun?
    private var runGeneration = 0
    /// Receives one line per status change for traces (`viewport transitionStarted followPuck`).
    var eventSink: ((String) -> Void)?

    init(context: ViewportContext) { self.context = context }

    // MARK: Factories (Mapbox names)

    public func makeFollowPuckViewportState(options: FollowPuckViewportStateOptions = .init()) -> FollowPuckViewportState {
        FollowPuckViewportState(options: options)
    }
    public func makeOverviewViewportState(options: OverviewViewportStateOptions) -> OverviewViewportState {
        OverviewViewportState(options: options)
    }
    public func makeCameraViewportState(camera: CameraOptions) -> CameraViewportState { CameraViewportState(camera: camera) }
    public func makeStyleDefaultViewportState() -> StyleDefaultViewportState { StyleDefaultViewportState() }
    public func makeDefaultViewportTransition(options: DefaultViewportTransitionOptions = .init()) -> DefaultViewportTransition {
        DefaultViewportTransition(options: options)
    }
    public func makeImmediateViewportTransition() -> ImmediateViewportTransition { ImmediateViewportTransition() }

    // MARK: Observers

    /// Adds an observer; returns a token to remove it.
    @discardableResult
    public func addStatusObserver(_ observer: @escaping ViewportStatusObserver) -> Cancelable {
        let id = nextObserverID
        nextObserverID += 1
        observers.append((id, observer))
        return BlockCancelable { [weak self] in self?.observers.removeAll { $0.id == id } }
    }

    public var statusObserverCount: Int { observers.count }

    // MARK: State machine

    /// Starts a transition to `state` with `transition` (default: `defaultTransition`).
    public func transition(to state: ViewportState, transition: ViewportTransition? = nil, completion: ((Bool) -> Void)? = nil) {
        switch status {
        case .state(let s) where s === state:
            completion?(true)
            return
        case .transition(_, let s) where s === state:
            completion?(false)
            return
        case .state(let s):
            s.stopUpdatingCamera(in: context)
        case .transition:
            cancelRun()
        case .idle:
            break
        }
        let from = status
        runGeneration += 1
        let generation = runGeneration
        var returned = false
        var synchronousResult: Bool?
        let t = transition ?? defaultTransition
        let run = t.run(to: state, in: context) { [weak self] success in
            if !returned { synchronousResult = success; return }
            guard let self, generation == self.runGeneration else { return }
            self.transitionEnded(success: success, state: state)
        }
        returned = true
        if let success = synchronousResult {
            // Completed inside run: straight to the state (only TRANSITION_SUCCEEDED is told).
            if success {
                status = .state(state)
                state.startUpdatingCamera(in: context)
                notify(from, status, .transitionSucceeded)
            } else {
                status = .idle
                notify(from, status, .transitionFailed)
            }
            completion?(success)
            return
        }
        currentRun = run
        currentCompletion = completion
        status = .transition(t, toState: state)
        notify(from, status, .transitionStarted)
    }

    private func transitionEnded(success: Bool, state: ViewportState) {
        let from = status
        let completion = currentCompletion
        currentRun = nil
        currentCompletion = nil
        if success {
            state.startUpdatingCamera(in: context)
            status = .state(state)
            notify(from, status, .transitionSucceeded)
        } else {
            status = .idle
            notify(from, status, .transitionFailed)
        }
        completion?(success)
    }

    private func cancelRun() {
        runGeneration += 1  // the cancelled run's completion is ignored
        let run = currentRun, completion = currentCompletion
        currentRun = nil
        currentCompletion = nil
        run?.cancel()
        completion?(false)
    }
    private var currentCompletion: ((Bool) -> Void)?

    /// Stops whatever runs and goes idle (`IDLE_REQUESTED`).
    public func idle() { goIdle(reason: .idleRequested) }

    /// A pan, double tap or two-finger tap began: idle with `USER_INTERACTION` when the option is on.
    public func userInteractionBegan() {
        if options.transitionsToIdleUponUserInteraction { goIdle(reason: .userInteraction) }
    }

    private func goIdle(reason: ViewportStatusChangeReason) {
        let from = status
        switch status {
        case .idle: return
        case .state(let s): s.stopUpdatingCamera(in: context)
        case .transition: cancelRun()
        }
        status = .idle
        notify(from, .idle, reason)
    }

    // MARK: Tick

    /// Phase 2 of a tick: the running transition follows its target, or the active state moves the camera.
    func update() {
        switch status {
        case .idle: break
        case .state(let s): s.updateCamera(in: context)
        case .transition: currentRun?.update(in: context)
        }
    }

    private func notify(_ from: ViewportStatus, _ to: ViewportStatus, _ reason: ViewportStatusChangeReason) {
        if from === to { return }
        pending.append((from, to, reason))
        switch reason {
        case .idleRequested, .userInteraction, .transitionFailed:
            eventSink?("viewport idle \(reason.rawValue)")
        case .transitionStarted, .transitionSucceeded:
            let name: String
            switch to { case .state(let s): name = s.name; case .transition(_, let s): name = s.name; case .idle: name = "idle" }
            eventSink?("viewport \(reason.rawValue) \(name)")
        }
    }

    /// End of tick: tells the observers about every change of this tick, in order.
    func deliverNotifications() {
        while !pending.isEmpty {
            let batch = pending
            pending = []
            for (from, to, reason) in batch { for o in observers { o.observer(from, to, reason) } }
        }
    }
}
