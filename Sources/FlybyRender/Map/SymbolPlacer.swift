import FlybyCore
import FlybyData

/// A placed label or icon: its collision box in screen pixels (padding included).
public struct SymbolBox: Hashable, Sendable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double
    /// The layer that placed it.
    public var layerID: String
    /// The label text ("" for an icon).
    public var text: String
    /// The index of the feature it labels in its layer's source (−1 when unknown).
    public var featureIndex: Int = -1

    /// True when the boxes overlap in an area (touching edges do not count).
    public func overlaps(_ o: SymbolBox) -> Bool {
        minX < o.maxX && o.minX < maxX && minY < o.maxY && o.minY < maxY
    }
}

/// Greedy label placement with collision detection.
///
/// The scheme of Mapbox GL's placement, restated: candidates are taken in priority order — the
/// symbol layers from the top of the style down (a later layer wins, as in Mapbox), within a layer
/// by `symbol-sort-key` ascending and then document order — and each is kept when its box (plus
/// `text-padding`) overlaps no box kept before it, unless `text-allow-overlap`. With
/// `text-ignore-placement` a kept label does not block later ones. Because the order depends only
/// on the style and the data, the same labels win from frame to frame of a smooth animation: no
/// flicker. Boxes are axis-aligned; a label along a line collides as a chain of them, one per glyph
/// (``LineLabelGlyphs``), checked only against entries whose outer boxes overlap its own.
struct SymbolPlacer {
    var placed: [SymbolBox] = []
    /// The collision boxes of each of ``placed`` (a range of ``parts``; empty: the box itself).
    /// A label along a line collides as a chain of small boxes, one per glyph, not as the box
    /// around it (see ``LineLabelGlyphs``).
    var placedParts: [Range<Int>] = []
    /// For each of ``placed``, the unit Mercator anchor of a line label (nil otherwise): which
    /// point of its line the label is at, the same from frame to frame.
    var placedAnchors: [SIMD2<Double>?] = []
    var parts: [SymbolBox] = []
    /// Boxes that block later symbols (a subset of ``placed`` without ignore-placement ones),
    /// with their parts.
    var blocking: [SymbolBox] = []
    var blockingParts: [Range<Int>] = []
    /// The camera whose frame placed ``placed`` (nil after a reset), for queries.
    var camera: CameraState?

    mutating func reset() {
        camera = nil
        placed.removeAll(keepingCapacity: true)
        placedParts.removeAll(keepingCapacity: true)
        placedAnchors.removeAll(keepingCapacity: true)
        parts.removeAll(keepingCapacity: true)
        blocking.removeAll(keepingCapacity: true)
        blockingParts.removeAll(keepingCapacity: true)
    }

    /// True when `b` (or, when given, its parts `bParts`, all inside `b`) overlaps no blocking box
    /// or part.
    func isFree(_ b: SymbolBox, parts bParts: [SymbolBox] = []) -> Bool {
        for i in blocking.indices where blocking[i].overlaps(b) {
            let oParts = blockingParts[i]
            if oParts.isEmpty && bParts.isEmpty { return false }
            if oParts.isEmpty {
                for p in bParts where p.overlaps(blocking[i]) { return false }
            } else if bParts.isEmpty {
                for k in oParts where parts[k].overlaps(b) { return false }
            } else {
                for k in oParts where parts[k].overlaps(b) {
                    for p in bParts where p.overlaps(parts[k]) { return false }
                }
            }
        }
        return true
    }

    mutating func add(_ b: SymbolBox, parts bParts: [SymbolBox] = [], anchor: SIMD2<Double>? = nil, blocks: Bool) {
        let range = parts.count..<(parts.count + bParts.count)
        parts.append(contentsOf: bParts)
        placed.append(b)
        placedParts.append(range)
        placedAnchors.append(anchor)
        if blocks {
            blocking.append(b)
            blockingParts.append(range)
        }
    }

    /// The collision boxes of placed symbol `i`: its parts, or its box.
    func collisionBoxes(ofPlaced i: Int) -> [SymbolBox] {
        placedParts[i].isEmpty ? [placed[i]] : Array(parts[placedParts[i]])
    }
}

extension MapRenderer {
    /// The unit Mercator point where a point-placed label of feature `f` goes: a point feature's
    /// first point; a line's middle vertex (of its longest part); a polygon's largest ring's
    /// bounding-box centre (cheap and stable; not the pole of inaccessibility).
    static func labelPoint(_ level: GeometryLevel, feature f: Int) -> (x: Double, y: Double)? {
        var best: (x: Double, y: Double)?
        var bestSize = -1.0
        for r in level.rings(ofFeature: f) {
            let range = level.points(ofRing: r)
            guard !range.isEmpty else { continue }
            let flags = level.ringFlags[r]
            if flags & RingFlags.points != 0 {
                if best == nil { best = (level.xy[2 * range.lowerBound], level.xy[2 * range.lowerBound + 1]) }
                continue
            }
            var b = MercatorBox.empty
            for k in range { b.include(x: level.xy[2 * k], y: level.xy[2 * k + 1]) }
            let size = (b.maxX - b.minX) * (b.maxY - b.minY) + (b.maxX - b.minX) + (b.maxY - b.minY)
            guard size > bestSize else { continue }
            bestSize = size
            if flags & RingFlags.polygon != 0 {
                best = ((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2)
            } else {
                let m = range.lowerBound + range.count / 2
                best = (level.xy[2 * m], level.xy[2 * m + 1])
            }
        }
        return best
    }

    /// Places the labels and icons of every symbol layer (see ``SymbolPlacer``) and records what
    /// to draw in ``symbolDraws``, in drawing order. Placement never reads pixels, so it can run
    /// before the layers are drawn, and the drawing can then be split into row bands.
    mutating func placeAllSymbols(_ g: FrameGeometry) {
        syncTiledMemos()
        placer.reset()
        placer.camera = g.transform.state
        symbolDraws.removeAll(keepingCapacity: true)
        let z = g.zoom
        let layers = style.style.layers
        for li in stride(from: layers.count - 1, through: 0, by: -1) {
            let layer = layers[li]
            guard layer.type == .symbol, layer.isVisible(atZoom: z), layerRange?.contains(li) ?? true,
                  let source = layerSource(li) else { continue }
            // Tiled lines cut by tile edges are labelled on their parts chained again (TileStitching).
            let level = tiles.labelLevel(forLayer: li) ?? source.data.level(forZoom: z)
            let alongLine = layer.string(.symbolPlacement, zoom: z) != "point"
            let font = text.font(for: layer.value(.textFont, zoom: z).arrayValue?.compactMap(\.stringValue) ?? [])
            prepareSymbolLayouts(li, layer, source, zoom: z)
            let bearing = g.transform.state.bearing * Double.pi / 180
            let textAlign = layer.string(.textRotationAlignment, zoom: z), iconAlign = layer.string(.iconRotationAlignment, zoom: z)
            // Rotation alignment (Style Specification, `text-rotation-alignment`): `auto` is `map`
            // along lines and `viewport` at points; `map` at a point turns with the map, and
            // `viewport` along a line stays level.
            let textRotatesWithMap = textAlign == "map" || (textAlign == "auto" && alongLine)
            let iconRotatesWithMap = iconAlign == "map" || (iconAlign == "auto" && alongLine)
            // Pitch alignment (`text-pitch-alignment`, `icon-pitch-alignment`): `map` lies on the
            // ground (``GroundFrame``), `viewport` faces the viewer, and `auto` "automatically
            // matches the value of" the rotation alignment. A flat frame draws both alike.
            let textPitch = layer.string(.textPitchAlignment, zoom: z), iconPitch = layer.string(.iconPitchAlignment, zoom: z)
            // Along lines `auto` follows too unless ``autoPitchFollowsRotationAlongLines`` is off.
            let autoFollows = !alongLine || autoPitchFollowsRotationAlongLines
            let textOnGround = g.pitched && (textPitch == "map" || (textPitch == "auto" && autoFollows && textRotatesWithMap))
            let iconOnGround = g.pitched && (iconPitch == "map" || (iconPitch == "auto" && autoFollows && iconRotatesWithMap))
            var frame = SymbolFrame(
                textFollowsLine: textAlign != "viewport" && textAlign != "viewport-glyph",
                iconFollowsLine: iconAlign != "viewport",
                textTurn: !alongLine && textAlign == "map" ? -bearing : 0,
                iconTurn: !alongLine && iconAlign == "map" ? -bearing : 0,
                textTranslation: screenTranslation(layer, .textTranslate, .textTranslateAnchor, g),
                iconTranslation: screenTranslation(layer, .iconTranslate, .iconTranslateAnchor, g),
                spacing: layer.number(.symbolSpacing, zoom: z), lineCenter: layer.string(.symbolPlacement, zoom: z) == "line-center",
                keepUpright: layer.bool(.textKeepUpright, zoom: z), maxAngle: layer.number(.textMaxAngle, zoom: z) * Double.pi / 180,
                iconKeepUpright: layer.bool(.iconKeepUpright, zoom: z),
                edgeTiles: layer.bool(.symbolAvoidEdges, zoom: z) ? tiles.cover(forLayer: li) : [])
            frame.textOnGround = textOnGround; frame.iconOnGround = iconOnGround
            frame.textRotatesWithMap = textRotatesWithMap; frame.iconRotatesWithMap = iconRotatesWithMap
            for copy in g.firstCopy...g.lastCopy {
                let h = g.unitHomography(copy: copy)
                if textOnGround || iconOnGround {
                    var th = h, ih = h
                    th.originX += frame.textTranslation.x; th.originY += frame.textTranslation.y
                    ih.originX += frame.iconTranslation.x; ih.originY += frame.iconTranslation.y
                    frame.textGround = GroundFrame(h: th, worldSize: g.worldSize, near: g.near, far: g.far)
                    frame.iconGround = GroundFrame(h: ih, worldSize: g.worldSize, near: g.near, far: g.far)
                }
                let window = g.queryBox(copy: copy)
                collectFeatures(li, layer, source, g, copy: copy, sortKey: .symbolSortKey)
                var k = 0
                while k < order.count {  // placeSymbol never changes `order`
                    placeSymbol(li, layer, source, level, feature: Int(order[k].feature), h: h, g, alongLine: alongLine,
                                font: font, frame, window: window)
                    k += 1
                }
            }
        }
    }

    /// What a symbol layer's alignment and translate properties say for this frame.
    struct SymbolFrame {
        var textFollowsLine: Bool, iconFollowsLine: Bool
        /// Extra rotation of point labels and icons aligned to the map, radians.
        var textTurn: Double, iconTurn: Double
        var textTranslation: (x: Double, y: Double), iconTranslation: (x: Double, y: Double)
        /// Line placement: `symbol-spacing` (pixels), `line-center`, `text-keep-upright`,
        /// `text-max-angle` (radians).
        var spacing = 250.0, lineCenter = false, keepUpright = true, maxAngle = Double.pi / 4
        /// `icon-keep-upright`: an icon turned with its line may be flipped so it is not upside
        /// down (default false: it points along the line's direction, as a one-way arrow must).
        var iconKeepUpright = false
        /// `symbol-avoid-edges` with a tiled source: the frame's tiles (empty: nothing to avoid).
        var edgeTiles: [TileID] = []
        /// Pitch alignment `map` on a pitched frame: the text / icons lie on the ground, through
        /// ``textGround`` / ``iconGround`` (the world copy's projection, translation included).
        var textOnGround = false, iconOnGround = false
        /// Rotation alignment `map` (or `auto` along a line): on the ground, the layout's x axis
        /// is east (at a point) or the line's direction; else the screen's horizontal.
        var textRotatesWithMap = false, iconRotatesWithMap = false
        var textGround: GroundFrame?, iconGround: GroundFrame?
    }

    private mutating func placeSymbol(_ index: Int, _ layer: StyleLayer, _ source: LoadedSource, _ level: GeometryLevel,
                                      feature f: Int, h: Homography, _ g: FrameGeometry, alongLine: Bool, font: LabelFontID,
                                      _ frame: SymbolFrame, window: MercatorBox) {
        // A point label's anchor does not depend on the layout: reject off-screen candidates
        // before looking the layout up.
        var pointAnchor: ScreenPoint?
        var pointUnit = (x: 0.0, y: 0.0)
        if !alongLine {
            guard let p = MapRenderer.labelPoint(level, feature: f) else { return }
            let w = h.depth(x: p.x, y: p.y)
            guard w >= g.near && w <= g.far else { return }
            let anchor = h.project(p.x, p.y)
            guard isOnScreen(anchor, g) else { return }
            pointAnchor = anchor
            pointUnit = p
        }
        let layout = symbolLayout(index, layer, source, feature: f, zoom: g.zoom, alongLine: alongLine, font: font)
        let icon = layout.iconName.isEmpty ? nil : images[layout.iconName]
        if icon == nil && !layout.iconName.isEmpty { missingImages.report(layout.iconName) }
        guard !layout.label.isEmpty || icon != nil else { return }
        let block = layout.block
        let blockW = Double(block?.size.x ?? 0), blockH = Double(block?.size.y ?? 0)

        // Anchor on screen, and the rotation of the label.
        if let pointAnchor {
            placeAt(index, layer, source, feature: f, g, layout: layout, icon: icon, anchor: pointAnchor, lineAngle: 0, lineDirection: 0,
                    groundDirection: 0, chain: nil,
                    unit: pointUnit, lineAnchor: nil, font: font, frame)
            return
        }
        // Along a line: every anchor of the line in turn (see ``LineLabelAnchor``), the glyphs
        // laid along the projected line when the text follows it (``LineLabelGlyphs``).
        let pixelsPerUnit = WebMercator.worldSize(zoom: g.zoom.rounded(.down)) * pixelRatio
        let iconLength = icon.map { Double($0.width) * layout.iconScale } ?? 0
        let labelLength = max(frame.textFollowsLine || block == nil ? blockW : 0, iconLength)
        let pivotX = Float(-(MapRenderer.anchorOffset(layout.text.anchor, width: blockW, height: blockH).0 + layout.text.offset.x))
        let extent = block.map { LineLabelGlyphs.extent($0, pivotX: pivotX) } ?? (0, 0)
        LineLabelAnchor.anchors(level, feature: f, spacing: frame.spacing / pixelsPerUnit, labelLength: labelLength / pixelsPerUnit,
                                room: labelLength / g.worldSize, em: layout.textSize / pixelsPerUnit, center: frame.lineCenter,
                                window: window, into: &lineAnchorScratch)
        let anchors = lineAnchorScratch
        var path = LineLabelPath()
        swap(&path, &linePathScratch)
        defer { swap(&path, &linePathScratch) }
        var groundPath = LineLabelPath()
        swap(&groundPath, &groundPathScratch)
        defer { swap(&groundPath, &groundPathScratch) }
        let onGround = frame.textOnGround || frame.iconOnGround
        for a in anchors {
            guard path.build(level, a, h: h, near: g.near, far: g.far, reach: max(abs(extent.0), abs(extent.1), 1) + 1),
                  let at = path.point(at: 0), isOnScreen(at.p, g) else { continue }
            var lineAngle = at.angle
            if lineAngle > Double.pi / 2 { lineAngle -= Double.pi } else if lineAngle < -Double.pi / 2 { lineAngle += Double.pi }
            var chain: LineLabelGlyphs?
            // On the ground: the line's direction there (radians clockwise from east).
            var groundDirection = 0.0
            if onGround {
                groundPath.buildOnGround(level, a, worldSize: g.worldSize, reach: max(abs(extent.0), abs(extent.1), iconLength, 1) + 1)
                guard let at = groundPath.point(at: 0) else { continue }
                groundDirection = at.angle
            }
            if let block, frame.textFollowsLine {
                let oy = MapRenderer.anchorOffset(layout.text.anchor, width: blockW, height: blockH).1 + layout.text.offset.y
                let settings = LineLabelGlyphs.Settings(keepUpright: frame.keepUpright, maxAngle: frame.maxAngle,
                                                        angleWindow: 0.6 * Double(layout.pixelSize), rotate: layout.textRotate,
                                                        padding: layout.text.padding)
                if frame.textOnGround, let gf = frame.textGround {
                    guard let laid = layOutOnGround(block, font: font, pixelSize: layout.pixelSize, pivot: SIMD2(pivotX, Float(-oy)),
                                                    path: groundPath, settings, ground: gf, anchor: (a.x, a.y), layerID: layer.id,
                                                    text: layout.label, feature: f) else { continue }
                    chain = laid
                } else {
                guard var laid = layOutAlongPath(block, font: font, pixelSize: layout.pixelSize, pivot: SIMD2(pivotX, Float(-oy)),
                                                 path: path, settings, layerID: layer.id, text: layout.label, feature: f) else { continue }
                laid.translate(by: frame.textTranslation)
                chain = laid
                }
            }
            placeAt(index, layer, source, feature: f, g, layout: layout, icon: icon, anchor: at.p, lineAngle: lineAngle,
                    lineDirection: at.angle, groundDirection: groundDirection, chain: chain,
                    unit: (a.x, a.y), lineAnchor: SIMD2(a.x, a.y), font: font, frame)
        }
    }

    /// Places one symbol of feature `f` at screen `anchor`: a point label, or one repeat of a line
    /// label (`lineAngle` the line's direction there, kept within ±90°, `lineDirection` the same not
    /// kept upright; `chain` its glyphs laid
    /// along the line, nil when the text stays level; `lineAnchor` its point of the line, unit
    /// Mercator). `unit` is the anchor in unit Mercator (for `symbol-avoid-edges`).
    private mutating func placeAt(_ index: Int, _ layer: StyleLayer, _ source: LoadedSource, feature f: Int, _ g: FrameGeometry,
                                  layout: SymbolLayout, icon: PixelBuffer?, anchor pointOnScreen: ScreenPoint, lineAngle: Double,
                                  lineDirection: Double, groundDirection: Double, chain: LineLabelGlyphs?, unit: (x: Double, y: Double),
                                  lineAnchor unitAnchor: SIMD2<Double>?,
                                  font: LabelFontID, _ frame: SymbolFrame) {
        let alongLine = unitAnchor != nil
        // Variable anchors (``SymbolAnchorOffsets``): each candidate in order, the first whose
        // text fits (with its icon, unless that is optional) wins. With `text-allow-overlap`
        // every anchor is first tried without overlapping, then the first one overlapping.
        let variants = alongLine ? [] : layout.variants
        let textParts = chain?.boxes ?? []
        var best: SymbolCandidate?
        if variants.isEmpty {
            best = symbolCandidate(layer, feature: f, g, layout: layout, icon: icon, anchor: pointOnScreen, lineAngle: lineAngle,
                                   lineDirection: lineDirection, groundDirection: groundDirection, chain: chain, alongLine: alongLine, unit: unit, frame,
                                   text: (layout.text.anchor, layout.text.offset, layout.block), allowTextOverlap: layout.text.allowOverlap)
        } else {
            let order = variantOrder(index, layout: layout, unit: unit)
            let passes = layout.text.allowOverlap ? 2 : 1
            search: for pass in 0..<passes {
                for k in (pass == 0 ? order : Array(order.prefix(1))) {
                    let v = variants[k]
                    guard var c = symbolCandidate(layer, feature: f, g, layout: layout, icon: icon, anchor: pointOnScreen, lineAngle: 0,
                                                  lineDirection: 0, groundDirection: 0, chain: nil, alongLine: false, unit: unit, frame, text: (v.anchor, v.offset, v.block),
                                                  allowTextOverlap: pass == 1) else { continue }
                    c.variant = k
                    if best == nil { best = c }
                    if c.textOK && (c.iconOK || c.iconBox == nil || layout.icon.optional) { best = c; break search }
                }
            }
            // None fits: the first candidate, to which the both-or-neither rule below applies.
        }
        guard let chosen = best else { return }
        var textOK = chosen.textOK, iconOK = chosen.iconOK
        let textBox = chosen.textBox, iconBox = chosen.iconBox, block = chosen.block
        let iconCenter = chosen.iconCenter, iconRotation = chosen.iconRotation
        let iconScale = chosen.iconScale
        if textBox != nil && iconBox != nil {
            // Both or neither, unless the other one is optional.
            if !(textOK && iconOK) {
                if iconOK && layout.text.optional {
                    textOK = false
                } else if textOK && layout.icon.optional {
                    iconOK = false
                } else {
                    textOK = false; iconOK = false
                }
            }
        }
        // Fading through a frame sequence (``SymbolHistory``): a symbol that is not placed may
        // still be drawn, fading out, and one just placed fades in.
        var textFade = textOK ? 1.0 : 0, iconFade = iconOK ? 1.0 : 0
        if symbolHistory != nil {
            let key = unitAnchor.map { (x: $0.x, y: $0.y) } ?? unit
            if textBox != nil {
                textFade = symbolHistory!.opacity(SymbolKey(layer: index, icon: false, unit: key, label: layout.label), placed: textOK,
                                                  variant: chosen.variant ?? -1)
            }
            if iconBox != nil {
                iconFade = symbolHistory!.opacity(SymbolKey(layer: index, icon: true, unit: key, label: ""), placed: iconOK)
            }
        }
        let anchor = chosen.textAnchor, c = chosen.cos, s = chosen.sin, ox = chosen.ox, oy = chosen.oy
        // The stretched icon is made for the chosen candidate only.
        let fitted = iconFade > 0 ? icon.flatMap { icon in
            chosen.fitSize.map { IconTextFit.stretched(icon, width: $0.w, height: $0.h, info: imageInfo[layout.iconName], scale: iconScale) }
        } : nil
        // Paint is read for the drawn symbols only.
        guard textFade > 0 || iconFade > 0 else { return }
        let z = g.zoom
        let ctx = source.context(feature: f, states: featureStates)
        if let b = iconBox, iconFade > 0 {
            if iconOK { placer.add(b, blocks: !layer.bool(.iconIgnorePlacement, zoom: z, feature: ctx)) }
            if let icon {
                let opacity = layer.number(.iconOpacity, zoom: z, feature: ctx) * iconFade
                let image = fitted ?? icon, scale = fitted == nil ? iconScale : 1
                if imageInfo[layout.iconName]?.sdf == true {
                    // An SDF icon: its field (cached per image unless stretched), tinted.
                    let field: GlyphDistanceField
                    if fitted == nil, let known = iconFields[layout.iconName] {
                        field = known
                    } else {
                        field = GlyphDistanceField(sdfIcon: image)
                        if fitted == nil { iconFields[layout.iconName] = field }
                    }
                    let color = pixelColor(layer.color(.iconColor, zoom: z, feature: ctx), opacity)
                    let haloColor = pixelColor(layer.color(.iconHaloColor, zoom: z, feature: ctx), opacity)
                    let halo = layer.number(.iconHaloWidth, zoom: z, feature: ctx)
                    let blur = layer.number(.iconHaloBlur, zoom: z, feature: ctx)
                    if let m = chosen.iconLinear {
                        // One "glyph" whose em is 48 image pixels (as `.sdfIcon` draws it), on the ground.
                        let em = Double(GlyphDistanceField.iconTexelsPerEm) * scale
                        let glyph = PlacedGlyph(field: field, pixelSize: Float(em),
                                                offset: (-Double(image.width) * scale / 2, -Double(image.height) * scale / 2),
                                                origin: iconCenter, cos: 1, sin: 0, linear: m)
                        symbolDraws.append(.glyphs([glyph], color: color, halo: halo, haloBlur: blur, haloColor: haloColor))
                    } else {
                    symbolDraws.append(.sdfIcon(field, size: (Double(image.width), Double(image.height)), center: iconCenter,
                                                scale: scale, rotation: iconRotation, color: color, halo: halo, haloBlur: blur,
                                                haloColor: haloColor))
                    }
                } else if let m = chosen.iconLinear {
                    let linear = Linear2(a: m.a * scale, b: m.b * scale, c: m.c * scale, d: m.d * scale)
                    symbolDraws.append(.groundIcon(image, center: iconCenter, linear: linear, opacity: opacity))
                } else {
                    symbolDraws.append(.icon(image, center: iconCenter, scale: scale, rotation: iconRotation, opacity: opacity))
                }
            }
        }
        if let b = textBox, textFade > 0, let block {
            if textOK {
                placer.add(b, parts: textParts, anchor: unitAnchor, blocks: !layer.bool(.textIgnorePlacement, zoom: z, feature: ctx))
            }
            let opacity = layer.number(.textOpacity, zoom: z, feature: ctx) * textFade
            let color = pixelColor(layer.color(.textColor, zoom: z, feature: ctx), opacity)
            let haloColor = pixelColor(layer.color(.textHaloColor, zoom: z, feature: ctx), opacity)
            let halo = layer.number(.textHaloWidth, zoom: z, feature: ctx)
            let blur = layer.number(.textHaloBlur, zoom: z, feature: ctx)
            if let chain {
                symbolDraws.append(.glyphs(chain.glyphs, color: color, halo: halo, haloBlur: blur, haloColor: haloColor))
                return
            }
            if let theta = chosen.groundTextAngle, let gf = frame.textGround {
                let glyphs = groundGlyphs(block, font: font, pixelSize: layout.pixelSize, ox: ox, oy: oy, unit: unit, angle: theta, gf)
                symbolDraws.append(.glyphs(glyphs, color: color, halo: halo, haloBlur: blur, haloColor: haloColor))
                return
            }
            // Pivot: the block point that lands on the anchor.
            let pivot = SIMD2<Float>(Float(-ox), Float(-oy))
            symbolDraws.append(.text(block, font: font, pixelSize: layout.pixelSize, origin: anchor, pivot: pivot, cos: c, sin: s,
                                     color: color, halo: halo, haloBlur: blur, haloColor: haloColor))
        }
    }

    /// One way to place a symbol: its text and icon boxes for one text anchor and offset, and
    /// whether each passes collision (before the both-or-neither rule).
    struct SymbolCandidate {
        var textBox: SymbolBox?, iconBox: SymbolBox?
        var block: TextBlock?
        var textOK = false, iconOK = false
        /// Where the text goes: the anchor on screen (translation included), the rotation, and the
        /// block's top-left corner relative to the anchor before rotation.
        var textAnchor: ScreenPoint, cos: Double, sin: Double, ox: Double, oy: Double
        var iconCenter: ScreenPoint, iconRotation: Double, iconScale: Double
        /// With `icon-text-fit`: the stretched icon's size in frame pixels.
        var fitSize: (w: Int, h: Int)?
        /// The index of the variable-anchor candidate (nil without variable anchors).
        var variant: Int?
        /// Lying on the ground: the text's axes (radians clockwise from east), and the icon's
        /// map from frame pixels to the screen (``GroundFrame``); nil when facing the viewer.
        var groundTextAngle: Double?
        var iconLinear: Linear2?
    }

    /// The boxes of a symbol with its text at `text` (anchor keyword, offset in pixels, block), and
    /// their collision verdicts; nil when `symbol-avoid-edges` keeps it out.
    private func symbolCandidate(_ layer: StyleLayer, feature f: Int, _ g: FrameGeometry, layout: SymbolLayout, icon: PixelBuffer?,
                                 anchor pointOnScreen: ScreenPoint, lineAngle: Double, lineDirection: Double, groundDirection: Double,
                                 chain: LineLabelGlyphs?,
                                 alongLine: Bool,
                                 unit: (x: Double, y: Double), _ frame: SymbolFrame,
                                 text: (anchor: String, offset: (x: Double, y: Double), block: TextBlock?),
                                 allowTextOverlap: Bool) -> SymbolCandidate? {
        let block = text.block
        let blockW = Double(block?.size.x ?? 0), blockH = Double(block?.size.y ?? 0)
        var anchor = pointOnScreen
        // A level label (a point, or a line label with viewport alignment) turns by text-rotate.
        let angle = frame.textTurn + layout.textRotate + (alongLine && frame.textFollowsLine ? lineAngle : 0)
        let iconAnchor = ScreenPoint(x: anchor.x + frame.iconTranslation.x, y: anchor.y + frame.iconTranslation.y)
        anchor.x += frame.textTranslation.x; anchor.y += frame.textTranslation.y

        // Text box relative to the anchor (before rotation): text-anchor then text-offset (ems).
        var (ox, oy) = MapRenderer.anchorOffset(text.anchor, width: blockW, height: blockH)
        ox += text.offset.x; oy += text.offset.y
        let c = mapCos(angle), s = mapSin(angle)
        var textBox: SymbolBox?
        if let chain {
            textBox = chain.bounds
        } else if block != nil {
            textBox = MapRenderer.rotatedBox(ox, oy, blockW, blockH, anchor, c, s, padding: layout.text.padding, layer.id,
                                             layout.label)
            textBox?.featureIndex = f
        }
        // Lying on the ground (``GroundFrame``): the block's box projected, axes east (map
        // rotation) or along the screen's horizontal there (viewport rotation), then text-rotate.
        var groundTextAngle: Double?
        if chain == nil, block != nil, frame.textOnGround, let gf = frame.textGround {
            let theta = (frame.textRotatesWithMap && !alongLine ? 0 : gf.screenLevelAngle(unit.x, unit.y)) + layout.textRotate
            guard var box = gf.screenBox(unit, ox, oy, ox + blockW, oy + blockH, angle: mapCos(theta), mapSin(theta),
                                         padding: layout.text.padding, layerID: layer.id, text: layout.label) else { return nil }
            box.featureIndex = f
            textBox = box
            groundTextAngle = theta
        }
        var iconBox: SymbolBox?
        // Image pixels → frame pixels: icon-size × device pixels per point ÷ image pixels per point.
        let iconScale = icon == nil ? layout.iconScale
            : layout.iconScale * pixelRatio / (imageInfo[layout.iconName]?.pixelRatio ?? 1)
        // Along a line with map alignment the icon turns with the line: its direction as drawn
        // (from the line's first point to its last), kept within ±90° only with icon-keep-upright.
        let iconLine = frame.iconKeepUpright ? lineAngle : lineDirection
        let iconRotate = layout.iconRotate + frame.iconTurn + (alongLine && frame.iconFollowsLine ? iconLine : 0)
        var iconCenter = iconAnchor
        var fitSize: (w: Int, h: Int)?
        /// With `icon-text-fit`: the stretched icon's centre relative to the text anchor, in the text's axes.
        var fitCentre = (x: 0.0, y: 0.0)
        var iconRotation = iconRotate
        if let icon {
            var iw = Double(icon.width) * iconScale, ih = Double(icon.height) * iconScale
            var (ix, iy) = MapRenderer.anchorOffset(layout.icon.anchor, width: iw, height: ih)
            ix += layout.icon.offset.x; iy += layout.icon.offset.y
            iconCenter = ScreenPoint(x: iconAnchor.x + ix + iw / 2, y: iconAnchor.y + iy + ih / 2)
            if layout.iconTextFit != "none", block != nil {
                // Stretched around the label's box, turning with the label.
                let info = imageInfo[layout.iconName]
                let r = IconTextFit.rectangle(fit: layout.iconTextFit, padding: layout.iconTextFitPadding,
                                              text: (ox, oy, blockW, blockH), own: (ix, iy, iw, ih),
                                              image: (icon.width, icon.height), info: info, scale: iconScale)
                let pw = max(1, Int(r.w.rounded())), ph = max(1, Int(r.h.rounded()))
                fitSize = (pw, ph)
                iw = Double(pw); ih = Double(ph)
                let cx = r.x + r.w / 2, cy = r.y + r.h / 2
                fitCentre = (cx, cy)
                iconCenter = ScreenPoint(x: anchor.x + c * cx - s * cy, y: anchor.y + s * cx + c * cy)
                iconRotation = angle
            }
            let ext = iconRotation == 0 ? (iw / 2, ih / 2) : {
                let cr = abs(mapCos(iconRotation)), sr = abs(mapSin(iconRotation))
                return (iw / 2 * cr + ih / 2 * sr, iw / 2 * sr + ih / 2 * cr)
            }()
            let pad = layout.icon.padding
            iconBox = SymbolBox(minX: iconCenter.x - ext.0 - pad, minY: iconCenter.y - ext.1 - pad,
                                maxX: iconCenter.x + ext.0 + pad, maxY: iconCenter.y + ext.1 + pad, layerID: layer.id, text: "",
                                featureIndex: f)
        }
        // An icon lying on the ground (not one stretched around its text): its offset and image
        // on the ground, axes east, along the line, or along the screen's horizontal.
        var iconLinear: Linear2?
        if let fit = fitSize, frame.iconOnGround, let theta = groundTextAngle, let gf = frame.textGround {
            // Stretched around a label lying on the ground: on the ground with it, in its axes.
            let ct = mapCos(theta), st = mapSin(theta)
            let centre = gf.ground(unit, fitCentre.x, fitCentre.y, angle: ct, st)
            let hw = Double(fit.w) / 2, hh = Double(fit.h) / 2
            guard let patch = gf.patch(at: centre, angle: ct, st),
                  var box = gf.screenBox(centre, -hw, -hh, hw, hh, angle: ct, st, padding: layout.icon.padding, layerID: layer.id,
                                         text: "") else { return nil }
            box.featureIndex = f
            iconBox = box
            iconCenter = patch.center
            iconLinear = patch.linear
        } else if let icon, frame.iconOnGround, fitSize == nil, let gf = frame.iconGround {
            let iw = Double(icon.width) * iconScale, ih = Double(icon.height) * iconScale
            var (ix, iy) = MapRenderer.anchorOffset(layout.icon.anchor, width: iw, height: ih)
            ix += layout.icon.offset.x; iy += layout.icon.offset.y
            let line = frame.iconKeepUpright && lineAngle != lineDirection ? groundDirection + Double.pi : groundDirection
            let base = frame.iconRotatesWithMap ? (alongLine ? line : 0) : gf.screenLevelAngle(unit.x, unit.y)
            let centre = gf.ground(unit, ix + iw / 2, iy + ih / 2, angle: mapCos(base), mapSin(base))
            let theta = base + layout.iconRotate
            let ct = mapCos(theta), st = mapSin(theta)
            guard let patch = gf.patch(at: centre, angle: ct, st),
                  var box = gf.screenBox(centre, -iw / 2, -ih / 2, iw / 2, ih / 2, angle: ct, st, padding: layout.icon.padding,
                                         layerID: layer.id, text: "") else { return nil }
            box.featureIndex = f
            iconBox = box
            iconCenter = patch.center
            iconLinear = patch.linear
        }
        // symbol-avoid-edges: inside the anchor's tile, or not at all.
        if !frame.edgeTiles.isEmpty {
            let boxes = [textBox, iconBox].compactMap { $0 }
            guard MapRenderer.isInsideTile(boxes, anchor: unit, screenAnchor: pointOnScreen, tiles: frame.edgeTiles, g.transform) else {
                return nil
            }
        }
        // Collision.
        let textOK = textBox.map { allowTextOverlap || placer.isFree($0, parts: chain?.boxes ?? []) } ?? false
        let iconOK = iconBox.map { layout.icon.allowOverlap || placer.isFree($0) } ?? false
        return SymbolCandidate(textBox: textBox, iconBox: iconBox, block: block, textOK: textOK, iconOK: iconOK, textAnchor: anchor,
                               cos: c, sin: s, ox: ox, oy: oy, iconCenter: iconCenter, iconRotation: iconRotation, iconScale: iconScale,
                               fitSize: fitSize, groundTextAngle: groundTextAngle, iconLinear: iconLinear)
    }

    /// The glyphs of `block` lying on the ground, its top-left corner `(ox, oy)` pixels from the
    /// unit anchor along axes at `angle` (``GroundFrame``): each glyph drawn through the ground
    /// projection's derivative at the centre of its ink; glyphs outside the depth strip are left out.
    mutating func groundGlyphs(_ block: TextBlock, font: LabelFontID, pixelSize: Float, ox: Double, oy: Double,
                               unit: (x: Double, y: Double), angle: Double, _ gf: GroundFrame) -> [PlacedGlyph] {
        var out: [PlacedGlyph] = []
        let c = mapCos(angle), s = mapSin(angle)
        for line in block.lines {
            for glyph in line.glyphs {
                guard let field = text.field(glyph.glyph, font: font) else { continue }
                let dx = Double(glyph.position.x) + ox, dy = Double(glyph.position.y) + oy
                // The ink's centre in glyph pixels (sample = glyph · k − (fieldOrigin + 0.5)).
                let k = Double(field.texelsPerEm) / Double(pixelSize)
                let cx = dx + (Double(field.inkMin.x + field.inkMax.x) / 2 + Double(field.originX) + 0.5) / k
                let cy = dy + (Double(field.inkMin.y + field.inkMax.y) / 2 + Double(field.originY) + 0.5) / k
                guard let patch = gf.patch(at: gf.ground(unit, cx, cy, angle: c, s), angle: c, s) else { continue }
                out.append(PlacedGlyph(field: field, pixelSize: pixelSize, offset: (dx - cx, dy - cy), origin: patch.center,
                                       cos: 1, sin: 0, linear: patch.linear))
            }
        }
        return out
    }

    /// Draws placed symbols (``symbolDraws``) into this renderer's rows (its painter's band).
    /// Every pixel is computed from the symbol alone, so bands give the pixels of one whole frame.
    mutating func drawSymbols(_ draws: [SymbolDraw], _ view: PixelBufferView) {
        for draw in draws {
            switch draw {
            case let .icon(image, center, scale, rotation, opacity):
                drawImage(image, center: center, scale: scale, rotation: rotation, opacity: opacity, rows: painter.rows, view)
            case let .groundIcon(image, center, linear, opacity):
                drawImage(image, center: center, linear: linear, opacity: opacity, rows: painter.rows, view)
            case let .sdfIcon(field, size, center, scale, rotation, color, halo, blur, haloColor):
                // One "glyph" whose em is 48 image pixels, centred on `center` (GlyphFieldPainter's mapping).
                let em = Double(GlyphDistanceField.iconTexelsPerEm) * scale
                text.glyphPainter.glyphs.append(PlacedGlyph(field: field, pixelSize: Float(em),
                                                            offset: (-size.w * scale / 2, -size.h * scale / 2), origin: center,
                                                            cos: mapCos(rotation), sin: mapSin(rotation)))
                text.glyphPainter.draw(color: color, halo: halo, haloBlur: blur, haloColor: haloColor, clip: painter.rowRect,
                                       into: view)
            case let .glyphs(glyphs, color, halo, blur, haloColor):
                text.glyphPainter.glyphs.append(contentsOf: glyphs)
                text.drawPlacedGlyphs(color: color, halo: halo, haloBlur: blur, haloColor: haloColor, painter: painter, view: view)
            case let .text(block, font, px, origin, pivot, c, s, color, halo, blur, haloColor):
                text.appendBlock(block, font: font, pixelSize: px, origin: origin, pivot: pivot, cos: c, sin: s)
                text.drawPlacedGlyphs(color: color, halo: halo, haloBlur: blur, haloColor: haloColor, painter: painter, view: view)
            }
        }
    }

    /// True when a label anchored at `p` may be placed: inside the frame and at least 4 px below
    /// the horizon.
    func isOnScreen(_ p: ScreenPoint, _ g: FrameGeometry) -> Bool {
        p.x >= 0 && p.y >= 0 && p.x <= Double(width) && p.y <= Double(height) && p.y > g.horizonY + 4
    }

    /// Offset of a `width × height` box's top-left corner from the anchor for a Mapbox anchor
    /// keyword (`center`, `left`, `top-right`, …): the named side or corner sits on the anchor.
    static func anchorOffset(_ anchor: String, width w: Double, height h: Double) -> (Double, Double) {
        var x = -w / 2, y = -h / 2
        // Exact keywords (the property only admits these): cheaper than substring searches.
        switch anchor {
        case "left", "top-left", "bottom-left": x = 0
        case "right", "top-right", "bottom-right": x = -w
        default: break
        }
        switch anchor {
        case "top", "top-left", "top-right": y = 0
        case "bottom", "bottom-left", "bottom-right": y = -h
        default: break
        }
        return (x, y)
    }

    /// The axis-aligned box around the box `[ox, ox + w] × [oy, oy + h]` rotated by (c, s) about the
    /// anchor and moved to it, grown by `padding`.
    static func rotatedBox(_ ox: Double, _ oy: Double, _ w: Double, _ h: Double, _ anchor: ScreenPoint,
                           _ c: Double, _ s: Double, padding: Double, _ layerID: String, _ text: String) -> SymbolBox {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(ox, oy), (ox + w, oy), (ox, oy + h), (ox + w, oy + h)] {
            let rx = anchor.x + c * x - s * y, ry = anchor.y + s * x + c * y
            minX = min(minX, rx); maxX = max(maxX, rx); minY = min(minY, ry); maxY = max(maxY, ry)
        }
        return SymbolBox(minX: minX - padding, minY: minY - padding, maxX: maxX + padding, maxY: maxY + padding,
                         layerID: layerID, text: text)
    }

    /// Draws `image` centred at `center` through `linear` (image pixels from its centre → screen
    /// pixels; its determinant is not near 0), with bilinear sampling and premultiplied source-over.
    func drawImage(_ image: PixelBuffer, center: ScreenPoint, linear m: Linear2, opacity: Double, rows: Range<Int>? = nil,
                   _ view: PixelBufferView) {
        let det = m.determinant
        guard det.isFinite, abs(det) > 1e-9, image.width > 0, image.height > 0, opacity > 0 else { return }
        let hw = Double(image.width) / 2, hh = Double(image.height) / 2
        let ex = hw * abs(m.a) + hh * abs(m.b), ey = hw * abs(m.c) + hh * abs(m.d)
        let x0 = max(0, Int(max(-1e9, center.x - ex).rounded(.down))), x1 = min(view.width, Int(min(1e9, center.x + ex).rounded(.up)))
        let y0 = max(rows?.lowerBound ?? 0, Int(max(-1e9, center.y - ey).rounded(.down)))
        let y1 = min(rows?.upperBound ?? view.height, view.height, Int(min(1e9, center.y + ey).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        let i00 = m.d / det, i01 = -m.b / det, i10 = -m.c / det, i11 = m.a / det
        sampleImage(image, center: center, columns: x0..<x1, rows: y0..<y1, opacity: opacity, view) { dx, dy in
            (i00 * dx + i01 * dy + hw - 0.5, i10 * dx + i11 * dy + hh - 0.5)
        }
    }

    /// Draws `image` centred at `center`, scaled and rotated (radians, clockwise on screen), with
    /// bilinear sampling and premultiplied source-over.
    func drawImage(_ image: PixelBuffer, center: ScreenPoint, scale: Double, rotation: Double, opacity: Double,
                   rows: Range<Int>? = nil, _ view: PixelBufferView) {
        guard scale > 0, image.width > 0, image.height > 0, opacity > 0 else { return }
        let c = mapCos(rotation), s = mapSin(rotation)
        let hw = Double(image.width) * scale / 2, hh = Double(image.height) * scale / 2
        let ex = hw * abs(c) + hh * abs(s), ey = hw * abs(s) + hh * abs(c)
        let x0 = max(0, Int((center.x - ex).rounded(.down))), x1 = min(view.width, Int((center.x + ex).rounded(.up)))
        let y0 = max(rows?.lowerBound ?? 0, Int((center.y - ey).rounded(.down)))
        let y1 = min(rows?.upperBound ?? view.height, view.height, Int((center.y + ey).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        let iw = Double(image.width), ih = Double(image.height)
        sampleImage(image, center: center, columns: x0..<x1, rows: y0..<y1, opacity: opacity, view) { dx, dy in
            ((c * dx + s * dy) / scale + iw / 2 - 0.5, (-s * dx + c * dy) / scale + ih / 2 - 0.5)
        }
    }

    /// The pixels `columns × rows` of `view` take `image` bilinearly (premultiplied source-over,
    /// × `opacity`), where `toImage` maps a pixel centre's offset from `center` to image pixels
    /// (pixel centres at k + 0.5 … sampled at u, v with texel k at k); outside the image, clear.
    @inline(__always)
    private func sampleImage(_ image: PixelBuffer, center: ScreenPoint, columns: Range<Int>, rows: Range<Int>, opacity: Double,
                             _ view: PixelBufferView, toImage: (Double, Double) -> (u: Double, v: Double)) {
        let alpha = UInt32(min(1, opacity) * 256)
        let iw = image.width, ih = image.height
        image.pixels.withUnsafeBufferPointer { src in
            for y in rows {
                let row = view.row(y)
                for x in columns {
                    let (u, v) = toImage(Double(x) + 0.5 - center.x, Double(y) + 0.5 - center.y)
                    guard u > -1 && v > -1 && u < Double(iw) && v < Double(ih) else { continue }
                    let ui = Int(u.rounded(.down)), vi = Int(v.rounded(.down))
                    let fu = UInt32((u - Double(ui)) * 256), fv = UInt32((v - Double(vi)) * 256)
                    @inline(__always) func texel(_ i: Int, _ j: Int) -> UInt32 {
                        (i >= 0 && j >= 0 && i < iw && j < ih) ? src[j * iw + i] : 0
                    }
                    let p = bilinear(texel(ui, vi), texel(ui + 1, vi), texel(ui, vi + 1), texel(ui + 1, vi + 1), fu, fv)
                    let q = alpha >= 256 ? p : scaleAll(p, alpha)
                    let a = q >> 24
                    guard a != 0 else { continue }
                    row[x] = q &+ PixelBlend.scale(row[x], by: 255 &- a)
                }
            }
        }
    }
}

/// A placed label or icon, as recorded by ``MapRenderer/placeSymbols(_:)`` for drawing.
enum SymbolDraw {
    /// An image centred at `center` (pixels), scaled, rotated (radians, clockwise on screen).
    case icon(PixelBuffer, center: ScreenPoint, scale: Double, rotation: Double, opacity: Double)
    /// An image lying on the ground: an offset of image pixels from its centre goes to
    /// `center + linear · offset` on screen (``GroundFrame``).
    case groundIcon(PixelBuffer, center: ScreenPoint, linear: Linear2, opacity: Double)
    /// An SDF icon of `size` image pixels: its field drawn `scale` frame pixels per image pixel,
    /// tinted `color` over a `halo`-px halo (`icon-color`, `icon-halo-*`; opacity already applied).
    case sdfIcon(GlyphDistanceField, size: (w: Double, h: Double), center: ScreenPoint, scale: Double, rotation: Double,
                 color: Color, halo: Double, haloBlur: Double, haloColor: Color)
    /// A label laid along a line, glyph by glyph (``LineLabelGlyphs``).
    case glyphs([PlacedGlyph], color: Color, halo: Double, haloBlur: Double, haloColor: Color)
    /// A laid-out text block whose point `pivot` lands on `origin`, rotated by (`cos`, `sin`).
    case text(TextBlock, font: LabelFontID, pixelSize: Float, origin: ScreenPoint, pivot: SIMD2<Float>, cos: Double, sin: Double,
              color: Color, halo: Double, haloBlur: Double, haloColor: Color)
}

/// Each channel of a premultiplied pixel × `f` / 256.
@inline(__always)
func scaleAll(_ p: UInt32, _ f: UInt32) -> UInt32 {
    let rb = (((p & 0x00FF_00FF) &* f) >> 8) & 0x00FF_00FF  // parenthesised: >> binds tighter than &*
    let ag = (((p >> 8) & 0x00FF_00FF) &* f) & 0xFF00_FF00
    return rb | ag
}

/// Bilinear mix of four premultiplied pixels with weights in 1/256.
@inline(__always)
func bilinear(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ fu: UInt32, _ fv: UInt32) -> UInt32 {
    func lerp(_ p: UInt32, _ q: UInt32, _ t: UInt32) -> UInt32 { scaleAll(p, 256 - t) &+ scaleAll(q, t) }
    return lerp(lerp(a, b, fu), lerp(c, d, fu), fv)
}
