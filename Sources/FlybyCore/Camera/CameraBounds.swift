/// A geographic rectangle, south-west and north-east corners in degrees. When `southwest.longitude`
/// is greater than `northeast.longitude` the box crosses the antimeridian.
public struct CoordinateBounds: Hashable, Sendable {
    public var southwest: LocationCoordinate2D
    public var northeast: LocationCoordinate2D
    public init(southwest: LocationCoordinate2D, northeast: LocationCoordinate2D) {
        self.southwest = southwest; self.northeast = northeast
    }
    /// The whole world: longitudes −180…180, latitudes −90…90.
    public static let world = CoordinateBounds(southwest: .init(latitude: -90, longitude: -180),
                                               northeast: .init(latitude: 90, longitude: 180))
    /// True when the box spans every longitude (no east–west constraint).
    public var spansAllLongitudes: Bool { northeast.longitude - southwest.longitude >= 360 }
}

/// Limits applied to every camera change (Mapbox's `CameraBounds`).
///
/// The constraint keeps the *visible area* inside `bounds` (as Mapbox does since v10.0.0-rc.8,
/// following GL JS's `defaultConstrain`): it works on the flat, unrotated viewport and ignores
/// pitch and bearing, like GL JS. With bounds spanning all longitudes only latitudes are
/// constrained, so the map can be panned across the antimeridian.
public struct CameraBounds: Hashable, Sendable {
    public var bounds: CoordinateBounds
    public var minZoom: Double
    public var maxZoom: Double
    public var minPitch: Double
    public var maxPitch: Double

    public init(bounds: CoordinateBounds = .world, minZoom: Double = 0, maxZoom: Double = 22,
                minPitch: Double = 0, maxPitch: Double = 85) {
        self.bounds = bounds; self.minZoom = minZoom; self.maxZoom = maxZoom
        self.minPitch = minPitch; self.maxPitch = maxPitch
    }

    /// Whole world, zoom 0–22, pitch 0–85 (the Mapbox defaults).
    public static let `default` = CameraBounds()
}

/// A partial update of camera bounds (Mapbox's `CameraBoundsOptions`): nil fields keep their value.
public struct CameraBoundsOptions: Hashable, Sendable {
    public var bounds: CoordinateBounds?
    public var minZoom: Double?
    public var maxZoom: Double?
    public var minPitch: Double?
    public var maxPitch: Double?
    public init(bounds: CoordinateBounds? = nil, minZoom: Double? = nil, maxZoom: Double? = nil,
                minPitch: Double? = nil, maxPitch: Double? = nil) {
        self.bounds = bounds; self.minZoom = minZoom; self.maxZoom = maxZoom
        self.minPitch = minPitch; self.maxPitch = maxPitch
    }
}

/// Invalid camera bounds (Mapbox throws a `MapError`).
public struct CameraBoundsError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

extension CameraBounds {
    /// Applies `options` and validates the result.
    /// - Throws: `CameraBoundsError` for non-finite values, min > max, zoom outside 0…25.5,
    ///   pitch outside 0…85, or a latitude range that is empty or outside ±90.
    public func updated(with options: CameraBoundsOptions) throws(CameraBoundsError) -> CameraBounds {
        var b = self
        if let v = options.bounds { b.bounds = v }
        if let v = options.minZoom { b.minZoom = v }
        if let v = options.maxZoom { b.maxZoom = v }
        if let v = options.minPitch { b.minPitch = v }
        if let v = options.maxPitch { b.maxPitch = v }
        let numbers = [b.minZoom, b.maxZoom, b.minPitch, b.maxPitch, b.bounds.southwest.latitude,
                       b.bounds.southwest.longitude, b.bounds.northeast.latitude, b.bounds.northeast.longitude]
        guard numbers.allSatisfy(\.isFinite) else { throw CameraBoundsError(description: "camera bounds must be finite numbers") }
        guard b.minZoom >= 0, b.maxZoom <= 25.5, b.minZoom <= b.maxZoom else {
            throw CameraBoundsError(description: "zoom range \(b.minZoom)…\(b.maxZoom) must lie within 0…25.5 with min ≤ max")
        }
        guard b.minPitch >= 0, b.maxPitch <= 85, b.minPitch <= b.maxPitch else {
            throw CameraBoundsError(description: "pitch range \(b.minPitch)…\(b.maxPitch) must lie within 0…85 with min ≤ max")
        }
        let sw = b.bounds.southwest, ne = b.bounds.northeast
        guard sw.latitude >= -90, ne.latitude <= 90, sw.latitude < ne.latitude else {
            throw CameraBoundsError(description: "bounds latitudes \(sw.latitude)…\(ne.latitude) must lie within −90…90 with south < north")
        }
        guard sw.longitude >= -540, ne.longitude <= 540, sw.longitude != ne.longitude else {
            throw CameraBoundsError(description: "bounds longitudes \(sw.longitude)…\(ne.longitude) must differ and lie within −540…540")
        }
        return b
    }
}
