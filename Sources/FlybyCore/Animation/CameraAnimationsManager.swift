/// Runs the camera animations of one map: Mapbox's `CameraAnimationsManager` (`mapView.camera`)
/// together with its animator runner.
///
/// - `ease(to:)` and `fly(to:)` start at once and first cancel every animation of their owner
///   (`cameraAnimationsManager`), including a running deceleration; `makeAnimator` cancels nothing.
/// - Running animators are updated once per tick in creation order, each writing only its fields,
///   so on a shared field the one created later wins within a tick.
/// - Completions of animations that end naturally run after all animators of the tick were
///   updated (they may start new animations, which make progress from the next tick); completions
///   of cancelled animations run synchronously inside the cancelling call.
/// - Time comes from the simulation's frame clock (`now`, set by the simulation each tick), never
///   from the wall clock (Mapbox issue #293).
public final class CameraAnimationsManager {
    public let map: FlybyMap
    /// The current tick's time, seconds of simulation time.
    public internal(set) var now: Double = 0
    /// When false (Mapbox: the view is not in a window), new animations end at once with
    /// `.current` and every update cancels everything.
    public var isEnabled = true {
        didSet { if !isEnabled { cancelAnimations() } }
    }

    /// Sent when an animator starts (or resumes).
    public let onCameraAnimatorStarted = Signal<CameraAnimator>()
    /// Sent when an animator reaches its end (`.end`, or `.start` when reversed).
    public let onCameraAnimatorFinished = Signal<(animator: CameraAnimator, position: UIViewAnimatingPosition)>()
    /// Sent when a running or paused animator is stopped.
    public let onCameraAnimatorCancelled = Signal<CameraAnimator>()
    /// Sent when a running animator pauses.
    public let onCameraAnimatorPaused = Signal<CameraAnimator>()

    private var nextID = 1
    /// Every animator not yet deallocated, by id; unretained (animators unregister in deinit).
    private var alive: [Int: UnretainedAnimator] = [:]
    /// Strong references to running animators, in creation (id) order.
    private var running: [any RunnableCameraAnimator] = []
    private var pendingCompletions: [() -> Void] = []
    private var lateCompletions: [() -> Void] = []

    public init(map: FlybyMap) { self.map = map }

    // MARK: Public API

    /// Every animator still alive (held by the runner or by someone else), in creation order.
    public var cameraAnimators: [CameraAnimator] {
        alive.keys.sorted().map { alive[$0]!.animator }
    }

    /// Number of running animators (they are retained by the manager).
    public var runningAnimatorCount: Int { running.count }

    /// Stops every alive animator, whatever its owner or state; completions get `.current`.
    public func cancelAnimations() {
        for a in cameraAnimators { a.stopAnimation() }
    }

    /// Stops the animators of the given owners (and types). Public here; internal in Mapbox.
    public func cancelAnimations(withOwners owners: [AnimationOwner], andTypes types: [AnimationType] = [.unspecified, .deceleration]) {
        let ownerSet = Set(owners), typeSet = Set(types)
        for a in cameraAnimators where ownerSet.contains(a.owner) && typeSet.contains(a.animationType) {
            a.stopAnimation()
        }
    }

    /// Eases to a camera: every non-nil field of `to` animates, linearly in its own units, along
    /// `curve` (default UIKit easeOut) over `duration` seconds. A non-nil `anchor` is held fixed.
    /// Cancels the running animations of `cameraAnimationsManager` first.
    /// A non-finite value refuses the call: the completion gets `.current` and nothing moves.
    @discardableResult
    public func ease(to: CameraOptions, duration: Double, curve: AnimationCurve = .easeOut,
                     completion: AnimationCompletion? = nil) -> Cancelable {
        ease(to: to, duration: duration, curve: curve, owner: .cameraAnimationsManager, completion: completion)
    }

    /// `ease(to:)` with an explicit owner (the compass uses its own).
    @discardableResult
    public func ease(to: CameraOptions, duration: Double, curve: AnimationCurve = .easeOut, owner: AnimationOwner,
                     completion: AnimationCompletion? = nil) -> Cancelable {
        cancelAnimations(withOwners: [owner])
        let animator = makeAnimator(duration: duration, curve: curve, animationOwner: owner) { t in
            if let c = to.center { t.center.toValue = c }
            if let z = to.zoom { t.zoom.toValue = z }
            if let b = to.bearing { t.bearing.toValue = b }
            if let p = to.pitch { t.pitch.toValue = p }
            if let p = to.padding { t.padding.toValue = p }
            if let a = to.anchor { t.anchor.fromValue = a; t.anchor.toValue = a }
        }
        if let completion { animator.addCompletion(completion) }
        if to.firstNonFiniteField != nil || !duration.isFinite || duration < 0 || !isEnabled {
            animator.stopAnimation()
            return animator
        }
        animator.startAnimation()
        return animator
    }

    /// Flies to a camera along the van Wijk & Nuij zoom-and-pan path (`FlyToPath`).
    ///
    /// The destination is clamped to the camera bounds **before** the path is planned (so the
    /// path never heads for a place it cannot reach; GL JS #4724). Duration: `duration`, or the
    /// path length / 1.2 s; longer than `maxDuration` → a jump (GL JS). `minZoom` caps how far
    /// the arc zooms out. Curve default: Mapbox easeOut (0, 0, 0.42, 1). Cancels the running
    /// animations of `cameraAnimationsManager` first. Non-finite values refuse the call.
    @discardableResult
    public func fly(to: CameraOptions, duration: Double? = nil, curve: AnimationCurve = TimingCurve.easeOut.animationCurve,
                    maxDuration: Double? = nil, minZoom: Double? = nil, completion: AnimationCompletion? = nil) -> Cancelable {
        cancelAnimations(withOwners: [.cameraAnimationsManager])
        let start = map.cameraState
        let goal = start.applying(to)
        let valid = to.firstNonFiniteField == nil && (duration.map { $0.isFinite && $0 >= 0 } ?? true)
            && (maxDuration.map { !$0.isNaN && $0 >= 0 } ?? true) && (minZoom.map(\.isFinite) ?? true)
        var target = valid ? map.cameraBounds.constrain(goal, size: map.size) : start
        // Keep the caller's bearing turn direction information: constrain wraps bearing.
        target.bearing = wrapBearing(target.bearing)
        let path = FlyToPath(start: start, target: target, size: map.size, minZoom: minZoom)
        var d = duration ?? path.automaticDuration()
        if duration == nil && path.hasNoPath && (start.bearing != target.bearing || start.pitch != target.pitch || start.padding != target.padding) {
            d = 0.5  // nothing to fly, only turn or tilt: GL JS hands this to easeTo (500 ms)
        }
        if let maxDuration, d > maxDuration { d = 0 }
        let animator = FlyToCameraAnimator(id: takeID(), owner: .cameraAnimationsManager, path: path, duration: d, curve: curve, manager: self)
        register(animator)
        if !valid || !isEnabled {
            if let completion { animator.addCompletion(completion) }
            animator.stopAnimation()
            return animator
        }
        animator.start(completion: completion)
        return animator
    }

    /// A not-started animator with a UIKit-family curve.
    public func makeAnimator(duration: Double, curve: AnimationCurve, animationOwner: AnimationOwner = .unspecified,
                             animations: @escaping (inout CameraTransition) -> Void) -> BasicCameraAnimator {
        let a = BasicCameraAnimator(id: takeID(), duration: duration, curve: curve, owner: animationOwner, manager: self, animations: animations)
        register(a)
        return a
    }

    /// A not-started animator with a cubic Bézier curve through two control points.
    public func makeAnimator(duration: Double, controlPoint1: ScreenPoint, controlPoint2: ScreenPoint,
                             animationOwner: AnimationOwner = .unspecified,
                             animations: @escaping (inout CameraTransition) -> Void) -> BasicCameraAnimator {
        makeAnimator(duration: duration, curve: .bezier(controlPoint1.x, controlPoint1.y, controlPoint2.x, controlPoint2.y),
                     animationOwner: animationOwner, animations: animations)
    }

    /// A not-started animator with a spring curve (1 = critically damped).
    public func makeAnimator(duration: Double, dampingRatio: Double, animationOwner: AnimationOwner = .unspecified,
                             animations: @escaping (inout CameraTransition) -> Void) -> BasicCameraAnimator {
        makeAnimator(duration: duration, curve: .spring(dampingRatio: dampingRatio), animationOwner: animationOwner, animations: animations)
    }

    /// A not-started animator with any timing curve (UIKit's `timingParameters:` variant).
    public func makeAnimator(duration: Double, timingParameters: AnimationCurve, animationOwner: AnimationOwner = .unspecified,
                             animations: @escaping (inout CameraTransition) -> Void) -> BasicCameraAnimator {
        makeAnimator(duration: duration, curve: timingParameters, animationOwner: animationOwner, animations: animations)
    }

    /// Starts a pan deceleration (public here; internal in Mapbox). Cancels the running
    /// animations of `cameraAnimationsManager` first.
    @discardableResult
    public func decelerate(location: ScreenPoint, velocity: ScreenPoint, decelerationFactor: Double = 0.998,
                           locationChangeHandler: @escaping (_ from: ScreenPoint, _ to: ScreenPoint) -> Void,
                           completion: AnimationCompletion? = nil) -> Cancelable {
        cancelAnimations(withOwners: [.cameraAnimationsManager])
        let a = GestureDecelerationCameraAnimator(id: takeID(), owner: .cameraAnimationsManager, location: location, velocity: velocity,
                                                  decelerationFactor: decelerationFactor, manager: self,
                                                  locationChangeHandler: locationChangeHandler)
        register(a)
        if !isEnabled || !velocity.isFinite || !location.isFinite || !(decelerationFactor > 0 && decelerationFactor < 1) {
            if let completion { completion(.current) }
            a.stopAnimation()
            return a
        }
        a.start(completion: completion)
        return a
    }

    // MARK: Tick

    /// Updates every running animator at time `now` (creation order), then runs the completions
    /// of the animations that ended. Called by the simulation once per tick.
    public func update(at now: Double) {
        self.now = now
        if !isEnabled { cancelAnimations(); return }
        runLateCompletions()
        if !running.isEmpty {
            let snapshot = running
            map.beginAnimatorWrites()
            for a in snapshot { a.update(at: now, manager: self) }
            map.endAnimatorWrites()
        }
        runCompletions()
    }

    /// Runs completions queued by animators that ended (also called by `update`).
    func runCompletions() {
        while !pendingCompletions.isEmpty {
            let batch = pendingCompletions
            pendingCompletions = []
            for c in batch { c() }
        }
    }

    func runLateCompletions() {
        guard !lateCompletions.isEmpty else { return }
        let batch = lateCompletions
        lateCompletions = []
        for c in batch { c() }
    }

    /// Drops every running animator and queued completion without calling anything: running
    /// animators and the manager reference each other, so a simulation that is thrown away
    /// mid-animation calls this to let both go (found by the fuzzer's leak check).
    func invalidate() {
        running.removeAll()
        pendingCompletions.removeAll()
        lateCompletions.removeAll()
    }

    // MARK: Runner (called by animators)

    func takeID() -> Int { defer { nextID += 1 }; return nextID }

    func register(_ a: CameraAnimator) { alive[a.id] = UnretainedAnimator(animator: a) }

    func unregister(_ id: Int) { alive[id] = nil }

    func animatorStarted(_ a: any RunnableCameraAnimator) {
        if !isEnabled { a.stopAnimation(); return }
        // Keep creation order; new animators have the highest id so this is usually an append.
        var i = running.count
        while i > 0 && running[i - 1].id > a.id { i -= 1 }
        running.insert(a, at: i)
        map.beginAnimation()
        onCameraAnimatorStarted.send(a)
    }

    private func removeRunning(_ a: CameraAnimator) -> Bool {
        guard let i = running.firstIndex(where: { $0 === a }) else { return false }
        running.remove(at: i)
        map.endAnimation()
        return true
    }

    func animatorPaused(_ a: CameraAnimator) {
        if removeRunning(a) { onCameraAnimatorPaused.send(a) }
    }

    func animatorFinished(_ a: CameraAnimator, position: UIViewAnimatingPosition) {
        _ = removeRunning(a)
        onCameraAnimatorFinished.send((a, position))
    }

    func animatorCancelled(_ a: CameraAnimator, wasRunning: Bool) {
        _ = removeRunning(a)
        onCameraAnimatorCancelled.send(a)
    }

    func enqueueCompletion(_ c: @escaping () -> Void) { pendingCompletions.append(c) }
    func enqueueLateCompletion(_ c: @escaping () -> Void) { lateCompletions.append(c) }
}

/// An unretained reference to an animator: the manager does not keep idle animators alive, and
/// each animator removes itself from the registry in `deinit`, so the reference never dangles.
struct UnretainedAnimator {
    unowned(unsafe) let animator: any CameraAnimator
}
