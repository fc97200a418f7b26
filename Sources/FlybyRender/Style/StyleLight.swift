import FlybyData
import Foundation

/// The style's root `light` (Style Specification v8, "Light"): the one light that shades
/// `fill-extrusion` walls and roofs.
///
/// - `anchor`: `viewport` (the default: the light turns with the camera, so a building's sunny
///   side stays the same on screen) or `map` (fixed to north).
/// - `position`: `[r, a, p]`, radial distance (unused by a directional light), azimuthal angle
///   in degrees clockwise from the top of the viewport (or from north), and polar angle in
///   degrees from straight up; default `[1.15, 210, 30]`.
/// - `color` (default white) and `intensity` 0…1 (default 0.5).
///
/// Flyby reads constant values only; an expression in `light` is an error naming it.
public struct StyleLight: Sendable, Equatable {
    public var anchorsToMap = false
    public var radial = 1.15, azimuth = 210.0, polar = 30.0
    public var color = StyleColor.white
    public var intensity = 0.5

    public init() {}

    /// The unit vector towards the light in (east, north, up), for a camera of `bearing` degrees.
    public func direction(bearing: Double) -> (east: Double, north: Double, up: Double) {
        let a = (azimuth + (anchorsToMap ? 0 : bearing)) * .pi / 180, p = polar * .pi / 180
        return (sin(p) * sin(a), sin(p) * cos(a), cos(p))
    }

    /// The shade of a face whose unit normal is `normal` (east, north, up), as a factor of its
    /// colour: (1 − intensity) ambient plus intensity × Lambert's cosine (clamped at 0).
    public func shade(normal: (east: Double, north: Double, up: Double), bearing: Double) -> Double {
        let l = direction(bearing: bearing)
        let lambert = max(0, normal.east * l.east + normal.north * l.north + normal.up * l.up)
        return (1 - intensity) + intensity * lambert
    }

    static func parse(_ c: JSONCursor) throws(InputError) -> StyleLight {
        guard c.isObject else { throw c.error("light must be an object, found \(c.node.typeDescription)") }
        try c.rejectUnknownKeys(["anchor", "position", "color", "intensity"], what: "light property")
        var light = StyleLight()
        if let v = try c.member("anchor") {
            switch try v.string() {
            case "map": light.anchorsToMap = true
            case "viewport": light.anchorsToMap = false
            case let s: throw v.error("anchor must be 'map' or 'viewport', not '\(s)'")
            }
        }
        if let v = try c.member("position") {
            let items = try v.elements()
            guard items.count == 3 else { throw v.error("position must be [radial, azimuthal, polar] (three numbers; Flyby reads no expression here)") }
            light.radial = try items[0].double(in: 0...1e6, what: "radial distance")
            light.azimuth = try items[1].double(in: -1e6...1e6, what: "azimuthal angle")
            light.polar = try items[2].double(in: 0...180, what: "polar angle")
        }
        if let v = try c.member("color") {
            guard v.isString, let color = StyleColor(css: try v.string()) else { throw v.error("color must be a CSS colour string (Flyby reads no expression here)") }
            light.color = color
        }
        if let v = try c.member("intensity") { light.intensity = try v.double(in: 0...1, what: "intensity") }
        return light
    }
}
