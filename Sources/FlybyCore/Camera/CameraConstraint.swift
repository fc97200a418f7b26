#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CameraBounds {
    /// The camera moved and zoomed as little as needed to respect these bounds on a viewport of
    /// `size` points: zoom and pitch clamped to their ranges, then the visible area kept inside
    /// `bounds` (GL JS `defaultConstrain`, docs/research/maplibre-camera-algorithms.md §3): when the allowed
    /// span is smaller than the screen the camera zooms in until it fits; otherwise the centre is
    /// clamped so the screen's edges stay inside. Like GL JS this works on the flat, unrotated
    /// viewport (pitch, bearing and padding are ignored). Longitude comes back wrapped to
    /// [−180, 180) and bearing to [0, 360).
    public func constrain(_ state: CameraState, size: ScreenSize) -> CameraState {
        var s = state
        s.pitch = min(max(s.pitch, minPitch), maxPitch)
        s.zoom = min(max(s.zoom, minZoom), maxZoom)
        s.bearing = wrapBearing(s.bearing)
        let north = min(bounds.northeast.latitude, WebMercator.maxLatitude)
        let south = max(bounds.southwest.latitude, -WebMercator.maxLatitude)
        let constrainX = !bounds.spansAllLongitudes
        let unitMinY = WebMercator.unitY(latitude: north), unitMaxY = WebMercator.unitY(latitude: south)
        var west = bounds.southwest.longitude, east = bounds.northeast.longitude
        if east < west { east += 360 }
        let unitMinX = WebMercator.unitX(longitude: west), unitMaxX = WebMercator.unitX(longitude: east)

        var ws = WebMercator.worldSize(zoom: s.zoom)
        var scale = 1.0
        if (unitMaxY - unitMinY) * ws < size.height { scale = max(scale, size.height / ((unitMaxY - unitMinY) * ws)) }
        if constrainX && (unitMaxX - unitMinX) * ws < size.width { scale = max(scale, size.width / ((unitMaxX - unitMinX) * ws)) }
        if scale > 1 {
            s.zoom += log2(scale)
            ws = WebMercator.worldSize(zoom: s.zoom)
        }
        // Coordinates are only recomputed when clamped, so an unconstrained camera keeps its exact
        // values (a Mercator round trip would change the last digits).
        let y0 = WebMercator.unitY(latitude: s.center.latitude) * ws
        var y = y0
        let minY = unitMinY * ws, maxY = unitMaxY * ws
        if maxY - minY <= size.height * (1 + 1e-12) { y = (minY + maxY) / 2 } else {
            y = min(max(y, minY + size.height / 2), maxY - size.height / 2)
        }
        var lng = s.center.longitude
        let lng0 = lng
        if constrainX {
            // Take the world copy of the centre nearest the allowed range, then clamp.
            let mid = (west + east) / 2
            while lng - mid > 180 { lng -= 360 }
            while lng - mid < -180 { lng += 360 }
            let x0 = WebMercator.unitX(longitude: lng) * ws
            var x = x0
            let minX = unitMinX * ws, maxX = unitMaxX * ws
            if maxX - minX <= size.width * (1 + 1e-12) { x = (minX + maxX) / 2 } else {
                x = min(max(x, minX + size.width / 2), maxX - size.width / 2)
            }
            if x != x0 { lng = WebMercator.longitude(unitX: x / ws) } else { lng = lng0 }
        }
        let lat = y == y0 ? s.center.latitude : WebMercator.latitude(unitY: y / ws)
        s.center = LocationCoordinate2D(latitude: lat, longitude: wrapLongitude(lng))
        return s
    }
}
