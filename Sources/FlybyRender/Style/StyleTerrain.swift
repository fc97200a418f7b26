import FlybyData

/// The root `terrain` of a style (Style Specification, terrain): the `raster-dem` source whose
/// elevations raise the map, and `exaggeration`, the factor they are multiplied by.
///
/// Flyby uses it for the camera: the camera's centre sits on the terrain, its eye never goes
/// below the ground (``TerrainElevation``, `FlybyCore.Terrain`), `elevation(at:)` answers, and
/// traces carry the eye's altitude; and the renderer drapes the map on the relief
/// (``TerrainDrape``, docs/terrain.md).
public struct StyleTerrain: Sendable, Equatable {
    /// The `raster-dem` source's id.
    public var source: String
    /// `exaggeration` (default 1, the specification's minimum 0). Flyby refuses more than
    /// ``maximumExaggeration``: a real style has 1–3, and 1e9 would put the eye in orbit.
    public var exaggeration: Double

    /// The largest `exaggeration` accepted (Flyby's bound; the specification gives none).
    public static let maximumExaggeration = 100.0

    /// Parses `terrain`, checking that `source` names a `raster-dem` source of `sources`.
    static func parse(_ c: JSONCursor, sources: [StyleSource]) throws(InputError) -> StyleTerrain {
        try c.rejectUnknownKeys(["source", "exaggeration"])
        let sc = try c.required("source")
        let id = try sc.string()
        guard let source = sources.first(where: { $0.id == id }) else { throw sc.error("no source '\(id)'") }
        guard case .raster(let spec) = source.data, spec.encoding != nil else {
            throw sc.error("terrain needs a raster-dem source; '\(id)' is not one")
        }
        var exaggeration = 1.0
        if let ec = try c.member("exaggeration") {
            let v = try ec.double()
            guard v >= 0 && v <= maximumExaggeration else {
                throw ec.error("exaggeration must be between 0 and \(Int(maximumExaggeration)), found \(v)")
            }
            exaggeration = v
        }
        return StyleTerrain(source: id, exaggeration: exaggeration)
    }
}
