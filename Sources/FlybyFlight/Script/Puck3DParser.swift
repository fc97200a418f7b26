import FlybyData
import Foundation
import FlybyRender

/// The optional `puck3D` object of a flight's `location` and of a trace header (docs/formats.md
/// §2 and §3; docs/puck-3d.md): draw the puck as a glTF model, Mapbox's `Puck3DConfiguration`.
///
/// `{"model": "arrow" | "path/to/model.glb", "modelScale": [x, y, z], "modelRotation": [x, y, z],
/// "modelOpacity": 0…1, "modelScaleMode": "viewport" | "map"}`. Only `model` is required; a
/// name ending in `.glb` is a file relative to the flight or trace, any other the name of a
/// built-in model (`arrow`). The other fields take Mapbox's defaults (``Puck3D``).
enum Puck3DParser {
    /// The built-in models, by name (files in FlybyData's `Resources/models/`).
    static let builtIn = ["arrow"]

    /// Parses the object at `c`; `file` is the flight or trace it is in (model paths are relative to it).
    static func parse(_ c: JSONCursor, file: String) throws(InputError) -> Puck3D {
        try c.rejectUnknownKeys(["model", "modelScale", "modelRotation", "modelOpacity", "modelScaleMode"], what: "puck3D field")
        let modelField = try c.required("model")
        let name = try modelField.string()
        let path: String
        if name.hasSuffix(".glb") {
            let directory = file.lastIndex(of: "/").map { String(file[..<$0]) }
            path = name.hasPrefix("/") || directory == nil ? name : directory! + "/" + name
        } else {
            guard builtIn.contains(name), let p = BuiltinData.path("models/\(name).glb") else {
                throw modelField.error("unknown built-in model '\(name)' (known: \(builtIn.joined(separator: ", ")); a file name ends in .glb)")
            }
            path = p
        }
        let model: GLTFModel
        do { model = try GLTFModel.load(path: path) } catch { throw modelField.error("").referring(to: error) }
        let absolute = name.hasSuffix(".glb") && !path.hasPrefix("/")
            ? FileManager.default.currentDirectoryPath + "/" + path : path
        var puck = Puck3D(model: model, modelName: name.hasSuffix(".glb") ? absolute : name)
        if let v = try c.member("modelScale") { puck.modelScale = try vector(v, range: -1e6...1e6, what: "scale") }
        if let v = try c.member("modelRotation") { puck.modelRotation = try vector(v, range: -36_000...36_000, what: "angle") }
        if let v = try c.member("modelOpacity") { puck.modelOpacity = try v.double(in: 0...1, what: "modelOpacity") }
        if let v = try c.member("modelScaleMode") {
            let s = try v.string()
            guard let mode = Puck3D.ScaleMode(rawValue: s) else { throw v.error("modelScaleMode must be \"viewport\" or \"map\", not '\(s)'") }
            puck.modelScaleMode = mode
        }
        return puck
    }

    /// `[x, y, z]`, each in `range`.
    static func vector(_ c: JSONCursor, range: ClosedRange<Double>, what: String) throws(InputError) -> SIMD3<Double> {
        let items = try c.elements()
        guard items.count == 3 else { throw c.error("expected [x, y, z] (3 numbers), found \(items.count) elements") }
        return SIMD3(try items[0].double(in: range, what: what), try items[1].double(in: range, what: what),
                     try items[2].double(in: range, what: what))
    }
}
