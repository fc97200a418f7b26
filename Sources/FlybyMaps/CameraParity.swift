import FlybyCore

extension CameraBoundsOptions {
    /// Mapbox's argument order (`bounds`, `maxZoom`, `minZoom`, `maxPitch`, `minPitch`), so guide
    /// code such as `CameraBoundsOptions(bounds: b, maxZoom: 10, minZoom: 4)` compiles as written.
    /// Both zoom limits are required here, which keeps calls with one of them unambiguous.
    public init(bounds: CoordinateBounds? = nil, maxZoom: Double?, minZoom: Double?, maxPitch: Double? = nil, minPitch: Double? = nil) {
        self.init(bounds: bounds, minZoom: minZoom, maxZoom: maxZoom, minPitch: minPitch, maxPitch: maxPitch)
    }
}
