import FlybyCore

/// Where the map looks, as a value (the Mapbox SwiftUI `Viewport`): a camera, an overview of a
/// geometry, following the puck, the style's default camera, or idle (the user moves the map).
/// Assigning a new value to ``MapHost/viewport`` runs a viewport transition to it on the same
/// engine as `mapView.viewport.transition(to:)`: the animation named by the enclosing
/// ``withViewportAnimation(_:body:)``, or none (an immediate jump).
public struct Viewport: Hashable, Sendable {
    /// The engine's description of this viewport (FlybyCore's one viewport vocabulary).
    public let descriptor: ViewportStateDescriptor
    /// The viewport a descriptor describes.
    public init(_ descriptor: ViewportStateDescriptor) { self.descriptor = descriptor }

    /// No state: the camera stays where it is and gestures move it.
    public static let idle = Viewport(.idle)
    /// The style's default camera (root `center`, `zoom`, `bearing`, `pitch`).
    public static let styleDefault = Viewport(.styleDefault)

    /// A fixed camera (absent fields keep their values).
    public static func camera(center: LocationCoordinate2D? = nil, anchor: ScreenPoint? = nil, zoom: Double? = nil,
                              bearing: Double? = nil, pitch: Double? = nil) -> Viewport {
        Viewport(.camera(CameraOptions(center: center, anchor: anchor, zoom: zoom, bearing: bearing, pitch: pitch)))
    }

    /// The camera that shows all of `geometry` (kept fitted while the geometry is shown).
    public static func overview(geometry: Geometry, bearing: Double = 0, pitch: Double = 0, geometryPadding: EdgeInsets = .zero,
                                maxZoom: Double? = nil, offset: ScreenPoint? = nil) -> Viewport {
        Viewport(.overview(OverviewViewportStateOptions(geometry: geometry, geometryPadding: geometryPadding, bearing: bearing,
                                                               pitch: pitch, maxZoom: maxZoom, offset: offset)))
    }

    /// Follows the location puck at `zoom`, turning with its heading or course (or a fixed bearing).
    public static func followPuck(zoom: Double, bearing: FollowPuckViewportStateBearing = .heading, pitch: Double = 45) -> Viewport {
        Viewport(.followPuck(FollowPuckViewportStateOptions(zoom: zoom, bearing: bearing, pitch: pitch)))
    }

    /// The camera of a `.camera` viewport (nil for the other kinds).
    public var camera: CameraOptions? { if case .camera(let c) = descriptor { return c } else { return nil } }
    public var isIdle: Bool { descriptor == .idle }
    public var isStyleDefault: Bool { descriptor == .styleDefault }
    /// The followed-puck options of a `.followPuck` viewport.
    public var followPuck: FollowPuckViewportStateOptions? { if case .followPuck(let o) = descriptor { return o } else { return nil } }
    /// The overview options of an `.overview` viewport.
    public var overview: OverviewViewportStateOptions? { if case .overview(let o) = descriptor { return o } else { return nil } }
}

/// How a ``Viewport`` change animates (the Mapbox SwiftUI `ViewportAnimation`), used with
/// ``withViewportAnimation(_:body:)``.
public struct ViewportAnimation: Hashable, Sendable {
    /// The engine's description of this animation (FlybyCore's one transition vocabulary).
    public let descriptor: ViewportTransitionDescriptor
    /// The animation a descriptor describes.
    public init(_ descriptor: ViewportTransitionDescriptor) { self.descriptor = descriptor }

    /// Mapbox's default transition: a flight or an ease, whichever the distance calls for, at
    /// most `maxDuration` seconds.
    public static func `default`(maxDuration: Double = 3.5) -> ViewportAnimation { ViewportAnimation(.default(maxDuration: maxDuration)) }
    /// A `fly(to:)` arc of automatic duration.
    public static let fly = ViewportAnimation(.fly(duration: nil))
    public static func fly(duration: Double) -> ViewportAnimation { ViewportAnimation(.fly(duration: duration)) }
    /// Eases to the target over `duration` seconds with the CSS ease-in curve (0.42, 0, 1, 1).
    public static func easeIn(duration: Double) -> ViewportAnimation { ViewportAnimation(.ease(duration: duration, curve: .easeIn)) }
    public static func easeOut(duration: Double) -> ViewportAnimation { ViewportAnimation(.ease(duration: duration, curve: .easeOut)) }
    public static func easeInOut(duration: Double) -> ViewportAnimation { ViewportAnimation(.ease(duration: duration, curve: .easeInOut)) }
    public static func linear(duration: Double) -> ViewportAnimation { ViewportAnimation(.ease(duration: duration, curve: .linear)) }
    /// No animation (what a change outside `withViewportAnimation` does).
    public static let immediate = ViewportAnimation(.immediate)

    /// A short name for logs and tests: `default(maxDuration: 1.0)`, `fly`, `easeIn(duration: 1.0)`, `immediate`.
    public var name: String {
        switch descriptor {
        case .default(let d): return "default(maxDuration: \(d))"
        case .fly(let d): return d.map { "fly(duration: \($0))" } ?? "fly"
        case .ease(let d, let curve): return "\(curve.name ?? "ease")(duration: \(d))"
        case .immediate: return "immediate"
        }
    }

    /// The animation of the enclosing ``withViewportAnimation(_:body:)`` (nil outside one).
    @TaskLocal public static var current: ViewportAnimation?
}

/// Runs `body`, in which ``Viewport`` assignments to a ``MapHost`` animate with `animation`
/// (the Mapbox SwiftUI `withViewportAnimation`).
public func withViewportAnimation<R>(_ animation: ViewportAnimation = .default(maxDuration: 1), body: () throws -> R) rethrows -> R {
    try ViewportAnimation.$current.withValue(animation, operation: body)
}
