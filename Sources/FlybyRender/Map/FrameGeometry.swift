import FlybyCore
import FlybyData
import Foundation

/// What one frame needs to put unit Web Mercator points on the screen: the ground homography,
/// the depth range kept after clipping, the visible ground box and the world copies.
///
/// Coordinate spaces: *unit* Web Mercator (x east, y south, the world is 0…1, copies shifted by
/// whole units) → *world points* (unit × `worldSize`) → *screen points* (pixels, origin top-left,
/// y down) through ``MapTransform/groundHomography``. Depth `W` is the distance along the view
/// axis (points, > 0 in front of the camera); it is an affine function of the ground point, so the
/// set of ground points with `near ≤ W ≤ far` is a strip between two lines, and a polygon clipped
/// to it never divides by ≤ 0 when projected.
///
/// With a device pixel ratio `r` (MapLibre's `pixelRatio`) the frame has `r` pixels per point:
/// ``transform`` is the camera's seen through `width × height` pixels at zoom + log2 `r` (the same
/// ground, `r` times the pixels), while ``zoom`` stays the camera's zoom, so style properties and
/// tile choice are those of the point-sized map.
struct FrameGeometry {
    let transform: MapTransform
    /// The camera seen through the frame's size in points (pixels / ratio): what picks tiles.
    let tileTransform: MapTransform
    let homography: Homography
    let worldSize: Double
    let zoom: Double
    /// True when the camera is pitched enough that clipping against the depth strip is needed.
    let pitched: Bool
    /// Depth limits in points: everything drawn lies in `near ... far`.
    let near: Double
    let far: Double
    /// The visible ground in unit Mercator (x unwrapped), with a margin for strokes and labels.
    let visible: MercatorBox
    /// World copies to draw: unit x offsets `firstCopy ... lastCopy`.
    let firstCopy: Int
    let lastCopy: Int
    /// Screen row of the horizon (rows above are sky), or −∞ when flat.
    let horizonY: Double

    /// Most world copies drawn either side (zoom 0 on a very wide screen needs ~3).
    static let maxCopies = 4

    /// - Parameter focalHeight: the pixel height the field of view spans (nil: `height`); see
    ///   ``MapTransform/init(size:state:focalHeight:)``.
    init(camera: CameraState, width: Int, height: Int, pixelRatio r: Double = 1, focalHeight: Double? = nil) {
        let size = ScreenSize(width: Double(width), height: Double(height))
        if r == 1 {
            transform = MapTransform(size: size, state: camera, focalHeight: focalHeight)
            tileTransform = transform
        } else {
            var scaled = camera
            scaled.zoom += log2(r)
            scaled.padding = EdgeInsets(top: camera.padding.top * r, left: camera.padding.left * r,
                                        bottom: camera.padding.bottom * r, right: camera.padding.right * r)
            transform = MapTransform(size: size, state: scaled, focalHeight: focalHeight)
            tileTransform = MapTransform(size: ScreenSize(width: Double(width) / r, height: Double(height) / r), state: camera,
                                         focalHeight: focalHeight.map { $0 / r })
        }
        homography = transform.groundHomography
        worldSize = transform.worldSize
        zoom = camera.zoom
        let d = transform.cameraDistance
        pitched = camera.pitch > 1e-6
        near = d * 0.01
        let top = max(0, transform.horizonY)
        horizonY = pitched ? transform.horizonY : -.infinity
        if pitched {
            // The far limit: the depth of the ground seen at the (pulled-in) horizon row, a little
            // beyond so geometry reaches under the sky's anti-aliased edge.
            let g = transform.worldPoint(for: ScreenPoint(x: transform.principalPoint.x, y: top))
            far = max(near * 2, homography.depth(x: g.x, y: g.y) * 1.05)
        } else {
            far = .infinity
        }
        // Visible ground: the four screen corners (top ones clamped below the horizon).
        var box = MercatorBox.empty
        for (sx, sy) in [(0.0, top), (Double(width), top), (0.0, Double(height)), (Double(width), Double(height))] {
            let w = transform.worldPoint(for: ScreenPoint(x: sx, y: sy))
            box.include(x: w.x / worldSize, y: w.y / worldSize)
        }
        // Margin: 64 screen points at the camera's scale, or 5 % of the box, whichever is larger.
        let margin = max(64 / worldSize, 0.05 * max(box.maxX - box.minX, box.maxY - box.minY))
        box = MercatorBox(minX: box.minX - margin, minY: max(-0.01, box.minY - margin),
                          maxX: box.maxX + margin, maxY: min(1.01, box.maxY + margin))
        visible = box
        let lo = Int((box.minX).rounded(.down)), hi = Int((box.maxX).rounded(.down))
        let mid = Int((transform.centerX / worldSize).rounded(.down))
        firstCopy = max(lo, mid - FrameGeometry.maxCopies)
        lastCopy = min(hi, mid + FrameGeometry.maxCopies)
    }

    /// The homography from unit Mercator of world copy `copy` to the screen:
    /// `H · diag(worldSize, worldSize, 1)` with x shifted by `copy` units.
    func unitHomography(copy: Int) -> Homography {
        var h = homography
        let s = worldSize, k = Double(copy) * worldSize
        h.m02 += h.m00 * k; h.m12 += h.m10 * k; h.m22 += h.m20 * k
        h.m00 *= s; h.m01 *= s; h.m10 *= s; h.m11 *= s; h.m20 *= s; h.m21 *= s
        return h
    }

    /// The query box for world copy `copy` (the visible box moved into that copy's 0…1 range).
    func queryBox(copy: Int) -> MercatorBox { visible.shifted(byWorlds: -Double(copy)) }
}

extension Homography {
    /// Screen point of a unit point; the caller has made sure its depth is positive.
    @inline(__always)
    func project(_ x: Double, _ y: Double) -> ScreenPoint {
        let w = 1 / (m20 * x + m21 * y + m22)
        return ScreenPoint(x: originX + (m00 * x + m01 * y + m02) * w, y: originY + (m10 * x + m11 * y + m12) * w)
    }
}

/// Clips rings and polylines (unit Mercator) to the depth strip `near ≤ W ≤ far` and projects them.
///
/// Polygons: Sutherland–Hodgman against each of the two half-planes in turn (Sutherland and
/// Hodgman, "Reentrant polygon clipping", CACM 17(1), 1974). Polylines: each segment is cut to the
/// parameter interval where both depth constraints hold (Liang–Barsky style, with the depth as the
/// linear function), starting a new contour where the line re-enters. Scratch arrays are reused.
struct DepthClipper {
    var a: [Double] = []
    var b: [Double] = []

    /// Appends ring `xy[s..<e]` (pairs) clipped to the strip, projected by `h`, as one closed contour.
    mutating func appendPolygon(_ xy: UnsafeBufferPointer<Double>, _ s: Int, _ e: Int, h: Homography,
                                near: Double, far: Double, into path: inout Path) {
        a.removeAll(keepingCapacity: true)
        for k in s..<e { a.append(xy[2 * k]); a.append(xy[2 * k + 1]) }
        clip(from: &a, to: &b, h: h, sign: 1, limit: near)
        clip(from: &b, to: &a, h: h, sign: -1, limit: far)
        guard a.count >= 6 else { return }
        path.beginContour()
        for k in 0..<(a.count / 2) { path.appendPoint(h.project(a[2 * k], a[2 * k + 1])) }
        path.endContour(closed: true, minimumCount: 3)
    }

    /// One Sutherland–Hodgman pass keeping `sign · (W − limit) ≥ 0`.
    private func clip(from src: inout [Double], to dst: inout [Double], h: Homography, sign: Double, limit: Double) {
        dst.removeAll(keepingCapacity: true)
        let n = src.count / 2
        guard n >= 3 else { return }
        var px = src[2 * n - 2], py = src[2 * n - 1]
        var pf = sign * (h.depth(x: px, y: py) - limit)
        for k in 0..<n {
            let qx = src[2 * k], qy = src[2 * k + 1]
            let qf = sign * (h.depth(x: qx, y: qy) - limit)
            if (pf >= 0) != (qf >= 0) {
                let t = pf / (pf - qf)
                dst.append(px + (qx - px) * t); dst.append(py + (qy - py) * t)
            }
            if qf >= 0 { dst.append(qx); dst.append(qy) }
            px = qx; py = qy; pf = qf
        }
    }

    /// Appends polyline `xy[s..<e]` clipped to the strip and projected, as one or more open contours.
    mutating func appendPolyline(_ xy: UnsafeBufferPointer<Double>, _ s: Int, _ e: Int, h: Homography,
                                 near: Double, far: Double, into path: inout Path) {
        guard e - s >= 2 else { return }
        var open = false
        for k in s..<(e - 1) {
            let x0 = xy[2 * k], y0 = xy[2 * k + 1], x1 = xy[2 * k + 2], y1 = xy[2 * k + 3]
            let w0 = h.depth(x: x0, y: y0), w1 = h.depth(x: x1, y: y1)
            var t0 = 0.0, t1 = 1.0
            // near ≤ w0 + t (w1 − w0) ≤ far
            let dw = w1 - w0
            if dw == 0 {
                if w0 < near || w0 > far { t0 = 1; t1 = 0 }
            } else {
                let tn = (near - w0) / dw, tf = (far - w0) / dw
                if dw > 0 { t0 = max(t0, tn); t1 = min(t1, tf) } else { t0 = max(t0, tf); t1 = min(t1, tn) }
            }
            guard t0 <= t1 else {
                if open { path.endContour(closed: false); open = false }
                continue
            }
            if t0 > 0 && open { path.endContour(closed: false); open = false }
            if !open {
                path.beginContour()
                path.appendPoint(h.project(x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0))
                open = true
            }
            path.appendPoint(h.project(x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1))
            if t1 < 1 { path.endContour(closed: false); open = false }
        }
        if open { path.endContour(closed: false) }
    }
}
