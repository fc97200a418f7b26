/// A camera animator with the UIKit property-animator lifecycle: Mapbox's `BasicCameraAnimator`.
///
/// Made by `CameraAnimationsManager.makeAnimator(…)`, not started. On start it captures the
/// from-values from the camera, runs the `animations` closure to set the to-values, and from then
/// on writes, each tick, the animated fields at the eased fraction of its time. Time comes from the
/// simulation's frame clock only.
///
/// Lifecycle (docs/research/mapbox-camera-viewport.md §3): `state` is inactive before start and after it
/// ends, active while running or paused; `startAnimation(afterDelay:)`, `pauseAnimation()`,
/// `stopAnimation()`, `fractionComplete` (scrubbing), `isReversed`, `pausesOnCompletion`,
/// `continueAnimation(withTimingParameters:durationFactor:)`, completions with `.end`, `.start` or
/// `.current`. Where Flyby differs from Mapbox, on purpose:
/// - a delayed animator writes nothing during its delay (Mapbox pins the fields at their
///   from-values, which fights other animations);
/// - `fractionComplete` set on a paused animator moves the camera at once (Mapbox waits for the
///   next run);
/// - reversing a not-yet-started animator plays it from the to-values back to the from-values;
///   reaching the start is reported as `finished start`, not as a cancellation;
/// - the centre takes the short way across the antimeridian.
public final class BasicCameraAnimator: RunnableCameraAnimator {
    enum Phase { case initial, running, paused, final(UIViewAnimatingPosition) }

    public let id: Int
    public let owner: AnimationOwner
    public let animationType: AnimationType = .unspecified
    /// Seconds of simulation time for the whole change.
    public private(set) var duration: Double
    public private(set) var curve: AnimationCurve
    /// The from- and to-values; nil until the animator starts (or is paused or scrubbed).
    public private(set) var transition: CameraTransition?
    /// When true, reaching the end pauses the animator (still active) instead of finishing it;
    /// completions wait until it is stopped.
    public var pausesOnCompletion = false

    let animations: (inout CameraTransition) -> Void
    /// Strong on purpose: a weak reference would give every animator a side table and make each
    /// retain and release on the tick's hot path take the slow route (measured with perf).
    var manager: CameraAnimationsManager?
    var phase: Phase = .initial
    var completions: [AnimationCompletion] = []
    var bearingTarget: Double?
    /// Time fraction (0…1, forward direction) as of `anchorTime`.
    var fractionAtAnchor = 0.0
    var anchorTime = 0.0
    /// Simulation time before which a delayed start does not move.
    var motionStart = 0.0
    var fractionWasSet = false

    init(id: Int, duration: Double, curve: AnimationCurve, owner: AnimationOwner, manager: CameraAnimationsManager,
         animations: @escaping (inout CameraTransition) -> Void) {
        self.id = id
        self.duration = max(0, duration.isFinite ? duration : 0)
        self.curve = curve
        self.owner = owner
        self.manager = manager
        self.animations = animations
    }

    deinit { manager?.unregister(id) }

    public var state: UIViewAnimatingState {
        switch phase {
        case .initial, .final: return .inactive
        case .running, .paused: return .active
        }
    }

    /// True only while running (not while paused).
    public var isRunning: Bool { if case .running = phase { return true } else { return false } }

    /// Running backward, toward the from-values.
    public var isReversed = false {
        didSet {
            guard isReversed != oldValue, case .running = phase, let m = manager else { return }
            fractionAtAnchor = fraction(at: m.now, reversed: oldValue)
            anchorTime = max(m.now, motionStart)
        }
    }

    /// The fraction of the animation's time done (0 = from-values, 1 = to-values). Setting it on a
    /// paused or not-started animator scrubs: the camera moves there at once.
    public var fractionComplete: Double {
        get {
            switch phase {
            case .initial: return fractionAtAnchor
            case .paused: return fractionAtAnchor
            case .running: return manager.map { fraction(at: $0.now) } ?? fractionAtAnchor
            case .final(let p): return p == .end ? 1 : (p == .start ? 0 : fractionAtAnchor)
            }
        }
        set {
            let f = min(max(newValue.isFinite ? newValue : 0, 0), 1)
            fractionWasSet = true
            switch phase {
            case .initial:
                guard let m = manager else { return }
                buildTransition(m)
                phase = .paused
                fractionAtAnchor = f
                write(fraction: f, m)
            case .paused:
                fractionAtAnchor = f
                if let m = manager { write(fraction: f, m) }
            case .running:
                guard let m = manager else { return }
                fractionAtAnchor = f
                anchorTime = max(m.now, motionStart)
            case .final:
                break
            }
        }
    }

    /// Starts now (or resumes a paused animator). No effect once finished.
    public func startAnimation() { start(delay: 0) }

    /// Starts after `delay` seconds of simulation time; the animator counts as started (and is
    /// retained) at once, and a cancel during the delay cancels it.
    public func startAnimation(afterDelay delay: Double) { start(delay: max(0, delay.isFinite ? delay : 0)) }

    func start(delay: Double) {
        guard let m = manager else { return }
        switch phase {
        case .initial:
            buildTransition(m)
            if isReversed && !fractionWasSet { fractionAtAnchor = 1 }
        case .paused:
            break
        case .running, .final:
            return
        }
        phase = .running
        motionStart = m.now + delay
        anchorTime = motionStart
        m.animatorStarted(self)
    }

    /// Pauses where it is (a not-started animator builds its transition and pauses at 0).
    public func pauseAnimation() {
        guard let m = manager else { return }
        switch phase {
        case .initial:
            buildTransition(m)
            phase = .paused
        case .running:
            fractionAtAnchor = fraction(at: m.now)
            phase = .paused
            m.animatorPaused(self)
        case .paused, .final:
            break
        }
    }

    /// Resumes a paused animator with a new curve; `durationFactor` scales the remaining time.
    public func continueAnimation(withTimingParameters curve: AnimationCurve?, durationFactor: Double) {
        guard case .paused = phase else { return }
        if let curve { self.curve = curve }
        if durationFactor.isFinite && durationFactor > 0 { duration *= durationFactor }
        start(delay: 0)
    }

    /// Stops at the current values: completions get `.current` at once. A running or paused
    /// animator reports `cancelled`; a never-started one reports nothing.
    public func stopAnimation() {
        switch phase {
        case .final:
            return
        case .initial:
            phase = .final(.current)
            runCompletions(.current)
        case .running, .paused:
            if let m = manager, case .running = phase { fractionAtAnchor = fraction(at: m.now) }
            let wasRunning = isRunning
            phase = .final(.current)
            manager?.animatorCancelled(self, wasRunning: wasRunning)
            runCompletions(.current)
        }
    }

    /// Adds a completion. Added after the animator ended, it runs at the next tick with the
    /// position the animator ended at (Mapbox runs it on the next main-queue turn).
    public func addCompletion(_ completion: @escaping AnimationCompletion) {
        if case .final(let position) = phase {
            manager?.enqueueLateCompletion { completion(position) }
        } else {
            completions.append(completion)
        }
    }

    /// Where it ended, once it has.
    public var finalPosition: UIViewAnimatingPosition? { if case .final(let p) = phase { return p } else { return nil } }

    // MARK: Engine

    func buildTransition(_ m: CameraAnimationsManager) {
        var t = CameraTransition(cameraState: m.map.cameraState, initialAnchor: m.map.anchor)
        animations(&t)
        transition = t
        bearingTarget = t.effectiveBearingTarget
    }

    /// Time fraction at simulation time `now` while running.
    func fraction(at now: Double) -> Double { fraction(at: now, reversed: isReversed) }

    func fraction(at now: Double, reversed: Bool) -> Double {
        let elapsed = now - max(anchorTime, motionStart)
        if elapsed <= 0 { return fractionAtAnchor }
        if duration <= 0 { return reversed ? 0 : 1 }
        let delta = elapsed / duration, slack = timeEpsilon / duration
        if reversed {
            let f = fractionAtAnchor - delta
            return f <= slack ? 0 : f
        }
        let f = fractionAtAnchor + delta
        return f >= 1 - slack ? 1 : f
    }

    func write(fraction f: Double, _ m: CameraAnimationsManager) {
        guard transition != nil else { return }
        m.map.setCamera(to: transition.unsafelyUnwrapped.camera(at: curve.value(at: f), bearingTarget: bearingTarget))
    }

    func update(at now: Double, manager m: CameraAnimationsManager) {
        guard case .running = phase else { return }
        if now < motionStart - timeEpsilon { return }
        let f = fraction(at: now)
        let reachedEnd = isReversed ? f <= 0 : f >= 1
        guard reachedEnd else { write(fraction: f, m); return }
        let atEnd = !isReversed
        if let t = transition { m.map.setCamera(to: t.camera(atEnd: atEnd, bearingTarget: bearingTarget)) }
        fractionAtAnchor = atEnd ? 1 : 0
        if pausesOnCompletion {
            phase = .paused
            m.animatorPaused(self)
            return
        }
        let position: UIViewAnimatingPosition = atEnd ? .end : .start
        phase = .final(position)
        m.animatorFinished(self, position: position)
        let pending = completions
        completions = []
        m.enqueueCompletion { for c in pending { c(position) } }
    }

    func runCompletions(_ position: UIViewAnimatingPosition) {
        let pending = completions
        completions = []
        for c in pending { c(position) }
    }
}

extension BasicCameraAnimator {
    /// Replaces to-values while keeping the from-values and the elapsed fraction, so a moving target
    /// is reached without a jump at the end (Mapbox PR #1245). Used by viewport transitions.
    func retarget(_ change: (inout CameraTransition) -> Void) {
        guard var t = transition else { return }
        change(&t)
        transition = t
        bearingTarget = t.effectiveBearingTarget
    }
}
