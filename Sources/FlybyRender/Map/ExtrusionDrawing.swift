import FlybyCore
import FlybyData
import Foundation

/// `fill-extrusion` layers (Style Specification v8): each polygon raised from
/// `fill-extrusion-base` to `fill-extrusion-height` metres, its walls and roof shaded by the
/// style's ``StyleLight``.
///
/// Visibility: walls and roofs are drawn with a depth buffer of the buildings
/// (``BuildingDepth``, shared by the frame's `fill-extrusion` layers), in the painter's order —
/// buildings from the farthest to the nearest (by the depth of their footprint's centre), each
/// one's walls far to near and then its roof. A face pixel is drawn only where no nearer face
/// was drawn fully before it, so two buildings whose depth order differs between their parts
/// (a long slab beside a tower) hide each other pixel by pixel; the order keeps the edges
/// right: an edge pixel a face covers only in part is blended over what was drawn before and
/// writes no depth, so the face drawn after it still meets it without a seam. On the terrain
/// the relief's depth buffer hides buildings behind it as well (``BuildingGround``).
///
/// `fill-extrusion-opacity` applies to the layer as a whole, as in MapLibre: below 1 the layer
/// is drawn opaque into a scratch frame and composited, so no hidden wall shows through.
///
/// `fill-extrusion-vertical-gradient` (default true, Style Specification: "sides will be shaded
/// slightly darker farther down"): a wall pixel at z metres above the ground is shaded by
/// ``WallGradient/factor(metres:)``, clamp(√(z / 150 m), lo, 1) with lo = 0.7 + 0.28 · (1 −
/// light intensity): 0.84 with the default light. Our own curve, chosen to look like MapLibre GL
/// JS's output: walls of ordinary buildings uniformly somewhat darker than unlit by it, towers
/// over about 106 m lightening towards their tops. A wall that reaches no higher than where the
/// curve leaves lo is filled flat; a taller one gets the factor per pixel from its exact height
/// there (the wall plane's inverse projection).
/// Not drawn: `fill-extrusion-pattern` (refused by the style parser as an unknown property, so
/// a style never silently loses it).
/// Projects points raised above the ground: a ground homography (unit Mercator, one world copy)
/// plus the column of height. With the camera's pitch p, distance d (pixels) and the world's
/// size S (pixels), a point at height z (unit Mercator) moves Y by −d·sin(p)·S·z and the depth W
/// by −cos(p)·S·z (the camera model of ``MapTransform``, lifted off the ground plane).
struct ExtrusionProjection {
    var h: Homography
    let liftY: Double, liftW: Double

    init(_ h: Homography, _ t: MapTransform) {
        self.h = h
        let p = t.state.pitch * .pi / 180
        liftY = -t.cameraDistance * sin(p) * t.worldSize
        liftW = -cos(p) * t.worldSize
    }

    /// Depth W of a unit point at `height` (unit Mercator).
    @inline(__always) func depth(_ x: Double, _ y: Double, _ height: Double) -> Double { h.depth(x: x, y: y) + liftW * height }

    /// The screen point; the caller makes sure the depth is positive.
    @inline(__always) func project(_ x: Double, _ y: Double, _ height: Double) -> ScreenPoint {
        let w = 1 / (h.m20 * x + h.m21 * y + h.m22 + liftW * height)
        return ScreenPoint(x: h.originX + (h.m00 * x + h.m01 * y + h.m02) * w,
                           y: h.originY + (h.m10 * x + h.m11 * y + h.m12 + liftY * height) * w)
    }

    /// True when the feature's bounding box, at its base and top, lies in front of `near` and
    /// not wholly past `far`.
    func isInFront(_ box: MercatorBox, base: Double, top: Double, near: Double, far: Double) -> Bool {
        for (x, y) in [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)] {
            if depth(x, y, top) < near || depth(x, y, base) < near || h.depth(x: x, y: y) > far { return false }
        }
        return true
    }
}

/// The vertical gradient of `fill-extrusion` walls (see ``MapRenderer/drawFillExtrusions``).
struct WallGradient {
    /// The factor at and near the ground, 0.7…0.98 with the light's intensity 1…0.
    let lo: Double
    /// Unit Mercator per metre at the frame's centre.
    let unitsPerMetre: Double

    init(lightIntensity: Double, unitsPerMetre: Double) {
        lo = 0.7 + 0.28 * (1 - min(1, max(0, lightIntensity)))
        self.unitsPerMetre = unitsPerMetre
    }

    /// The shade factor at `metres` above the ground: clamp(√(z / 150), lo, 1).
    @inline(__always) func factor(metres: Double) -> Double {
        min(1, max(lo, (max(0, metres) / 150).squareRoot()))
    }

    /// Whether a wall up to `top` (unit Mercator) is `lo` all over (it stays below 150 · lo² m).
    func isFlat(top: Double) -> Bool { top / unitsPerMetre <= 150 * lo * lo }
}

extension MapRenderer {
    /// Metres to unit Mercator at latitude `latitude` degrees: 1 / (equatorial circumference ·
    /// cos φ), WGS 84 circumference 40,075,016.686 m (the scale every web map uses).
    static func unitsPerMetre(latitude: Double) -> Double {
        1 / (40_075_016.686 * max(1e-6, cos(latitude * .pi / 180)))
    }

    /// Draws `fill-extrusion` layer `index`. On the terrain (`drape`), each building stands on
    /// the relief (``BuildingGround``) and the relief in front of it hides it, pixel by pixel.
    mutating func drawFillExtrusions(_ index: Int, _ layer: StyleLayer, _ g: FrameGeometry, on drape: TerrainDrape? = nil,
                                     _ view: PixelBufferView) {
        guard let source = layerSource(index) else { return }
        let relief = drape.map { BuildingGround(surface: $0.relief(g), depth: $0.depth, worldSize: g.worldSize) }
        let z = g.zoom
        let opacity = min(1, max(0, layer.number(.fillExtrusionOpacity, zoom: z)))
        guard opacity > 0 else { return }
        let level = source.data.level(forZoom: z)
        let light = style.style.light
        let bearing = g.transform.state.bearing
        let lightColor = light.color
        let unitsPerMetre = MapRenderer.unitsPerMetre(latitude: g.transform.state.center.latitude)
        let gradient = layer.bool(.fillExtrusionVerticalGradient, zoom: z)
            ? WallGradient(lightIntensity: light.intensity, unitsPerMetre: unitsPerMetre) : nil
        let dependsOnFeature = [.fillExtrusionColor, .fillExtrusionHeight, .fillExtrusionBase].contains { layer.isFeatureDependent($0) }
        let constant = (color: layer.color(.fillExtrusionColor, zoom: z) ?? .black,
                        height: layer.number(.fillExtrusionHeight, zoom: z), base: layer.number(.fillExtrusionBase, zoom: z))
        let translation = screenTranslation(layer, .fillExtrusionTranslate, .fillExtrusionTranslateAnchor, g)
        // The eye's ground position (unit coordinates, world copy 0): d·sin(pitch) back from the
        // centre, against the bearing. Walls are shaded with the normal that faces it.
        let t = g.transform
        let back = t.cameraDistance * sin(t.state.pitch * .pi / 180) / t.worldSize
        let b = bearing * .pi / 180
        let eyeX = t.centerX / t.worldSize - back * sin(b), eyeY = t.centerY / t.worldSize + back * cos(b)

        func draw(_ target: PixelBufferView) {
            for copy in g.firstCopy...g.lastCopy {
                var h = g.unitHomography(copy: copy)
                h.originX += translation.x; h.originY += translation.y
                let projection = ExtrusionProjection(h, t)
                collectFeatures(index, layer, source, g, copy: copy, sortKey: nil)
                var buildings: [(depth: Double, feature: Int, color: StyleColor, base: Double, top: Double, ground: Double)] = []
                for item in order {
                    let f = Int(item.feature)
                    var (color, height, base) = constant
                    if dependsOnFeature {
                        let ctx = source.context(feature: f, states: featureStates)
                        color = layer.color(.fillExtrusionColor, zoom: z, feature: ctx) ?? .black
                        height = layer.number(.fillExtrusionHeight, zoom: z, feature: ctx)
                        base = layer.number(.fillExtrusionBase, zoom: z, feature: ctx)
                    }
                    guard height > base, color.alpha > 0 else { continue }
                    let box = source.data.bounds[f]
                    var top = height * unitsPerMetre, bottom = base * unitsPerMetre, ground = 0.0
                    if let relief {
                        let lift = relief.lift(box, copy: copy)
                        ground = lift.low; bottom += lift.low; top += lift.centre
                    }
                    guard projection.isInFront(box, base: bottom, top: top, near: g.near, far: g.far) else { continue }
                    let cx = (box.minX + box.maxX) / 2, cy = (box.minY + box.maxY) / 2
                    buildings.append((projection.depth(cx, cy, ground), f, color, bottom, top, ground))
                }
                // Far to near; equal depths in feature order.
                buildings.sort { $0.depth != $1.depth ? $0.depth > $1.depth : $0.feature < $1.feature }
                for building in buildings {
                    drawBuilding(level, building.feature, color: building.color, base: building.base, top: building.top,
                                 ground: building.ground, projection, copy: copy, eye: (eyeX, eyeY), light: light,
                                 lightColor: lightColor, bearing: bearing, gradient: gradient, relief: relief, into: target)
                }
            }
        }
        guard opacity < 1 else { return draw(view) }
        // Translucent: drawn opaque into a scratch frame (transparent), then composited once. The
        // frame is kept between layers and frames (taken out of `self` while drawing into it);
        // only this painter's rows are cleared and read.
        var scratch = extrusionScratch ?? PixelBuffer(width: view.width, height: view.height)
        extrusionScratch = nil
        if scratch.width != view.width || scratch.height != view.height { scratch = PixelBuffer(width: view.width, height: view.height) }
        defer { extrusionScratch = scratch }
        scratch.withView { s in
            let rows = painter.rowRect
            s.fill(rows, premultiplied: 0)
            draw(s)
            let k = UInt32((opacity * 255).rounded())
            for y in rows.minY..<rows.maxY {
                let from = s.row(y), to = view.row(y)
                for x in rows.minX..<rows.maxX where from[x] != 0 {
                    to[x] = PixelBlend.sourceOver(PixelBlend.scale(from[x], by: k), to[x])
                }
            }
        }
    }

    /// One building: every wall (far to near) and then the roof. `base` and `top` are unit
    /// Mercator above the flat map's plane, `ground` the height of the building's ground there
    /// (0 off the terrain), from which the walls' gradient counts.
    private mutating func drawBuilding(_ level: GeometryLevel, _ f: Int, color: StyleColor, base: Double, top: Double,
                                       ground: Double, _ projection: ExtrusionProjection, copy: Int, eye: (x: Double, y: Double),
                                       light: StyleLight, lightColor: StyleColor, bearing: Double, gradient: WallGradient?,
                                       relief: BuildingGround?, into target: PixelBufferView) {
        let project = projection.project
        let h = projection.h
        func shaded(_ shade: Double) -> Color {
            let s = min(1, max(0, shade))
            let c = StyleColor(red: color.red * lightColor.red * s, green: color.green * lightColor.green * s,
                               blue: color.blue * lightColor.blue * s, alpha: color.alpha)
            return pixelColor(c, 1)
        }
        // Walls: the rings that outline the building (for a polygon cut at tile edges, its
        // outline pieces, not the cut).
        var walls: [(depth: Double, ax: Double, ay: Double, bx: Double, by: Double, shade: Double)] = []
        level.xy.withUnsafeBufferPointer { xy in
            level.forEachLineRing(ofFeature: f) { points, closed in
                let s = points.lowerBound, e = points.upperBound
                let last = closed ? e : e - 1
                for k in s..<last {
                    let n = k + 1 < e ? k + 1 : s
                    let ax = xy[2 * k], ay = xy[2 * k + 1], bx = xy[2 * n], by = xy[2 * n + 1]
                    let dx = bx - ax, dy = by - ay
                    let length = (dx * dx + dy * dy).squareRoot()
                    guard length > 0 else { continue }
                    // The horizontal normal facing the eye, in (east, north): unit y points south.
                    var nx = dy / length, ny = -dx / length
                    let mx = (ax + bx) / 2 + Double(copy), my = (ay + by) / 2  // in the eye's world copy
                    if nx * (eye.x - mx) + ny * (eye.y - my) < 0 { nx = -nx; ny = -ny }
                    let shade = light.shade(normal: (nx, -ny, 0), bearing: bearing)
                    walls.append((h.depth(x: (ax + bx) / 2, y: (ay + by) / 2), ax, ay, bx, by, shade))
                }
            }
        }
        walls.sort { $0.depth > $1.depth }
        let perPixel = gradient.map { !$0.isFlat(top: top - ground) } ?? false
        for wall in walls {
            path.removeAll()
            path.beginContour()
            path.appendPoint(project(wall.ax, wall.ay, base))
            path.appendPoint(project(wall.bx, wall.by, base))
            path.appendPoint(project(wall.bx, wall.by, top))
            path.appendPoint(project(wall.ax, wall.ay, top))
            path.endContour(closed: true, minimumCount: 3)
            let face = FacePlane(wallFrom: (wall.ax, wall.ay), to: (wall.bx, wall.by), projection)
            if perPixel, let gradient {
                drawGradientWall(face, ground: ground, projection, gradient, relief, target) { shaded(wall.shade * $0) }
            } else {
                let color = shaded(wall.shade * (gradient?.lo ?? 1)).premultipliedARGB
                fillFace(face, projection.h, relief, target) { _, _ in color }
            }
        }
        // The roof: the polygon at the top, lit from above.
        path.removeAll()
        level.xy.withUnsafeBufferPointer { xy in
            for r in level.rings(ofFeature: f) {
                let flags = level.ringFlags[r]
                guard flags & RingFlags.polygon != 0, flags & RingFlags.outline == 0 else { continue }
                path.beginContour()
                for k in level.points(ofRing: r) { path.appendPoint(project(xy[2 * k], xy[2 * k + 1], top)) }
                path.endContour(closed: true, minimumCount: 3)
            }
        }
        guard !path.isEmpty else { return }
        let face = FacePlane(roofAt: top, projection), color = shaded(light.shade(normal: (0, 0, 1), bearing: bearing)).premultipliedARGB
        fillFace(face, projection.h, relief, target) { _, _ in color }
    }

    /// The wall in ``path`` (from ground point a to b, unit Mercator) with the vertical gradient
    /// per pixel: each covered pixel takes the colour of its height above `ground`. The height
    /// comes from inverting the wall plane's projection: a point s of the way from a to b at
    /// height z projects to (X/W, Y/W) with (X, Y, W) = M · (s, z, 1), so
    /// z = (row₂ · (u, v, 1)) / (row₃ · (u, v, 1)) with the adjugate's rows (``FacePlane``).
    /// On the terrain, pixels the relief hides are left alone.
    private mutating func drawGradientWall(_ face: FacePlane, ground: Double, _ projection: ExtrusionProjection,
                                           _ gradient: WallGradient, _ relief: BuildingGround?,
                                           _ target: PixelBufferView, color: (Double) -> Color) {
        let h = projection.h
        let m = face.matrix
        let z0 = m.5 * m.6 - m.3 * m.8, z1 = m.0 * m.8 - m.2 * m.6, z2 = m.2 * m.3 - m.0 * m.5
        // 64 colours from lo to 1.
        let steps = 63.0
        let ramp = (0...Int(steps)).map { color(gradient.lo + (1 - gradient.lo) * Double($0) / steps).premultipliedARGB }
        let metresPerUnit = 1 / gradient.unitsPerMetre
        fillFace(face, h, relief, target) { x, y in
            let u = Double(x) + 0.5 - h.originX, v = Double(y) + 0.5 - h.originY
            let wz = face.w0 * u + face.w1 * v + face.w2
            guard wz != 0 else { return ramp[0] }
            let z = ((z0 * u + z1 * v + z2) / wz - ground) * metresPerUnit
            let k = (gradient.factor(metres: z) - gradient.lo) / (1 - gradient.lo)
            return ramp[Int(min(1, max(0, k)) * steps + 0.5)]
        }
    }

    /// Fills ``path``, the outline of building face `face` (homography `h`), with a colour per
    /// covered pixel, anti-aliased by its coverage and tested against the buildings' depth buffer
    /// (``BuildingDepth``) and, on the terrain, the relief's (`relief`): the coverage goes into
    /// the scratch mask, then each covered pixel that nothing nearer hides asks `colorAt`. The
    /// blend is the painter's own (an opaque colour stored where fully covered, mixed with one
    /// rounding at an edge; a translucent one blended over), so a face nothing hides gives the
    /// pixels ``Painter/fill(_:color:rule:clip:into:)-(_,_,_,_,PixelBufferView)`` gives.
    @inline(__always)
    private mutating func fillFace(_ face: FacePlane, _ h: Homography, _ relief: BuildingGround?, _ target: PixelBufferView,
                                   _ colorAt: (Int, Int) -> UInt32) {
        // One loop for each case, so that the flat map's tests nothing per pixel for the relief.
        if let relief { fillFace(face, h, relief, target, colorAt) } else { fillFace(face, h, OpenGround(), target, colorAt) }
    }

    @inline(__always)
    private mutating func fillFace<R: FaceOcclusion>(_ face: FacePlane, _ h: Homography, _ relief: R, _ target: PixelBufferView,
                                                     _ colorAt: (Int, Int) -> UInt32) {
        var mask = patternMask ?? PixelBuffer(width: width, height: height)
        patternMask = nil
        if mask.width != width || mask.height != height { mask = PixelBuffer(width: width, height: height) }
        defer { patternMask = mask }
        guard let bounds = path.bounds else { return }
        let box = MapRenderer.pixelBox(bounds.minX - 1, bounds.minY - 1, bounds.maxX + 1, bounds.maxY + 1)
            .intersection(PixelRect(minX: 0, minY: 0, maxX: width, maxY: height)).intersection(painter.rowRect)
        guard !box.isEmpty else { return }
        buildingDepth.prepare(width: width, height: height, rows: painter.rows)
        let w = width
        let scale = 1 / face.determinant
        mask.withView { m in
            painter.fill(path, color: .white, rule: .nonZero, into: m)
            buildingDepth.buffer.depths.withUnsafeMutableBufferPointer { depth in
                // The key: −1/W, smaller nearer (1/W is affine on the screen), stepped along a row.
                let stepKey = -face.w0 * scale
                for y in box.minY..<box.maxY {
                    let cover = m.row(y), row = target.row(y)
                    let v = Double(y) + 0.5 - h.originY, u0 = Double(box.minX) + 0.5 - h.originX
                    let rowKey = -(face.w0 * u0 + face.w1 * v + face.w2) * scale
                    for x in box.minX..<box.maxX {
                        let c = cover[x] >> 24
                        guard c != 0 else { continue }
                        cover[x] = 0
                        let key = Float(rowKey + Double(x - box.minX) * stepKey)
                        let k = y * w + x
                        guard key < depth[k] else { continue }
                        if relief.hides(face, x, y, h) { continue }
                        let color = colorAt(x, y)
                        if c == 255 {
                            depth[k] = key
                            row[x] = color >> 24 == 255 ? color : PixelBlend.sourceOver(color, row[x])
                        } else if color >> 24 == 255 {
                            row[x] = PixelBlend.blendOpaque(color, coverage: c, row[x])
                        } else {
                            row[x] = PixelBlend.sourceOver(PixelBlend.scale(color, by: c), row[x])
                        }
                    }
                }
            }
        }
    }
}

/// The depth buffer of the buildings (``MapRenderer/drawFillExtrusions(_:_:_:on:_:)``): for each
/// pixel a face has covered fully, −1/W of that face there (W the camera depth; smaller is
/// nearer), +∞ where none has. Cleared once per frame, for the renderer's rows, when the first
/// face is drawn; the storage is kept from frame to frame.
struct BuildingDepth {
    var buffer = DepthBuffer(width: 0, height: 0)
    /// False at the start of a frame's layers: the next face clears the rows first.
    var isCleared = false

    /// Sizes the buffer to `width × height` and, once per frame, clears `rows`.
    mutating func prepare(width: Int, height: Int, rows: Range<Int>) {
        guard !isCleared else { return }
        isCleared = true
        if buffer.width != width || buffer.height != height { buffer.reset(width: width, height: height) } else { buffer.clear(rows: rows) }
    }
}

/// A building face's plane as the camera sees it: the 3 × 3 matrix M taking the face's own
/// coordinates (s, z, 1) for a wall, (x, y, 1) for a roof, to the homogeneous screen point
/// (X, Y, W) (screen pixels from the homography's origin), and the third row of its adjugate, so
/// that 1 / W at screen point (u, v) is (w0 · u + w1 · v + w2) / det M: a plane's inverse depth
/// is affine on the screen.
struct FacePlane {
    /// M row by row.
    let matrix: (Double, Double, Double, Double, Double, Double, Double, Double, Double)
    let w0: Double, w1: Double, w2: Double
    let determinant: Double

    init(_ m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) {
        matrix = m
        w0 = m.3 * m.7 - m.4 * m.6; w1 = m.1 * m.6 - m.0 * m.7; w2 = m.0 * m.4 - m.1 * m.3
        determinant = m.0 * (m.4 * m.8 - m.5 * m.7) - m.1 * (m.3 * m.8 - m.5 * m.6) + m.2 * (m.3 * m.7 - m.4 * m.6)
    }

    /// The vertical wall over ground points a to b (unit Mercator): columns s (0 at a, 1 at b),
    /// height z (unit Mercator) and 1.
    init(wallFrom a: (x: Double, y: Double), to b: (x: Double, y: Double), _ p: ExtrusionProjection) {
        let h = p.h, dx = b.x - a.x, dy = b.y - a.y
        self.init((h.m00 * dx + h.m01 * dy, 0, h.m00 * a.x + h.m01 * a.y + h.m02,
                   h.m10 * dx + h.m11 * dy, p.liftY, h.m10 * a.x + h.m11 * a.y + h.m12,
                   h.m20 * dx + h.m21 * dy, p.liftW, h.m20 * a.x + h.m21 * a.y + h.m22))
    }

    /// The horizontal roof at height `top` (unit Mercator): columns x, y and 1.
    init(roofAt top: Double, _ p: ExtrusionProjection) {
        let h = p.h
        self.init((h.m00, h.m01, h.m02, h.m10, h.m11, h.m12 + p.liftY * top, h.m20, h.m21, h.m22 + p.liftW * top))
    }

    /// The depth W of the plane at screen point (u, v) (pixels from the homography's origin);
    /// nil where the plane is seen edge on or from behind.
    @inline(__always) func depth(u: Double, v: Double) -> Double? {
        let iw = (w0 * u + w1 * v + w2) / determinant
        return iw > 0 && iw.isFinite ? 1 / iw : nil
    }
}

/// What may hide a building face's pixel besides other buildings: the relief on the terrain
/// (``BuildingGround``), nothing on the flat map (``OpenGround``).
protocol FaceOcclusion {
    func hides(_ face: FacePlane, _ x: Int, _ y: Int, _ h: Homography) -> Bool
}

/// The flat map: nothing in front of a building but other buildings.
struct OpenGround: FaceOcclusion {
    @inline(__always) func hides(_ face: FacePlane, _ x: Int, _ y: Int, _ h: Homography) -> Bool { false }
}

/// The relief under and in front of buildings on the terrain (``MapRenderer/drawFillExtrusions``).
///
/// A building stands on the relief as MapLibre and Mapbox draw it (base on the ground, flat
/// roof): its roof is raised by the relief's height at its footprint's centre, its base by the
/// lowest of the heights at the centre and the corners of its bounding box, so that no wall
/// floats on a slope (the walls go down into the slope uphill, where the relief hides them).
/// Every wall and roof pixel is tested against the relief's depth buffer (when there is one:
/// feature queries lift buildings without testing).
struct BuildingGround: FaceOcclusion {
    let surface: ReliefSurface
    let depth: DepthBuffer?
    let worldSize: Double
    /// How far behind the relief (a fraction of the depth) a face pixel may lie and still show:
    /// the mesh is flat between its vertices, so a wall's foot can dip a little into it.
    static let bias: Float = 0.002

    /// The relief's heights (unit Mercator) under a footprint with bounding box `box` in world
    /// copy `copy`: the lowest of its centre and corners, and its centre's.
    func lift(_ box: MercatorBox, copy: Int) -> (low: Double, centre: Double) {
        let dx = Double(copy)
        func height(_ x: Double, _ y: Double) -> Double { surface.height(worldX: (x + dx) * worldSize, worldY: y * worldSize) / worldSize }
        let centre = height((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2)
        let low = min(centre, height(box.minX, box.minY), height(box.maxX, box.minY), height(box.minX, box.maxY), height(box.maxX, box.maxY))
        return (low, centre)
    }

    /// Whether the relief hides `face` at pixel (x, y).
    @inline(__always) func hides(_ face: FacePlane, _ x: Int, _ y: Int, _ h: Homography) -> Bool {
        guard let depth else { return false }
        guard let w = face.depth(u: Double(x) + 0.5 - h.originX, v: Double(y) + 0.5 - h.originY) else { return true }
        return !depth.isVisible(x: x, y: y, depth: Float(w), bias: Self.bias)
    }
}
