/// A geographic geometry: the GeoJSON geometry types (RFC 7946 §3.1), with coordinates in degrees.
///
/// Rings of a polygon are closed or not; nothing here depends on it. Used to fit the camera
/// (`camera(for:)`), as overview geometry and, through `FlybyData`, as feature geometry.
public enum Geometry: Hashable, Sendable {
    case point(LocationCoordinate2D)
    case multiPoint([LocationCoordinate2D])
    case lineString([LocationCoordinate2D])
    case multiLineString([[LocationCoordinate2D]])
    /// The first ring is the outer boundary, the others are holes.
    case polygon([[LocationCoordinate2D]])
    case multiPolygon([[[LocationCoordinate2D]]])
    case geometryCollection([Geometry])

    /// Every coordinate of the geometry, in document order.
    public var allCoordinates: [LocationCoordinate2D] {
        var out: [LocationCoordinate2D] = []
        forEachCoordinate { out.append($0) }
        return out
    }

    /// Calls `body` for every coordinate, in document order, without building an array.
    public func forEachCoordinate(_ body: (LocationCoordinate2D) -> Void) {
        switch self {
        case .point(let c): body(c)
        case .multiPoint(let cs), .lineString(let cs): cs.forEach(body)
        case .multiLineString(let lines), .polygon(let lines): for l in lines { l.forEach(body) }
        case .multiPolygon(let polys): for p in polys { for r in p { r.forEach(body) } }
        case .geometryCollection(let gs): for g in gs { g.forEachCoordinate(body) }
        }
    }
}
