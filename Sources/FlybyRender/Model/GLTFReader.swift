import FlybyData

/// Reads the JSON document of a binary glTF 2.0 file against its BIN chunk (glTF 2.0 §3.6
/// "Binary Data Storage", §3.7 "Geometry", §3.5 "Nodes and Hierarchy", §3.9 "Materials") and
/// flattens the default scene into triangles (``GLTFModel``).
///
/// Read: `buffers` (only the GLB's own BIN chunk: no `uri`), `bufferViews`, `accessors` (no
/// `sparse`), `meshes[].primitives[]` with `POSITION` (VEC3 FLOAT), optional `NORMAL` (VEC3
/// FLOAT) and `COLOR_0` (VEC3/VEC4, FLOAT or normalized UNSIGNED_BYTE/SHORT), `indices`
/// (UNSIGNED_BYTE/SHORT/INT) and `mode` 4 (TRIANGLES); `materials[].pbrMetallicRoughness
/// .baseColorFactor`; `nodes` with `matrix` or `translation`/`rotation`/`scale`, `children` and
/// `mesh`; `scenes` and `scene`. Anything else a file has is ignored, except what would change
/// the geometry (another primitive mode, sparse accessors, external buffers, a required
/// extension), which is an error naming it.
///
/// Every error names the file and the JSON path (no line and column: the JSON sits in a binary
/// file), and is thrown before anything the file's numbers size is allocated.
struct GLTFReader {
    let bytes: [UInt8]
    let bin: Range<Int>?
    let file: String
    let root: JSONCursor
    let buffers: [JSONCursor], views: [JSONCursor], accessors: [JSONCursor]
    let meshes: [JSONCursor], materials: [JSONCursor], nodes: [JSONCursor], scenes: [JSONCursor]
    var triangles: [GLTFModel.Triangle] = []

    init(bytes: [UInt8], container: GLBContainer, file: String) throws(InputError) {
        self.bytes = bytes
        self.bin = container.bin
        self.file = file
        let document: JSONDocument
        do { document = try JSONDocument(file: file, bytes: container.json) } catch {
            throw InputError(file: file, message: "the JSON chunk, line \(error.line ?? 0), column \(error.column ?? 0): \(error.message)")
        }
        let root = document.cursor
        self.root = root
        func array(_ key: String) throws(InputError) -> [JSONCursor] { try root.member(key)?.elements() ?? [] }
        (buffers, views, accessors, meshes, materials, nodes, scenes) = try GLTFReader.withoutPosition { () throws(InputError) in
            guard root.isObject else { throw root.error("the JSON chunk must be an object, found \(root.node.typeDescription)") }
            let asset = try root.required("asset")
            let version = try asset.required("version").string()
            guard version.split(separator: ".").first == "2" else { throw asset.error("version '\(version)' is not glTF 2") }
            if let required = try root.member("extensionsRequired")?.elements(), let first = required.first {
                throw first.error("extension '\(try first.string())' is required by the file and not supported")
            }
            return (try array("buffers"), try array("bufferViews"), try array("accessors"), try array("meshes"),
                    try array("materials"), try array("nodes"), try array("scenes"))
        }
    }

    /// `body`'s errors without line and column (positions inside the JSON chunk of a binary
    /// file would mislead); the JSON path stays.
    static func withoutPosition<T>(_ body: () throws(InputError) -> T) throws(InputError) -> T {
        do { return try body() } catch {
            var e = error
            e.line = nil; e.column = nil
            throw e
        }
    }

    /// The triangles of the default scene (`scene`, else the first of `scenes`; a file without
    /// scenes draws every node that is no node's child).
    mutating func sceneTriangles() throws(InputError) -> [GLTFModel.Triangle] {
        try GLTFReader.withoutPosition { () throws(InputError) in
            var roots: [Int] = []
            if !scenes.isEmpty {
                var scene = 0
                if let s = try root.member("scene") { scene = try index(s, count: scenes.count, of: "scenes") }
                for n in try scenes[scene].member("nodes")?.elements() ?? [] { roots.append(try index(n, count: nodes.count, of: "nodes")) }
            } else {
                var isChild = [Bool](repeating: false, count: nodes.count)
                for node in nodes {
                    for c in try node.member("children")?.elements() ?? [] { isChild[try index(c, count: nodes.count, of: "nodes")] = true }
                }
                roots = nodes.indices.filter { !isChild[$0] }
            }
            try walk(roots)
            return triangles
        }
    }

    /// Depth first through the node trees from `roots`, with an explicit stack (a chain of
    /// nodes as long as the file allows must not exhaust the thread's stack). A node reached
    /// twice is an error: the hierarchy must be disjoint trees (§3.5.3).
    mutating func walk(_ roots: [Int]) throws(InputError) {
        var visited = [Bool](repeating: false, count: nodes.count)
        var stack: [(node: Int, parent: Affine3)] = roots.reversed().map { ($0, Affine3.identity) }
        while let (k, parent) = stack.popLast() {
            let node = nodes[k]
            guard !visited[k] else { throw node.error("is reached twice: nodes must form disjoint trees (glTF 2.0 §3.5.3)") }
            visited[k] = true
            guard node.isObject else { throw node.error("expected an object, found \(node.node.typeDescription)") }
            let world = parent.then(try localTransform(node))
            if let m = try node.member("mesh") {
                let mesh = meshes[try index(m, count: meshes.count, of: "meshes")]
                for p in try mesh.required("primitives").elements() { try readPrimitive(p, world) }
            }
            let children = try node.member("children")?.elements() ?? []
            for c in children.reversed() { stack.append((try index(c, count: nodes.count, of: "nodes"), world)) }
        }
    }

    /// A node's `matrix` (column-major, affine) or its `translation` · `rotation` · `scale` (§3.5.2).
    func localTransform(_ node: JSONCursor) throws(InputError) -> Affine3 {
        if let m = try node.member("matrix") {
            let v = try numbers(m, count: 16)
            guard v[3] == 0, v[7] == 0, v[11] == 0, v[15] == 1 else { throw m.error("is not an affine transform (its last row must be 0, 0, 0, 1)") }
            return Affine3(c0: SIMD3(v[0], v[1], v[2]), c1: SIMD3(v[4], v[5], v[6]), c2: SIMD3(v[8], v[9], v[10]), t: SIMD3(v[12], v[13], v[14]))
        }
        var t = Affine3.identity
        if let s = try node.member("scale") {
            let v = try numbers(s, count: 3)
            t = Affine3(c0: SIMD3(v[0], 0, 0), c1: SIMD3(0, v[1], 0), c2: SIMD3(0, 0, v[2]), t: .zero)
        }
        if let r = try node.member("rotation") {
            let q = try numbers(r, count: 4)
            let length = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).squareRoot()
            guard length > 1e-9 else { throw r.error("is not a unit quaternion (its length is \(length))") }
            t = Affine3.rotation(x: q[0] / length, y: q[1] / length, z: q[2] / length, w: q[3] / length).then(t)
        }
        if let tr = try node.member("translation") {
            let v = try numbers(tr, count: 3)
            t.t += SIMD3(v[0], v[1], v[2])
        }
        return t
    }

    /// Reads one `TRIANGLES` primitive into ``triangles``, placed by `world`.
    mutating func readPrimitive(_ p: JSONCursor, _ world: Affine3) throws(InputError) {
        if let mode = try p.member("mode") {
            let m = try mode.int()
            guard m == 4 else { throw mode.error("\(m) is not drawn (only 4, TRIANGLES)") }
        }
        let attributes = try p.required("attributes")
        let positionField = try attributes.required("POSITION")
        let positions = try accessor(positionField)
        try positions.expect(types: [3], components: [5126], at: positionField, what: "POSITION", "VEC3 of FLOAT (5126)")
        let vertexCount = positions.count
        var normals: AccessorData?
        if let f = try attributes.member("NORMAL") {
            let a = try accessor(f)
            try a.expect(types: [3], components: [5126], at: f, what: "NORMAL", "VEC3 of FLOAT (5126)")
            guard a.count == vertexCount else { throw f.error("\(a.count) normals for \(vertexCount) positions (attributes must have the same count)") }
            normals = a
        }
        var colors: AccessorData?
        if let f = try attributes.member("COLOR_0") {
            let a = try accessor(f)
            try a.expect(types: [3, 4], components: [5126, 5121, 5123], at: f, what: "COLOR_0",
                         "VEC3 or VEC4 of FLOAT, or of normalized UNSIGNED_BYTE or UNSIGNED_SHORT")
            guard a.componentType == 5126 || a.normalized else { throw f.error("COLOR_0 of integers must be normalized (glTF 2.0 §3.7.2.1)") }
            guard a.count == vertexCount else { throw f.error("\(a.count) colours for \(vertexCount) positions (attributes must have the same count)") }
            colors = a
        }
        var base = SIMD4<Double>(1, 1, 1, 1)
        if let m = try p.member("material") {
            let material = materials[try index(m, count: materials.count, of: "materials")]
            if let factor = try material.member("pbrMetallicRoughness")?.member("baseColorFactor") {
                let v = try numbers(factor, count: 4)
                guard v.allSatisfy({ (0...1).contains($0) }) else { throw factor.error("each component must be in 0…1") }
                base = SIMD4(v[0], v[1], v[2], v[3])
            }
        }
        // The corner list: the indices, or the vertices in order.
        var corners: [Int] = []
        if let f = try p.member("indices") {
            let a = try accessor(f)
            try a.expect(types: [1], components: [5121, 5123, 5125], at: f, what: "indices", "SCALAR of UNSIGNED_BYTE, SHORT or INT")
            guard a.count % 3 == 0 else { throw f.error("\(a.count) indices do not make whole triangles (a multiple of 3)") }
            try checkRoom(a.count / 3, at: f)
            corners.reserveCapacity(a.count)
            for i in 0..<a.count {
                let v = a.integer(bytes, i)
                guard v < vertexCount else {
                    throw f.error("element \(i) of accessors[\(a.index)] is vertex \(v), past the end of the \(vertexCount) vertices of POSITION")
                }
                corners.append(v)
            }
        } else {
            guard vertexCount % 3 == 0 else { throw positionField.error("\(vertexCount) vertices without indices do not make whole triangles") }
            try checkRoom(vertexCount / 3, at: positionField)
            corners = Array(0..<vertexCount)
        }
        let cofactor = world.cofactor, flip = world.determinant < 0 ? -1.0 : 1.0
        triangles.reserveCapacity(triangles.count + corners.count / 3)
        for k in stride(from: 0, to: corners.count, by: 3) {
            let i = corners[k], j = corners[k + 1], l = corners[k + 2]
            let a = world.apply(positions.vector3(bytes, i)), b = world.apply(positions.vector3(bytes, j))
            let c = world.apply(positions.vector3(bytes, l))
            guard Affine3.isFinite(a), Affine3.isFinite(b), Affine3.isFinite(c) else {
                throw positionField.error("vertex \(i), \(j) or \(l) is not a finite number once placed by its node")
            }
            var n = Affine3.cross(b - a, c - a) * flip   // counter-clockwise is the front (§3.7.2.1)
            let area = Affine3.length(n)
            guard area > 0, area.isFinite else { continue }   // a degenerate triangle covers nothing
            n /= area
            if let normals {
                let given = (normals.vector3(bytes, i) + normals.vector3(bytes, j) + normals.vector3(bytes, l))
                let placed = (cofactor.c0 * given.x + cofactor.c1 * given.y + cofactor.c2 * given.z) * flip
                if (n * placed).sum() < 0 { n = -n }
            }
            var color = base
            if let colors {
                color *= (colors.vector4(bytes, i) + colors.vector4(bytes, j) + colors.vector4(bytes, l)) / 3
            }
            triangles.append(GLTFModel.Triangle(a: a, b: b, c: c, normal: n, color: color))
        }
    }

    func checkRoom(_ count: Int, at field: JSONCursor) throws(InputError) {
        guard count <= GLTFModel.maxTriangles - triangles.count else {
            throw field.error("\(count) more triangles are more than the \(GLTFModel.maxTriangles) a model may have")
        }
    }

    /// An index into an array of `count` items named `name`.
    func index(_ c: JSONCursor, count: Int, of name: String) throws(InputError) -> Int {
        let i = try c.int()
        guard i >= 0, i < count else { throw c.error("index \(i) is not in \(name) (\(count) of them)") }
        return i
    }

    /// An array of exactly `count` finite numbers.
    func numbers(_ c: JSONCursor, count: Int) throws(InputError) -> [Double] {
        let items = try c.elements()
        guard items.count == count else { throw c.error("expected \(count) numbers, found \(items.count)") }
        var out: [Double] = []
        for item in items { out.append(try item.double()) }
        return out
    }

    /// A whole number ≥ 0 (absent: `default`).
    func count(_ c: JSONCursor, _ key: String, default value: Int? = nil, minimum: Int = 0) throws(InputError) -> Int {
        guard let f = try c.member(key) else {
            guard let value else { throw c.error("missing required field '\(key)'") }
            return value
        }
        let v = try f.int()
        guard v >= minimum else { throw f.error("\(v) must be at least \(minimum)") }
        return v
    }

    /// The accessor named by the index at `field`, resolved to bytes of the BIN chunk and
    /// checked: its buffer view inside its buffer, the buffer inside the BIN chunk, its offset
    /// and stride aligned to its component size, and all `count` elements inside the view
    /// (§3.6.2 "Accessors", §3.6.2.4 "Data Alignment").
    func accessor(_ field: JSONCursor) throws(InputError) -> AccessorData {
        let k = try index(field, count: accessors.count, of: "accessors")
        let a = accessors[k]
        guard a.isObject else { throw a.error("expected an object, found \(a.node.typeDescription)") }
        if let s = try a.member("sparse") { throw s.error("sparse accessors are not read") }
        guard let viewField = try a.member("bufferView") else {
            throw a.error("has no bufferView (zero-filled accessors are not read)")
        }
        let typeField = try a.required("componentType")
        let componentType = try typeField.int()
        let sizes = [5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4]
        guard let componentSize = sizes[componentType] else {
            throw typeField.error("\(componentType) is not a glTF component type (5120, 5121, 5122, 5123, 5125 or 5126)")
        }
        let kindField = try a.required("type")
        let kinds = ["SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16]
        let kind = try kindField.string()
        guard let components = kinds[kind] else { throw kindField.error("'\(kind)' is not an accessor type") }
        let normalized = try a.member("normalized")?.bool() ?? false
        let count = try self.count(a, "count", minimum: 1)
        let offset = try self.count(a, "byteOffset", default: 0)
        // The buffer view and its buffer.
        let viewIndex = try index(viewField, count: views.count, of: "bufferViews")
        let view = views[viewIndex]
        guard view.isObject else { throw view.error("expected an object, found \(view.node.typeDescription)") }
        let bufferField = try view.required("buffer")
        let bufferIndex = try index(bufferField, count: buffers.count, of: "buffers")
        let buffer = buffers[bufferIndex]
        guard buffer.isObject else { throw buffer.error("expected an object, found \(buffer.node.typeDescription)") }
        if let uri = try buffer.member("uri") { throw uri.error("external buffers are not read (only the .glb file's own BIN chunk)") }
        guard bufferIndex == 0, let bin else {
            throw buffer.error(bin == nil ? "the file has no BIN chunk for this buffer" : "only buffers[0] can be the BIN chunk")
        }
        let bufferLength = try self.count(buffer, "byteLength", minimum: 1)
        guard bufferLength <= bin.count else {
            throw buffer.error("byteLength \(bufferLength) is past the end of the BIN chunk (\(bin.count) bytes)")
        }
        let viewOffset = try self.count(view, "byteOffset", default: 0)
        let viewLength = try self.count(view, "byteLength", minimum: 1)
        guard viewOffset <= bufferLength, viewLength <= bufferLength - viewOffset else {
            throw view.error("bytes \(viewOffset) + \(viewLength) are past the end of buffers[\(bufferIndex)] (\(bufferLength) bytes)")
        }
        let elementSize = componentSize * components
        var stride = elementSize
        if let s = try view.member("byteStride") {
            stride = try s.int()
            guard (4...252).contains(stride), stride % 4 == 0 else { throw s.error("\(stride) must be a multiple of 4 in 4…252") }
            guard stride >= elementSize else { throw s.error("\(stride) is less than the \(elementSize) bytes of an element of accessors[\(k)]") }
        }
        guard (viewOffset + offset) % componentSize == 0, stride % componentSize == 0 else {
            throw a.error("byte offset \(viewOffset + offset) or stride \(stride) is not a multiple of its component size \(componentSize) (glTF 2.0 §3.6.2.4)")
        }
        let (span, overflow) = (count - 1).multipliedReportingOverflow(by: stride)
        guard !overflow, offset <= viewLength, span <= viewLength - offset, elementSize <= viewLength - offset - span else {
            throw (try a.required("count")).error("\(count) elements of \(elementSize) bytes (stride \(stride)) from byte \(offset) are past the end of bufferViews[\(viewIndex)] (\(viewLength) bytes)")
        }
        return AccessorData(index: k, start: bin.lowerBound + viewOffset + offset, stride: stride, count: count,
                            componentType: componentType, componentSize: componentSize, components: components,
                            type: kind, normalized: normalized)
    }
}

/// A checked accessor: where its elements are in the file's bytes. Every read is in bounds by
/// construction (``GLTFReader/accessor(_:)``).
struct AccessorData {
    let index: Int, start: Int, stride: Int, count: Int
    let componentType: Int, componentSize: Int, components: Int
    let type: String
    let normalized: Bool

    /// Throws unless the element has one of `types` component counts and `components` types.
    func expect(types: Set<Int>, components allowed: Set<Int>, at field: JSONCursor, what: String, _ wanted: String) throws(InputError) {
        guard types.contains(components), allowed.contains(componentType), type.hasPrefix(components == 1 ? "SCALAR" : "VEC") else {
            throw field.error("\(what) must be a \(wanted), found accessors[\(index)], a \(type) of \(componentType)")
        }
    }

    @inline(__always) func u32(_ b: [UInt8], _ o: Int) -> UInt32 { GLBContainer.u32(b, o) }

    /// Component `c` of element `i` as a number (normalized integers scaled to 0…1 or −1…1).
    func component(_ b: [UInt8], _ i: Int, _ c: Int) -> Double {
        let o = start + i * stride + c * componentSize
        switch componentType {
        case 5126: return Double(Float(bitPattern: u32(b, o)))
        case 5121: return normalized ? Double(b[o]) / 255 : Double(b[o])
        case 5123:
            let v = Double(UInt16(b[o]) | UInt16(b[o + 1]) << 8)
            return normalized ? v / 65535 : v
        case 5120:
            let v = Double(Int8(bitPattern: b[o]))
            return normalized ? max(v / 127, -1) : v
        case 5122:
            let v = Double(Int16(bitPattern: UInt16(b[o]) | UInt16(b[o + 1]) << 8))
            return normalized ? max(v / 32767, -1) : v
        default: return Double(u32(b, o))
        }
    }

    /// Element `i` of an unsigned integer SCALAR accessor.
    func integer(_ b: [UInt8], _ i: Int) -> Int {
        let o = start + i * stride
        switch componentType {
        case 5121: return Int(b[o])
        case 5123: return Int(UInt16(b[o]) | UInt16(b[o + 1]) << 8)
        default: return Int(u32(b, o))
        }
    }

    func vector3(_ b: [UInt8], _ i: Int) -> SIMD3<Double> { SIMD3(component(b, i, 0), component(b, i, 1), component(b, i, 2)) }

    /// A colour: VEC3 with alpha 1, or VEC4.
    func vector4(_ b: [UInt8], _ i: Int) -> SIMD4<Double> {
        SIMD4(component(b, i, 0), component(b, i, 1), component(b, i, 2), components == 4 ? component(b, i, 3) : 1)
    }
}
