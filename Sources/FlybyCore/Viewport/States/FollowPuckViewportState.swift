/// Where the follow-puck camera points (Mapbox's `FollowPuckViewportStateBearing`).
public enum FollowPuckViewportStateBearing: Hashable, Sendable {
    case constant(Double)
    /// The puck's compass heading.
    case heading
    /// The puck's direction of travel.
    case course
}

/// Options of `FollowPuckViewportState` (Mapbox defaults: zoom 16.35, bearing heading, pitch 45,
/// padding nil). A nil field is never written, so the user can change it while following.
public struct FollowPuckViewportStateOptions: Hashable, Sendable {
    public var padding: EdgeInsets?
    public var zoom: Double?
    public var bearing: FollowPuckViewportStateBearing?
    public var pitch: Double?
    public init(padding: EdgeInsets? = nil, zoom: Double? = 16.35, bearing: FollowPuckViewportStateBearing? = .heading, pitch: Double? = 45) {
        self.padding = padding; self.zoom = zoom; self.bearing = bearing; self.pitch = pitch
    }
}

/// Follows the puck: centre = the puck's interpolated position, set directly once per tick in
/// which the puck moved (the smoothness comes from the puck interpolation, §9). While following,
/// the map counts as animating (no idle event).
public final class FollowPuckViewportState: ViewportState {
    public var options: FollowPuckViewportStateOptions
    public let name = "followPuck"
    private var isActive = false
    private var lastApplied: CameraOptions?

    public init(options: FollowPuckViewportStateOptions = .init()) { self.options = options }

    public func camera(in context: ViewportContext) -> CameraOptions? {
        guard let puck = context.puck else { return nil }
        var c = CameraOptions(center: puck.coordinate, padding: options.padding, zoom: options.zoom, pitch: options.pitch)
        switch options.bearing {
        case .constant(let b): c.bearing = b
        case .heading: c.bearing = puck.heading
        case .course: c.bearing = puck.course
        case nil: break
        }
        return c
    }

    public func startUpdatingCamera(in context: ViewportContext) {
        guard !isActive else { return }
        isActive = true
        lastApplied = nil
        context.map.beginAnimation()
    }

    public func stopUpdatingCamera(in context: ViewportContext) {
        guard isActive else { return }
        isActive = false
        context.map.endAnimation()
    }

    public func updateCamera(in context: ViewportContext) {
        guard isActive, let c = camera(in: context), c != lastApplied else { return }
        lastApplied = c
        context.map.setCamera(to: c)
    }
}
