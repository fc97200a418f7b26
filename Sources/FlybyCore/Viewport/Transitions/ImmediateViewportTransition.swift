/// Jumps to the state's first camera (Mapbox's `ImmediateViewportTransition`); when the state has
/// a camera already this completes inside `run`, so the status goes straight to the state.
public final class ImmediateViewportTransition: ViewportTransition {
    public init() {}

    public func run(to state: ViewportState, in context: ViewportContext, completion: @escaping (Bool) -> Void) -> ViewportTransitionRun {
        let run = Run(state: state, completion: completion)
        run.update(in: context)
        return run
    }

    final class Run: ViewportTransitionRun {
        let state: ViewportState
        var completion: ((Bool) -> Void)?
        init(state: ViewportState, completion: @escaping (Bool) -> Void) { self.state = state; self.completion = completion }
        func update(in context: ViewportContext) {
            guard let c = completion, let camera = state.camera(in: context) else { return }
            completion = nil
            context.map.setCamera(to: camera)
            c(true)
        }
        func cancel() { completion = nil }
    }
}

/// A one-animation transition: `fly(to:)` or `ease(to:)` to the state's camera (the SwiftUI
/// `ViewportAnimation.fly` / `.easeIn(duration:)` family). Better than Mapbox, whose versions take
/// only the first camera: the animation is retargeted each tick, so it ends on a moving puck.
/// Succeeds when the animation ends at `.end`.
public final class AnimationViewportTransition: ViewportTransition {
    public enum Kind: Sendable {
        /// `fly(to:)`; nil duration = automatic.
        case fly(duration: Double?)
        case ease(duration: Double, curve: AnimationCurve)
    }
    public let kind: Kind
    public init(_ kind: Kind) { self.kind = kind }

    public func run(to state: ViewportState, in context: ViewportContext, completion: @escaping (Bool) -> Void) -> ViewportTransitionRun {
        let run = Run(state: state, kind: kind, completion: completion)
        run.update(in: context)
        return run
    }

    final class Run: ViewportTransitionRun {
        let state: ViewportState
        let kind: Kind
        var completion: ((Bool) -> Void)?
        var fly: FlyToCameraAnimator?
        var ease: BasicCameraAnimator?

        init(state: ViewportState, kind: Kind, completion: @escaping (Bool) -> Void) {
            self.state = state; self.kind = kind; self.completion = completion
        }

        func update(in context: ViewportContext) {
            guard completion != nil, let target = state.camera(in: context) else { return }
            if let fly { fly.retarget(to: target, bounds: context.map.cameraBounds, size: context.map.size); return }
            if let ease {
                ease.retarget { t in t.setToValues(target) }
                return
            }
            let done: AnimationCompletion = { [weak self] position in
                guard let self, let c = self.completion else { return }
                self.completion = nil
                c(position == .end)
            }
            switch kind {
            case .fly(let duration):
                fly = context.camera.fly(to: target, duration: duration, completion: done) as? FlyToCameraAnimator
            case .ease(let duration, let curve):
                let a = context.camera.makeAnimator(duration: duration, curve: curve, animationOwner: .defaultViewportTransition) { t in
                    t.setToValues(target)
                }
                a.addCompletion(done)
                ease = a
                a.startAnimation()
            }
        }

        func cancel() {
            completion = nil
            fly?.stopAnimation()
            ease?.stopAnimation()
        }
    }
}
