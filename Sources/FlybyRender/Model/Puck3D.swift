import Foundation

/// The 3D location puck (Mapbox's `Puck3DConfiguration`): a glTF model drawn at the puck's
/// position, turned to its bearing, and sized by zoom.
///
/// Axes: the model's glTF axes (+Y up, front towards +Z, glTF 2.0 §3.4) become the map's
/// (east, north, up) as glTF Z → east, X → north, Y → up; then ``modelScale`` scales east, north
/// and up, ``modelRotation`` turns the model about the east, north and up axes (degrees,
/// counter-clockwise looking down each axis; x first, then y, then z), and the puck's bearing
/// turns it clockwise from north. With the default rotation `[0, 0, 90]` (Mapbox's) a model
/// whose front faces glTF +Z points along the puck's bearing.
///
/// Size: ``ScaleMode/viewport`` (Mapbox's default) keeps the model the same size on screen at
/// every zoom, as Mapbox's default scale expression does: one model unit is
/// `modelScale · s(zoom) · cos(latitude)` metres, where `s` interpolates exponentially (base 0.5)
/// from 2^21.5 at zoom 0.5 to 1 at zoom 22 (clamped outside), so `s ≈ 2^(22 − zoom)` and a unit
/// is about 53.6 screen points; the cos(latitude) factor (Mapbox's "mercator scale") cancels
/// Web Mercator's stretch. ``ScaleMode/map``: one model unit is `modelScale` metres on the
/// ground, so the model grows as the camera zooms in.
public struct Puck3D: Sendable, Equatable {
    /// How the model's size follows the zoom (Mapbox's `modelScaleMode`).
    public enum ScaleMode: String, Sendable, Equatable, CaseIterable {
        /// The same size on screen at every zoom (the default).
        case viewport
        /// True size on the ground: model units are metres × ``modelScale``.
        case map
    }

    /// The model (see ``GLTFModel``).
    public var model: GLTFModel
    /// Scale along east, north and up; default `[1, 1, 1]`.
    public var modelScale: SIMD3<Double>
    /// Rotation in degrees about the east, north and up axes; default `[0, 0, 90]`.
    public var modelRotation: SIMD3<Double>
    /// Opacity of the whole model, 0…1 (hidden faces never show through); default 1.
    public var modelOpacity: Double
    public var modelScaleMode: ScaleMode
    /// What the model was chosen by in a flight or trace (its `puck3D.model`): a built-in
    /// model's name, or the `.glb` file's absolute path. Trace headers write it back (docs/formats.md
    /// §3), so a trace made from a flight replays with the same model; nil for a model made in
    /// code, which no trace can name (its header then has no `puck3D`).
    public var modelName: String?

    public init(model: GLTFModel, modelScale: SIMD3<Double> = SIMD3(1, 1, 1), modelRotation: SIMD3<Double> = SIMD3(0, 0, 90),
                modelOpacity: Double = 1, modelScaleMode: ScaleMode = .viewport, modelName: String? = nil) {
        self.model = model; self.modelScale = modelScale; self.modelRotation = modelRotation
        self.modelOpacity = modelOpacity; self.modelScaleMode = modelScaleMode; self.modelName = modelName
    }

    /// The zoom factor `s(zoom)` of ``ScaleMode/viewport``: Mapbox's default
    /// `["interpolate", ["exponential", 0.5], ["zoom"], 0.5, 2^21.5, 22, 1]` (Style
    /// Specification, "interpolate": t = (b^(z − z₀) − 1) / (b^(z₁ − z₀) − 1)).
    public static func viewportScale(zoom: Double) -> Double {
        let z0 = 0.5, z1 = 22.0, v0 = exp2(21.5), v1 = 1.0
        let z = min(max(zoom, z0), z1)
        let t = (exp2(-(z - z0)) - 1) / (exp2(-(z1 - z0)) - 1)
        return v0 + t * (v1 - v0)
    }

    /// Metres per model unit (before ``modelScale``) at `zoom` and `latitude` degrees.
    public func metresPerUnit(zoom: Double, latitude: Double) -> Double {
        switch modelScaleMode {
        case .map: return 1
        case .viewport: return Puck3D.viewportScale(zoom: zoom) * max(1e-6, cos(latitude * .pi / 180))
        }
    }

    /// The linear map from glTF model axes to (east, north, up) metres at 1 metre per unit:
    /// axis change, ``modelScale``, ``modelRotation`` (x, y, z), then the puck's `bearing`
    /// (degrees clockwise from north).
    func placement(bearing: Double) -> Affine3 {
        let axes = Affine3(c0: SIMD3(0, 1, 0), c1: SIMD3(0, 0, 1), c2: SIMD3(1, 0, 0), t: .zero)
        let scale = Affine3(c0: SIMD3(modelScale.x, 0, 0), c1: SIMD3(0, modelScale.y, 0), c2: SIMD3(0, 0, modelScale.z), t: .zero)
        return Affine3.rotation(degrees: -bearing, axis: 2)
            .then(Affine3.rotation(degrees: modelRotation.z, axis: 2))
            .then(Affine3.rotation(degrees: modelRotation.y, axis: 1))
            .then(Affine3.rotation(degrees: modelRotation.x, axis: 0))
            .then(scale).then(axes)
    }
}
