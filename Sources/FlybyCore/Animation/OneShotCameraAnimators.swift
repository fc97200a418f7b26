/// The animator behind `fly(to:)`: follows a `FlyToPath` over `duration` seconds of simulation
/// time with a timing curve, and ends exactly on the (clamped) destination. Owner
/// `cameraAnimationsManager`. Active only while running; stopping gives `.current`.
/// The shared lifecycle of animators that start once and run to the end or until stopped
/// (`fly(to:)` and pan deceleration): inactive → active → inactive with a final position.
/// Subclasses implement `update(at:manager:)` and call `finish(_:)` when they reach their end.
public class OneShotCameraAnimator: RunnableCameraAnimator {
    public let id: Int
    public let owner: AnimationOwner
    public let animationType: AnimationType
    /// Strong on purpose: a weak reference would give every animator a side table and make each
    /// retain and release on the tick's hot path take the slow route (measured with perf).
    var manager: CameraAnimationsManager?
    var startTime = 0.0
    var completions: [AnimationCompletion] = []
    public private(set) var state: UIViewAnimatingState = .inactive
    public private(set) var finalPosition: UIViewAnimatingPosition?

    init(id: Int, owner: AnimationOwner, type: AnimationType, manager: CameraAnimationsManager) {
        self.id = id; self.owner = owner; self.animationType = type; self.manager = manager
    }

    deinit { manager?.unregister(id) }

    /// True while running.
    public var isRunning: Bool { state == .active }

    func start(completion: AnimationCompletion?) {
        guard let m = manager, state == .inactive, finalPosition == nil else { return }
        if let completion { completions.append(completion) }
        startTime = m.now
        state = .active
        m.animatorStarted(self)
    }

    /// Stops where it is; completions get `.current` at once.
    public func stopAnimation() {
        guard finalPosition == nil else { return }
        let wasRunning = state == .active
        state = .inactive
        finalPosition = .current
        if wasRunning { manager?.animatorCancelled(self, wasRunning: true) }
        let pending = completions
        completions = []
        for c in pending { c(.current) }
    }

    /// Adds a completion; after the end it runs at the next tick with the final position.
    public func addCompletion(_ completion: @escaping AnimationCompletion) {
        if let p = finalPosition { manager?.enqueueLateCompletion { completion(p) } } else { completions.append(completion) }
    }

    /// Reached the end: reports `finished end` and queues the completions for this tick's phase 4.
    func finish(_ m: CameraAnimationsManager) {
        state = .inactive
        finalPosition = .end
        m.animatorFinished(self, position: .end)
        let pending = completions
        completions = []
        m.enqueueCompletion { for c in pending { c(.end) } }
    }

    func update(at now: Double, manager m: CameraAnimationsManager) {}
}

public final class FlyToCameraAnimator: OneShotCameraAnimator {
    public let path: FlyToPath
    public let duration: Double
    public let curve: AnimationCurve
    /// The destination after retargeting (the path's own target until then).
    public private(set) var currentTarget: CameraState?
    /// currentTarget − path.target per field, blended in with the eased progress.
    var correction = (lat: 0.0, lng: 0.0, zoom: 0.0, bearing: 0.0, pitch: 0.0)
    /// currentTarget.padding − path.target.padding, blended in like ``correction``.
    var paddingCorrection = EdgeInsets.zero

    init(id: Int, owner: AnimationOwner, path: FlyToPath, duration: Double, curve: AnimationCurve, manager: CameraAnimationsManager) {
        self.path = path
        self.duration = max(0, duration); self.curve = curve
        super.init(id: id, owner: owner, type: .unspecified, manager: manager)
    }

    /// Moves the destination (a moving target such as the puck): the difference from the planned
    /// destination is blended in with the eased progress, so the flight ends exactly on the new
    /// destination without a jump. Fields of `target` that are nil keep the planned value
    /// (padding included; `anchor` is not used, as the path moves the centre).
    public func retarget(to target: CameraOptions, bounds: CameraBounds, size: ScreenSize) {
        guard finalPosition == nil, target.firstNonFiniteField == nil else { return }
        var goal = path.target
        goal.apply(target)
        goal = bounds.constrain(goal, size: size)
        currentTarget = goal
        let p = path.target
        paddingCorrection = EdgeInsets(top: goal.padding.top - p.padding.top, left: goal.padding.left - p.padding.left,
                                       bottom: goal.padding.bottom - p.padding.bottom, right: goal.padding.right - p.padding.right)
        correction = (goal.center.latitude - p.center.latitude,
                      shortestAngle(from: p.center.longitude, to: goal.center.longitude) - p.center.longitude,
                      goal.zoom - p.zoom, shortestAngle(from: p.bearing, to: goal.bearing) - p.bearing, goal.pitch - p.pitch)
    }

    override func update(at now: Double, manager m: CameraAnimationsManager) {
        guard state == .active else { return }
        let elapsed = now - startTime
        let t = duration <= 0 ? 1 : (elapsed >= duration - timeEpsilon ? 1 : elapsed / duration)
        if t < 1 {
            let k = curve.value(at: t)
            var c = path.camera(at: k)
            if currentTarget != nil {
                c.center.latitude += correction.lat * k
                c.center.longitude = wrapLongitude(c.center.longitude + correction.lng * k)
                c.zoom += correction.zoom * k
                c.bearing += correction.bearing * k
                c.pitch += correction.pitch * k
                c.padding = c.padding + EdgeInsets.lerp(.zero, paddingCorrection, k)
            }
            m.map.setCamera(to: CameraOptions(center: c.center, padding: c.padding, zoom: c.zoom, bearing: c.bearing, pitch: c.pitch))
            return
        }
        let c = currentTarget ?? path.target
        m.map.setCamera(to: CameraOptions(center: c.center, padding: c.padding, zoom: c.zoom, bearing: c.bearing, pitch: c.pitch))
        finish(m)
    }
}

/// Pan deceleration after a fling (Mapbox's `GestureDecelerationCameraAnimator`): each tick the
/// map is dragged by velocity · dt from the same start point, then the velocity decays by
/// `decelerationFactor` per millisecond (0.998 = `UIScrollView.DecelerationRate.normal`). It ends
/// with `.end` once both velocity components are below 35 pt/s. Owner `cameraAnimationsManager`,
/// type `deceleration`.
public final class GestureDecelerationCameraAnimator: OneShotCameraAnimator {
    /// Speed (points per second) under which the motion stops, per component.
    public static let stopSpeed = 35.0
    public private(set) var velocity: ScreenPoint
    let location: ScreenPoint
    let decelerationFactor: Double
    let locationChangeHandler: (_ from: ScreenPoint, _ to: ScreenPoint) -> Void
    var lastTime = 0.0

    init(id: Int, owner: AnimationOwner, location: ScreenPoint, velocity: ScreenPoint, decelerationFactor: Double,
         manager: CameraAnimationsManager, locationChangeHandler: @escaping (ScreenPoint, ScreenPoint) -> Void) {
        self.location = location; self.velocity = velocity
        self.decelerationFactor = decelerationFactor
        self.locationChangeHandler = locationChangeHandler
        super.init(id: id, owner: owner, type: .deceleration, manager: manager)
    }

    override func start(completion: AnimationCompletion?) {
        super.start(completion: completion)
        startTime = manager?.now ?? 0
        lastTime = startTime
    }

    override func update(at now: Double, manager m: CameraAnimationsManager) {
        guard state == .active else { return }
        let dt = max(0, now - lastTime)
        lastTime = now
        if abs(velocity.x) < Self.stopSpeed && abs(velocity.y) < Self.stopSpeed {
            finish(m)
            return
        }
        locationChangeHandler(location, ScreenPoint(x: location.x + velocity.x * dt, y: location.y + velocity.y * dt))
        let decay = pow(decelerationFactor, dt * 1000)
        velocity = ScreenPoint(x: velocity.x * decay, y: velocity.y * decay)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
