import FlybyCore
import FlybyData

/// A feature found by ``MapRenderer/queryFeatures(at:camera:tolerance:)`` or
/// ``MapRenderer/queryFeatures(in:camera:tolerance:)``.
public struct QueriedFeature: Sendable {
    /// The style layer that draws it.
    public var layerID: String
    /// The style source it comes from.
    public var sourceID: String
    /// Its index in the source's features.
    public var featureIndex: Int
    /// Its id for feature-state (promoteId, GeoJSON id, or generated), nil when it has none.
    public var featureID: PropertyValue?
    /// Its GeoJSON properties.
    public var properties: PropertyMap
}

extension MapRenderer {
    /// The features drawn at a screen point, topmost first: ``queryFeatures(in:camera:tolerance:)``
    /// with a rectangle of zero size.
    /// - Parameters:
    ///   - point: screen point (pixels, origin top-left, y down).
    ///   - camera: the camera the frame was drawn with.
    ///   - tolerance: extra reach in pixels for lines and circles.
    public func queryFeatures(at point: ScreenPoint, camera: CameraState, tolerance: Double = 3) -> [QueriedFeature] {
        queryFeatures(in: ScreenRect(x: point.x, y: point.y, width: 0, height: 0), camera: camera, tolerance: tolerance)
    }

    /// The features whose drawn geometry touches a screen rectangle, topmost first: symbols whose
    /// placed icon or text box intersects it (only when `camera` is the camera of the last
    /// rendered frame, whose placement they come from; symbols are drawn above every other
    /// layer), then fills whose polygon intersects it, lines that come within half their width
    /// plus `tolerance`, circles within their radius plus stroke width plus `tolerance`. Within
    /// a layer, the last drawn comes first. Filters, zoom ranges and visibility apply as when
    /// drawing. The test is made in screen space after the camera's projection (pitched too):
    /// each segment is clipped to the drawn depth range and projected.
    /// - Parameters:
    ///   - rect: screen rectangle (pixels, origin top-left, y down); edges included.
    ///   - camera: the camera the frame was drawn with.
    ///   - tolerance: extra reach in pixels for lines and circles.
    public func queryFeatures(in rect: ScreenRect, camera: CameraState, tolerance: Double = 0) -> [QueriedFeature] {
        guard rect.x.isFinite, rect.y.isFinite, rect.width.isFinite, rect.height.isFinite, rect.width >= 0, rect.height >= 0,
              tolerance.isFinite else { return [] }
        let g = FrameGeometry(camera: camera, width: width, height: height, pixelRatio: pixelRatio)
        guard let relief = drawnRelief(g) else {
            return symbolFeatures(in: rect, g, relief: nil) + groundFeatures(in: rect, g, tolerance: tolerance)
        }
        // On the terrain: the ground drawn at a screen point is the flat map's at the ground point
        // the view ray meets there (the drape's texture is the flat map); buildings stand on the
        // relief (``BuildingGround``), tested where they are drawn, before the ground.
        let symbols = symbolFeatures(in: rect, g, relief: relief)
        let buildings = groundFeatures(in: rect, g, tolerance: tolerance, layers: .buildings(on: relief))
        guard let flat = MapRenderer.flatRect(rect, relief) else { return symbols + buildings }
        return symbols + buildings + groundFeatures(in: flat, g, tolerance: tolerance, layers: .ground)
    }

    /// Which layers ``groundFeatures(in:_:tolerance:layers:)`` tests.
    enum GroundQuery {
        /// Every fill, line, circle and fill-extrusion layer, on the flat map.
        case all
        /// All but the fill-extrusion layers (the ground draped on the relief).
        case ground
        /// Only the fill-extrusion layers, their buildings standing on `relief`.
        case buildings(on: ReliefSurface)
    }

    /// The relief of the frame `g` when frames are draped on the terrain (the style has one,
    /// ``drawsTerrain`` is on, no custom layers); nil for a flat frame.
    func drawnRelief(_ g: FrameGeometry) -> ReliefSurface? {
        guard drawsTerrain, customLayers.isEmpty, let elevation = terrainStyle?.terrainElevation else { return nil }
        return ReliefSurface(transform: g.transform, elevation: elevation.terrain().elevation)
    }

    /// The flat-map rectangle of the ground a screen rectangle sees on `relief`: the bounds of
    /// the flat screen points of the ground hit through its corners and centre (exact for a
    /// point); nil when none of them meets the relief (the sky).
    static func flatRect(_ rect: ScreenRect, _ relief: ReliefSurface) -> ScreenRect? {
        let xs = [rect.x, rect.x + rect.width / 2, rect.maxX], ys = [rect.y, rect.y + rect.height / 2, rect.maxY]
        let probes = rect.width == 0 && rect.height == 0 ? [ScreenPoint(x: rect.x, y: rect.y)]
            : [ScreenPoint(x: xs[0], y: ys[0]), ScreenPoint(x: xs[2], y: ys[0]), ScreenPoint(x: xs[1], y: ys[1]),
               ScreenPoint(x: xs[0], y: ys[2]), ScreenPoint(x: xs[2], y: ys[2])]
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in probes {
            guard let hit = relief.hit(through: p),
                  let q = relief.transform.screenPoint(worldX: hit.worldX, worldY: hit.worldY) else { continue }
            minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y)
        }
        guard minX <= maxX, minY <= maxY else { return nil }
        return ScreenRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The fill, line, circle and extrusion features of ``queryFeatures(in:camera:tolerance:)``
    /// on the flat map's screen rectangle `rect`.
    private func groundFeatures(in rect: ScreenRect, _ g: FrameGeometry, tolerance: Double,
                                layers: GroundQuery = .all) -> [QueriedFeature] {
        var result: [QueriedFeature] = []
        var types: [LayerType] = [.fill, .line, .circle, .fillExtrusion]
        var ground: BuildingGround?
        var q = QueryRect(minX: rect.x, minY: rect.y, maxX: rect.maxX, maxY: rect.maxY)
        switch layers {
        case .all, .ground:
            if case .ground = layers { types.removeLast() }
            // The ground is only drawn below the horizon.
            guard rect.maxY > g.horizonY else { return result }
            let top = max(rect.y, g.horizonY + 1e-3)
            q = QueryRect(minX: rect.x, minY: top, maxX: rect.maxX, maxY: max(top, rect.maxY))
        case .buildings(let relief):
            // (A building on a summit can rise above the flat horizon.)
            types = [.fillExtrusion]
            ground = BuildingGround(surface: relief, depth: nil, worldSize: g.worldSize)
        }
        let z = g.zoom
        var hits: [Int32] = []
        var found: Set<Int> = []
        for (li, layer) in style.style.layers.enumerated().reversed() where layer.isVisible(atZoom: z) {
            guard types.contains(layer.type), let source = layerSource(li) else { continue }
            let level = source.data.level(forZoom: z)
            // Reach in pixels of lines and circles beyond their geometry, for the index query only;
            // a building's roof is drawn above its footprint, up to a frame's height.
            let reach = layer.type == .fill ? 0 : layer.type == .fillExtrusion ? Double(height) : 64 + tolerance
            var depths: [Int: Double] = [:]
            let box = groundBox(q, reach: reach, g)
            found.removeAll(keepingCapacity: true)
            for copy in g.firstCopy...g.lastCopy {
                let h = g.unitHomography(copy: copy)
                let copyBox = box.shifted(byWorlds: -Double(copy))
                hits.removeAll(keepingCapacity: true)
                source.data.query(copyBox, zoom: z, into: &hits)
                for f32 in hits where !found.contains(Int(f32)) {
                    let f = Int(f32)
                    let ctx = source.context(feature: f, states: featureStates)
                    guard layer.accepts(zoom: z, feature: ctx) else { continue }
                    let hit: Bool
                    switch layer.type {
                    case .fill:
                        hit = fillTouches(q, level, feature: f, h: h, g, copy: copy, near: copyBox)
                    case .fillExtrusion:
                        let depth = extrusionDepth(q, layer, level, feature: f, ctx, h: h, g, copy: copy,
                                                   ground: ground.map { ($0, source.data.bounds[f]) })
                        if let depth { depths[f] = min(depths[f] ?? .infinity, depth) }
                        hit = depth != nil
                    case .line:
                        var halfWidth = layer.number(.lineWidth, zoom: z, feature: ctx) / 2
                        if g.pitched && mapPlaneLineWidths { halfWidth *= MapRenderer.lineWidthScale(source.data.bounds[f], h, g) }
                        hit = linesReach(q, halfWidth + tolerance, level, feature: f, h: h, g, near: copyBox)
                    default:
                        let radius = layer.number(.circleRadius, zoom: z, feature: ctx) + layer.number(.circleStrokeWidth, zoom: z, feature: ctx)
                        hit = pointsReach(q, radius + tolerance, level, feature: f, h: h, g)
                    }
                    if hit { found.insert(f) }
                }
            }
            // Last drawn first, as the point query always answered: for buildings, the nearest.
            let drawnOrder = layer.type == .fillExtrusion
                ? found.sorted { (depths[$0] ?? 0, $0) < (depths[$1] ?? 0, $1) } : found.sorted(by: >)
            for f in drawnOrder {
                result.append(QueriedFeature(layerID: layer.id, sourceID: source.id, featureIndex: f,
                                             featureID: source.featureIDs[f], properties: source.data.features[f].properties))
            }
        }
        return result
    }

    /// The camera whose frame placed the current ``placedSymbolBoxes`` (nil when none were placed,
    /// or symbols are off): symbol queries answer only for that camera.
    public var symbolPlacementCamera: CameraState? { placer.camera }

    /// Symbol features whose placed boxes intersect `rect`, topmost layer first and, within a
    /// layer, the last placed (drawn on top) first; each feature once per layer. On the terrain
    /// (`relief`) each box is moved as the drape moves its symbol (by its centre's lift) and left
    /// out where the relief hid it.
    private func symbolFeatures(in rect: ScreenRect, _ g: FrameGeometry, relief: ReliefSurface?) -> [QueriedFeature] {
        guard let placed = placer.camera, placed == g.transform.state, !placer.placed.isEmpty else { return [] }
        if relief != nil && drapes.isEmpty { return [] }
        var result: [QueriedFeature] = []
        var seen: Set<Int> = []
        for (li, layer) in style.style.layers.enumerated().reversed() where layer.type == .symbol {
            guard let source = layerSource(li) else { continue }
            seen.removeAll(keepingCapacity: true)
            for b in placer.placed.reversed() where b.layerID == layer.id && b.featureIndex >= 0 {
                var dx = 0.0, dy = 0.0
                if let relief {
                    let c = ScreenPoint(x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2)
                    let l = drapes[0].lift(c, g, relief)
                    if l.hidden { continue }
                    dx = l.point.x - c.x; dy = l.point.y - c.y
                }
                guard b.minX + dx <= rect.maxX && rect.x <= b.maxX + dx && b.minY + dy <= rect.maxY && rect.y <= b.maxY + dy,
                      seen.insert(b.featureIndex).inserted else { continue }
                result.append(QueriedFeature(layerID: layer.id, sourceID: source.id, featureIndex: b.featureIndex,
                                             featureID: source.featureIDs[b.featureIndex],
                                             properties: source.data.features[b.featureIndex].properties))
            }
        }
        return result
    }

    /// The unit Mercator box (x unwrapped) of the ground seen through `q` grown by `reach` pixels:
    /// the screen-to-ground map is projective below the horizon, so the grown rectangle's
    /// corners bound it.
    private func groundBox(_ q: QueryRect, reach: Double, _ g: FrameGeometry) -> MercatorBox {
        let top = max(q.minY - reach, g.horizonY + 1e-3)
        var box = MercatorBox.empty
        for (x, y) in [(q.minX - reach, top), (q.maxX + reach, top), (q.minX - reach, q.maxY + reach), (q.maxX + reach, q.maxY + reach)] {
            let w = g.transform.worldPoint(for: ScreenPoint(x: x, y: y))
            box.include(x: w.x / g.worldSize, y: w.y / g.worldSize)
        }
        return box
    }

    /// True when a polygon feature, as drawn through `h`, intersects `q`: it contains the
    /// rectangle's centre, or an edge crosses or touches the rectangle.
    private func fillTouches(_ q: QueryRect, _ level: GeometryLevel, feature f: Int, h: Homography, _ g: FrameGeometry, copy: Int,
                             near box: MercatorBox) -> Bool {
        // The cheap ground-space containment first: most hits end here.
        let c = g.transform.worldPoint(for: ScreenPoint(x: (q.minX + q.maxX) / 2, y: (q.minY + q.maxY) / 2))
        if MapRenderer.polygonContains(level, feature: f, c.x / g.worldSize - Double(copy), c.y / g.worldSize) { return true }
        var touches = false
        forEachDrawnSegment(level, feature: f, h: h, g, rings: RingFlags.polygon, near: box) { a, b in
            if q.intersectsSegment(a, b) { touches = true }
            return !touches
        }
        return touches
    }

    /// The depth of a `fill-extrusion` building whose drawn prism (roof, walls, footprint)
    /// contains the centre of `q`, or nil when it does not. Screen-space even-odd tests of the
    /// projected faces (``ExtrusionProjection``), as ``MapRenderer/drawFillExtrusions(_:_:_:on:_:)``
    /// draws them: on the terrain (`ground`), standing on the relief, lifted by the footprint
    /// bounds the drawing lifts it by (the relief in front of a building does not stop the query).
    private func extrusionDepth(_ q: QueryRect, _ layer: StyleLayer, _ level: GeometryLevel, feature f: Int, _ ctx: FeatureContext,
                                h: Homography, _ g: FrameGeometry, copy: Int,
                                ground: (relief: BuildingGround, footprint: MercatorBox)?) -> Double? {
        let z = g.zoom
        let unitsPerMetre = MapRenderer.unitsPerMetre(latitude: g.transform.state.center.latitude)
        var top = layer.number(.fillExtrusionHeight, zoom: z, feature: ctx) * unitsPerMetre
        var base = layer.number(.fillExtrusionBase, zoom: z, feature: ctx) * unitsPerMetre
        guard top > base else { return nil }
        var h = h
        let t = screenTranslation(layer, .fillExtrusionTranslate, .fillExtrusionTranslateAnchor, g)
        h.originX += t.x; h.originY += t.y
        let projection = ExtrusionProjection(h, g.transform)
        let box = level.xy.isEmpty ? MercatorBox.empty : boundsOf(level, feature: f)
        var lift = 0.0
        if let ground, !level.xy.isEmpty {
            let l = ground.relief.lift(ground.footprint, copy: copy)
            base += l.low; top += l.centre; lift = l.low
        }
        guard projection.isInFront(box, base: base, top: top, near: g.near, far: g.far) else { return nil }
        let px = (q.minX + q.maxX) / 2, py = (q.minY + q.maxY) / 2
        /// Even-odd crossing test of a screen polygon (Shimrat 1962).
        func contains(_ poly: [ScreenPoint]) -> Bool {
            var inside = false
            var j = poly.count - 1
            for i in poly.indices {
                let a = poly[i], b = poly[j]
                if (a.y > py) != (b.y > py) && px < (b.x - a.x) * (py - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                j = i
            }
            return inside
        }
        var hit = false
        var roof: [ScreenPoint] = [], ground: [ScreenPoint] = []
        for r in level.rings(ofFeature: f) where level.ringFlags[r] & RingFlags.polygon != 0 && level.ringFlags[r] & RingFlags.outline == 0 {
            let range = level.points(ofRing: r)
            roof.removeAll(keepingCapacity: true); ground.removeAll(keepingCapacity: true)
            for k in range {
                let x = level.xy[2 * k], y = level.xy[2 * k + 1]
                roof.append(projection.project(x, y, top)); ground.append(projection.project(x, y, base))
            }
            if contains(roof) || contains(ground) { hit = true; break }
            for i in roof.indices {
                let n = (i + 1) % roof.count
                if contains([ground[i], ground[n], roof[n], roof[i]]) { hit = true; break }
            }
            if hit { break }
        }
        return hit ? projection.depth((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2, lift) : nil
    }

    /// The unit Mercator bounds of a feature's points at one geometry level.
    private func boundsOf(_ level: GeometryLevel, feature f: Int) -> MercatorBox {
        var box = MercatorBox.empty
        for r in level.rings(ofFeature: f) {
            for k in level.points(ofRing: r) { box.include(x: level.xy[2 * k], y: level.xy[2 * k + 1]) }
        }
        return box
    }

    /// True when a line string or polygon outline of the feature, as drawn through `h`, comes
    /// within `reach` pixels of `q`.
    private func linesReach(_ q: QueryRect, _ reach: Double, _ level: GeometryLevel, feature f: Int, h: Homography, _ g: FrameGeometry,
                            near box: MercatorBox) -> Bool {
        var near = false
        forEachDrawnSegment(level, feature: f, h: h, g, rings: nil, near: box) { a, b in
            if q.distanceSquared(a, b) <= reach * reach { near = true }
            return !near
        }
        return near
    }

    /// True when a point of the feature, as drawn through `h`, lies within `reach` pixels of `q`.
    private func pointsReach(_ q: QueryRect, _ reach: Double, _ level: GeometryLevel, feature f: Int, h: Homography, _ g: FrameGeometry) -> Bool {
        for r in level.rings(ofFeature: f) where level.ringFlags[r] & RingFlags.points != 0 {
            for k in level.points(ofRing: r) {
                let x = level.xy[2 * k], y = level.xy[2 * k + 1]
                let w = h.depth(x: x, y: y)
                guard w >= g.near && w <= g.far else { continue }
                if q.distanceSquared(h.project(x, y)) <= reach * reach { return true }
            }
        }
        return false
    }

    /// Calls `body` with each segment (screen pixels) of the feature's line strings and polygon
    /// rings (only polygon rings when `rings` is `RingFlags.polygon`), cut to the depth range
    /// `near ≤ W ≤ far` that is drawn (W is affine on the ground, so the cut is linear there) and
    /// projected by `h`; `body` returns false to stop. Segments wholly on one side outside `box`
    /// (unit Mercator of this copy: the ground the query can reach) are skipped unprojected.
    private func forEachDrawnSegment(_ level: GeometryLevel, feature f: Int, h: Homography, _ g: FrameGeometry, rings: UInt8?,
                                     near box: MercatorBox, _ body: (ScreenPoint, ScreenPoint) -> Bool) {
        for r in level.rings(ofFeature: f) where level.ringFlags[r] & RingFlags.points == 0 {
            let flags = level.ringFlags[r]
            if let rings, flags & rings == 0 { continue }
            let range = level.points(ofRing: r)
            guard range.count >= 2 else { continue }
            let closed = flags & RingFlags.polygon != 0
            var j = closed ? range.upperBound - 1 : range.lowerBound
            for i in (closed ? range.lowerBound : range.lowerBound + 1)..<range.upperBound {
                defer { j = i }
                var ax = level.xy[2 * j], ay = level.xy[2 * j + 1], bx = level.xy[2 * i], by = level.xy[2 * i + 1]
                if max(ax, bx) < box.minX || min(ax, bx) > box.maxX || max(ay, by) < box.minY || min(ay, by) > box.maxY { continue }
                let wa = h.depth(x: ax, y: ay), wb = h.depth(x: bx, y: by)
                // Parameter interval of a→b inside the depth range.
                var t0 = 0.0, t1 = 1.0
                // Keeps the part where `da + t (db − da) ≥ 0`.
                func keep(_ da: Double, _ db: Double) {
                    if da < 0 && db < 0 { t0 = 1; t1 = 0 } else if da < 0 { t0 = max(t0, da / (da - db)) } else if db < 0 { t1 = min(t1, da / (da - db)) }
                }
                keep(wa - g.near, wb - g.near)
                keep(g.far - wa, g.far - wb)
                guard t0 <= t1 else { continue }
                if t0 > 0 || t1 < 1 {
                    let dx = bx - ax, dy = by - ay
                    (ax, ay, bx, by) = (ax + t0 * dx, ay + t0 * dy, ax + t1 * dx, ay + t1 * dy)
                }
                if !body(h.project(ax, ay), h.project(bx, by)) { return }
            }
        }
    }

    /// Even-odd point-in-polygon over all polygon rings of a feature (crossing number; Shimrat,
    /// "Algorithm 112: Position of point relative to polygon", CACM 5(8), 1962).
    static func polygonContains(_ level: GeometryLevel, feature f: Int, _ x: Double, _ y: Double) -> Bool {
        var inside = false
        for r in level.rings(ofFeature: f) where level.ringFlags[r] & RingFlags.polygon != 0 {
            let range = level.points(ofRing: r)
            guard range.count >= 3 else { continue }
            var j = range.upperBound - 1
            for i in range {
                let xi = level.xy[2 * i], yi = level.xy[2 * i + 1], xj = level.xy[2 * j], yj = level.xy[2 * j + 1]
                if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
                j = i
            }
        }
        return inside
    }
}

/// An axis-aligned screen rectangle (pixels, edges included; may have zero size) and the
/// distance tests of the feature query.
struct QueryRect {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    /// Squared distance from `p` to the rectangle (0 inside or on it).
    func distanceSquared(_ p: ScreenPoint) -> Double {
        let dx = max(minX - p.x, 0, p.x - maxX), dy = max(minY - p.y, 0, p.y - maxY)
        return dx * dx + dy * dy
    }

    /// True when the segment a–b meets the rectangle: Liang–Barsky clipping leaves a part of it
    /// (Liang and Barsky, "A new concept and method for line clipping", ACM TOG 3(1), 1984).
    func intersectsSegment(_ a: ScreenPoint, _ b: ScreenPoint) -> Bool {
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        // Keeps the part where `p·t ≤ d`; false when nothing is left.
        func keep(_ p: Double, _ d: Double) -> Bool {
            if p == 0 { return d >= 0 }
            if p < 0 { t0 = max(t0, d / p) } else { t1 = min(t1, d / p) }
            return t0 <= t1
        }
        return keep(-dx, a.x - minX) && keep(dx, maxX - a.x) && keep(-dy, a.y - minY) && keep(dy, maxY - a.y)
    }

    /// Squared distance from the segment a–b to the rectangle: 0 when they meet; otherwise the
    /// nearest pair has an endpoint of the segment or a corner of the rectangle in it.
    func distanceSquared(_ a: ScreenPoint, _ b: ScreenPoint) -> Double {
        if intersectsSegment(a, b) { return 0 }
        let corners = min(min(pointSegmentDistanceSquared(minX, minY, a.x, a.y, b.x, b.y), pointSegmentDistanceSquared(maxX, minY, a.x, a.y, b.x, b.y)),
                          min(pointSegmentDistanceSquared(minX, maxY, a.x, a.y, b.x, b.y), pointSegmentDistanceSquared(maxX, maxY, a.x, a.y, b.x, b.y)))
        return min(corners, distanceSquared(a), distanceSquared(b))
    }
}
