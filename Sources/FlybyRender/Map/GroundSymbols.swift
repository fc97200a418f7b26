import FlybyCore

/// A 2 × 2 linear map: a local offset `(x, y)` goes to `(a x + b y, c x + d y)`.
struct Linear2: Sendable, Equatable {
    var a: Double, b: Double, c: Double, d: Double

    var determinant: Double { a * d - b * c }

    /// The map applied to `(x, y)`.
    @inline(__always)
    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (a * x + b * y, c * x + d * y) }

    /// `self · o` (first `o`, then `self`).
    func times(_ o: Linear2) -> Linear2 {
        Linear2(a: a * o.a + b * o.c, b: a * o.b + b * o.d, c: c * o.a + d * o.c, d: c * o.b + d * o.d)
    }

    /// The rotation by `angle` radians (clockwise on a y-down plane).
    static func rotation(_ angle: Double) -> Linear2 {
        let c = mapCos(angle), s = mapSin(angle)
        return Linear2(a: c, b: -s, c: s, d: c)
    }
}

extension Homography {
    /// The derivative of ``project(_:_:)`` at a unit point (screen pixels per unit), the caller
    /// having made sure its depth is positive: the linear map that takes a small step on the
    /// ground at that point to the screen.
    func jacobian(_ x: Double, _ y: Double) -> Linear2 {
        let w = 1 / (m20 * x + m21 * y + m22)
        let sx = (m00 * x + m01 * y + m02) * w, sy = (m10 * x + m11 * y + m12) * w
        return Linear2(a: (m00 - sx * m20) * w, b: (m01 - sx * m21) * w, c: (m10 - sy * m20) * w, d: (m11 - sy * m21) * w)
    }
}

/// A symbol lying on the pitched ground (`text-pitch-alignment` / `icon-pitch-alignment` `map`,
/// MapLibre Style Specification: "the text is aligned to the plane of the map").
///
/// The symbol is laid out in pixels as usual, and those pixels are put on the ground plane at
/// the map's scale **at the camera's centre distance** (``FrameGeometry/worldSize`` pixels per
/// unit Mercator): a 16 px label covers the ground that 16 px of map cover at the centre of the
/// view, and is drawn smaller farther away and larger nearer, foreshortened by the pitch, as the
/// ground itself (MapLibre restated: text size is the size at the centre, scaled by perspective
/// elsewhere). Each glyph (or icon) is drawn through the ground homography's derivative at its
/// own centre (an affine map per glyph, exact at the centre; a glyph covers little enough ground
/// that the perspective within it is negligible), and collides by the screen box of its
/// projected quad.
///
/// The layout's axes on the ground: `x` along the ground direction `angle` (radians, clockwise
/// from east, on the y-south unit plane), `y` 90° clockwise from it.
struct GroundFrame {
    /// Unit Mercator → screen (of the symbol's world copy), with any screen translation.
    var h: Homography
    var worldSize: Double
    var near: Double, far: Double

    /// The ground direction (radians clockwise from east) that the screen's horizontal runs
    /// along at unit point `(x, y)`: the `x` axis of a label that faces the viewport's rotation.
    func screenLevelAngle(_ x: Double, _ y: Double) -> Double {
        let j = h.jacobian(x, y)
        // J⁻¹ · (1, 0) ∝ (d, −c).
        return mapAtan2(-j.c, j.d)
    }

    /// The unit point of layout offset `(lx, ly)` pixels from unit point `o` along axes at `angle`.
    @inline(__always)
    func ground(_ o: (x: Double, y: Double), _ lx: Double, _ ly: Double, angle c: Double, _ s: Double) -> (x: Double, y: Double) {
        (o.x + (c * lx - s * ly) / worldSize, o.y + (s * lx + c * ly) / worldSize)
    }

    /// True when unit point `p` is inside the depth strip.
    @inline(__always)
    func isInFront(_ p: (x: Double, y: Double)) -> Bool {
        let w = h.depth(x: p.x, y: p.y)
        return w >= near && w <= far
    }

    /// Where a local patch centred on unit point `p` goes: its screen centre and the linear map
    /// from layout pixels (axes at `angle`, cosine `c`, sine `s`) to screen pixels; nil when `p`
    /// is outside the depth strip or the patch would be degenerate on screen.
    func patch(at p: (x: Double, y: Double), angle c: Double, _ s: Double) -> (center: ScreenPoint, linear: Linear2)? {
        guard isInFront(p) else { return nil }
        let j = h.jacobian(p.x, p.y)
        let k = 1 / worldSize
        let m = j.times(Linear2(a: c * k, b: -s * k, c: s * k, d: c * k))
        let det = m.determinant
        guard det.isFinite, abs(det) > 1e-6 else { return nil }
        return (h.project(p.x, p.y), m)
    }

    /// The screen box of the layout rectangle `[x0, x1] × [y0, y1]` (pixels about unit point `o`,
    /// axes at `angle`) projected to the screen, grown by `padding`; nil when a corner is outside
    /// the depth strip.
    func screenBox(_ o: (x: Double, y: Double), _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, angle c: Double, _ s: Double,
                   padding: Double, layerID: String, text: String) -> SymbolBox? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for corner in 0..<4 {
            let p = ground(o, corner & 1 == 0 ? x0 : x1, corner < 2 ? y0 : y1, angle: c, s)
            guard isInFront(p) else { return nil }
            let q = h.project(p.x, p.y)
            minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y)
        }
        return SymbolBox(minX: minX - padding, minY: minY - padding, maxX: maxX + padding, maxY: maxY + padding, layerID: layerID,
                         text: text)
    }
}
