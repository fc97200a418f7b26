#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tile of the Web Mercator tile pyramid, in the XYZ scheme of web maps: at zoom `z` the world
/// is 2^z × 2^z tiles, `x` grows east from the antimeridian and `y` grows south from the north edge
/// (row 0 at 85.051129° N). `wrap` is the world copy the tile is drawn in (0 is the primary world,
/// −1 the copy west of the antimeridian, …); `x` is always in 0 ..< 2^z.
public struct TileID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int
    public var wrap: Int

    public init(z: Int, x: Int, y: Int, wrap: Int = 0) {
        self.z = z; self.x = x; self.y = y; self.wrap = wrap
    }

    /// The deepest zoom level addressed (2^30 tiles per side keeps every index in 32 bits).
    public static let maximumZoom = 30

    /// True when the zoom is 0…``maximumZoom`` and x, y lie in the pyramid.
    public var isValid: Bool { z >= 0 && z <= TileID.maximumZoom && x >= 0 && y >= 0 && x < (1 << z) && y < (1 << z) }

    /// Tiles per side at this zoom.
    public var tilesPerSide: Int { 1 << z }

    /// The tile's square in unit Mercator coordinates (x east, y south, the primary world is
    /// 0…1), shifted by `wrap` whole worlds.
    public var unitBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let s = 1 / Double(tilesPerSide)
        let x0 = Double(x) * s + Double(wrap)
        return (x0, Double(y) * s, x0 + s, Double(y + 1) * s)
    }

    /// The ancestor at zoom `z` (≤ this tile's zoom), in the same world copy.
    public func ancestor(atZoom z: Int) -> TileID {
        precondition(z >= 0 && z <= self.z, "an ancestor's zoom lies between 0 and the tile's zoom")
        let shift = self.z - z
        return TileID(z: z, x: x >> shift, y: y >> shift, wrap: wrap)
    }

    /// `z/x/y` (and `@wrap` when not the primary world).
    public var description: String { wrap == 0 ? "\(z)/\(x)/\(y)" : "\(z)/\(x)/\(y)@\(wrap)" }

    /// Ordered by zoom, then world copy, then row, then column: a fixed order independent of how
    /// the tiles were found.
    public static func < (a: TileID, b: TileID) -> Bool {
        (a.z, a.wrap, a.y, a.x) < (b.z, b.wrap, b.y, b.x)
    }
}

/// Which tiles a frame needs: the tiles of a source's pyramid that cover the visible ground, finer
/// near the camera and coarser in the distance.
///
/// **Visible ground.** The four screen corners are cast onto the ground plane with
/// ``MapTransform/worldPoint(for:)``; corners above the horizon are first pulled down to the
/// usable horizon (``MapTransform/horizonOffset``, GL JS's `maxMercatorHorizonAngle` rule), so the
/// visible ground is always a finite convex quadrilateral. A tile is kept when its square meets
/// that quadrilateral (separating-axis test of two convex polygons).
///
/// **Level of detail.** The level wanted at a ground point at 3D distance D from the camera's eye
/// is `zoom − max(0, log2(D / (k · d)))`, d being the eye's distance to the map centre and
/// k = ``fullDetailRadius``: within k·d every tile is at the camera's own level, and each doubling
/// of the distance beyond it costs one level. This is the idea of MapLibre's covering-tiles (a
/// tile's level falls with its distance from the camera) in a form whose one constant is stated
/// here: with k = 1.5 a flat (pitch 0) view of aspect ratio up to 3:1 is covered at one level.
/// A tile is split into its four children while its nearest point wants a finer level than its
/// own. Levels are clamped to `minZoom … maxZoom` of the request; the camera's level is
/// `floor(zoom)` (vector tiles) or `round(zoom)` (raster tiles, `roundZoom`), as in MapLibre.
///
/// **World copies.** Tiles west or east of the primary world carry a `wrap` other than 0, with `x`
/// wrapped into the pyramid, so a view across the antimeridian asks for the same tiles twice only
/// when both copies are on screen.
///
/// The cover depends only on the camera, the frame size and the request: never on what happens to
/// be loaded. Its order is fixed (``TileID``'s `<`). At most ``maximumTiles`` tiles are returned:
/// the coarsest are kept first, so a degenerate camera still gets a whole (if coarse) map.
public enum TileCover {
    /// Radius of full detail in units of the eye-to-centre distance (see the type's notes).
    public static let fullDetailRadius = 1.5
    /// The most tiles one cover returns.
    public static let maximumTiles = 1024
    /// The most world copies drawn either side of the camera's own.
    public static let maximumWorlds = 8

    /// The tiles that cover the frame of `transform` at levels between `minZoom` and `maxZoom`.
    /// - Parameters:
    ///   - transform: the camera and frame size.
    ///   - minZoom: the coarsest level to use (a source's `minzoom`; distant tiles never go below it).
    ///   - maxZoom: the finest level to use (a source's `maxzoom`; nearer tiles are then overzoomed
    ///     by the caller).
    ///   - tileSize: the source's tile size in points (512 for vector tiles; 256 for many raster
    ///     sets, which moves their level one up).
    ///   - roundZoom: round the camera's level instead of flooring it (raster sources).
    /// - Returns: the tiles in ``TileID`` order; empty when the camera's zoom is below `minZoom`.
    public static func tiles(for transform: MapTransform, minZoom: Int = 0, maxZoom: Int = 22,
                             tileSize: Double = WebMercator.tileSize, roundZoom: Bool = false) -> [TileID] {
        let zoom = transform.state.zoom + log2(WebMercator.tileSize / tileSize)
        guard zoom.isFinite, transform.size.width > 0, transform.size.height > 0 else { return [] }
        let level = roundZoom ? zoom.rounded() : zoom.rounded(.down)
        let top = Int(min(max(level, Double(minZoom)), Double(max(maxZoom, minZoom))))
        guard level >= Double(minZoom) else { return [] }
        let lo = max(0, min(minZoom, top))

        let ground = groundQuad(transform)
        let eye = Eye(transform)
        // World copies on screen, at most `maximumWorlds` either side of the camera's own.
        let own = Int((transform.centerX / transform.worldSize).rounded(.down))
        let minWrap = max(Int((ground.map(\.x).min() ?? 0).rounded(.down)), own - maximumWorlds)
        let maxWrap = min(Int((ground.map(\.x).max() ?? 0).rounded(.down)), own + maximumWorlds)
        // Breadth first, so that when the budget runs out it is the finest levels that go.
        var queue: [TileID] = (minWrap...maxWrap).map { TileID(z: 0, x: 0, y: 0, wrap: $0) }
        var out: [TileID] = []
        var head = 0
        while head < queue.count {
            let t = queue[head]; head += 1
            let b = t.unitBounds
            guard intersects(ground, b) else { continue }
            let target = Int(min(max(eye.level(nearest: b, zoom: roundZoom ? level : zoom).rounded(.down), Double(lo)), Double(top)))
            let pending = queue.count - head
            if t.z >= top || (t.z >= lo && t.z >= target) || out.count + pending + 4 > maximumTiles {
                out.append(t)
                continue
            }
            for dy in 0..<2 { for dx in 0..<2 {
                queue.append(TileID(z: t.z + 1, x: 2 * t.x + dx, y: 2 * t.y + dy, wrap: t.wrap))
            } }
        }
        return out.sorted()
    }

    /// The visible ground quadrilateral in unit Mercator coordinates (not wrapped), in screen
    /// order: top-left, top-right, bottom-right, bottom-left.
    public static func groundQuad(_ transform: MapTransform) -> [(x: Double, y: Double)] {
        let w = transform.size.width, h = transform.size.height
        let corners = [ScreenPoint(x: 0, y: 0), ScreenPoint(x: w, y: 0), ScreenPoint(x: w, y: h), ScreenPoint(x: 0, y: h)]
        return corners.map { p in
            let g = transform.worldPoint(for: p)
            return (g.x / transform.worldSize, g.y / transform.worldSize)
        }
    }

    /// The camera's eye over the ground, in unit Mercator coordinates, and its height.
    struct Eye {
        var x: Double, y: Double, height: Double, centreDistance: Double

        init(_ t: MapTransform) {
            let ws = t.worldSize
            let b = t.state.bearing * .pi / 180, p = t.state.pitch * .pi / 180
            let back = t.cameraDistance * sin(p)           // ground distance from centre to the eye's foot
            // Screen-forward on the ground is the bearing direction: (sin b, −cos b) in x east, y south.
            x = (t.centerX - back * sin(b)) / ws
            y = (t.centerY + back * cos(b)) / ws
            height = t.cameraDistance * cos(p) / ws
            centreDistance = t.cameraDistance / ws
        }

        /// The level wanted at the point of `box` nearest the eye.
        func level(nearest box: (minX: Double, minY: Double, maxX: Double, maxY: Double), zoom: Double) -> Double {
            let dx = max(box.minX - x, 0, x - box.maxX)
            let dy = max(box.minY - y, 0, y - box.maxY)
            let d = (dx * dx + dy * dy + height * height).squareRoot()
            return zoom - max(0, log2(d / (TileCover.fullDetailRadius * centreDistance)))
        }
    }

    /// Whether the convex polygon `quad` and the axis-aligned `box` overlap (separating axes: the
    /// box's two axes and the quad's edge normals).
    static func intersects(_ quad: [(x: Double, y: Double)], _ box: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Bool {
        var qMinX = Double.infinity, qMaxX = -Double.infinity, qMinY = Double.infinity, qMaxY = -Double.infinity
        for p in quad {
            qMinX = min(qMinX, p.x); qMaxX = max(qMaxX, p.x); qMinY = min(qMinY, p.y); qMaxY = max(qMaxY, p.y)
        }
        if qMaxX < box.minX || qMinX > box.maxX || qMaxY < box.minY || qMinY > box.maxY { return false }
        let corners = [(box.minX, box.minY), (box.maxX, box.minY), (box.maxX, box.maxY), (box.minX, box.maxY)]
        for i in 0..<quad.count {
            let a = quad[i], b = quad[(i + 1) % quad.count]
            let nx = b.y - a.y, ny = a.x - b.x            // an edge normal
            if nx == 0 && ny == 0 { continue }
            var qLo = Double.infinity, qHi = -Double.infinity
            for p in quad { let v = p.x * nx + p.y * ny; qLo = min(qLo, v); qHi = max(qHi, v) }
            var bLo = Double.infinity, bHi = -Double.infinity
            for c in corners { let v = c.0 * nx + c.1 * ny; bLo = min(bLo, v); bHi = max(bHi, v) }
            if bHi < qLo || bLo > qHi { return false }
        }
        return true
    }
}
