import FlybyCore
import FlybyData
import FlybyRender

/// A flight script (docs/formats.md §2): a start camera and a list of steps that drive the camera.
public struct FlightScript: Sendable {
    /// Where the script came from (file path, or a name for built-in flights).
    public var file: String
    public var size: ScreenSize
    public var fps: Double
    /// Style name or path, as written.
    public var style: String
    /// Where `style` is written in the flight file (an ``InputError`` with an empty message), so
    /// an error in the style file can be reported at the flight's field; nil when absent.
    public var styleLocation: InputError?
    /// Start camera fields given by the script (the rest come from the style's default camera).
    public var camera: CameraOptions
    public var bounds: CameraBounds
    public var steps: [FlightStep]
    /// The replayed location track, when given.
    public var location: LocationSpec?
    /// `viewportOptions.transitionsToIdleUponUserInteraction` (a Flyby extension; default true).
    public var transitionsToIdleUponUserInteraction = true
    /// Things in the script that are valid but probably not what its author meant, one line each
    /// naming the file, line, column and JSON path (``FlightScriptParser/warnings(_:)``); the
    /// commands print them to stderr as `flyby: warning: …` and go on.
    public var warnings: [String] = []

    public init(file: String, size: ScreenSize = ScreenSize(width: 1280, height: 720), fps: Double = 60, style: String = "world",
                camera: CameraOptions = CameraOptions(), bounds: CameraBounds = .default, steps: [FlightStep]) {
        self.file = file; self.size = size; self.fps = fps; self.style = style
        self.camera = camera; self.bounds = bounds; self.steps = steps
    }
}

/// One step of a flight. Steps run one after another: a step starts in the tick in which the
/// previous one completed.
public indirect enum FlightStep: Sendable {
    /// Jump (`setCamera`); completes at once.
    case set(CameraOptions)
    /// Completes after that many seconds.
    case wait(Double)
    /// `ease(to:duration:curve:)`.
    case ease(to: CameraOptions, duration: Double, curve: AnimationCurve)
    /// `fly(to:duration:curve:maxDuration:minZoom:)`; nil duration = automatic.
    case fly(to: CameraOptions, duration: Double?, curve: AnimationCurve, maxDuration: Double?, minZoom: Double?)
    /// `makeAnimator` + `startAnimation(afterDelay:)`.
    case animate(AnimateStep)
    /// Starts every child in the same tick (or `at` seconds after the group started); completes
    /// when all have completed or been cancelled.
    case parallel([(at: Double, step: FlightStep)])
    /// Cancels running animations of those owners (all when nil); completes at once.
    case cancel(owners: [AnimationOwner]?)
    /// Acts on an `animate` step's animator by its `id` (a Flyby extension): pause, resume,
    /// reverse, scrub to a fraction, or stop. Completes at once.
    case control(id: String, action: AnimatorControl)
    /// A viewport transition; completes `hold` seconds after it completes or fails.
    case viewport(state: ViewportStateDescriptor, transition: ViewportTransitionDescriptor, hold: Double)
    /// Simulated touch input, one input per tick as a finger would give.
    case gesture(GestureSpec)
}

/// The `location` field: a track replayed in simulation time.
public struct LocationSpec: Sendable {
    public var track: Track
    public var speed: Double
    public var loop: Bool
    public var mode: PuckInterpolationMode
    public var puckBearing: PuckBearing
    /// Draw the puck as this 3D model (the optional `puck3D` field); nil: the 2D puck.
    public var puck3D: Puck3D?

    public init(track: Track, speed: Double = 1, loop: Bool = false, mode: PuckInterpolationMode = .mapboxDefault, puckBearing: PuckBearing = .course,
                puck3D: Puck3D? = nil) {
        self.track = track; self.speed = speed; self.loop = loop; self.mode = mode; self.puckBearing = puckBearing
        self.puck3D = puck3D
    }
}

/// A gesture step (screen points, seconds).
public enum GestureSpec: Sendable {
    case pan(from: ScreenPoint, to: ScreenPoint, duration: Double)
    case pinch(at: ScreenPoint, scale: Double, duration: Double)
    case rotate(at: ScreenPoint, degrees: Double, duration: Double)
    case pitch(degrees: Double, duration: Double)
    case doubleTap(at: ScreenPoint)
    case twoFingerTap(at: ScreenPoint)
    case quickZoom(at: ScreenPoint, dy: Double, duration: Double)
}

/// The `animate` step's fields.
public struct AnimateStep: Sendable {
    public var duration: Double
    public var curve: AnimationCurve
    public var from: CameraOptions
    public var to: CameraOptions
    public var delay: Double
    public var owner: AnimationOwner
    /// Play from the to-values back to the from-values.
    public var reversed: Bool
    /// Name for `control` steps (a Flyby extension).
    public var id: String?
    /// Turn the bearing the long way when false (default true: the short way).
    public var shortestBearing: Bool
}

/// What a `control` step does to an animator.
public enum AnimatorControl: Sendable, Equatable {
    case pause
    case resume
    case reverse
    case scrub(Double)
    case stop
}
