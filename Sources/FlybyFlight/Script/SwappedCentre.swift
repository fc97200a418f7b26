import FlybyCore
import FlybyData

/// The `[latitude, longitude]` check of flight scripts: a `center` is `[longitude, latitude]`
/// (GeoJSON order, RFC 7946 §3.1.1), and a pair typed the other way round is often still a valid
/// place — `[60.17, 24.94]` for Helsinki is a point in the Gulf of Oman. A centre at sea whose
/// swapped pair is on land gets a warning, never an error: a flight may mean the sea.
///
/// Land is Natural Earth's 1:50m countries (the built-in world data; the 1:110m coast puts New
/// York at sea), read only when a centre is at sea. Antarctica does not count as land for the
/// swapped pair: every `[longitude, latitude]` from −60° to −90° of longitude — the east of the
/// Americas — swaps into it. A point is on land when an odd number of a country's ring edges
/// cross the ray to its east (the crossing-number test; Shimrat, "Algorithm 112: Position of point relative to
/// polygon", CACM 5(8), 1962).
enum SwappedCentre {
    /// The countries' polygons (nil when the built-in data cannot be read: no warning then).
    static let land: [[[LocationCoordinate2D]]]? = {
        guard let countries = try? BuiltinData.geoJSON("world/ne_50m_admin0_countries.geojson") else { return nil }
        var polygons: [[[LocationCoordinate2D]]] = []
        for f in countries.features {
            switch f.geometry {
            case .polygon(let rings): polygons.append(rings)
            case .multiPolygon(let parts): polygons += parts
            default: break
            }
        }
        return polygons
    }()

    /// Whether (`longitude`, `latitude`) in degrees lies in a country (holes excluded).
    static func isLand(longitude x: Double, latitude y: Double) -> Bool {
        guard let land else { return false }
        for polygon in land {
            var inside = false
            for ring in polygon where ring.count >= 3 {
                var j = ring.count - 1
                for i in ring.indices {
                    let a = ring[i], b = ring[j]
                    if (a.latitude > y) != (b.latitude > y),
                       x < (b.longitude - a.longitude) * (y - a.latitude) / (b.latitude - a.latitude) + a.longitude {
                        inside.toggle()
                    }
                    j = i
                }
            }
            if inside { return true }
        }
        return false
    }

    /// The warning for a centre `[first, second]` as written, or nil.
    static func warning(_ first: Double, _ second: Double) -> String? {
        guard abs(first) <= 90, first > -60, abs(second) <= 180, first != second,
              !isLand(longitude: first, latitude: second), isLand(longitude: second, latitude: first) else { return nil }
        return "center [\(format(first)), \(format(second))] is at sea, and [\(format(second)), \(format(first))] is on land: "
            + "centres are [longitude, latitude], as in GeoJSON"
    }

    private static func format(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
}
