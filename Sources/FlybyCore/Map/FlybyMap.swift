/// The map's camera model: size, camera state and bounds, with the operations of Mapbox's
/// `MapboxMap` (`setCamera(to:)`, `cameraState`, `cameraBounds`, `camera(for:)`, `point(for:)`,
/// `coordinate(for:)`, `dragCameraOptions(from:to:)`). A simulation holds one, as
/// `simulation.mapboxMap`, so guide code such as `mapView.mapboxMap.setCamera(to:)` reads the same.
///
/// Every camera change goes through `setCamera(to:)`, which refuses non-finite values, applies the
/// anchor, clamps to the camera bounds, keeps the eye above the ``terrain`` (when there is one)
/// and sends `onCameraChanged` when the camera moved.
public final class FlybyMap {
    public private(set) var size: ScreenSize
    /// The camera; during the animators phase of a tick, the fields written so far (clamped
    /// when the phase ends).
    public var cameraState: CameraState { isBatching ? pendingState : committedState }
    private var committedState: CameraState
    /// The fields written so far while animators write (see `beginAnimatorWrites()`).
    private var pendingState: CameraState
    private var isBatching = false
    public private(set) var cameraBounds: CameraBounds
    /// Sent synchronously after each camera change, with the new state.
    public let onCameraChanged = Signal<CameraState>()
    /// How many `setCamera` calls changed the camera.
    public private(set) var cameraChangeCount = 0
    /// How many camera updates were refused because a value was NaN or infinite.
    public private(set) var refusedCameraChangeCount = 0
    /// Reference counts of running animations and gestures (Mapbox's begin/endAnimation); the
    /// map is idle only when both are zero.
    public private(set) var animationCount = 0
    public private(set) var gestureCount = 0

    /// - Precondition: `size` has a positive, finite width and height; `camera` is finite.
    public init(size: ScreenSize, camera: CameraState, bounds: CameraBounds = .default) {
        precondition(size.width > 0 && size.height > 0 && size.width.isFinite && size.height.isFinite, "map size must be positive")
        self.size = size
        self.cameraBounds = bounds
        self.committedState = bounds.constrain(camera, size: size)
        self.pendingState = committedState
    }

    /// The 3D terrain the camera stays above (nil: a flat map, the default). Setting it re-clamps
    /// the camera. Every later camera change, by animations, gestures and viewport transitions
    /// alike, is kept above it by ``Terrain/constrain(_:from:size:)`` after the camera bounds are applied, so
    /// the terrain wins over `minZoom` when the two disagree (the eye never goes underground).
    public var terrain: Terrain? {
        didSet { reclamp() }
    }

    /// The ground's height in metres at `coordinate` (Mapbox `MapboxMap.elevation(at:)`), nil
    /// without terrain or where its DEM has no data.
    public func elevation(at coordinate: LocationCoordinate2D) -> Double? {
        terrain?.elevation(coordinate)
    }

    /// The eye's altitude in metres above sea level (with terrain; nil without).
    public var eyeAltitude: Double? {
        terrain?.eye(of: cameraState, size: size).altitude
    }

    /// The camera bounds, then the terrain, applied to `state` (the camera after a change of
    /// the committed one).
    private func constrained(_ state: CameraState) -> CameraState {
        let s = cameraBounds.constrain(state, size: size)
        guard let terrain else { return s }
        return terrain.constrain(s, from: committedState, size: size)
    }

    /// The current projection.
    public var transform: MapTransform { MapTransform(size: size, state: cameraState) }

    /// The middle of the padded rectangle, the default anchor of animations.
    public var anchor: ScreenPoint { transform.principalPoint }

    /// Changes the camera. Nil fields are left alone; a non-nil `anchor` (without a `center`) keeps
    /// the ground point under it fixed while zoom, bearing, pitch and padding change. The result is
    /// clamped to `cameraBounds`. Does not cancel animations (Mapbox semantics).
    ///
    /// A NaN or infinite value refuses the whole update (the camera stays as it is) and counts in
    /// `refusedCameraChangeCount`; use `validate(_:)` first to get an error instead.
    public func setCamera(to options: CameraOptions) {
        if options.firstNonFiniteField != nil { refusedCameraChangeCount += 1; return }
        if isBatching {
            if options.anchor == nil || options.center != nil {
                // The common animator write: plain field stores, in place.
                pendingState.apply(options)
            } else {
                pendingState = applying(options, to: pendingState)
            }
            return
        }
        commit(constrained(applying(options, to: committedState)))
    }

    /// Starts the animators phase of a tick: until `endAnimatorWrites()`, `setCamera` only records
    /// the fields; the bounds are applied and `onCameraChanged` sent once at the end. With k
    /// animators this clamps once instead of k times (Mapbox sends k `cameraChanged` events).
    package func beginAnimatorWrites() {
        if !isBatching { pendingState = committedState; isBatching = true }
    }

    /// Ends the animators phase: clamps the written camera and sends one `onCameraChanged`.
    package func endAnimatorWrites() {
        guard isBatching else { return }
        isBatching = false
        commit(constrained(pendingState))
    }

    private func commit(_ constrained: CameraState) {
        if constrained != committedState {
            committedState = constrained
            cameraChangeCount += 1
            onCameraChanged.send(constrained)
        }
    }

    /// `state` with the fields of `options` applied (anchor included), not yet clamped.
    private func applying(_ options: CameraOptions, to state: CameraState) -> CameraState {
        var s = state.applying(options)
        if options.center == nil, let a = options.anchor, s != state,
                  !(s.padding == state.padding && a == MapTransform(size: size, state: state).principalPoint) {
            // (An anchor at the principal point leaves the centre exactly where it is.)
            let pinned = MapTransform(size: size, state: state).coordinate(for: a)
            s.zoom = min(max(s.zoom, cameraBounds.minZoom), cameraBounds.maxZoom)
            s.pitch = min(max(s.pitch, cameraBounds.minPitch), cameraBounds.maxPitch)
            s.center = MapTransform(size: size, state: s).center(placing: pinned, at: a)
        }
        return s
    }

    /// Throws when a camera value is NaN or infinite.
    public static func validate(_ options: CameraOptions) throws(NonFiniteCameraError) {
        if let f = options.firstNonFiniteField { throw NonFiniteCameraError(field: f) }
    }

    /// Updates the camera bounds and re-clamps the camera. Throws for invalid bounds.
    public func setCameraBounds(with options: CameraBoundsOptions) throws(CameraBoundsError) {
        cameraBounds = try cameraBounds.updated(with: options)
        reclamp()
    }

    /// Resizes the map (the window was resized); the camera is re-clamped.
    /// - Precondition: positive, finite size.
    public func setSize(_ newSize: ScreenSize) {
        precondition(newSize.width > 0 && newSize.height > 0 && newSize.width.isFinite && newSize.height.isFinite, "map size must be positive")
        size = newSize
        reclamp()
    }

    private func reclamp() {
        commit(constrained(committedState))
    }

    public func beginAnimation() { animationCount += 1 }
    public func endAnimation() { animationCount = max(0, animationCount - 1) }
    public func beginGesture() { gestureCount += 1 }
    public func endGesture() { gestureCount = max(0, gestureCount - 1) }
    /// True while an animation or gesture is in progress.
    public var isAnimationInProgress: Bool { animationCount > 0 }
    public var isGestureInProgress: Bool { gestureCount > 0 }

    // MARK: Projection helpers (Mapbox names)

    /// The screen point of a coordinate, or nil when it is beyond the horizon.
    public func point(for coordinate: LocationCoordinate2D) -> ScreenPoint? { transform.point(for: coordinate) }

    /// The coordinate under a screen point (clamped below the horizon).
    public func coordinate(for point: ScreenPoint) -> LocationCoordinate2D {
        var c = transform.coordinate(for: point)
        c.longitude = wrapLongitude(c.longitude)
        return c
    }

    /// The camera change that drags the ground point under `from` to `to`.
    public func dragCameraOptions(from: ScreenPoint, to: ScreenPoint) -> CameraOptions {
        transform.dragCameraOptions(from: from, to: to)
    }

    /// The camera that fits `coordinates` (see `CameraFit.camera(for:)`); throws when there is
    /// nothing to fit or the padding leaves no room.
    public func camera(for coordinates: [LocationCoordinate2D], camera: CameraOptions = CameraOptions(),
                       coordinatesPadding: EdgeInsets? = nil, maxZoom: Double? = nil, offset: ScreenPoint? = nil) throws(CameraFitError) -> CameraOptions {
        guard let c = CameraFit.camera(for: coordinates, size: size, camera: camera, coordinatesPadding: coordinatesPadding ?? .zero,
                                       maxZoom: maxZoom, offset: offset ?? .zero) else {
            throw CameraFitError(description: "cannot fit \(coordinates.count) coordinates in a \(size) view with that padding")
        }
        return c
    }

    /// The camera that fits a geometry (all its coordinates).
    public func camera(for geometry: Geometry, padding: EdgeInsets? = nil, bearing: Double? = nil, pitch: Double? = nil,
                       maxZoom: Double? = nil, offset: ScreenPoint? = nil) throws(CameraFitError) -> CameraOptions {
        try camera(for: geometry.allCoordinates, camera: CameraOptions(bearing: bearing, pitch: pitch),
                   coordinatesPadding: padding, maxZoom: maxZoom, offset: offset)
    }
}

/// `camera(for:)` could not fit (no coordinates, non-finite values, padding larger than the view).
public struct CameraFitError: Error, Sendable, CustomStringConvertible {
    public var description: String
}
