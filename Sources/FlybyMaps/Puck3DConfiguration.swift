import FlybyData
import FlybyRender

/// The 3D location puck's settings (Mapbox's `Puck3DConfiguration`): set
/// `mapView.location.options.puckType = .puck3D(Puck3DConfiguration(model: try Model(uri: "car.glb")))`.
///
/// Values are constants (Mapbox's `Value` expressions are not read); nil takes Mapbox's default:
/// scale `[1, 1, 1]`, rotation `[0, 0, 90]`, opacity 1, scale mode ``ModelScaleMode/viewport``.
/// Axes, sizes and shading: ``Puck3D`` and docs/puck-3d.md.
public struct Puck3DConfiguration: Sendable, Equatable {
    /// The glTF model.
    public var model: Model
    /// `[x, y, z]` factors along east, north and up.
    public var modelScale: [Double]?
    /// `[x, y, z]` degrees about east, north and up.
    public var modelRotation: [Double]?
    /// 0…1 (clamped).
    public var modelOpacity: Double?
    public var modelScaleMode: ModelScaleMode?

    /// - Precondition: `modelScale` and `modelRotation`, when given, have three finite numbers.
    public init(model: Model, modelScale: [Double]? = nil, modelRotation: [Double]? = nil, modelOpacity: Double? = nil,
                modelScaleMode: ModelScaleMode? = nil) {
        for v in [modelScale, modelRotation].compactMap({ $0 }) {
            precondition(v.count == 3 && v.allSatisfy(\.isFinite), "Puck3DConfiguration: modelScale and modelRotation take [x, y, z]")
        }
        self.model = model; self.modelScale = modelScale; self.modelRotation = modelRotation
        self.modelOpacity = modelOpacity; self.modelScaleMode = modelScaleMode
    }

    /// What the renderer draws.
    var puck3D: Puck3D {
        var p = Puck3D(model: model.gltf)
        if let s = modelScale { p.modelScale = SIMD3(s[0], s[1], s[2]) }
        if let r = modelRotation { p.modelRotation = SIMD3(r[0], r[1], r[2]) }
        if let o = modelOpacity { p.modelOpacity = o.isNaN ? 1 : min(1, max(0, o)) }
        if let m = modelScaleMode { p.modelScaleMode = m }
        return p
    }
}

/// How the 3D puck's size follows the zoom (Mapbox's `ModelScaleMode`).
public typealias ModelScaleMode = Puck3D.ScaleMode

/// A glTF 2.0 binary model (Mapbox's `Model`), read when it is made.
public struct Model: Sendable, Equatable {
    /// The file it was read from (nil for a built-in model).
    public let uri: String?
    let gltf: GLTFModel

    /// Reads a `.glb` file.
    /// - Throws: ``InputError`` naming the file and the JSON path of what is wrong in it.
    public init(uri: String) throws(InputError) {
        self.uri = uri
        gltf = try GLTFModel.load(path: uri)
    }

    /// The built-in arrow (Resources/models/arrow.glb, CC0).
    public static func arrow() throws(InputError) -> Model {
        guard let path = BuiltinData.path("models/arrow.glb") else { throw InputError(file: "models/arrow.glb", message: "the built-in model is missing") }
        return try Model(uri: path)
    }
}
