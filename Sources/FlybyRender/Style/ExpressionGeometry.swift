import FlybyCore
import FlybyData
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The GeoJSON argument of `within` and `distance` (style specification, expressions `within`
/// and `distance`): its geometries in degrees.
struct GeoShape: Sendable {
    /// Every geometry of the argument, flattened (collections expanded).
    let geometries: [Geometry]

    /// Polygons as rings of (longitude, latitude).
    var polygons: [[[LocationCoordinate2D]]] {
        var out: [[[LocationCoordinate2D]]] = []
        for g in geometries {
            switch g {
            case .polygon(let rings): out.append(rings)
            case .multiPolygon(let ps): out.append(contentsOf: ps)
            default: break
            }
        }
        return out
    }

    static func flatten(_ g: Geometry) -> [Geometry] {
        if case .geometryCollection(let gs) = g { return gs.flatMap(flatten) }
        return [g]
    }

    // MARK: within

    /// True when every point (and every segment) of `g` lies strictly inside one of the
    /// polygons. Only point and line features can be within; polygons give false, as in the
    /// specification.
    func contains(_ g: Geometry) -> Bool {
        let polys = polygons
        guard !polys.isEmpty else { return false }
        func pointInside(_ p: LocationCoordinate2D) -> Bool { polys.contains { GeoShape.inside(p, $0) } }
        func lineInside(_ line: [LocationCoordinate2D]) -> Bool {
            polys.contains { poly in
                line.allSatisfy { GeoShape.inside($0, poly) } && !GeoShape.lineCrossesRings(line, poly)
            }
        }
        switch g {
        case .point(let p): return pointInside(p)
        case .multiPoint(let ps): return !ps.isEmpty && ps.allSatisfy(pointInside)
        case .lineString(let l): return !l.isEmpty && lineInside(l)
        case .multiLineString(let ls): return !ls.isEmpty && ls.allSatisfy(lineInside)
        default: return false
        }
    }

    /// Even-odd ray casting; a point on an edge is not inside.
    static func inside(_ p: LocationCoordinate2D, _ rings: [[LocationCoordinate2D]]) -> Bool {
        var inside = false
        for ring in rings where ring.count >= 3 {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let a = ring[i], b = ring[j]
                if onSegment(p, a, b) { return false }
                if (a.latitude > p.latitude) != (b.latitude > p.latitude),
                   p.longitude < (b.longitude - a.longitude) * (p.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude {
                    inside.toggle()
                }
                j = i
            }
        }
        return inside
    }

    static func onSegment(_ p: LocationCoordinate2D, _ a: LocationCoordinate2D, _ b: LocationCoordinate2D) -> Bool {
        let cross = (p.longitude - a.longitude) * (b.latitude - a.latitude) - (p.latitude - a.latitude) * (b.longitude - a.longitude)
        guard cross == 0 else { return false }
        return (min(a.longitude, b.longitude)...max(a.longitude, b.longitude)).contains(p.longitude)
            && (min(a.latitude, b.latitude)...max(a.latitude, b.latitude)).contains(p.latitude)
    }

    static func lineCrossesRings(_ line: [LocationCoordinate2D], _ rings: [[LocationCoordinate2D]]) -> Bool {
        guard line.count >= 2 else { return false }
        for k in 1..<line.count {
            for ring in rings where ring.count >= 2 {
                for i in 1..<ring.count where segmentsCross(line[k - 1], line[k], ring[i - 1], ring[i]) { return true }
            }
        }
        return false
    }

    static func segmentsCross(_ p: LocationCoordinate2D, _ q: LocationCoordinate2D, _ r: LocationCoordinate2D, _ s: LocationCoordinate2D) -> Bool {
        func orient(_ a: LocationCoordinate2D, _ b: LocationCoordinate2D, _ c: LocationCoordinate2D) -> Double {
            (b.longitude - a.longitude) * (c.latitude - a.latitude) - (b.latitude - a.latitude) * (c.longitude - a.longitude)
        }
        let d1 = orient(r, s, p), d2 = orient(r, s, q), d3 = orient(p, q, r), d4 = orient(p, q, s)
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }

    // MARK: distance

    /// The shortest distance in metres from `g` to the argument's geometries (0 when they
    /// overlap), measured with a local flat-earth approximation of the WGS84 ellipsoid around the
    /// feature's latitude (the FCC ellipsoidal formula, as the specification's engine does).
    func distance(to g: Geometry) -> Double {
        let feature = GeoShape.flatten(g)
        var lat = 0.0
        if let first = feature.first?.allCoordinates.first { lat = first.latitude }
        let ruler = FlatRuler(latitude: lat)
        var best = Double.infinity
        for a in feature {
            for b in geometries {
                best = min(best, ruler.distance(a, b))
                if best == 0 { return 0 }
            }
        }
        return best.isFinite ? best : .nan
    }
}

/// Metres per degree around a latitude on the WGS84 ellipsoid (radii of curvature in the prime
/// vertical and the meridian), for short distances.
struct FlatRuler {
    let kx: Double, ky: Double

    init(latitude: Double) {
        let a = 6378.137, f = 1 / 298.257223563, e2 = f * (2 - f)
        let m = Double.pi / 180 * a * 1000
        let c = cos(latitude * .pi / 180)
        let w2 = 1 / (1 - e2 * (1 - c * c)), w = w2.squareRoot()
        kx = m * w * c
        ky = m * w * w2 * (1 - e2)
    }

    func wrap(_ d: Double) -> Double {
        var x = d
        while x < -180 { x += 360 }
        while x > 180 { x -= 360 }
        return x
    }

    func point(_ a: LocationCoordinate2D, _ b: LocationCoordinate2D) -> Double {
        let dx = wrap(a.longitude - b.longitude) * kx, dy = (a.latitude - b.latitude) * ky
        return (dx * dx + dy * dy).squareRoot()
    }

    func pointToSegment(_ p: LocationCoordinate2D, _ a: LocationCoordinate2D, _ b: LocationCoordinate2D) -> Double {
        var x = a.longitude, y = a.latitude
        let dx = wrap(b.longitude - x) * kx, dy = (b.latitude - y) * ky
        if dx != 0 || dy != 0 {
            let t = (wrap(p.longitude - x) * kx * dx + (p.latitude - y) * ky * dy) / (dx * dx + dy * dy)
            if t > 1 { x = b.longitude; y = b.latitude } else if t > 0 { x += dx / kx * t; y += dy / ky * t }
        }
        let ex = wrap(p.longitude - x) * kx, ey = (p.latitude - y) * ky
        return (ex * ex + ey * ey).squareRoot()
    }

    func segmentToSegment(_ a: LocationCoordinate2D, _ b: LocationCoordinate2D, _ c: LocationCoordinate2D, _ d: LocationCoordinate2D) -> Double {
        if GeoShape.segmentsCross(a, b, c, d) { return 0 }
        return min(pointToSegment(a, c, d), pointToSegment(b, c, d), pointToSegment(c, a, b), pointToSegment(d, a, b))
    }

    /// Parts of a geometry: points, lines (as point lists) and polygons (rings).
    enum Part { case points([LocationCoordinate2D]), lines([[LocationCoordinate2D]]), polygons([[[LocationCoordinate2D]]]) }

    func parts(_ g: Geometry) -> Part {
        switch g {
        case .point(let p): return .points([p])
        case .multiPoint(let ps): return .points(ps)
        case .lineString(let l): return .lines([l])
        case .multiLineString(let ls): return .lines(ls)
        case .polygon(let r): return .polygons([r])
        case .multiPolygon(let ps): return .polygons(ps)
        case .geometryCollection: return .points([])
        }
    }

    func distance(_ g: Geometry, _ h: Geometry) -> Double {
        switch (parts(g), parts(h)) {
        case (.points(let a), .points(let b)):
            var best = Double.infinity
            for p in a { for q in b { best = min(best, point(p, q)) } }
            return best
        case (.points(let a), .lines(let ls)), (.lines(let ls), .points(let a)):
            var best = Double.infinity
            for p in a { for l in ls { best = min(best, pointToLine(p, l)) } }
            return best
        case (.lines(let a), .lines(let b)):
            var best = Double.infinity
            for l in a { for m in b { best = min(best, lineToLine(l, m)) } }
            return best
        case (.points(let a), .polygons(let ps)), (.polygons(let ps), .points(let a)):
            var best = Double.infinity
            for p in a { for poly in ps { best = min(best, GeoShape.inside(p, poly) ? 0 : ringsDistance(p, poly)) } }
            return best
        case (.lines(let ls), .polygons(let ps)), (.polygons(let ps), .lines(let ls)):
            var best = Double.infinity
            for l in ls {
                for poly in ps {
                    if l.contains(where: { GeoShape.inside($0, poly) }) || GeoShape.lineCrossesRings(l, poly) { return 0 }
                    for ring in poly { best = min(best, lineToLine(l, ring)) }
                }
            }
            return best
        case (.polygons(let a), .polygons(let b)):
            var best = Double.infinity
            for p in a {
                for q in b {
                    if let v = p.first?.first, GeoShape.inside(v, q) { return 0 }
                    if let v = q.first?.first, GeoShape.inside(v, p) { return 0 }
                    for r in p { for s in q { best = min(best, lineToLine(r, s)) } }
                }
            }
            return best
        }
    }

    func pointToLine(_ p: LocationCoordinate2D, _ l: [LocationCoordinate2D]) -> Double {
        if l.count == 1 { return point(p, l[0]) }
        var best = Double.infinity
        for k in 1..<max(l.count, 1) { best = min(best, pointToSegment(p, l[k - 1], l[k])) }
        return best
    }

    func ringsDistance(_ p: LocationCoordinate2D, _ rings: [[LocationCoordinate2D]]) -> Double {
        rings.map { pointToLine(p, $0) }.min() ?? .infinity
    }

    func lineToLine(_ a: [LocationCoordinate2D], _ b: [LocationCoordinate2D]) -> Double {
        if a.count == 1 { return pointToLine(a[0], b) }
        if b.count == 1 { return pointToLine(b[0], a) }
        var best = Double.infinity
        for i in 1..<a.count { for j in 1..<b.count { best = min(best, segmentToSegment(a[i - 1], a[i], b[j - 1], b[j])) } }
        return best
    }
}
