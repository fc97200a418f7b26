import FlybyCore
import FlybyData

/// A label laid out glyph by glyph along a projected line (`symbol-placement` `line` /
/// `line-center` with `text-rotation-alignment` `map` or `auto`; MapLibre Style Specification):
/// each glyph's centre sits on the path at its advance from the anchor and the glyph is turned to
/// the path's direction there (plus `text-rotate`). Screen pixels, y down; angles in radians,
/// clockwise on screen.
struct LineLabelGlyphs {
    /// The glyphs, ready for ``GlyphFieldPainter`` (spaces and glyphs without ink left out).
    var glyphs: [PlacedGlyph] = []
    /// One collision box per glyph cell (its advance × the line height, turned, then the
    /// axis-aligned box around it, grown by `text-padding`), and the box around them all.
    var boxes: [SymbolBox] = []
    var bounds = SymbolBox(minX: 0, minY: 0, maxX: 0, maxY: 0, layerID: "", text: "")
    /// The direction of the path at the anchor, radians, turned by half a turn when the label
    /// was flipped to stay upright (for icons placed with the label).
    var angle = 0.0

    /// What the layout needs besides the text and the path.
    struct Settings {
        /// `text-keep-upright`: a label whose reading direction would point left (its last glyph
        /// left of its first) is laid out along the path the other way, so it reads left to right.
        var keepUpright: Bool
        /// `text-max-angle` in radians, and the stretch of path over which turns are added up
        /// (three fifths of the text size, pixels).
        var maxAngle: Double
        var angleWindow: Double
        /// `text-rotate` in radians, added to each glyph's angle.
        var rotate: Double
        var padding: Double
    }

    /// The extent of `block` along the path, pixels from the anchor: the first glyph's pen
    /// position and the last one's advance end, relative to `pivot` (the block point on the anchor).
    static func extent(_ block: TextBlock, pivotX: Float) -> (lo: Double, hi: Double) {
        var lo = Double.infinity, hi = -Double.infinity
        for line in block.lines {
            guard let first = line.glyphs.first, let last = line.glyphs.last else { continue }
            lo = min(lo, Double(first.position.x - pivotX))
            hi = max(hi, Double(last.position.x + last.advance - pivotX))
        }
        return lo <= hi ? (lo, hi) : (0, 0)
    }
}

extension MapRenderer {
    /// Lays `block` (drawn at `pixelSize`, with `font`) along `path` with the block point `pivot`
    /// on the anchor; nil when the path is too short on either side or bends more than
    /// `text-max-angle` under the label (see ``LineLabelPath/largestTurn(from:to:window:)``).
    mutating func layOutAlongPath(_ block: TextBlock, font: LabelFontID, pixelSize: Float, pivot: SIMD2<Float>,
                                  path: LineLabelPath, _ settings: LineLabelGlyphs.Settings, layerID: String, text label: String,
                                  feature f: Int) -> LineLabelGlyphs? {
        let (lo, hi) = LineLabelGlyphs.extent(block, pivotX: pivot.x)
        // Which way the label runs along the path: +1 with the part's direction, −1 against it.
        var sense = 1.0
        if settings.keepUpright {
            let a = path.point(at: max(lo, -path.backwardLength)), b = path.point(at: min(hi, path.forwardLength))
            if let a, let b, abs(b.p.x - a.p.x) > 1e-6 {
                if b.p.x < a.p.x { sense = -1 }
            } else if let at = path.point(at: 0), mapCos(at.angle) < 0 {
                sense = -1
            }
        }
        return layOutGlyphs(block, font: font, pivot: pivot, path: path, settings, sense: sense, lo: lo, hi: hi,
                            layerID: layerID, text: label, feature: f) { glyph, field, half, cy, at, c, sn in
            let placed = field.map { PlacedGlyph(field: $0, pixelSize: pixelSize, offset: (-half, Double(glyph.position.y - pivot.y)),
                                                 origin: at.p, cos: c, sin: sn) }
            guard half > 0 else { return (placed, nil) }
            let centre = (x: at.p.x - sn * cy, y: at.p.y + c * cy)
            let ex = half * abs(c) + lineHeightOf(block) / 2 * abs(sn) + settings.padding
            let ey = half * abs(sn) + lineHeightOf(block) / 2 * abs(c) + settings.padding
            return (placed, SymbolBox(minX: centre.x - ex, minY: centre.y - ey, maxX: centre.x + ex, maxY: centre.y + ey,
                                      layerID: layerID, text: label))
        }
    }

    /// The walk both layouts share, once the label's `sense` along `path` is chosen (+1 with the
    /// part's direction): nil when the path is too short on either side of `lo…hi` or bends more
    /// than `text-max-angle` under it. Each glyph, with its field, half advance, line centre `cy`
    /// (relative to the pivot), its point on the path and the axes there (`c`, `sn`, `text-rotate`
    /// included), goes to `place`, which gives its drawn glyph and its collision cell (nil for an
    /// empty cell), or nil to refuse the label.
    private mutating func layOutGlyphs(_ block: TextBlock, font: LabelFontID, pivot: SIMD2<Float>, path: LineLabelPath,
                                       _ settings: LineLabelGlyphs.Settings, sense: Double, lo: Double, hi: Double,
                                       layerID: String, text label: String, feature f: Int,
                                       place: (PositionedGlyph, GlyphDistanceField?, Double, Double, (p: ScreenPoint, angle: Double),
                                               Double, Double) -> (PlacedGlyph?, SymbolBox?)?) -> LineLabelGlyphs? {
        let (from, to) = sense > 0 ? (lo, hi) : (-hi, -lo)
        guard from >= -path.backwardLength - 1e-9, to <= path.forwardLength + 1e-9 else { return nil }
        if path.largestTurn(from: from, to: to, window: settings.angleWindow) > settings.maxAngle { return nil }

        var out = LineLabelGlyphs()
        out.angle = (path.point(at: 0)?.angle ?? 0) + (sense < 0 ? Double.pi : 0)
        let lineHeight = lineHeightOf(block)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (i, line) in block.lines.enumerated() {
            // The vertical centre of the line's box, relative to the pivot.
            let cy = Double(i) * lineHeight + lineHeight / 2 - Double(pivot.y)
            for glyph in line.glyphs {
                let half = Double(glyph.advance) / 2
                let s = Double(glyph.position.x - pivot.x) + half
                guard let at = path.point(at: sense * s) else { return nil }
                let angle = at.angle + (sense < 0 ? Double.pi : 0) + settings.rotate
                guard let (placed, cell) = place(glyph, text.field(glyph.glyph, font: font), half, cy, at, mapCos(angle), mapSin(angle))
                else { return nil }
                if let placed { out.glyphs.append(placed) }
                guard var box = cell else { continue }
                box.featureIndex = f
                out.boxes.append(box)
                minX = min(minX, box.minX); minY = min(minY, box.minY); maxX = max(maxX, box.maxX); maxY = max(maxY, box.maxY)
            }
        }
        guard !out.boxes.isEmpty else { return nil }
        out.bounds = SymbolBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY, layerID: layerID, text: label, featureIndex: f)
        return out
    }
}

/// A line's height in `block` (its height over its line count).
private func lineHeightOf(_ block: TextBlock) -> Double { Double(block.size.y) / Double(max(1, block.lines.count)) }

extension MapRenderer {
    /// ``layOutAlongPath(_:font:pixelSize:pivot:path:_:layerID:text:feature:)`` on the ground
    /// (`text-pitch-alignment` `map` along a line): `path` is the line around the anchor on the
    /// ground (``LineLabelPath/buildOnGround(_:_:worldSize:reach:)``), in pixels of the map at the
    /// camera's centre distance; each glyph's centre is put on it at its advance from the anchor,
    /// its axes along the ground line there, and the glyph is drawn through the ground projection
    /// (``GroundFrame``). `text-max-angle` is measured on the ground; `text-keep-upright` looks at
    /// the label's ends on screen. Collision: each glyph cell's projected quad's screen box.
    mutating func layOutOnGround(_ block: TextBlock, font: LabelFontID, pixelSize: Float, pivot: SIMD2<Float>,
                                 path: LineLabelPath, _ settings: LineLabelGlyphs.Settings, ground gf: GroundFrame,
                                 anchor o: (x: Double, y: Double), layerID: String, text label: String,
                                 feature f: Int) -> LineLabelGlyphs? {
        let (lo, hi) = LineLabelGlyphs.extent(block, pivotX: pivot.x)
        func unit(_ p: ScreenPoint) -> (x: Double, y: Double) { (o.x + p.x / gf.worldSize, o.y + p.y / gf.worldSize) }
        var sense = 1.0
        if settings.keepUpright {
            let a = path.point(at: max(lo, -path.backwardLength)), b = path.point(at: min(hi, path.forwardLength))
            if let a, let b, gf.isInFront(unit(a.p)), gf.isInFront(unit(b.p)) {
                let ua = unit(a.p), ub = unit(b.p)
                let sa = gf.h.project(ua.x, ua.y), sb = gf.h.project(ub.x, ub.y)
                if abs(sb.x - sa.x) > 1e-6 {
                    if sb.x < sa.x { sense = -1 }
                } else if let at = path.point(at: 0) {
                    let j = gf.h.jacobian(o.x, o.y)
                    if j.apply(mapCos(at.angle), mapSin(at.angle)).x < 0 { sense = -1 }
                }
            }
        }
        return layOutGlyphs(block, font: font, pivot: pivot, path: path, settings, sense: sense, lo: lo, hi: hi,
                            layerID: layerID, text: label, feature: f) { glyph, field, half, cy, at, c, sn in
            // The glyph cell's centre on the ground: `cy` across the line from the path.
            let centre = unit(ScreenPoint(x: at.p.x - sn * cy, y: at.p.y + c * cy))
            guard let patch = gf.patch(at: centre, angle: c, sn) else { return nil }
            let placed = field.map { PlacedGlyph(field: $0, pixelSize: pixelSize, offset: (-half, Double(glyph.position.y - pivot.y) - cy),
                                                 origin: patch.center, cos: 1, sin: 0, linear: patch.linear) }
            guard half > 0 else { return (placed, nil) }
            let lineHeight = lineHeightOf(block)
            guard let box = gf.screenBox(centre, -half, -lineHeight / 2, half, lineHeight / 2, angle: c, sn,
                                         padding: settings.padding, layerID: layerID, text: label) else { return nil }
            return (placed, box)
        }
    }
}

extension LineLabelGlyphs {
    /// Moves the label by `d` pixels (`text-translate`).
    mutating func translate(by d: (x: Double, y: Double)) {
        guard d.x != 0 || d.y != 0 else { return }
        for i in glyphs.indices { glyphs[i].origin.x += d.x; glyphs[i].origin.y += d.y }
        func moved(_ b: SymbolBox) -> SymbolBox {
            var b = b
            b.minX += d.x; b.maxX += d.x; b.minY += d.y; b.maxY += d.y
            return b
        }
        boxes = boxes.map(moved)
        bounds = moved(bounds)
    }
}

extension MapRenderer {
    /// `symbol-avoid-edges` (Style Specification: "avoid symbols colliding with tile edges").
    ///
    /// A renderer that draws each tile on its own clips every symbol at its tile's edges, and
    /// the property keeps symbols away from them. Flyby joins a frame's tiles into one source and
    /// draws the frame as a whole (``TiledSourceFrame``), so no symbol is ever cut at a tile edge;
    /// what the property still means here is its placement rule: a symbol whose boxes (text and
    /// icon, padding included) reach outside the tile that holds its anchor is not placed. "The
    /// tile" is the frame's tile (of the deepest zoom, if several) containing the anchor; the
    /// boxes' corners are taken back to the ground plane to be compared with it. Sources that are
    /// not tiled have no edges, and the property changes nothing for them.
    static func isInsideTile(_ boxes: [SymbolBox], anchor: (x: Double, y: Double), screenAnchor: ScreenPoint, tiles: [TileID],
                             _ transform: MapTransform) -> Bool {
        var tile: TileID?
        for t in tiles {
            let n = Double(1 << t.z)
            guard anchor.x * n >= Double(t.x), anchor.x * n < Double(t.x + 1), anchor.y * n >= Double(t.y), anchor.y * n < Double(t.y + 1)
            else { continue }
            if tile == nil || t.z > tile!.z { tile = t }
        }
        guard let tile else { return true }
        let n = Double(1 << tile.z)
        // The world copy the symbol is drawn in: the unit x of its screen anchor minus its own.
        let seen = transform.worldPoint(for: screenAnchor)
        let shift = (seen.x / transform.worldSize - anchor.x).rounded()
        for b in boxes {
            for (x, y) in [(b.minX, b.minY), (b.maxX, b.minY), (b.minX, b.maxY), (b.maxX, b.maxY)] {
                let w = transform.worldPoint(for: ScreenPoint(x: x, y: y))
                let ux = (w.x / transform.worldSize - shift) * n, uy = w.y / transform.worldSize * n
                guard ux.isFinite, uy.isFinite, ux >= Double(tile.x), ux <= Double(tile.x + 1), uy >= Double(tile.y),
                      uy <= Double(tile.y + 1) else { return false }
            }
        }
        return true
    }
}
