#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fitting the camera to coordinates: Mapbox's `camera(for:camera:coordinatesPadding:maxZoom:offset:)`.
public enum CameraFit {
    /// Longitudes shifted by whole turns so the set spans the shortest arc: the widest gap between
    /// neighbouring longitudes is left outside the box (so a set around the antimeridian is kept
    /// together, e.g. Fiji's 175…−178 becomes 175…182).
    public static func unwrappedForShortestSpan(_ coordinates: [LocationCoordinate2D]) -> [LocationCoordinate2D] {
        guard coordinates.count > 1 else { return coordinates }
        let lngs = coordinates.map { wrapLongitude($0.longitude) }.sorted()
        var widestGap = lngs.first! + 360 - lngs.last!, cut = lngs.first!  // the gap across ±180
        for k in 1..<lngs.count where lngs[k] - lngs[k - 1] > widestGap {
            widestGap = lngs[k] - lngs[k - 1]; cut = lngs[k]
        }
        // Longitudes below the cut move east by 360 so the widest gap is the one left out.
        return coordinates.map {
            let w = wrapLongitude($0.longitude)
            return LocationCoordinate2D(latitude: $0.latitude, longitude: w < cut ? w + 360 : w)
        }
    }

    /// The camera that shows every coordinate inside the viewport inset by `camera.padding` (the
    /// camera padding, kept in the result) plus `coordinatesPadding` (a margin for this fit only).
    ///
    /// Flat (pitch 0): the GL JS `cameraForBoxAndBearing` construction (docs/maplibre-camera-
    /// algorithms.md §6.1): project at zoom 0, rotate by −bearing, take the extent, zoom =
    /// log2(min(availableWidth / width, availableHeight / height)) capped by `maxZoom`, and centre the
    /// extent in the padded rectangle, shifted by `offset`. Pitched: start from the flat answer and
    /// refine zoom and centre until the perspective screen box of the points fits the padded
    /// rectangle (Newton-like fixed point, ≤ 40 rounds, to 1e-9 zoom) — a tight fit where GL JS
    /// ignores pitch and Native fits at the current zoom.
    /// - Returns: nil when there are no coordinates, a value is not finite, or the padding leaves no room.
    public static func camera(for coordinates: [LocationCoordinate2D], size: ScreenSize, camera: CameraOptions = CameraOptions(),
                              coordinatesPadding: EdgeInsets = .zero, maxZoom: Double? = nil,
                              offset: ScreenPoint = .zero) -> CameraOptions? {
        guard !coordinates.isEmpty, coordinates.allSatisfy(\.isFinite), offset.isFinite, coordinatesPadding.isFinite else { return nil }
        let bearing = camera.bearing ?? 0, pitch = camera.pitch ?? 0
        let cameraPadding = camera.padding ?? .zero
        let pad = cameraPadding + coordinatesPadding
        let availW = size.width - pad.left - pad.right, availH = size.height - pad.top - pad.bottom
        guard availW > 0, availH > 0, bearing.isFinite, pitch.isFinite else { return nil }
        let pts = unwrappedForShortestSpan(coordinates)
        let b = bearing * .pi / 180, cb = cos(b), sb = sin(b)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        var minRX = Double.infinity, maxRX = -Double.infinity, minRY = Double.infinity, maxRY = -Double.infinity
        for c in pts {
            let (x, y) = WebMercator.project(c, worldSize: WebMercator.tileSize)
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            // Screen-aligned axes at this bearing (world y is south; screen y is down).
            let rx = x * cb + y * sb, ry = -x * sb + y * cb
            minRX = min(minRX, rx); maxRX = max(maxRX, rx); minRY = min(minRY, ry); maxRY = max(maxRY, ry)
        }
        let w = maxRX - minRX, h = maxRY - minRY
        var zoom: Double
        if w <= 0 && h <= 0 { zoom = maxZoom ?? 22 } else {
            zoom = log2(min(w > 0 ? availW / w : .infinity, h > 0 ? availH / h : .infinity))
        }
        if let maxZoom { zoom = min(zoom, maxZoom) }
        // Centre of the rotated extent, back in world axes at zoom 0.
        let mrx = (minRX + maxRX) / 2, mry = (minRY + maxRY) / 2
        var cx = mrx * cb - mry * sb, cy = mrx * sb + mry * cb
        // The fit rectangle's middle relative to the principal point, in screen points:
        // coordinate padding shifts it by ((l − r)/2, (t − b)/2); offset moves the box on screen.
        let sx = (coordinatesPadding.left - coordinatesPadding.right) / 2
        let sy = (coordinatesPadding.top - coordinatesPadding.bottom) / 2
        let scale = exp2(zoom)
        // A screen offset (sx, sy) is the world offset R(bearing)·(sx, sy) / scale. The `offset`
        // is added unrotated, as GL JS does (its test vectors #25–#26 pin this).
        cx -= (sx * cb - sy * sb + offset.x) / scale
        cy -= (sx * sb + sy * cb + offset.y) / scale
        var center = WebMercator.unproject(x: cx, y: cy, worldSize: WebMercator.tileSize)
        center.longitude = wrapLongitude(center.longitude)
        var result = CameraOptions(center: center, padding: cameraPadding, zoom: zoom, bearing: bearing, pitch: pitch)
        if pitch > 0 {
            result = refinePitched(pts, size: size, start: result, padding: pad, offset: offset, maxZoom: maxZoom) ?? result
        }
        return result
    }

    /// Perspective refinement of a flat fit (see `camera(for:)`).
    static func refinePitched(_ pts: [LocationCoordinate2D], size: ScreenSize, start: CameraOptions, padding pad: EdgeInsets,
                              offset: ScreenPoint, maxZoom: Double?) -> CameraOptions? {
        var state = CameraState(center: start.center!, padding: start.padding!, zoom: start.zoom!,
                                bearing: start.bearing!, pitch: start.pitch!)
        let targetMidX = pad.left + (size.width - pad.left - pad.right) / 2
        let targetMidY = pad.top + (size.height - pad.top - pad.bottom) / 2
        let availW = size.width - pad.left - pad.right, availH = size.height - pad.top - pad.bottom
        for _ in 0..<40 {
            let t = MapTransform(size: size, state: state)
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            var behind = false
            for c in pts {
                guard let p = t.point(for: c), p.y > t.horizonY else { behind = true; break }
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
            if behind { state.zoom -= 1; continue }
            let ratio = min(maxX > minX ? availW / (maxX - minX) : .infinity, maxY > minY ? availH / (maxY - minY) : .infinity)
            var dz = ratio.isFinite ? log2(ratio) : 0
            if let maxZoom, state.zoom + dz > maxZoom { dz = maxZoom - state.zoom }
            let midX = (minX + maxX) / 2, midY = (minY + maxY) / 2
            let wantX = targetMidX + offset.x, wantY = targetMidY + offset.y
            // Move the box's middle to the fit rectangle's middle (shifted by the offset), then zoom about it.
            let dragged = t.dragCameraOptions(from: ScreenPoint(x: midX, y: midY), to: ScreenPoint(x: wantX, y: wantY))
            state.center = dragged.center!
            let moved = abs(midX - wantX) + abs(midY - wantY)
            state = zoomed(state, by: dz, about: ScreenPoint(x: wantX, y: wantY), size: size)
            if abs(dz) < 1e-9 && moved < 1e-6 { break }
        }
        state.center.longitude = wrapLongitude(state.center.longitude)
        return CameraOptions(center: state.center, padding: state.padding, zoom: state.zoom, bearing: state.bearing, pitch: state.pitch)
    }

    /// `state` zoomed by `dz` levels keeping the ground point under `anchor` in place.
    static func zoomed(_ state: CameraState, by dz: Double, about anchor: ScreenPoint, size: ScreenSize) -> CameraState {
        let before = MapTransform(size: size, state: state).coordinate(for: anchor)
        var s = state
        s.zoom += dz
        s.center = MapTransform(size: size, state: s).center(placing: before, at: anchor)
        return s
    }
}
