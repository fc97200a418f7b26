/// What an animator changes: each camera field has a from-value (taken from the camera when the
/// animator starts) and an optional to-value; a field whose to-value is nil is never written.
/// Mapbox's `CameraTransition`.
public struct CameraTransition: Sendable {
    /// One animated field.
    public struct Change<T: Sendable>: Sendable {
        public var fromValue: T
        public var toValue: T?
        public init(fromValue: T, toValue: T? = nil) { self.fromValue = fromValue; self.toValue = toValue }
    }

    public var center: Change<LocationCoordinate2D>
    public var zoom: Change<Double>
    public var padding: Change<EdgeInsets>
    /// The screen point held fixed while zoom and bearing change (ignored when `center` animates).
    public var anchor: Change<ScreenPoint>
    public var bearing: Change<Double>
    public var pitch: Change<Double>
    /// When true (the default) the bearing turns the short way (350 → 10 goes through north).
    /// Set it to false to spin, e.g. to −3600 for ten turns.
    public var shouldOptimizeBearingPath = true

    /// From-values from a camera state and the default anchor; no to-values.
    public init(cameraState: CameraState, initialAnchor: ScreenPoint) {
        center = Change(fromValue: cameraState.center)
        zoom = Change(fromValue: cameraState.zoom)
        padding = Change(fromValue: cameraState.padding)
        anchor = Change(fromValue: initialAnchor)
        bearing = Change(fromValue: cameraState.bearing)
        pitch = Change(fromValue: cameraState.pitch)
    }

    /// Sets the to-value of every field that `options` sets (centre, zoom, padding, anchor,
    /// bearing, pitch); the others keep theirs. The one CameraOptions → animator-targets copy.
    public mutating func setToValues(_ options: CameraOptions) { set(options, toValues: true) }

    /// Sets the from-value of every field that `options` sets (see ``setToValues(_:)``).
    public mutating func setFromValues(_ options: CameraOptions) { set(options, toValues: false) }

    private mutating func set(_ o: CameraOptions, toValues: Bool) {
        func put<T>(_ value: T?, _ change: inout Change<T>) {
            guard let value else { return }
            if toValues { change.toValue = value } else { change.fromValue = value }
        }
        put(o.center, &center)
        put(o.zoom, &zoom)
        put(o.bearing, &bearing)
        put(o.pitch, &pitch)
        put(o.padding, &padding)
        put(o.anchor, &anchor)
    }

    /// The bearing actually animated to (after the short-path rewrite), or nil.
    var effectiveBearingTarget: Double? {
        guard let to = bearing.toValue else { return nil }
        return shouldOptimizeBearingPath ? shortestAngle(from: bearing.fromValue, to: to) : to
    }

    /// The camera at eased fraction `p` (0 = from-values, 1 = to-values), with only the animated
    /// fields set. Every field is linear in its own units (Mapbox semantics: centre linear in
    /// degrees). Unlike Mapbox, longitude takes the short way across the antimeridian.
    func camera(at p: Double, bearingTarget: Double?) -> CameraOptions {
        var o = CameraOptions()
        if let to = center.toValue {
            let from = center.fromValue
            let lng = shortestAngle(from: from.longitude, to: to.longitude)
            o.center = LocationCoordinate2D(latitude: from.latitude + (to.latitude - from.latitude) * p,
                                            longitude: wrapLongitude(from.longitude + (lng - from.longitude) * p))
        } else if let to = anchor.toValue {
            let from = anchor.fromValue
            o.anchor = ScreenPoint(x: from.x + (to.x - from.x) * p, y: from.y + (to.y - from.y) * p)
        }
        if let to = zoom.toValue { o.zoom = zoom.fromValue + (to - zoom.fromValue) * p }
        if let to = bearingTarget { o.bearing = bearing.fromValue + (to - bearing.fromValue) * p }
        if let to = pitch.toValue { o.pitch = pitch.fromValue + (to - pitch.fromValue) * p }
        if let to = padding.toValue { o.padding = EdgeInsets.lerp(padding.fromValue, to, p) }
        return o
    }

    /// Exactly the to-values (p = 1) or the from-values (p = 0) of the animated fields.
    func camera(atEnd end: Bool, bearingTarget: Double?) -> CameraOptions {
        var o = CameraOptions()
        if let to = center.toValue { o.center = end ? to : center.fromValue }
        else if let to = anchor.toValue { o.anchor = end ? to : anchor.fromValue }
        if let to = zoom.toValue { o.zoom = end ? to : zoom.fromValue }
        if let to = bearingTarget { o.bearing = end ? to : bearing.fromValue }
        if let to = pitch.toValue { o.pitch = end ? to : pitch.fromValue }
        if let to = padding.toValue { o.padding = end ? to : padding.fromValue }
        return o
    }
}
