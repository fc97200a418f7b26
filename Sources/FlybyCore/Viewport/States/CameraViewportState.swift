/// A fixed camera (Mapbox's experimental `CameraViewportState`): set once when entered.
public final class CameraViewportState: ViewportState {
    public var cameraOptions: CameraOptions
    public let name = "camera"
    public init(camera: CameraOptions) { cameraOptions = camera }
    public func camera(in context: ViewportContext) -> CameraOptions? { cameraOptions }
    public func startUpdatingCamera(in context: ViewportContext) {}
    public func stopUpdatingCamera(in context: ViewportContext) {}
    public func updateCamera(in context: ViewportContext) {}
}

/// The style's root camera (centre, zoom, bearing, pitch); before a style is loaded, the flight's
/// start camera.
public final class StyleDefaultViewportState: ViewportState {
    public let name = "styleDefault"
    public init() {}
    public func camera(in context: ViewportContext) -> CameraOptions? { context.styleDefaultCamera }
    public func startUpdatingCamera(in context: ViewportContext) {}
    public func stopUpdatingCamera(in context: ViewportContext) {}
    public func updateCamera(in context: ViewportContext) {}
}
