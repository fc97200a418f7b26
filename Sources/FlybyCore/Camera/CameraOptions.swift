/// A partial camera: every field is optional and a nil field is left as it is.
///
/// Mapbox's `CameraOptions`, same names and meaning. `anchor` is the screen point about which
/// zoom, bearing and pitch changes are applied when `center` is nil; it is not stored in the
/// camera state.
public struct CameraOptions: Hashable, Sendable {
    /// The coordinate drawn at the principal point (the middle of the padded rectangle).
    public var center: LocationCoordinate2D?
    /// Insets that move the principal point; persistent camera state, in screen points.
    public var padding: EdgeInsets?
    /// Screen point (points, origin top-left) kept fixed while zoom, bearing and pitch change.
    public var anchor: ScreenPoint?
    /// Zoom level; the world is 512 · 2^zoom points wide.
    public var zoom: Double?
    /// Degrees clockwise from true north.
    public var bearing: Double?
    /// Degrees from looking straight down (0) towards the horizon.
    public var pitch: Double?

    public init(center: LocationCoordinate2D? = nil, padding: EdgeInsets? = nil, anchor: ScreenPoint? = nil,
                zoom: Double? = nil, bearing: Double? = nil, pitch: Double? = nil) {
        self.center = center; self.padding = padding; self.anchor = anchor
        self.zoom = zoom; self.bearing = bearing; self.pitch = pitch
    }

    /// All the fields of a camera state (anchor nil).
    public init(cameraState: CameraState) {
        self.init(center: cameraState.center, padding: cameraState.padding, zoom: cameraState.zoom,
                  bearing: cameraState.bearing, pitch: cameraState.pitch)
    }

    /// True when every field is nil.
    public var isEmpty: Bool {
        center == nil && padding == nil && anchor == nil && zoom == nil && bearing == nil && pitch == nil
    }

    /// The first field holding NaN or an infinity, by name, or nil when all are finite.
    public var firstNonFiniteField: String? {
        if let c = center, !c.isFinite { return "center" }
        if let p = padding, !p.isFinite { return "padding" }
        if let a = anchor, !a.isFinite { return "anchor" }
        if let z = zoom, !z.isFinite { return "zoom" }
        if let b = bearing, !b.isFinite { return "bearing" }
        if let p = pitch, !p.isFinite { return "pitch" }
        return nil
    }
}

/// The full camera: Mapbox's `CameraState`. Every field is set; there is no anchor.
public struct CameraState: Hashable, Sendable, CustomStringConvertible {
    public var center: LocationCoordinate2D
    public var padding: EdgeInsets
    public var zoom: Double
    public var bearing: Double
    public var pitch: Double

    public init(center: LocationCoordinate2D, padding: EdgeInsets = .zero, zoom: Double, bearing: Double = 0, pitch: Double = 0) {
        self.center = center; self.padding = padding; self.zoom = zoom; self.bearing = bearing; self.pitch = pitch
    }

    public var description: String {
        "CameraState(center: \(center), zoom: \(zoom), bearing: \(bearing), pitch: \(pitch), padding: \(padding))"
    }
}

/// A camera value was NaN or infinite: refused at the API boundary so no frame ever shows one.
public struct NonFiniteCameraError: Error, Sendable, CustomStringConvertible {
    public var field: String
    public var description: String { "camera \(field) is not a finite number" }
}

extension CameraState {
    /// This state with every field that `options` sets (centre, padding, zoom, bearing, pitch)
    /// replaced. Not clamped to any bounds; `anchor` is not applied (it needs the map's size,
    /// see ``FlybyMap/setCamera(to:)``).
    public func applying(_ options: CameraOptions) -> CameraState {
        var s = self
        s.apply(options)
        return s
    }

    /// Replaces, in place, every field that `options` sets (see ``applying(_:)``): the one
    /// CameraOptions → CameraState merge, used by `setCamera`, flight scripts and retargeting.
    @inlinable
    public mutating func apply(_ options: CameraOptions) {
        if let c = options.center { center = c }
        if let p = options.padding { padding = p }
        if let z = options.zoom { zoom = z }
        if let b = options.bearing { bearing = b }
        if let p = options.pitch { pitch = p }
    }
}
