#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The camera's projection of the flat Web Mercator map onto the screen, in perspective.
///
/// Model (the GL JS / MapLibre camera, restated in docs/research/maplibre-camera-algorithms.md §2): the
/// vertical field of view is 36.87° (2·atan(1/3)), so the camera sits `d = 1.5 · height` points
/// from the map centre along its view axis; it is tilted by `pitch` about the screen's x axis and
/// turned by `bearing` about the map's up axis. Padding moves the principal point (the vanishing
/// point, where `center` is drawn) to the middle of the padded rectangle. Screen points have their
/// origin at the top-left, y down.
///
/// The ground plane maps to the screen by a homography (a 3×3 projective map), so projecting a
/// world point costs a few multiplications and one division.
public struct MapTransform: Sendable, Equatable {
    /// Default vertical field of view, degrees (2·atan(1/3), the old "1.5 screen heights").
    public static let defaultFieldOfView: Double = 36.86989764584402

    public let size: ScreenSize
    public let state: CameraState

    /// World size at the camera's zoom, points.
    public let worldSize: Double
    /// The camera centre in world points (x east, y south) at `worldSize`; x is not wrapped.
    public let centerX: Double, centerY: Double
    /// The principal point on screen (middle of the padded rectangle).
    public let principalPoint: ScreenPoint
    /// Camera-to-centre distance in points.
    public let cameraDistance: Double
    @usableFromInline let sinB: Double, cosB: Double, sinP: Double, cosP: Double

    /// - Parameter focalHeight: the screen height in points that the field of view spans (nil: `size.height`).
    ///   A larger screen with the focal height of a smaller one sees that screen's view, the same
    ///   projection shifted by the padding, with more ground around it (the terrain's texture,
    ///   docs/terrain.md).
    public init(size: ScreenSize, state: CameraState, focalHeight: Double? = nil) {
        self.size = size
        self.state = state
        worldSize = WebMercator.worldSize(zoom: state.zoom)
        centerX = WebMercator.unitX(longitude: state.center.longitude) * worldSize
        centerY = WebMercator.unitY(latitude: state.center.latitude) * worldSize
        let p = state.padding
        principalPoint = ScreenPoint(x: min(max((p.left + size.width - p.right) / 2, 0), size.width),
                                     y: min(max((p.top + size.height - p.bottom) / 2, 0), size.height))
        cameraDistance = 0.5 * (focalHeight ?? size.height) / tan(MapTransform.defaultFieldOfView * .pi / 360)
        let b = state.bearing * .pi / 180, pt = state.pitch * .pi / 180
        sinB = sin(b); cosB = cos(b); sinP = sin(pt); cosP = cos(pt)
    }

    // MARK: World points ↔ screen

    /// Screen point of a world point (x east, y south, at `worldSize`), or nil when the point is
    /// behind the camera's near limit (beyond the horizon).
    @inlinable
    public func screenPoint(worldX: Double, worldY: Double) -> ScreenPoint? {
        let east = worldX - centerX, north = centerY - worldY
        let e = east * cosB - north * sinB          // screen-aligned offsets on the ground
        let n = east * sinB + north * cosB
        let depth = n * sinP + cameraDistance      // distance along the view axis
        guard depth > cameraDistance * 1e-6 else { return nil }
        let k = cameraDistance / depth
        return ScreenPoint(x: principalPoint.x + e * k, y: principalPoint.y - n * cosP * k)
    }

    /// The world point (at `worldSize`) seen at a screen point. Points above the horizon are
    /// first moved down to just below it (GL JS's pulled-in horizon, `horizonOffset`).
    @inlinable
    public func worldPoint(for point: ScreenPoint) -> (x: Double, y: Double) {
        let d = cameraDistance
        let dx = point.x - principalPoint.x
        let dy = max(point.y - principalPoint.y, -horizonOffset)
        // Ray from the camera through the pixel, intersected with the ground (z = 0).
        let s = d * cosP / (d * cosP + dy * sinP)
        let e = s * dx
        let n = -d * sinP + s * (d * sinP - dy * cosP)
        let east = e * cosB + n * sinB
        let north = -e * sinB + n * cosB
        return (centerX + east, centerY - north)
    }

    /// How far above the principal point the usable horizon lies, in screen points:
    /// d·min(0.85·tan(90° − pitch), tan(89.25° − pitch)) (GL JS `maxMercatorHorizonAngle`).
    public var horizonOffset: Double {
        let p = state.pitch
        let a = p <= 0 ? Double.infinity : 0.85 * tan((90 - p) * .pi / 180)
        return cameraDistance * min(a, tan((89.25 - p) * .pi / 180))
    }

    /// The topmost screen row that shows the map; rows above it are sky.
    public var horizonY: Double { principalPoint.y - horizonOffset }

    // MARK: Coordinates ↔ screen

    /// Screen point of a coordinate, or nil when it is beyond the horizon. The longitude is taken
    /// on the world copy nearest the camera centre.
    public func point(for coordinate: LocationCoordinate2D) -> ScreenPoint? {
        var (x, y) = WebMercator.project(coordinate, worldSize: worldSize)
        let half = worldSize / 2
        while x - centerX > half { x -= worldSize }
        while x - centerX < -half { x += worldSize }
        return screenPoint(worldX: x, worldY: y)
    }

    /// The coordinate under a screen point (clamped below the horizon). Longitude not wrapped.
    public func coordinate(for point: ScreenPoint) -> LocationCoordinate2D {
        let w = worldPoint(for: point)
        return WebMercator.unproject(x: w.x, y: w.y, worldSize: worldSize)
    }

    /// The centre that puts `coordinate` at screen `point`, with the other camera fields as now.
    public func center(placing coordinate: LocationCoordinate2D, at point: ScreenPoint) -> LocationCoordinate2D {
        let target = WebMercator.project(coordinate, worldSize: worldSize)
        let seen = worldPoint(for: point)
        // Moving the centre by a world vector moves every ground point seen on screen by it.
        let x = centerX + (target.x - seen.x), y = centerY + (target.y - seen.y)
        return WebMercator.unproject(x: x, y: y, worldSize: worldSize)
    }

    /// The camera change of a drag from one screen point to another (Mapbox's
    /// `dragCameraOptions(from:to:)`): the ground point under `from` ends under `to`.
    public func dragCameraOptions(from: ScreenPoint, to: ScreenPoint) -> CameraOptions {
        let a = worldPoint(for: from), b = worldPoint(for: to)
        let c = WebMercator.unproject(x: centerX + (a.x - b.x), y: centerY + (a.y - b.y), worldSize: worldSize)
        return CameraOptions(center: c)
    }

    /// The ground homography: screen = (px + X/W, py + Y/W) with (X, Y, W) = H · (wx, wy, 1)
    /// for world points at `worldSize`. W is the depth; W ≤ 0 lies behind the camera.
    public var groundHomography: Homography {
        let d = cameraDistance
        // e = cosB·east − sinB·north, n = sinB·east + cosB·north, east = wx − cx, north = cy − wy.
        // X = d·e, Y = −d·cosP·n, W = sinP·n + d.
        let ex = cosB, ey = sinB, e0 = -cosB * centerX - sinB * centerY
        let nx = sinB, ny = -cosB, n0 = -sinB * centerX + cosB * centerY
        return Homography(
            m00: d * ex, m01: d * ey, m02: d * e0,
            m10: -d * cosP * nx, m11: -d * cosP * ny, m12: -d * cosP * n0,
            m20: sinP * nx, m21: sinP * ny, m22: sinP * n0 + d,
            originX: principalPoint.x, originY: principalPoint.y)
    }
}

/// A projective map of the plane: (x, y) ↦ (originX + X/W, originY + Y/W), (X, Y, W) = M · (x, y, 1).
public struct Homography: Sendable, Equatable {
    public var m00, m01, m02, m10, m11, m12, m20, m21, m22: Double
    public var originX, originY: Double

    /// Depth W of a point (positive in front of the camera).
    @inlinable public func depth(x: Double, y: Double) -> Double { m20 * x + m21 * y + m22 }

    /// The mapped point; the caller makes sure the depth is positive.
    @inlinable public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        let w = 1 / (m20 * x + m21 * y + m22)
        return (originX + (m00 * x + m01 * y + m02) * w, originY + (m10 * x + m11 * y + m12) * w)
    }
}
