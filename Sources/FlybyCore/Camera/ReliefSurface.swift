#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terrain's surface as one camera sees it: the ground raised by the DEM, relative to the
/// plane at the terrain's height under the camera centre (the centre sits on the terrain, as in
/// ``Terrain``), projected with the camera's full perspective
/// (``MapTransform/screenPoint(worldX:worldY:height:)``).
///
/// This is the one definition of "a ground point on the relief" that the terrain drape draws its
/// mesh with (FlybyRender's `TerrainDrape`, docs/terrain.md) and that `point(for:)`,
/// `coordinate(for:)`, feature queries, the puck and view annotations use, so they agree with
/// what is drawn: a world point (x, y) is raised by
/// `(elevation(x, y) − elevation(centre)) / metresPerPoint(latitude, zoom)` world points (no
/// data: 0 m, sea level, as the camera takes it).
public struct ReliefSurface: Sendable {
    /// The camera's projection (in the frame's pixels or the view's points: heights follow its
    /// ``MapTransform/worldSize``).
    public let transform: MapTransform
    /// The ground's height in metres, exaggeration applied (nil: no data, taken as 0 m).
    public let elevation: @Sendable (LocationCoordinate2D) -> Double?
    /// The ground's height under the camera centre in metres: the plane the flat map lies on.
    public let base: Double

    /// Steps of the ray march of ``hit(through:maxDepth:)`` (geometric in depth between the near
    /// limit and the far one), before the bisection.
    public static let marchSteps = 1024
    /// Bisection steps once a step has crossed the surface.
    public static let bisectionSteps = 48

    public init(transform: MapTransform, elevation: @escaping @Sendable (LocationCoordinate2D) -> Double?) {
        self.transform = transform
        self.elevation = elevation
        base = elevation(transform.state.center) ?? 0
    }

    /// The surface of `terrain` (``Terrain/elevation``) seen through `transform`.
    public init(transform: MapTransform, terrain: Terrain) {
        self.init(transform: transform, elevation: terrain.elevation)
    }

    /// The relief's height above the ground plane, in world points, at world point (`worldX`,
    /// `worldY`) (x east, y south, at the transform's ``MapTransform/worldSize``).
    public func height(worldX: Double, worldY: Double) -> Double {
        let c = WebMercator.unproject(x: worldX, y: worldY, worldSize: transform.worldSize)
        return height(elevation: elevation(c), latitude: c.latitude)
    }

    /// The height above the ground plane, in world points, of a DEM elevation of `metres` (nil:
    /// no data, sea level) at `latitude` degrees.
    @inline(__always) func height(elevation metres: Double?, latitude: Double) -> Double {
        ((metres ?? 0) - base) / WebMercator.metersPerPoint(latitude: latitude, zoom: transform.state.zoom)
    }

    /// Screen point and depth of the relief at world point (`worldX`, `worldY`); nil behind the
    /// camera's near limit.
    public func screenPoint(worldX: Double, worldY: Double) -> (point: ScreenPoint, depth: Double)? {
        transform.screenPoint(worldX: worldX, worldY: worldY, height: height(worldX: worldX, worldY: worldY))
    }

    /// ``screenPoint(worldX:worldY:)`` with the DEM's elevation there already read (`metres`,
    /// exaggerated; nil: no data) at `latitude`: for a caller that reads the DEM itself (the
    /// drape's mesh, through a tile memo). The same point as the plain call for the same elevation.
    public func screenPoint(worldX: Double, worldY: Double, latitude: Double, elevation metres: Double?) -> (point: ScreenPoint, depth: Double)? {
        transform.screenPoint(worldX: worldX, worldY: worldY, height: height(elevation: metres, latitude: latitude))
    }

    /// Screen point and depth of `coordinate` raised to the relief (the world copy nearest the
    /// camera centre, as ``MapTransform/point(for:)``); nil behind the camera. It is returned
    /// even where a nearer slope hides it (see ``isHidden(_:)``).
    public func point(for coordinate: LocationCoordinate2D) -> (point: ScreenPoint, depth: Double)? {
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite else { return nil }
        let worldSize = transform.worldSize
        let w = WebMercator.project(coordinate, worldSize: worldSize)
        let x = w.x + ((transform.centerX - w.x) / worldSize).rounded() * worldSize
        return screenPoint(worldX: x, worldY: w.y)
    }

    /// Where the view ray through `point` first meets the relief (longitude not wrapped), or
    /// nil when it meets none nearer than the far limit (the sky, or ground past the horizon).
    public func coordinate(for point: ScreenPoint) -> LocationCoordinate2D? {
        guard let h = hit(through: point) else { return nil }
        return WebMercator.unproject(x: h.worldX, y: h.worldY, worldSize: transform.worldSize)
    }

    /// True when the relief between the camera and `coordinate` (raised to the relief) hides
    /// it: the ray to its screen point meets the surface nearer than 99 % of its depth (the 1 %
    /// bias the drape's labels use). False when it is behind the camera (nothing to hide).
    public func isHidden(_ coordinate: LocationCoordinate2D) -> Bool {
        guard let p = point(for: coordinate) else { return false }
        return hit(through: p.point, maxDepth: p.depth * 0.99) != nil
    }

    /// The depth limits of the march in points along the view axis: the near limit (1 % of the
    /// camera distance, as drawn) and the far one, the flat ground's depth at the top visible
    /// row (the pulled-in horizon) + 5 %, which the drape draws no farther than; at least twice
    /// the camera distance (an unpitched camera, or ground far below the centre).
    public var depthRange: (near: Double, far: Double) {
        let t = transform, d = t.cameraDistance
        let top = max(0, t.horizonY)
        let g = t.worldPoint(for: ScreenPoint(x: t.principalPoint.x, y: top))
        let w = t.screenPoint(worldX: g.x, worldY: g.y, height: 0)?.depth ?? d
        return (d * 0.01, max(2 * d, w * 1.05))
    }

    /// The first point where the view ray through `point` crosses the relief, nearer than
    /// `maxDepth` (nil: the far limit of ``depthRange``): ``marchSteps`` steps, geometric in
    /// depth (each a fixed fraction of the depth, so the step on the ground stays even on the
    /// screen), from the near limit until the ray is at or below the surface, then
    /// ``bisectionSteps`` bisections between the last step above and the first below. Nil when
    /// no step crosses.
    public func hit(through point: ScreenPoint, maxDepth: Double? = nil) -> (worldX: Double, worldY: Double, depth: Double)? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        let t = transform, d = t.cameraDistance
        let range = depthRange
        let far = min(range.far, maxDepth ?? .infinity)
        guard far > range.near else { return nil }
        let pt = t.state.pitch * .pi / 180, b = t.state.bearing * .pi / 180
        let sinP = sin(pt), cosP = cos(pt), sinB = sin(b), cosB = cos(b)
        let dx = point.x - t.principalPoint.x, dy = point.y - t.principalPoint.y
        // The ray, at depth W = s·d: e = s·dx right, n = −d·sinP + s·(d·sinP − dy·cosP) ahead of
        // the centre, u = d·cosP − s·(d·cosP + dy·sinP) above the plane (the inverse of
        // `screenPoint(worldX:worldY:height:)`; its u = 0 point is `worldPoint(for:)`'s).
        let ahead = d * sinP - dy * cosP, down = d * cosP + dy * sinP
        func world(_ s: Double) -> (x: Double, y: Double) {
            let e = s * dx, n = -d * sinP + s * ahead
            return (t.centerX + e * cosB + n * sinB, t.centerY - (-e * sinB + n * cosB))
        }
        /// The ray's height above the relief at `s` (≤ 0: at or under the surface).
        func clearance(_ s: Double) -> Double {
            let w = world(s)
            return d * cosP - s * down - height(worldX: w.x, worldY: w.y)
        }
        var s0 = range.near / d
        let s1 = far / d
        guard clearance(s0) > 0 else {
            let w = world(s0)
            return (w.x, w.y, s0 * d)
        }
        let ratio = exp(log(s1 / s0) / Double(ReliefSurface.marchSteps))
        for k in 1...ReliefSurface.marchSteps {
            let s = k == ReliefSurface.marchSteps ? s1 : s0 * ratio
            if clearance(s) <= 0 {
                var above = s0, below = s
                for _ in 0..<ReliefSurface.bisectionSteps {
                    let mid = (above + below) / 2
                    if clearance(mid) > 0 { above = mid } else { below = mid }
                }
                let w = world(below)
                return (w.x, w.y, below * d)
            }
            s0 = s
        }
        return nil
    }
}
