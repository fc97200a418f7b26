#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The zoom-and-pan path of `fly(to:)`: van Wijk & Nuij, "Smooth and efficient zooming and
/// panning", IEEE InfoVis 2003, in the form of docs/research/mapbox-camera-viewport.md §5 and
/// docs/research/maplibre-camera-algorithms.md §4.
///
/// Lengths are in world points at the start zoom z0: w0 = max(padded width, padded height) of the
/// destination padding, w1 = w0 / 2^(z1 − z0), u1 = ground distance between the centres. With
/// bᵢ = (w1² − w0² ± ρ⁴u1²) / (2·wᵢ·ρ²·u1) and rᵢ = ln(√(bᵢ² + 1) − bᵢ), the path has length
/// S = (r1 − r0)/ρ; at s ∈ [0, S] the visible span is w0·cosh(r0)/cosh(r0 + ρs) and the centre has
/// covered u(s)/u1 = w0·(cosh(r0)·tanh(r0 + ρs) − sinh(r0)) / (ρ²·u1) of the way. When the centres
/// (almost) coincide the path is a pure zoom: S = |ln(w1/w0)|/ρ and the span is w0·e^(±ρs).
///
/// Bearing and pitch move linearly in the eased time k (bearing the short way).
///
/// Padding (the principal point, where the centre is drawn) moves so that the destination slides
/// along a straight screen line from where it starts to the new principal point, whatever the
/// zoom does: with u the ground fraction and sᵢ = 2^(zoom) the scale, the destination is drawn at
/// cp(f) + R·Δ·(1 − u)·s(t), which stays on that line exactly when f = 1 − (1 − u)·s(t)/s0
/// (clamped to 0…1; a pure zoom uses k). Mapbox and MapLibre move padding by k, which bends the
/// destination's path into an S (maplibre-native#4468, docs/research/mapbox-camera-viewport.md §10 item 14).
public struct FlyToPath: Sendable {
    /// ρ, the curvature of the path (the user-study average).
    public static let defaultRho = 1.42
    /// Default speed in ρ-screenfuls per second: duration = S / 1.2.
    public static let defaultSpeed = 1.2

    public let start: CameraState
    /// The (clamped) destination; the camera ends exactly here.
    public let target: CameraState
    public let rho: Double
    /// Path length S in ρ-screenfuls.
    public let length: Double
    let startX: Double, startY: Double, deltaX: Double, deltaY: Double
    let worldSize0: Double
    let u1: Double, w0: Double, r0: Double, coshR0: Double, sinhR0: Double
    let isPureZoom: Bool
    let zoomingOut: Bool
    let bearingTarget: Double
    let longitudeTarget: Double

    /// - Parameters:
    ///   - start: the camera when the flight starts.
    ///   - target: the destination, already clamped to the camera bounds.
    ///   - size: the map size in points.
    ///   - minZoom: the lowest zoom the arc may reach (GL JS's `minZoom`): ρ is lowered to
    ///     √(2·wMax/u1) when that is smaller, wMax being the span at that zoom.
    public init(start: CameraState, target: CameraState, size: ScreenSize, rho: Double = FlyToPath.defaultRho, minZoom: Double? = nil) {
        self.start = start
        self.target = target
        let z0 = start.zoom, z1 = target.zoom
        let pad = target.padding
        w0 = max(size.width - pad.left - pad.right, size.height - pad.top - pad.bottom, 1)
        let w1 = w0 / exp2(z1 - z0)
        worldSize0 = WebMercator.worldSize(zoom: z0)
        longitudeTarget = shortestAngle(from: start.center.longitude, to: target.center.longitude)
        let s0 = WebMercator.project(start.center, worldSize: worldSize0)
        let s1 = WebMercator.project(LocationCoordinate2D(latitude: target.center.latitude, longitude: longitudeTarget), worldSize: worldSize0)
        startX = s0.x; startY = s0.y
        deltaX = s1.x - s0.x; deltaY = s1.y - s0.y
        u1 = (deltaX * deltaX + deltaY * deltaY).squareRoot()
        var rho = rho
        if let minZoom, u1 > 0 {
            let m = min(minZoom, z0, z1)
            let wMax = w0 / exp2(m - z0)
            rho = min(rho, (2 * wMax / u1).squareRoot())
        }
        self.rho = rho
        bearingTarget = shortestAngle(from: start.bearing, to: target.bearing)
        zoomingOut = w1 > w0
        let w0 = self.w0, u1 = self.u1
        func r(_ i: Int) -> Double {
            let w = i == 0 ? w0 : w1
            let sign: Double = i == 0 ? 1 : -1
            let b = (w1 * w1 - w0 * w0 + sign * rho * rho * rho * rho * u1 * u1) / (2 * w * rho * rho * u1)
            return log((b * b + 1).squareRoot() - b)
        }
        var pureZoom = u1 < 1e-6
        var r0Value = 0.0, lengthValue = 0.0
        if !pureZoom {
            r0Value = r(0)
            lengthValue = (r(1) - r0Value) / rho
            if !lengthValue.isFinite || !r0Value.isFinite { pureZoom = true }
        }
        if pureZoom {
            r0Value = 0
            lengthValue = abs(log(w1 / w0)) / rho
        }
        isPureZoom = pureZoom
        r0 = r0Value
        length = lengthValue
        coshR0 = cosh(r0Value)
        sinhR0 = sinh(r0Value)
    }

    /// The automatic duration, seconds: S / speed.
    public func automaticDuration(speed: Double = FlyToPath.defaultSpeed) -> Double { length / speed }

    /// Fraction of the ground distance covered at eased progress k (0…1).
    public func groundFraction(at k: Double) -> Double {
        if isPureZoom || k <= 0 { return k >= 1 ? 1 : 0 }
        if k >= 1 { return 1 }
        let e = exp(r0 + rho * k * length)
        return groundFraction(expOfArgument: e)
    }

    /// u(s)/u1 given e = exp(r0 + ρs): tanh = (e − 1/e)/(e + 1/e). One exp serves both the ground
    /// fraction and the zoom (cosh = (e + 1/e)/2), which keeps a sample near 100 ns.
    func groundFraction(expOfArgument e: Double) -> Double {
        let inv = 1 / e
        let tanhValue = (e - inv) / (e + inv)
        return w0 * (coshR0 * tanhValue - sinhR0) / (rho * rho * u1)
    }

    /// Zoom at eased progress k.
    public func zoom(at k: Double) -> Double {
        if k >= 1 { return target.zoom }
        if k <= 0 { return start.zoom }
        let s = k * length
        if isPureZoom { return start.zoom + (zoomingOut ? -1 : 1) * rho * s / log(2) }
        return zoom(expOfArgument: exp(r0 + rho * s))
    }

    func zoom(expOfArgument e: Double) -> Double {
        // span ratio w(s)/w0 = cosh(r0)/cosh(r0 + ρs); zoom = z0 − log2(ratio).
        start.zoom - log2(coshR0 * 2 / (e + 1 / e))
    }

    /// The camera at eased progress k; exactly `target` at k ≥ 1 and `start` at k ≤ 0.
    public func camera(at k: Double) -> CameraState {
        if k >= 1 { return target }
        if k <= 0 { return start }
        let u: Double, z: Double
        if isPureZoom {
            u = 0
            z = zoom(at: k)
        } else {
            let e = exp(r0 + rho * k * length)
            u = groundFraction(expOfArgument: e)
            z = zoom(expOfArgument: e)
        }
        let c = WebMercator.unproject(x: startX + deltaX * u, y: startY + deltaY * u, worldSize: worldSize0)
        var padding = start.padding
        if start.padding != target.padding {
            let f = isPureZoom ? k : min(max(1 - (1 - u) * exp2(z - start.zoom), 0), 1)
            padding = EdgeInsets.lerp(start.padding, target.padding, f)
        }
        return CameraState(center: LocationCoordinate2D(latitude: c.latitude, longitude: wrapLongitude(c.longitude)),
                           padding: padding,
                           zoom: z,
                           bearing: start.bearing + (bearingTarget - start.bearing) * k,
                           pitch: start.pitch + (target.pitch - start.pitch) * k)
    }

    /// True when the flight changes nothing but possibly bearing, pitch or padding.
    public var hasNoPath: Bool { length < 1e-12 }
}
