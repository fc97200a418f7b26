import FlybyData

/// A triangle mesh read from a binary glTF 2.0 file (`.glb`), flattened: every mesh primitive of
/// the default scene, placed by its node's global transform, as flat-shaded triangles.
///
/// Coordinates are glTF's (glTF 2.0 §3.4 "Coordinate System and Units"): right-handed, +Y up,
/// the front of the asset facing +Z, lengths in metres. Colours are linear RGBA 0…1: the
/// material's `pbrMetallicRoughness.baseColorFactor` (§5.19) times the mean of the triangle's
/// `COLOR_0` values. Textures, skins, morph targets, cameras and extensions are not read.
///
/// Read with ``read(_:file:)`` or ``load(path:)``: every count, offset and length of the file is
/// checked against its chunks before use, and any problem is a one-line ``InputError`` naming the
/// file and the JSON path, e.g. `arrow.glb: accessors[2].count: 4000000000 elements of 12 bytes
/// are past the end of bufferViews[1] (288 bytes)`.
public struct GLTFModel: Sendable, Equatable {
    /// One flat-shaded triangle.
    public struct Triangle: Sendable, Equatable {
        /// Corners in model space (glTF axes, metres), counter-clockwise seen from the front.
        public var a: SIMD3<Double>, b: SIMD3<Double>, c: SIMD3<Double>
        /// Unit normal of the front face (model space).
        public var normal: SIMD3<Double>
        /// Linear RGBA, each 0…1.
        public var color: SIMD4<Double>

        public init(a: SIMD3<Double>, b: SIMD3<Double>, c: SIMD3<Double>, normal: SIMD3<Double>, color: SIMD4<Double>) {
            self.a = a; self.b = b; self.c = c; self.normal = normal; self.color = color
        }
    }

    /// The triangles, in file order (nodes depth first, primitives in order).
    public var triangles: [Triangle]

    /// Most triangles a model may have (after node instancing): a puck is a few hundred; this
    /// bounds what a file can make the reader allocate (about 100 MB at the limit).
    public static let maxTriangles = 500_000
    /// Largest `.glb` file read (bytes).
    public static let maxFileBytes = 64 << 20

    public init(triangles: [Triangle]) { self.triangles = triangles }

    /// The box around every corner (model space), or nil for an empty model.
    public var bounds: (min: SIMD3<Double>, max: SIMD3<Double>)? {
        guard let first = triangles.first?.a else { return nil }
        var lo = first, hi = first
        for t in triangles {
            for p in [t.a, t.b, t.c] { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        }
        return (lo, hi)
    }

    /// Reads a `.glb` file.
    /// - Throws: ``InputError`` naming `path` when it cannot be read, is larger than
    ///   ``maxFileBytes`` or is not a valid binary glTF model.
    public static func load(path: String) throws(InputError) -> GLTFModel {
        try read(FileInput.read(path, maxBytes: maxFileBytes), file: path)
    }

    /// Reads the bytes of a `.glb` file named `file` (the name errors give).
    public static func read(_ bytes: [UInt8], file: String) throws(InputError) -> GLTFModel {
        guard bytes.count <= maxFileBytes else {
            throw InputError(file: file, message: "\(bytes.count) bytes is more than the \(maxFileBytes >> 20) MiB a model may have")
        }
        let container = try GLBContainer(bytes, file: file)
        var reader = try GLTFReader(bytes: bytes, container: container, file: file)
        return GLTFModel(triangles: try reader.sceneTriangles())
    }
}
