import FlybyCore
import Foundation

/// The 3D puck (``Puck3D``): the model's triangles placed at the puck in (east, north, up)
/// metres, projected with the frame's own camera (``ExtrusionProjection``: the ground homography
/// lifted by height, the same projection as the map and its buildings), flat-shaded by the
/// style's ``StyleLight``, and rasterized with its own depth buffer at up to 4 × 4 samples a
/// pixel (``ModelRaster``).
///
/// Shading: each triangle's colour is its linear glTF colour encoded to sRGB (IEC 61966-2-1),
/// times the light's colour and ``StyleLight/shade(normal:bearing:)`` of its normal, the same
/// rule as `fill-extrusion` walls. The model is drawn over the map and its labels, as the 2D
/// puck is (it is not hidden by buildings).
extension MapRenderer {
    /// Draws `config`'s model at `puck`; nothing when the puck is behind the camera or past the
    /// horizon. On the terrain (`drape`) the model stands on the relief's height at the puck
    /// (``ReliefSurface``, as the drape draws it), and the relief in front of it hides its
    /// samples (the drape's depth buffer, with the labels' 1 % bias).
    mutating func drawPuck3D(_ config: Puck3D, _ puck: PuckState, _ g: FrameGeometry, drape: TerrainDrape? = nil,
                             _ view: PixelBufferView) {
        let c = puck.coordinate
        guard config.modelOpacity > 0, !config.model.triangles.isEmpty else { return }
        var x = WebMercator.unitX(longitude: c.longitude), y = WebMercator.unitY(latitude: c.latitude)
        let centre = g.transform.centerX / g.worldSize
        x += (centre - x).rounded()   // the world copy nearest the camera
        let projection = ExtrusionProjection(g.unitHomography(copy: 0), g.transform)
        let ground = projection.depth(x, y, 0)
        guard ground >= g.near && ground <= g.far else { return }
        // The relief's height at the puck, unit Mercator (0 on the flat map).
        let lift = drape.map { $0.relief(g).height(worldX: x * g.worldSize, worldY: y * g.worldSize) / g.worldSize } ?? 0
        let bearing = puck.course != nil ? puck.bearing(.course) : puck.heading != nil ? puck.bearing(.heading) : 0
        let k = MapRenderer.unitsPerMetre(latitude: c.latitude) * config.metresPerUnit(zoom: g.zoom, latitude: c.latitude)
        let place = config.placement(bearing: bearing)
        let normals = place.cofactor, flip = place.determinant < 0 ? -1.0 : 1.0
        let light = style.style.light, lightColor = light.color
        let cameraBearing = g.transform.state.bearing

        // Project every corner; the frame box of the model decides the sampling (the same for every band).
        // Taken out of `self` while filled (no copy-on-write), put back for the next frame.
        var corners: [(x: Double, y: Double, inverseDepth: Double)] = []
        swap(&corners, &puckCorners)
        defer { swap(&corners, &puckCorners) }
        corners.removeAll(keepingCapacity: true)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: SIMD3<Double>) {
            let e = place.linear(p) * k   // (east, north, up) in unit Mercator
            let px = x + e.x, py = y - e.y, h = e.z + lift
            let w = projection.depth(px, py, h)
            guard w >= g.near else { corners.append((0, 0, -1)); return }
            let s = projection.project(px, py, h)
            corners.append((s.x, s.y, 1 / w))
            minX = min(minX, s.x); maxX = max(maxX, s.x); minY = min(minY, s.y); maxY = max(maxY, s.y)
        }
        for t in config.model.triangles { add(t.a); add(t.b); add(t.c) }
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return }
        let frame = PixelRect(minX: max(0, Int(minX.rounded(.down)) - 1), minY: max(0, Int(minY.rounded(.down)) - 1),
                              maxX: min(width, Int(maxX.rounded(.up)) + 1), maxY: min(height, Int(maxY.rounded(.up)) + 1))
        guard !frame.isEmpty else { return }
        // 16 samples a pixel for a puck-sized model; fewer when it fills much of the frame (memory).
        let area = frame.width * frame.height
        let samples = area <= 512 * 512 ? 4 : area <= 1024 * 1024 ? 2 : 1
        let rows = painter.rowRect
        let region = PixelRect(minX: frame.minX, minY: max(frame.minY, rows.minY), maxX: frame.maxX, maxY: min(frame.maxY, rows.maxY))
        guard !region.isEmpty else { return }
        modelRaster.begin(region: region, samplesPerSide: samples)
        modelRaster.occluder = drape?.depth
        for (n, t) in config.model.triangles.enumerated() {
            let a = corners[3 * n], b = corners[3 * n + 1], d = corners[3 * n + 2]
            guard a.inverseDepth > 0, b.inverseDepth > 0, d.inverseDepth > 0 else { continue }   // crosses the near plane
            var normal = (normals.linear(t.normal)) * flip
            let length = Affine3.length(normal)
            guard length > 0, length.isFinite else { continue }
            normal /= length
            let shade = min(1, max(0, light.shade(normal: (normal.x, normal.y, normal.z), bearing: cameraBearing)))
            let color = Color(unitRed: MapRenderer.sRGB(t.color.x) * lightColor.red * shade,
                              green: MapRenderer.sRGB(t.color.y) * lightColor.green * shade,
                              blue: MapRenderer.sRGB(t.color.z) * lightColor.blue * shade)
            modelRaster.fill(a, b, d, color: color.premultipliedARGB)
        }
        modelRaster.resolve(opacity: UInt32((min(1, config.modelOpacity) * 255).rounded()), into: view)
    }

    /// The sRGB encoding of a linear value in 0…1 (IEC 61966-2-1; clamped).
    static func sRGB(_ linear: Double) -> Double {
        let v = min(1, max(0, linear.isNaN ? 0 : linear))
        return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
    }
}
