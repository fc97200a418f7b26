import FlybyCore
import FlybyData

/// The overlays drawn over the map: the 2D location puck and the ornaments.
extension MapRenderer {
    static let puckBlue = Color(rgb: 0x1E88E5)

    /// The 2D puck (Mapbox's default `Puck2D`): a translucent accuracy circle of
    /// `horizontalAccuracy` metres, a white-ringed blue dot, and an arrow pointing along the
    /// course (or heading) when one is known. Screen pixels; the arrow turns with the map bearing.
    mutating func drawPuck(_ puck: PuckState, _ g: FrameGeometry, _ view: PixelBufferView) {
        let c = puck.coordinate
        var (x, y) = WebMercator.project(c, worldSize: g.worldSize)
        let half = g.worldSize / 2
        while x - g.transform.centerX > half { x -= g.worldSize }
        while x - g.transform.centerX < -half { x += g.worldSize }
        let w = g.homography.depth(x: x, y: y)
        guard w >= g.near && w <= g.far else { return }
        let p = g.homography.apply(x: x, y: y)
        let center = ScreenPoint(x: p.x, y: p.y)
        guard center.x > -200 && center.y > -200 && center.x < Double(width) + 200 && center.y < Double(height) + 200 else { return }
        // Accuracy ring: metres → points at this latitude, shrunk by the perspective at the puck.
        let metersPerPoint = WebMercator.metersPerPoint(latitude: c.latitude, zoom: g.zoom)
        let perspective = g.transform.cameraDistance / w
        let accuracy = puck.horizontalAccuracy / metersPerPoint * perspective
        if accuracy.isFinite && accuracy > 10 {
            path.removeAll()
            path.addCircle(center: center, radius: min(accuracy, 4000), tolerance: 0.3)
            painter.fill(path, color: Color(rgb: 0x1E88E5, alpha: 40), into: view)
            painter.stroke(path, style: StrokeStyle(width: 1), color: Color(rgb: 0x1E88E5, alpha: 110), into: view)
        }
        // Bearing arrow.
        if puck.course != nil || puck.heading != nil {
            let bearing = puck.course != nil ? puck.bearing(.course) : puck.bearing(.heading)
            let a = (bearing - g.transform.state.bearing) * Double.pi / 180
            let s = mapSin(a), co = mapCos(a)
            func rot(_ dx: Double, _ dy: Double) -> ScreenPoint {  // dy up = ahead
                ScreenPoint(x: center.x + co * dx + s * dy, y: center.y + s * dx - co * dy)
            }
            path.removeAll()
            path.move(to: rot(0, 20)); path.line(to: rot(8, 9)); path.line(to: rot(0, 12)); path.line(to: rot(-8, 9)); path.close()
            painter.stroke(path, style: StrokeStyle(width: 2, join: .round), color: .white, into: view)
            painter.fill(path, color: MapRenderer.puckBlue, into: view)
        }
        path.removeAll()
        path.addCircle(center: center, radius: 9)
        painter.fill(path, color: Color(red: 0, green: 0, blue: 0, alpha: 50), into: view)
        path.removeAll()
        path.addCircle(center: center, radius: 8)
        painter.fill(path, color: .white, into: view)
        path.removeAll()
        path.addCircle(center: center, radius: 5.5)
        painter.fill(path, color: MapRenderer.puckBlue, into: view)
    }

    /// Scale bar (bottom-left), compass (top-right, only when the bearing is not 0) and the
    /// attribution (bottom-right, always).
    mutating func drawOrnaments(_ camera: CameraState, _ g: FrameGeometry, _ view: PixelBufferView) {
        let ink = Color(rgb: 0x333333)
        if showsOrnaments {
            // Scale bar: the largest 1-2-5 distance that fits in 100 points, measured at the
            // principal point's latitude (under the camera centre).
            let metersPerPoint = WebMercator.metersPerPoint(latitude: camera.center.latitude, zoom: camera.zoom)
            if showsScaleBar && metersPerPoint.isFinite && metersPerPoint > 0 {
                let maxMeters = metersPerPoint * 100
                let exponent = mapLog10(maxMeters).rounded(.down)
                let base = mapPow(10, exponent)
                let nice = [5.0, 2, 1].first { $0 * base <= maxMeters }.map { $0 * base } ?? base
                let barWidth = nice / metersPerPoint
                let label = nice >= 1000 ? "\(MapRenderer.shortNumber(nice / 1000)) km" : "\(MapRenderer.shortNumber(nice)) m"
                let x0 = 10.0, y0 = Double(height) - 14
                path.removeAll()
                path.addRect(x: x0 - 1, y: y0 - 15, width: barWidth + 2, height: 19)
                painter.fill(path, color: Color(rgb: 0xFFFFFF, alpha: 170), into: view)
                path.removeAll()
                path.move(to: ScreenPoint(x: x0, y: y0 - 6)); path.line(to: ScreenPoint(x: x0, y: y0 + 1.5))
                path.line(to: ScreenPoint(x: x0 + barWidth, y: y0 + 1.5)); path.line(to: ScreenPoint(x: x0 + barWidth, y: y0 - 6))
                painter.stroke(path, style: StrokeStyle(width: 1.5), color: ink, into: view)
                text.drawSimple(label, at: ScreenPoint(x: x0 + 3, y: y0 - 15), size: 11, color: ink, painter: &painter, view: view)
            }
            // Compass.
            let bearing = camera.bearing.truncatingRemainder(dividingBy: 360)
            if showsCompass && abs(bearing) > 1e-9 {
                let c = ScreenPoint(x: Double(width) - 30, y: 30)
                path.removeAll()
                path.addCircle(center: c, radius: 17)
                painter.fill(path, color: Color(rgb: 0xFFFFFF, alpha: 220), into: view)
                painter.stroke(path, style: StrokeStyle(width: 1), color: Color(rgb: 0x000000, alpha: 60), into: view)
                let a = -bearing * Double.pi / 180
                let s = mapSin(a), co = mapCos(a)
                func rot(_ dx: Double, _ dy: Double) -> ScreenPoint {
                    ScreenPoint(x: c.x + co * dx - s * dy, y: c.y + s * dx + co * dy)
                }
                path.removeAll()
                path.move(to: rot(0, -13)); path.line(to: rot(5, 0)); path.line(to: rot(-5, 0)); path.close()
                painter.fill(path, color: Color(rgb: 0xE53935), into: view)
                path.removeAll()
                path.move(to: rot(0, 13)); path.line(to: rot(5, 0)); path.line(to: rot(-5, 0)); path.close()
                painter.fill(path, color: Color(rgb: 0x607080), into: view)
            }
        }
        // Attribution (licence requirement: on every frame). Empty only when the host draws the
        // same credits itself (the window does, beside its own ornaments).
        guard let a = attributionLayout() else { return }
        path.removeAll()
        path.addRect(x: a.box.x, y: a.box.y, width: a.box.width, height: a.box.height)
        painter.fill(path, color: Color(rgb: 0xFFFFFF, alpha: 160), into: view)
        text.drawSimple(attribution, at: a.origin, size: a.size, color: Color(rgb: 0x333333), painter: &painter, view: view)
    }

    /// Where the attribution goes (bottom-right): its text origin and size, and its backing box.
    func attributionLayout() -> (origin: ScreenPoint, size: Double, box: ScreenRect)? {
        guard !attribution.isEmpty else { return nil }
        let size = width < 700 ? 8.5 : 10.0
        let m = text.measure(attribution, size: size)
        let x = Double(width) - m.width - 6, y = Double(height) - m.height - 2
        return (ScreenPoint(x: x, y: y), size, ScreenRect(x: x - 4, y: y - 1, width: m.width + 8, height: m.height + 2))
    }

    /// The box of the attribution line in screen points (nil when the host draws the credits):
    /// what overlays drawn after the map, such as view annotations, must leave visible.
    public var attributionFrame: ScreenRect? { attributionLayout()?.box }

    /// "2", "0.5", "20" — no trailing ".0".
    static func shortNumber(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }
}
