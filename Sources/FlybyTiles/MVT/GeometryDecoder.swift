/// Decodes a feature's geometry commands (vector-tile-spec 2.1 §4.3) into tile coordinates.
///
/// A command integer is `id | count << 3` (§4.3.1): MoveTo = 1 and LineTo = 2 take `count` pairs
/// of zigzag-encoded deltas (§4.3.2) from the cursor, which starts at (0, 0) for each feature and
/// carries over between parts; ClosePath = 7 takes none and must have count 1 (§4.3.3.3).
/// The grammar per type (§4.3.4): a point is MoveTo commands only; a line string is
/// MoveTo(1) then LineTo(≥1), repeated for a multi-line; a polygon ring is MoveTo(1),
/// LineTo(≥1), ClosePath(1), repeated. Anything else, and a count larger than the bytes left
/// could hold (two parameters of at least one byte each), is refused before anything is reserved.
///
/// Rings are classified by their signed area (§4.3.4.4, the surveyor's formula in tile
/// coordinates with y down): positive is an exterior ring, which starts a new polygon; negative
/// is a hole of the polygon before it. Spec 1.x tiles sometimes use the opposite winding, so the
/// sign of the feature's first ring is taken as the exterior sign. A ring of zero area is
/// dropped; repeated vertices in a line are kept (both reported through `repaired`).
///
/// Strict and lenient: real tiles break two rules that mvt-fixtures calls fatal — Mapbox Streets
/// tiles (vector-tile-js's Berlin and z12 fixtures) hold ClosePath commands with count 0 or 2
/// rings of a MoveTo and a ClosePath with no LineTo, and a ClosePath before any MoveTo
/// (mapbox-gl-js issue 1019). By default such a ClosePath is read as count 1 or skipped when no
/// ring is open, and such a ring is dropped (zero area), all reported; `strict` refuses them,
/// as the conformance fixtures 047 and 048 expect. (Fixture 044, a point that starts with
/// ClosePath, is refused in both modes: a point has no ring to close.)
enum GeometryDecoder {
    static let moveTo: UInt32 = 1
    static let lineTo: UInt32 = 2
    static let closePath: UInt32 = 7

    static func decode(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, type: VectorTileGeometryType, strict: Bool,
                       repaired: (String) -> Void) throws(VectorTileError) -> TileGeometry {
        var state = State(reader: ProtobufReader(buffer, range: range), strict: strict)
        do {
            switch type {
            case .unknown: return TileGeometry()
            case .point: try state.points()
            case .lineString: try state.lines(repaired: repaired)
            case .polygon: try state.polygons(repaired: repaired)
            }
        } catch let e as ProtobufError {
            throw VectorTileError("geometry commands overrun their parameters (\(e.message)) (§4.3)")
        } catch let e as VectorTileError {
            throw e
        } catch {
            throw VectorTileError("\(error)")
        }
        return state.geometry
    }

    struct State {
        var reader: ProtobufReader
        var x: Int32 = 0
        var y: Int32 = 0
        var geometry = TileGeometry()
        let strict: Bool

        init(reader: ProtobufReader, strict: Bool) {
            self.reader = reader
            self.strict = strict
            // Every vertex needs at least two bytes: this bounds the reservation by the input.
            geometry.points.reserveCapacity((reader.end - reader.position) / 2)
        }

        /// Reads one command; checks that `count` parameter pairs can fit the bytes left.
        mutating func command() throws -> (id: UInt32, count: UInt32) {
            let c = try reader.varint32()
            let id = c & 7, count = c >> 3
            if id == GeometryDecoder.moveTo || id == GeometryDecoder.lineTo {
                let left = reader.end - reader.position
                guard UInt64(count) * 2 <= UInt64(left) else {
                    throw VectorTileError("command \(id == 1 ? "MoveTo" : "LineTo") with count \(count) needs \(UInt64(count) * 2) parameters; only \(left) bytes are left (§4.3)")
                }
            } else if id != GeometryDecoder.closePath {
                throw VectorTileError("unknown geometry command \(id) (§4.3.3)")
            }
            return (id, count)
        }

        /// The command at the cursor without consuming it, or nil at the end.
        mutating func peekCommandID() throws -> UInt32? {
            guard !reader.isAtEnd else { return nil }
            let saved = reader.position
            let c = try reader.varint32()
            reader.position = saved
            return c & 7
        }

        @inline(__always)
        mutating func vertex() throws -> TilePoint {
            x &+= ProtobufReader.zigzag32(try reader.varint32())
            y &+= ProtobufReader.zigzag32(try reader.varint32())
            return TilePoint(x: x, y: y)
        }

        mutating func points() throws {
            while !reader.isAtEnd {
                let (id, count) = try command()
                guard id == GeometryDecoder.moveTo else { throw VectorTileError("a point geometry may hold only MoveTo commands, found \(id == 2 ? "LineTo" : "ClosePath") (§4.3.4.2)") }
                guard count > 0 else { throw VectorTileError("MoveTo with count 0 (§4.3.4.2)") }
                for _ in 0..<count { geometry.points.append(try vertex()) }
            }
            guard !geometry.points.isEmpty else { throw VectorTileError("a point geometry without MoveTo (§4.3.4.2)") }
        }

        /// MoveTo with count 1 and its vertex (the start of a line or ring).
        mutating func startPart(_ what: String) throws -> TilePoint {
            let (id, count) = try command()
            guard id == GeometryDecoder.moveTo else {
                throw VectorTileError("a \(what) must start with MoveTo, found \(id == 7 ? "ClosePath" : "LineTo") (§4.3.4)")
            }
            guard count == 1 else { throw VectorTileError("MoveTo with count \(count) in a \(what); expected 1 (§4.3.4)") }
            return try vertex()
        }

        /// Reads the LineTo commands that follow; at least one with count ≥ 1 is required (when
        /// `required`; a lenient polygon ring may lack it and is then dropped for its zero area).
        mutating func lineTos(_ what: String, required: Bool = true, _ body: (TilePoint) -> Void) throws {
            var any = false
            while try peekCommandID() == GeometryDecoder.lineTo {
                let (_, count) = try command()
                guard count > 0 else { throw VectorTileError("LineTo with count 0 in a \(what) (§4.3.4)") }
                for _ in 0..<count { body(try vertex()) }
                any = true
            }
            guard any || !required else { throw VectorTileError("a \(what) needs a LineTo after its MoveTo (§4.3.4)") }
        }

        mutating func lines(repaired: (String) -> Void) throws {
            var repeats = 0
            var points = geometry.points
            geometry.points = []
            while !reader.isAtEnd {
                points.append(try startPart("line string"))
                try lineTos("line string") { p in
                    if p == points[points.count - 1] { repeats += 1 }
                    points.append(p)
                }
                geometry.partStarts.append(Int32(points.count))
                if try peekCommandID() == GeometryDecoder.closePath {
                    throw VectorTileError("ClosePath in a line string (§4.3.4.3)")
                }
            }
            geometry.points = points
            // Kept as encoded (other decoders keep them too; a stroker skips zero-length
            // segments), but reported: §4.3.4.3 lines must not repeat a position.
            if repeats > 0 { repaired("\(repeats) repeated vertices in a line string (§4.3.4.3), kept") }
        }

        mutating func polygons(repaired: (String) -> Void) throws {
            var exteriorSign: Double = 0
            var dropped = 0, badClosePaths = 0
            var polygonStarts: [Int32] = []
            var points = geometry.points
            geometry.points = []
            while !reader.isAtEnd {
                let start = points.count
                if !strict, try peekCommandID() == GeometryDecoder.closePath {
                    // A ClosePath with no ring open (mapbox-gl-js issue 1019): nothing to close.
                    _ = try command()
                    badClosePaths += 1
                    continue
                }
                points.append(try startPart("polygon ring"))
                try lineTos("polygon ring", required: strict) { points.append($0) }
                let (id, count) = try command()
                guard id == GeometryDecoder.closePath else { throw VectorTileError("a polygon ring must end with ClosePath (§4.3.4.4)") }
                if count != 1 {
                    guard !strict else { throw VectorTileError("ClosePath with count \(count); expected 1 (§4.3.3.3)") }
                    badClosePaths += 1
                }
                let area = GeometryDecoder.signedArea(points[start...])
                if area == 0 {
                    points.removeLast(points.count - start)
                    dropped += 1
                    continue
                }
                if exteriorSign == 0 { exteriorSign = area > 0 ? 1 : -1 }
                if (area > 0) == (exteriorSign > 0) { polygonStarts.append(Int32(geometry.partStarts.count - 1)) }
                geometry.partStarts.append(Int32(points.count))
            }
            geometry.points = points
            polygonStarts.append(Int32(geometry.partStarts.count - 1))
            geometry.polygonStarts = polygonStarts
            if dropped > 0 { repaired("\(dropped) polygon rings of zero area dropped (§4.3.4.4)") }
            if badClosePaths > 0 { repaired("\(badClosePaths) ClosePath commands with a count other than 1 read as 1, or with no ring open skipped (§4.3.3.3)") }
        }
    }

    /// Twice the signed area by the surveyor's formula, in tile units² (y down: positive is
    /// clockwise on screen, an exterior ring in spec 2.1).
    static func signedArea(_ ring: ArraySlice<TilePoint>) -> Double {
        var sum = 0.0
        var prev = ring[ring.endIndex - 1]
        for p in ring {
            sum += Double(prev.x) * Double(p.y) - Double(p.x) * Double(prev.y)
            prev = p
        }
        return sum
    }
}
