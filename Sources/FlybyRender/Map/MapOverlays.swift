import FlybyCore
import FlybyData

/// The overlays drawn over the map: the 2D location puck and the ornaments.
extension MapRenderer {
    static let puckBlue = Color(rgb: 0x1E88E5)

    /// The 2D puck (Mapbox's default `Puck2D`): a translucent accuracy circle of
    /// `horizontalAccuracy` metres, a white-ringed blue dot, and an arrow pointing along the
    /// course (or heading) when one is known. Sizes in points (``pixelRatio`` frame pixels
    /// each); the arrow turns with the map bearing. On the terrain (`drape`) the puck stands at
    /// the relief's height (``ReliefSurface``, as the drape draws it) and is not drawn when the
    /// relief hides its centre (the depth test of the labels, ``TerrainDrape/place(worldX:worldY:_:)``).
    mutating func drawPuck(_ puck: PuckState, _ g: FrameGeometry, drape: TerrainDrape? = nil, _ view: PixelBufferView) {
        let c = puck.coordinate
        var (x, y) = WebMercator.project(c, worldSize: g.worldSize)
        let half = g.worldSize / 2
        while x - g.transform.centerX > half { x -= g.worldSize }
        while x - g.transform.centerX < -half { x += g.worldSize }
        var w = g.homography.depth(x: x, y: y)
        guard w >= g.near && w <= g.far else { return }
        let p = g.homography.apply(x: x, y: y)
        var center = ScreenPoint(x: p.x, y: p.y)
        if let drape {
            guard let raised = drape.place(worldX: x, worldY: y, drape.relief(g)), !raised.hidden, raised.depth >= g.near else { return }
            center = raised.point
            w = raised.depth
        }
        guard center.x > -200 && center.y > -200 && center.x < Double(width) + 200 && center.y < Double(height) + 200 else { return }
        // Accuracy ring: metres → points at this latitude, shrunk by the perspective at the puck.
        let metersPerPoint = WebMercator.metersPerPoint(latitude: c.latitude, zoom: g.zoom)
        let perspective = g.transform.cameraDistance / w
        let accuracy = puck.horizontalAccuracy / metersPerPoint * perspective
        if accuracy.isFinite && accuracy > 10 * pixelRatio {
            path.removeAll()
            path.addCircle(center: center, radius: min(accuracy, 4000), tolerance: 0.3)
            painter.fill(path, color: Color(rgb: 0x1E88E5, alpha: 40), into: view)
            painter.stroke(path, style: StrokeStyle(width: pixelRatio), color: Color(rgb: 0x1E88E5, alpha: 110), into: view)
        }
        // Bearing arrow.
        if puck.course != nil || puck.heading != nil {
            let bearing = puck.course != nil ? puck.bearing(.course) : puck.bearing(.heading)
            let a = (bearing - g.transform.state.bearing) * Double.pi / 180
            let k = pixelRatio   // the dot and the arrow are sized in points
            let s = mapSin(a) * k, co = mapCos(a) * k
            func rot(_ dx: Double, _ dy: Double) -> ScreenPoint {  // dy up = ahead
                ScreenPoint(x: center.x + co * dx + s * dy, y: center.y + s * dx - co * dy)
            }
            path.removeAll()
            path.move(to: rot(0, 20)); path.line(to: rot(8, 9)); path.line(to: rot(0, 12)); path.line(to: rot(-8, 9)); path.close()
            painter.stroke(path, style: StrokeStyle(width: 2 * k, join: .round), color: .white, into: view)
            painter.fill(path, color: MapRenderer.puckBlue, into: view)
        }
        path.removeAll()
        path.addCircle(center: center, radius: 9 * pixelRatio)
        painter.fill(path, color: Color(red: 0, green: 0, blue: 0, alpha: 50), into: view)
        path.removeAll()
        path.addCircle(center: center, radius: 8 * pixelRatio)
        painter.fill(path, color: .white, into: view)
        path.removeAll()
        path.addCircle(center: center, radius: 5.5 * pixelRatio)
        painter.fill(path, color: MapRenderer.puckBlue, into: view)
    }

    /// Scale bar (bottom-left), compass (top-right, only when the bearing is not 0) and the
    /// attribution (bottom-right, always), drawn by the one ornament drawer (``MapOrnaments``).
    mutating func drawOrnaments(_ camera: CameraState, _ g: FrameGeometry, _ view: PixelBufferView) {
        // Sizes in points, `pixelRatio` frame pixels each; the scale bar measures points (the
        // camera's own zoom, not the frame's zoom + log2 ratio).
        MapOrnaments.draw(camera: camera, width: width, height: height, scale: pixelRatio,
                          scaleBar: showsOrnaments && showsScaleBar,
                          compass: showsOrnaments && showsCompass, attribution: attribution,
                          path: &path, painter: &painter, text: &text, view: view)
    }

    /// The box of the attribution line in screen points (nil when the host draws the credits):
    /// what overlays drawn after the map, such as view annotations, must leave visible.
    public var attributionFrame: ScreenRect? {
        guard let box = MapOrnaments.attributionLayout(attribution, width: width, height: height, scale: pixelRatio, text: text)?.box
        else { return nil }
        let k = pixelRatio
        return k == 1 ? box : ScreenRect(x: box.x / k, y: box.y / k, width: box.width / k, height: box.height / k)
    }

    /// "2", "0.5", "20" — no trailing ".0".
    static func shortNumber(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }
}
