import FlybyCore
import FlybyData

/// Per-pixel scratch of one line feature drawn with `line-pattern` or `line-gradient`: for each
/// covered pixel, the nearest segment's distance and where along and across the line the pixel
/// lies. Frame-sized, allocated on first use; `distance` is +∞ between features.
struct LineShadingScratch {
    /// Squared distance (px²) from the pixel centre to the nearest segment so far.
    var distance: [Float] = []
    /// Distance along the line (px from its start; pattern) or `line-progress` (gradient).
    var along: [Float] = []
    /// Signed distance from the centre line (px, positive left of the direction of travel).
    var across: [Float] = []

    mutating func prepare(count: Int) {
        guard distance.count != count else { return }
        distance = Array(repeating: .infinity, count: count)
        along = Array(repeating: 0, count: count)
        across = Array(repeating: 0, count: count)
    }
}

/// One drawn piece of a line: its screen end points (pixels), the screen distance from the
/// line's start at its first end, and `line-progress` at both ends.
struct ShadedSegment {
    var x0, y0, x1, y1: Double
    var along0: Double
    var progress0, progress1: Double
}

/// How a pattern or gradient line is coloured (see ``MapRenderer/drawShadedLine``).
enum LineShade {
    /// `line-pattern`: the image runs along the line, its height fitted to the line width.
    case pattern(pixels: [UInt32], width: Int, height: Int)
    /// `line-gradient`: premultiplied colours at `line-progress` i / (count − 1).
    case gradient([UInt32])
}

extension MapRenderer {
    /// Draws a line layer that sets `line-pattern` or `line-gradient` (the pattern wins when
    /// both are set, as in MapLibre), feature by feature (see ``drawShadedLine``), in the order
    /// of ``collectFeatures``; widths, caps, joins and dashes as for plain lines. A feature whose
    /// pattern image is missing is drawn in `line-color` (the name is reported once).
    mutating func drawShadedLines(_ index: Int, _ layer: StyleLayer, _ g: FrameGeometry, style0: StrokeStyle,
                                  _ view: PixelBufferView) {
        guard let source = layerSource(index) else { return }
        let level = source.data.level(forZoom: g.zoom)
        let z = g.zoom
        let hasPattern = layer.expression(.linePattern) != nil
        let patternDep = hasPattern && layer.isFeatureDependent(.linePattern)
        let constName = hasPattern && !patternDep ? layer.string(.linePattern, zoom: z) : ""
        let ramp = hasPattern ? nil : gradientRamp(layer, zoom: z)
        let translation = screenTranslation(layer, .lineTranslate, .lineTranslateAnchor, g)
        for copy in g.firstCopy...g.lastCopy {
            var h = g.unitHomography(copy: copy)
            collectFeatures(index, layer, source, g, copy: copy, sortKey: .lineSortKey)
            h.originX += translation.x; h.originY += translation.y
            for item in order {
                let f = Int(item.feature)
                let ctx = source.context(feature: f, states: featureStates)
                var paint = LinePaint(layer, zoom: z, feature: ctx)
                if g.pitched && mapPlaneLineWidths { paint.scale(by: MapRenderer.lineWidthScale(source.data.bounds[f], h, g)) }
                guard paint.width > 0 else { continue }
                if paintsOnlyPartOfTheFrame
                    && missesBand(source.data.bounds[f], h, g, reach: paint.reach * max(style0.miterLimit, 1.5) + 2) { continue }
                var s = style0
                s.width = paint.width
                s.dashes.removeAll()
                if let dashes = layer.numbers(.lineDasharray, zoom: z, feature: ctx) {
                    for d in dashes { s.dashes.append(d * max(paint.width, 1)) }  // in line widths
                }
                let opacity = layer.number(.lineOpacity, zoom: z, feature: ctx)
                var shade: LineShade?
                if let ramp {
                    shade = .gradient(ramp)
                } else {
                    let name = patternDep ? layer.string(.linePattern, zoom: z, feature: ctx) : constName
                    if let image = name.isEmpty ? nil : images[name], image.width > 0, image.height > 0 {
                        shade = .pattern(pixels: image.pixels, width: image.width, height: image.height)
                    } else {
                        reportMissingPattern(name)
                    }
                }
                if let shade {
                    drawShadedLine(f, level, source, g, h, style: s, shade: shade, opacity: opacity, view)
                } else if paint.color.alpha != 0 {
                    path.removeAll()
                    appendGeometry(level, source, feature: f, copy: copy, g, h, polygonsOnly: false, asLines: true)
                    painter.stroke(path, style: s, color: paint.color, into: view)
                    path.removeAll()
                }
            }
        }
    }

    /// How many colours of a `line-gradient` are evaluated per layer and frame: progress is
    /// looked up in steps of 1/1023 (under 1 px for lines shorter than 1,000 px).
    static let gradientSteps = 1024

    /// The colours of layer's `line-gradient` at `gradientSteps` evaluations of `line-progress`
    /// 0…1 (the expression is evaluated per step, never per pixel), × `line-opacity` at `zoom`.
    func gradientRamp(_ layer: StyleLayer, zoom: Double) -> [UInt32]? {
        guard let e = layer.expression(.lineGradient) else { return nil }
        let n = MapRenderer.gradientSteps
        var ramp = [UInt32](repeating: 0, count: n)
        for i in 0..<n {
            var globals = ExpressionGlobals()
            globals.lineProgress = Double(i) / Double(n - 1)
            var c: StyleColor?
            if case .color(let v)? = e.evaluate(zoom: zoom, feature: .empty, globals: globals) { c = v }
            ramp[i] = pixelColor(c, 1).premultipliedARGB
        }
        return ramp
    }

    /// Draws one line feature `f` with a pattern or gradient (Style Specification, `line-pattern`,
    /// `line-gradient`): its lines (and polygon outlines) are stroked with the layer's width, cap,
    /// join and dashes into the coverage scratch (the anti-aliasing of a plain line); each covered
    /// pixel then takes the colour of the nearest segment's point:
    ///
    /// - pattern: `u` = distance along the line (screen px) × image height / line width, wrapped;
    ///   `v` = across the line, 0 at the left edge to the image height at the right edge (the
    ///   image's height is scaled to the line width, its length with it). At a join the pixels
    ///   beyond both segments take the joint's `u` (the pattern fans around the outer corner);
    ///   on the inner side each pixel takes its nearer segment.
    /// - gradient: `line-progress` = the Mercator length from the ring's start / its whole length
    ///   (the projected length, lineMetrics), interpolated linearly along each drawn segment.
    ///
    /// `line-gap-width` and `line-offset` are not applied to such lines (docs/style-properties.md).
    mutating func drawShadedLine(_ f: Int, _ level: GeometryLevel, _ source: LoadedSource, _ g: FrameGeometry, _ h: Homography,
                                 style: StrokeStyle, shade: LineShade, opacity: Double, _ view: PixelBufferView) {
        let width = style.width
        guard width > 0, width.isFinite else { return }
        var segments: [ShadedSegment] = []
        path.removeAll()
        level.xy.withUnsafeBufferPointer { xy in
            level.forEachLineRing(ofFeature: f) { points, closed in
                appendShadedRing(xy, points.lowerBound, points.upperBound, closed: closed, g, h, into: &segments)
            }
        }
        guard !path.isEmpty, !segments.isEmpty else { return }
        let k = UInt32(min(255, max(0, (opacity * 255).rounded())))
        guard k != 0 else { return }
        var mask = patternMask ?? PixelBuffer(width: self.width, height: height)
        patternMask = nil
        defer { patternMask = mask }
        lineShading.prepare(count: self.width * height)
        let frame = PixelRect(minX: 0, minY: 0, maxX: self.width, maxY: height).intersection(painter.rowRect)
        let reach = width / 2 * max(style.miterLimit, 1.5) + 2
        var box = PixelRect(minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
        mask.withView { m in
            painter.stroke(path, style: style, color: .white, into: m)
            lineShading.distance.withUnsafeMutableBufferPointer { best in
                lineShading.along.withUnsafeMutableBufferPointer { along in
                    lineShading.across.withUnsafeMutableBufferPointer { across in
                        for seg in segments {
                            let r = MapRenderer.pixelBox(min(seg.x0, seg.x1) - reach, min(seg.y0, seg.y1) - reach,
                                                         max(seg.x0, seg.x1) + reach, max(seg.y0, seg.y1) + reach).intersection(frame)
                            guard !r.isEmpty else { continue }
                            box = PixelRect(minX: min(box.minX, r.minX), minY: min(box.minY, r.minY),
                                            maxX: max(box.maxX, r.maxX), maxY: max(box.maxY, r.maxY))
                            let dx = seg.x1 - seg.x0, dy = seg.y1 - seg.y0
                            let len2 = dx * dx + dy * dy, len = len2.squareRoot()
                            let isGradient: Bool
                            if case .gradient = shade { isGradient = true } else { isGradient = false }
                            for y in r.minY..<r.maxY {
                                let cover = m.row(y)
                                let py = Double(y) + 0.5 - seg.y0
                                for x in r.minX..<r.maxX where cover[x] != 0 {
                                    let px = Double(x) + 0.5 - seg.x0
                                    let t = len2 > 0 ? min(1, max(0, (px * dx + py * dy) / len2)) : 0
                                    let ex = px - t * dx, ey = py - t * dy
                                    let d2 = Float(ex * ex + ey * ey)
                                    let i = y * self.width + x
                                    guard d2 < best[i] else { continue }
                                    best[i] = d2
                                    // Left of travel (screen y down): cross(d, p) < 0.
                                    let side: Double = dx * py - dy * px < 0 ? 1 : -1
                                    across[i] = Float(side * Double(d2).squareRoot())
                                    along[i] = Float(isGradient ? seg.progress0 + t * (seg.progress1 - seg.progress0)
                                                                : seg.along0 + t * len)
                                }
                            }
                        }
                        guard !box.isEmpty else { return }
                        MapRenderer.compositeCoverage(m, box: box, opacity: k, into: view) { x, y in
                            let i = y * self.width + x
                            guard best[i].isFinite else { return nil }
                            best[i] = .infinity
                            switch shade {
                            case .gradient(let ramp):
                                let p = min(1, max(0, Double(along[i])))
                                return ramp[Int((p * Double(ramp.count - 1)).rounded())]
                            case .pattern(let pixels, let w, let hgt):
                                let scale = Double(hgt) / width
                                var u = FastMath.floor(min(1e15, Double(along[i]) * scale)) % w
                                if u < 0 { u += w }
                                let v = min(hgt - 1, max(0, FastMath.floor((width / 2 - Double(across[i])) * scale)))
                                return pixels[v * w + u]
                            }
                        }
                    }
                }
            }
        }
        // Pixels outside `box` were never written: the scratch stays clean for the next feature.
        path.removeAll()
    }

    /// The pixel rectangle covering `minX…maxX × minY…maxY` (clamped to ±1e7 px).
    static func pixelBox(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> PixelRect {
        PixelRect(minX: Int(max(-1e7, min(1e7, minX)).rounded(.down)), minY: Int(max(-1e7, min(1e7, minY)).rounded(.down)),
                  maxX: Int(max(-1e7, min(1e7, maxX)).rounded(.up)), maxY: Int(max(-1e7, min(1e7, maxY)).rounded(.up)))
    }

    /// Appends ring `xy[s..<e]` (unit Mercator; closed when `closed`) to ``path`` and its drawn
    /// segments to `segments`: each segment clipped to the depth strip, projected by `h`, with
    /// `line-progress` from the ring's Mercator length.
    mutating func appendShadedRing(_ xy: UnsafeBufferPointer<Double>, _ s: Int, _ e: Int, closed: Bool, _ g: FrameGeometry,
                                   _ h: Homography, into segments: inout [ShadedSegment]) {
        let n = e - s + (closed ? 1 : 0)
        @inline(__always) func point(_ k: Int) -> (Double, Double) {
            let j = s + (k % (e - s))
            return (xy[2 * j], xy[2 * j + 1])
        }
        var total = 0.0
        for k in 1..<n {
            let (ax, ay) = point(k - 1), (bx, by) = point(k)
            total += ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
        }
        guard total > 0, total.isFinite else { return }
        var walked = 0.0, screen = 0.0
        var open = false
        for k in 1..<n {
            let (ax, ay) = point(k - 1), (bx, by) = point(k)
            let length = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
            defer { walked += length }
            // Keep near ≤ depth ≤ far (a straight segment on the ground: depth is linear in t).
            var t0 = 0.0, t1 = 1.0
            let w0 = h.depth(x: ax, y: ay), w1 = h.depth(x: bx, y: by), dw = w1 - w0
            if dw == 0 {
                if w0 < g.near || w0 > g.far { t0 = 1; t1 = 0 }
            } else {
                let tn = (g.near - w0) / dw, tf = (g.far - w0) / dw
                if dw > 0 { t0 = max(t0, tn); t1 = min(t1, tf) } else { t0 = max(t0, tf); t1 = min(t1, tn) }
            }
            guard t0 <= t1 else {
                if open { path.endContour(closed: false); open = false }
                continue
            }
            let p = h.project(ax + (bx - ax) * t0, ay + (by - ay) * t0)
            let q = h.project(ax + (bx - ax) * t1, ay + (by - ay) * t1)
            if t0 > 0 && open { path.endContour(closed: false); open = false }
            if !open { path.beginContour(); path.appendPoint(p); open = true }
            path.appendPoint(q)
            segments.append(ShadedSegment(x0: p.x, y0: p.y, x1: q.x, y1: q.y, along0: screen,
                                          progress0: (walked + t0 * length) / total, progress1: (walked + t1 * length) / total))
            screen += ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
            if t1 < 1 { path.endContour(closed: false); open = false }
        }
        if open { path.endContour(closed: false) }
    }
}
