#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Options of `DefaultViewportTransition`.
public struct DefaultViewportTransitionOptions: Hashable, Sendable {
    /// The whole transition is scaled down to end within this many seconds (Mapbox: 3.5).
    public var maxDuration: Double
    public init(maxDuration: Double = 3.5) { self.maxDuration = maxDuration }
}

/// Mapbox's default viewport transition: one animator per camera field, each with its own
/// duration and delay from the LowZoomToHigh / HighZoomToLow tables of
/// docs/research/mapbox-camera-viewport.md §6, curve easeInOut, owner `defaultViewportTransition`, scaled
/// to `maxDuration`. Each tick the animators are retargeted to the state's latest camera (same
/// from-value and eased fraction), and finished fields keep tracking, so a moving puck is reached
/// without a jump at the hand-off.
///
/// Better than Mapbox: fields with nothing to animate are dropped, and without a zoom change the
/// HighZoomToLow centre and bearing delays (which wait for a zoom-out) are zero — a transition at
/// equal zoom pans at once instead of pausing 0.8 s (mapbox-maps-ios#2171).
public final class DefaultViewportTransition: ViewportTransition {
    public var options: DefaultViewportTransitionOptions
    public init(options: DefaultViewportTransitionOptions = .init()) { self.options = options }

    /// A component of the transition: which field, for how long, after which delay.
    public struct Component: Equatable, Sendable {
        public enum Field: String, Sendable { case center, zoom, bearing, pitch, padding }
        public var field: Field
        public var duration: Double
        public var delay: Double
    }

    /// The components for moving from `current` to `target` on a map (before running them).
    public static func components(from current: CameraState, to target: CameraOptions, transform: MapTransform,
                                  maxDuration: Double) -> [Component] {
        let epsilon = 1e-9
        let centerChanges = target.center.map { c in
            abs(c.latitude - current.center.latitude) > epsilon || abs(shortestAngle(from: current.center.longitude, to: c.longitude) - current.center.longitude) > epsilon
        } ?? false
        let zoomChanges = target.zoom.map { abs($0 - current.zoom) > epsilon } ?? false
        let bearingChanges = target.bearing.map { abs(shortestAngle(from: current.bearing, to: $0) - current.bearing) > epsilon } ?? false
        let pitchChanges = target.pitch.map { abs($0 - current.pitch) > epsilon } ?? false
        let paddingChanges = target.padding.map { $0 != current.padding } ?? false
        var out: [Component] = []
        if let z = target.zoom, current.zoom < z {
            // LowZoomToHigh.
            var centerDuration = 0.0
            if centerChanges, let c = target.center {
                let a = transform.principalPoint
                let b = transform.point(for: c) ?? ScreenPoint(x: a.x + 1500, y: a.y)
                let distance = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                centerDuration = min(distance / 500, 3)
                out.append(Component(field: .center, duration: centerDuration, delay: 0))
            }
            let zoomDelay = centerDuration / 2
            let zoomDuration = min(abs(z - current.zoom) / 2.2, 3)
            out.append(Component(field: .zoom, duration: zoomDuration, delay: zoomDelay))
            if bearingChanges { out.append(Component(field: .bearing, duration: 1.8, delay: max(zoomDelay + zoomDuration - 1.8, 0))) }
            let lateDelay = max(zoomDelay + zoomDuration - 1.2 + 0.1, 0)
            if pitchChanges { out.append(Component(field: .pitch, duration: 1.2, delay: lateDelay)) }
            if paddingChanges { out.append(Component(field: .padding, duration: 1.2, delay: lateDelay)) }
        } else {
            // HighZoomToLow (or equal zoom).
            if centerChanges { out.append(Component(field: .center, duration: 1.0, delay: zoomChanges ? 0.8 : 0)) }
            if zoomChanges { out.append(Component(field: .zoom, duration: 1.8, delay: 0)) }
            if bearingChanges { out.append(Component(field: .bearing, duration: 1.2, delay: zoomChanges ? 0.6 : 0)) }
            if pitchChanges { out.append(Component(field: .pitch, duration: 1.0, delay: 0)) }
            if paddingChanges { out.append(Component(field: .padding, duration: 1.2, delay: 0)) }
        }
        let longest = out.map { $0.delay + $0.duration }.max() ?? 0
        if longest > maxDuration && longest > 0 {
            let k = maxDuration / longest
            out = out.map { Component(field: $0.field, duration: $0.duration * k, delay: $0.delay * k) }
        }
        return out
    }

    public func run(to state: ViewportState, in context: ViewportContext, completion: @escaping (Bool) -> Void) -> ViewportTransitionRun {
        let run = Run(state: state, maxDuration: options.maxDuration, completion: completion)
        run.update(in: context)
        return run
    }

    final class Run: ViewportTransitionRun {
        let state: ViewportState
        let maxDuration: Double
        var completion: ((Bool) -> Void)?
        var animators: [(field: Component.Field, animator: BasicCameraAnimator)] = []
        var started = false
        var remaining = 0
        var failed = false

        init(state: ViewportState, maxDuration: Double, completion: @escaping (Bool) -> Void) {
            self.state = state; self.maxDuration = maxDuration; self.completion = completion
        }

        func update(in context: ViewportContext) {
            guard completion != nil, let target = state.camera(in: context) else { return }
            if !started { start(target, context); return }
            for (field, a) in animators {
                if a.finalPosition == nil {
                    a.retarget { t in Run.setTo(field, target, &t) }
                } else if a.finalPosition == .end {
                    // Finished fields keep tracking the target.
                    var c = CameraOptions()
                    Run.copy(field, target, &c)
                    context.map.setCamera(to: c)
                }
            }
        }

        func start(_ target: CameraOptions, _ context: ViewportContext) {
            started = true
            let specs = DefaultViewportTransition.components(from: context.map.cameraState, to: target,
                                                             transform: context.map.transform, maxDuration: maxDuration)
            if specs.isEmpty { finish(true); return }
            remaining = specs.count
            var delays: [Double] = []
            for spec in specs {
                let a = context.camera.makeAnimator(duration: spec.duration, curve: .easeInOut, animationOwner: .defaultViewportTransition) { t in
                    Run.setTo(spec.field, target, &t)
                }
                a.addCompletion { [weak self] position in
                    guard let self else { return }
                    if position != .end { self.failed = true }
                    self.remaining -= 1
                    if self.remaining == 0 { self.finish(!self.failed) }
                }
                animators.append((spec.field, a))
                delays.append(spec.delay)
            }
            for (i, entry) in animators.enumerated() { entry.animator.startAnimation(afterDelay: delays[i]) }
        }

        static func setTo(_ field: Component.Field, _ target: CameraOptions, _ t: inout CameraTransition) {
            switch field {
            case .center: t.center.toValue = target.center
            case .zoom: t.zoom.toValue = target.zoom
            case .bearing: t.bearing.toValue = target.bearing
            case .pitch: t.pitch.toValue = target.pitch
            case .padding: t.padding.toValue = target.padding
            }
        }

        static func copy(_ field: Component.Field, _ target: CameraOptions, _ c: inout CameraOptions) {
            switch field {
            case .center: c.center = target.center
            case .zoom: c.zoom = target.zoom
            case .bearing: c.bearing = target.bearing
            case .pitch: c.pitch = target.pitch
            case .padding: c.padding = target.padding
            }
        }

        func finish(_ success: Bool) {
            let c = completion
            completion = nil
            c?(success)
        }

        func cancel() {
            completion = nil
            for (_, a) in animators { a.stopAnimation() }
        }
    }
}
