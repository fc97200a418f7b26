#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// 3D terrain as the camera sees it: the ground's height under any coordinate (the style's
/// `terrain`, its DEM source sampled and multiplied by `exaggeration`), and how far above the
/// ground the camera's eye must stay.
///
/// With terrain the camera's centre sits on the terrain surface (its altitude is the ground's
/// height there) and the eye is `cameraDistance` points from it along the view axis, as in
/// ``MapTransform``. No camera change may put the eye lower than the ground under it plus
/// ``clearance``: ``constrain(_:size:)`` lifts an eye that would be, keeping the eye's
/// horizontal position and the centre, and re-aiming it at the centre (a smaller pitch, a lower
/// zoom), which is what MapLibre GL JS does since its "keep camera outside terrain" change
/// (maplibre-gl-js#4300: "the camera is moved up (keeping its center) … the pitch is adjusted to
/// keep the map's center"). So a flight over a ridge rises over it. A change of the pitch alone
/// (a pitch gesture, an ease of the pitch) is not lifted but stopped: the pitch goes as far
/// towards the asked one as the ground allows, so a pitch gesture towards a hillside stops at
/// the ground instead of pulling the camera back.
public struct Terrain: Sendable {
    /// The ground's height in metres (exaggeration applied) at a coordinate; nil where the DEM has
    /// no data (taken as 0 m, sea level, as Mapbox does outside its DEM).
    public var elevation: @Sendable (LocationCoordinate2D) -> Double?
    /// Metres the eye keeps above the ground under it (default 50 m).
    public var clearance: Double

    public init(clearance: Double = 50, elevation: @escaping @Sendable (LocationCoordinate2D) -> Double?) {
        self.elevation = elevation
        self.clearance = clearance
    }

    /// The ground's height at `coordinate` in metres, 0 where the DEM has none.
    public func height(at coordinate: LocationCoordinate2D) -> Double {
        guard let e = elevation(coordinate), e.isFinite else { return 0 }
        return e
    }

    /// Where the eye of `state` is on a `size`-point viewport: its coordinate (the ground point
    /// under it) and its altitude in metres above sea level (the centre's ground height plus the
    /// eye's height above the centre). Distances use the metres per point at the centre's
    /// latitude (as MapLibre's camera helpers do).
    public func eye(of state: CameraState, size: ScreenSize) -> (coordinate: LocationCoordinate2D, altitude: Double) {
        let t = MapTransform(size: size, state: state)
        let metersPerPoint = WebMercator.metersPerPoint(latitude: state.center.latitude, zoom: state.zoom)
        let p = state.pitch * .pi / 180, b = state.bearing * .pi / 180
        let back = -t.cameraDistance * sin(p)          // screen-forward offset of the eye, points
        let east = back * sin(b), north = back * cos(b)
        let coordinate = WebMercator.unproject(x: t.centerX + east, y: t.centerY - north, worldSize: t.worldSize)
        let altitude = height(at: state.center) + t.cameraDistance * cos(p) * metersPerPoint
        return (coordinate, altitude)
    }

    /// Whether the eye of `state` is at least ``clearance`` above the ground under it.
    public func eyeIsClear(_ state: CameraState, size: ScreenSize) -> Bool {
        let (coordinate, altitude) = eye(of: state, size: size)
        return altitude >= height(at: coordinate) + clearance
    }

    /// `state` kept above the ground, coming from `previous` (the camera before this change):
    /// when only the pitch changed and `previous` was clear, the pitch stops where the eye meets
    /// the clearance (bisection between the two pitches, to 1e-6°); otherwise the eye is lifted
    /// (``constrain(_:size:)``). `state` comes back bit for bit when its eye is clear.
    public func constrain(_ state: CameraState, from previous: CameraState, size: ScreenSize) -> CameraState {
        if eyeIsClear(state, size: size) { return state }
        var samePlace = state
        samePlace.pitch = previous.pitch
        guard samePlace == previous, eyeIsClear(previous, size: size) else { return constrain(state, size: size) }
        var clear = previous.pitch, blocked = state.pitch
        var probe = state
        for _ in 0..<64 where abs(blocked - clear) > 1e-6 {
            probe.pitch = (clear + blocked) / 2
            if eyeIsClear(probe, size: size) { clear = probe.pitch } else { blocked = probe.pitch }
        }
        probe.pitch = clear
        return probe
    }

    /// `state` with its eye lifted to ``clearance`` above the ground under it when it is lower
    /// (otherwise `state` unchanged, bit for bit). The eye keeps its horizontal place and keeps
    /// looking at the same centre: with `h` the eye's horizontal distance from the centre and `v`
    /// its new height above the centre (metres), the pitch becomes atan(h / v) and the zoom drops
    /// by log2 of the distance's growth, √(h² + v²) over the old distance.
    public func constrain(_ state: CameraState, size: ScreenSize) -> CameraState {
        let (eyeCoordinate, altitude) = eye(of: state, size: size)
        let minimum = height(at: eyeCoordinate) + clearance
        guard altitude < minimum else { return state }
        let t = MapTransform(size: size, state: state)
        let metersPerPoint = WebMercator.metersPerPoint(latitude: state.center.latitude, zoom: state.zoom)
        let distance = t.cameraDistance * metersPerPoint          // eye to centre, metres
        let p = state.pitch * .pi / 180
        let h = distance * sin(p)
        let v = minimum - height(at: state.center)                // > the old height above the centre
        let lifted = (h * h + v * v).squareRoot()
        guard lifted.isFinite, lifted > 0, v > 0 else { return state }
        var s = state
        s.pitch = atan2(h, v) * 180 / .pi
        s.zoom = state.zoom - log2(lifted / distance)
        return s
    }
}
