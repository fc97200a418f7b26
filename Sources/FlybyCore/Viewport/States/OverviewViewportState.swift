/// Options of `OverviewViewportState` (Mapbox defaults: geometryPadding zero, bearing 0, pitch 0,
/// padding nil, maxZoom nil, offset nil, animationDuration 1 s).
public struct OverviewViewportStateOptions: Hashable, Sendable {
    public var geometry: Geometry
    /// Margin around the geometry while fitting, points.
    public var geometryPadding: EdgeInsets
    public var bearing: Double
    public var pitch: Double
    /// Camera padding (persistent), points.
    public var padding: EdgeInsets?
    public var maxZoom: Double?
    public var offset: ScreenPoint?
    /// Seconds of the linear ease to a new overview camera while active (0 = jump).
    public var animationDuration: Double

    public init(geometry: Geometry, geometryPadding: EdgeInsets = .zero, bearing: Double = 0, pitch: Double = 0,
                padding: EdgeInsets? = nil, maxZoom: Double? = nil, offset: ScreenPoint? = nil, animationDuration: Double = 1) {
        self.geometry = geometry; self.geometryPadding = geometryPadding; self.bearing = bearing; self.pitch = pitch
        self.padding = padding; self.maxZoom = maxZoom; self.offset = offset; self.animationDuration = animationDuration
    }
}

/// Shows a whole geometry: the camera that fits it inside `geometryPadding` at the options' bearing
/// and pitch. While active, a new camera (options or map size changed) is eased to, linearly, over
/// `animationDuration` (a jump when 0), cancelling the previous ease.
public final class OverviewViewportState: ViewportState {
    public var options: OverviewViewportStateOptions
    public let name = "overview"
    private var isActive = false
    private var lastApplied: CameraOptions?
    private var ease: Cancelable?
    private var cache: (options: OverviewViewportStateOptions, size: ScreenSize, trackCount: Int, camera: CameraOptions?)?

    public init(options: OverviewViewportStateOptions) { self.options = options }

    public func camera(in context: ViewportContext) -> CameraOptions? {
        let size = context.map.size
        if let c = cache, c.options == options, c.size == size, c.trackCount == context.trackCoordinates.count { return c.camera }
        var coordinates = options.geometry.allCoordinates
        if coordinates.isEmpty { coordinates = context.trackCoordinates }
        let fitted = try? context.map.camera(for: coordinates, camera: CameraOptions(padding: options.padding, bearing: options.bearing, pitch: options.pitch),
                                             coordinatesPadding: options.geometryPadding, maxZoom: options.maxZoom, offset: options.offset)
        cache = (options, size, context.trackCoordinates.count, fitted)
        return fitted
    }

    public func startUpdatingCamera(in context: ViewportContext) {
        isActive = true
        lastApplied = camera(in: context)
    }

    public func stopUpdatingCamera(in context: ViewportContext) {
        isActive = false
        ease?.cancel()
        ease = nil
    }

    public func updateCamera(in context: ViewportContext) {
        guard isActive, let c = camera(in: context), c != lastApplied else { return }
        lastApplied = c
        ease?.cancel()
        if options.animationDuration <= 0 {
            context.map.setCamera(to: c)
        } else {
            ease = context.camera.ease(to: c, duration: options.animationDuration, curve: .linear)
        }
    }
}
