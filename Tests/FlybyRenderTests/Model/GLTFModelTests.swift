import FlybyCore
import FlybyData
import FlybyRender
import Foundation
import Testing

/// The binary glTF reader (glTF 2.0 §4.4 GLB, §3.6 accessors, §3.7 meshes, §3.5 nodes): the
/// built-in arrow, small hand-made files, and bad files that must each be a one-line error
/// naming the file and the JSON path.
@Suite struct GLTFModelTests {
    /// A GLB file of `json` and `bin` (each padded to 4 bytes as §4.4.3.1 requires).
    static func glb(_ json: String, bin: [UInt8]? = nil) -> [UInt8] {
        func le(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var text = Array(json.utf8)
        while text.count % 4 != 0 { text.append(0x20) }
        var body = le(text.count) + le(0x4E4F_534A) + text
        if var bin {
            while bin.count % 4 != 0 { bin.append(0) }
            body += le(bin.count) + le(0x004E_4942) + bin
        }
        return le(0x4654_6C67) + le(2) + le(12 + body.count) + body
    }

    /// One triangle (0,0,0), (1,0,0), (0,1,0): 36 bytes of positions, then three UInt16 indices.
    static func triangleBin(indices: [UInt16] = [0, 1, 2]) -> [UInt8] {
        var bytes: [UInt8] = []
        for v: Float in [0, 0, 0, 1, 0, 0, 0, 1, 0] { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 } }
        for i in indices { withUnsafeBytes(of: i.littleEndian) { bytes += $0 } }
        return bytes
    }

    static let triangleJSON = """
    {"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],\
    "meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],"buffers":[{"byteLength":44}],\
    "bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6}],\
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},\
    {"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}]}
    """

    static func triangle(_ edit: (String) -> String = { $0 }, bin: [UInt8] = triangleBin()) -> [UInt8] {
        glb(edit(triangleJSON), bin: bin)
    }

    @Test func readsTheBuiltInArrow() throws {
        let path = try #require(BuiltinData.path("models/arrow.glb"))
        let model = try GLTFModel.load(path: path)
        #expect(model.triangles.count == 14)
        let bounds = try #require(model.bounds)
        #expect(abs(bounds.max.z - 0.5) < 1e-6, "the tip points to +Z, the glTF front")
        #expect(abs(bounds.min.z + 0.35) < 1e-6)
        #expect(abs(bounds.min.y - 0.01) < 1e-6, "the child node's translation lifts it 1 cm")
        let top = model.triangles.prefix(4)
        #expect(top.allSatisfy { $0.normal.y > 0.5 }, "the top faces face up")
        #expect(top.allSatisfy { $0.color.z > 0.8 && $0.color.x < 0.1 }, "the top material is blue")
        let base = model.triangles.suffix(2)
        #expect(base.allSatisfy { $0.normal.y < -0.99 && $0.color.x < 0.4 }, "COLOR_0 darkens the base")
    }

    @Test func aCounterClockwiseTriangleFacesTowardsTheViewer() throws {
        let model = try GLTFModel.read(Self.triangle(), file: "model.glb")
        let t = try #require(model.triangles.first)
        #expect(model.triangles.count == 1)
        #expect(t.normal == SIMD3(0, 0, 1))
        #expect(t.color == SIMD4(1, 1, 1, 1), "no material: white")
    }

    @Test func nodeTransformsPlaceTheMesh() throws {
        let moved = try GLTFModel.read(Self.triangle {
            $0.replacingOccurrences(of: #""nodes":[{"mesh":0}]"#,
                                    with: #""nodes":[{"children":[1],"translation":[10,0,0]},{"mesh":0,"scale":[2,2,-1]}]"#)
        }, file: "model.glb")
        let t = try #require(moved.triangles.first)
        #expect(t.b == SIMD3(12, 0, 0), "scale then the parent's translation")
        #expect(t.normal == SIMD3(0, 0, -1), "a mirroring transform keeps the front face's normal mirrored")
        let matrix = try GLTFModel.read(Self.triangle {
            $0.replacingOccurrences(of: #""nodes":[{"mesh":0}]"#,
                                    with: #""nodes":[{"mesh":0,"matrix":[1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1]}]"#)
        }, file: "model.glb")
        #expect(try #require(matrix.triangles.first).c == SIMD3(5, 7, 7))
    }

    @Test func materialBaseColourTintsTheTriangles() throws {
        let model = try GLTFModel.read(Self.triangle {
            $0.replacingOccurrences(of: #""indices":1}"#, with: #""indices":1,"material":0}"#)
              .replacingOccurrences(of: #""asset""#, with: #""materials":[{"pbrMetallicRoughness":{"baseColorFactor":[1,0.5,0,1]}}],"asset""#)
        }, file: "model.glb")
        #expect(try #require(model.triangles.first).color == SIMD4(1, 0.5, 0, 1))
    }

    /// A bad file and what its error must say.
    struct BadCase: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let message: String
        var testDescription: String { name }
    }

    static let badCases: [BadCase] = {
        let good = triangle()
        func patched(_ at: Int, _ value: UInt32) -> [UInt8] {
            var b = good
            for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
            return b
        }
        func json(_ from: String, _ to: String) -> [UInt8] { triangle { $0.replacingOccurrences(of: from, with: to) } }
        return [
            BadCase(name: "too short", bytes: Array(good.prefix(7)), message: "model.glb: 7 bytes is too short for a binary glTF header"),
            BadCase(name: "wrong magic", bytes: patched(0, 0x1234_5678), message: "model.glb: not a binary glTF (.glb) file"),
            BadCase(name: "version 1", bytes: patched(4, 1), message: "model.glb: binary glTF version 1 is not read"),
            BadCase(name: "length past the end", bytes: patched(8, UInt32(good.count + 4)),
                    message: "model.glb: the header's length \(good.count + 4) is past the end of the file (\(good.count) bytes)"),
            BadCase(name: "JSON chunk past the end", bytes: patched(12, 0xFFFF_FFF0), message: "model.glb: chunks[0]: length 4294967280 is past the end of the file"),
            BadCase(name: "chunk cut short", bytes: { var b = good; b.removeLast(8); for k in 0..<4 { b[8 + k] = UInt8(truncatingIfNeeded: b.count >> (8 * k)) }; return b }(),
                    message: "model.glb: chunks[1]: length 44 is past the end of the file"),
            BadCase(name: "index out of range", bytes: triangle(bin: triangleBin(indices: [0, 1, 7])),
                    message: "model.glb: meshes[0].primitives[0].indices: element 2 of accessors[1] is vertex 7, past the end of the 3 vertices of POSITION"),
            BadCase(name: "huge count", bytes: json(#""componentType":5126,"count":3"#, #""componentType":5126,"count":4000000000"#),
                    message: "model.glb: accessors[0].count: 4000000000 elements of 12 bytes (stride 12) from byte 0 are past the end of bufferViews[0] (36 bytes)"),
            BadCase(name: "misaligned accessor", bytes: json(#"{"bufferView":1,"componentType":5123"#, #"{"bufferView":1,"byteOffset":1,"componentType":5123"#),
                    message: "model.glb: accessors[1]: byte offset 37 or stride 2 is not a multiple of its component size 2"),
            BadCase(name: "view past its buffer", bytes: json(#""byteOffset":36,"byteLength":6"#, #""byteOffset":36,"byteLength":60"#),
                    message: "model.glb: bufferViews[1]: bytes 36 + 60 are past the end of buffers[0] (44 bytes)"),
            BadCase(name: "buffer past the BIN chunk", bytes: json(#""byteLength":44}"#, #""byteLength":4400}"#),
                    message: "model.glb: buffers[0]: byteLength 4400 is past the end of the BIN chunk (44 bytes)"),
            BadCase(name: "no BIN chunk", bytes: glb(triangleJSON), message: "model.glb: buffers[0]: the file has no BIN chunk"),
            BadCase(name: "lines", bytes: json(#""indices":1}"#, #""indices":1,"mode":1}"#),
                    message: "model.glb: meshes[0].primitives[0].mode: 1 is not drawn (only 4, TRIANGLES)"),
            BadCase(name: "external buffer", bytes: json(#""byteLength":44}"#, #""byteLength":44,"uri":"a.bin"}"#),
                    message: "model.glb: buffers[0].uri: external buffers are not read"),
            BadCase(name: "node cycle", bytes: json(#""nodes":[{"mesh":0}]"#, #""nodes":[{"mesh":0,"children":[0]}]"#),
                    message: "model.glb: nodes[0]: is reached twice"),
            BadCase(name: "unknown node", bytes: json(#""scenes":[{"nodes":[0]}]"#, #""scenes":[{"nodes":[3]}]"#),
                    message: "model.glb: scenes[0].nodes[0]: index 3 is not in nodes (1 of them)"),
            BadCase(name: "required extension", bytes: json(#""asset""#, #""extensionsRequired":["KHR_draco_mesh_compression"],"asset""#),
                    message: "model.glb: extensionsRequired[0]: extension 'KHR_draco_mesh_compression' is required by the file and not supported"),
            BadCase(name: "indices not whole triangles", bytes: json(#""componentType":5123,"count":3"#, #""componentType":5123,"count":2"#),
                    message: "model.glb: meshes[0].primitives[0].indices: 2 indices do not make whole triangles"),
            BadCase(name: "positions of the wrong type", bytes: json(#""componentType":5126,"count":3,"type":"VEC3""#, #""componentType":5126,"count":3,"type":"VEC2""#),
                    message: "model.glb: meshes[0].primitives[0].attributes.POSITION: POSITION must be a VEC3 of FLOAT (5126), found accessors[0], a VEC2 of 5126"),
            BadCase(name: "JSON syntax", bytes: json(#"{"asset""#, #"{"asset"::"#),
                    message: "model.glb: the JSON chunk, line 1, column"),
            BadCase(name: "glTF 1", bytes: json(#""version":"2.0""#, #""version":"1.0""#), message: "model.glb: asset: version '1.0' is not glTF 2"),
        ]
    }()

    @Test(arguments: badCases) func badFilesAreOneLineErrors(_ c: BadCase) {
        #expect(throws: InputError.self) { try GLTFModel.read(c.bytes, file: "model.glb") }
        do {
            _ = try GLTFModel.read(c.bytes, file: "model.glb")
        } catch {
            #expect(error.description.hasPrefix(c.message), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func everyTruncationAndByteFlipIsAModelOrAnError() throws {
        let arrow = try BuiltinData.bytes("models/arrow.glb")
        var survived = 0
        for n in 0..<arrow.count {
            if (try? GLTFModel.read(Array(arrow.prefix(n)), file: "cut.glb")) != nil { survived += 1 }
        }
        #expect(survived == 0, "no prefix of the file is a whole model")
        var rng = SplitMix64(seed: 19)
        for _ in 0..<3000 {
            var b = arrow
            for _ in 0..<Int(1 + rng.next() % 4) { b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            if let model = try? GLTFModel.read(b, file: "flip.glb") {
                #expect(model.triangles.count <= GLTFModel.maxTriangles)
            }
        }
    }
}
