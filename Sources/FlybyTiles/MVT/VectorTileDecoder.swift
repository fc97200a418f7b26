/// A tile the decoder refuses (a "fatal" error in the terms of mvt-fixtures): bad protobuf, a
/// known field with the wrong wire type, a layer without name or version, tags pointing past the
/// key or value tables, geometry commands that overrun or break the command grammar.
public struct VectorTileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Decodes Mapbox Vector Tile 2.1 protobuf bytes (uncompressed) into a ``VectorTile``.
///
/// Field numbers and types follow `vector_tile.proto` of spec 2.1: Tile.layers = 3;
/// Layer.version = 15, name = 1, features = 2, keys = 3, values = 4, extent = 5;
/// Feature.id = 1, tags = 2, type = 3, geometry = 4; Value string = 1 … bool = 7.
/// Unknown fields of Tile, Layer and Feature are skipped by wire type (extensions); an unknown
/// field inside a Value is refused (the value would have no meaning).
///
/// Fatal versus recoverable (mvt-fixtures): the tile is refused for broken protobuf, a wrong wire
/// type on a known field, a layer without a name, a missing or unknown version (not 1 or 2),
/// Value messages with none, several, or unknown fields, tags indexing past the tables, and
/// geometry that breaks §4.3 (a ClosePath first, a MoveTo count ≠ 1 in a line or ring, commands
/// overrunning their parameters, ClosePath in a line; with `strictGeometry` also ClosePath
/// counts ≠ 1 and rings without LineTo, which are otherwise repaired and reported). A feature is skipped and an issue
/// recorded when its type is unknown (a missing type is read as UNKNOWN and reported), its geometry is missing or given twice, or its
/// tag list has an odd length; a second layer with an existing name is dropped (§4.1).
public enum VectorTileDecoder {
    public struct Options: Sendable {
        /// Keep each feature's encoded command integers in `rawGeometry` (conformance tests).
        public var keepsRawGeometry = false
        /// Refuse ClosePath counts other than 1 and rings without LineTo (mvt-fixtures 047/048)
        /// instead of repairing them (see `GeometryDecoder`; real tiles contain both).
        public var strictGeometry = false
        public init(keepsRawGeometry: Bool = false, strictGeometry: Bool = false) {
            self.keepsRawGeometry = keepsRawGeometry; self.strictGeometry = strictGeometry
        }
    }

    public static func decode(_ bytes: [UInt8], options: Options = Options()) throws(VectorTileError) -> VectorTile {
        let result: Result<VectorTile, VectorTileError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(VectorTileError) { return .success(try decode(buffer, options: options)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    public static func decode(_ buffer: UnsafeBufferPointer<UInt8>, options: Options = Options()) throws(VectorTileError) -> VectorTile {
        var tile = VectorTile()
        var reader = ProtobufReader(buffer)
        var names = Set<String>()
        do {
            while let (field, wire) = try reader.nextField() {
                if field == 3 {
                    try expect(wire, .lengthDelimited, "Tile.layers")
                    let range = try reader.lengthDelimited()
                    let layer = try decodeLayer(buffer, range, options: options, issues: &tile.issues)
                    if names.insert(layer.name).inserted {
                        tile.layers.append(layer)
                    } else {
                        tile.issues.append(VectorTileIssue(layer: layer.name, feature: nil, message: "a second layer of this name was dropped (§4.1)"))
                    }
                } else {
                    try reader.skip(wire)
                }
            }
        } catch let e as ProtobufError {
            throw VectorTileError(e.message)
        } catch let e as VectorTileError {
            throw e
        } catch {
            throw VectorTileError("\(error)")
        }
        return tile
    }

    static func expect(_ wire: WireType, _ expected: WireType, _ field: String) throws(VectorTileError) {
        guard wire == expected else { throw VectorTileError("\(field) has wire type \(wire.rawValue), expected \(expected.rawValue)") }
    }

    private static func decodeLayer(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, options: Options,
                                    issues: inout [VectorTileIssue]) throws(VectorTileError) -> VectorTileLayer {
        var reader = ProtobufReader(buffer, range: range)
        var name: String?
        var version: UInt64?
        var extent: UInt64 = 4096
        var keys: [String] = []
        var values: [VectorTileValue] = []
        var featureRanges: [Range<Int>] = []
        do {
            while let (field, wire) = try reader.nextField() {
                switch field {
                case 1: try expect(wire, .lengthDelimited, "Layer.name"); name = try reader.string()
                case 2: try expect(wire, .lengthDelimited, "Layer.features"); featureRanges.append(try reader.lengthDelimited())
                case 3: try expect(wire, .lengthDelimited, "Layer.keys"); keys.append(try reader.string())
                case 4:
                    try expect(wire, .lengthDelimited, "Layer.values")
                    values.append(try decodeValue(buffer, try reader.lengthDelimited()))
                case 5: try expect(wire, .varint, "Layer.extent"); extent = try reader.varint()
                case 15: try expect(wire, .varint, "Layer.version"); version = try reader.varint()
                default: try reader.skip(wire)
                }
            }
        } catch let e as ProtobufError {
            throw VectorTileError("layer '\(name ?? "?")': \(e.message)")
        } catch let e as VectorTileError {
            throw e
        } catch {
            throw VectorTileError("\(error)")
        }
        guard let name else { throw VectorTileError("a layer has no name (§4.1: a layer MUST contain a name)") }
        guard let version else { throw VectorTileError("layer '\(name)' has no version (§4.1)") }
        guard version == 1 || version == 2 else { throw VectorTileError("layer '\(name)' has version \(version); only 1 and 2 exist") }
        guard extent > 0, extent <= 1 << 24 else { throw VectorTileError("layer '\(name)' has extent \(extent); expected 1…16777216") }
        var features: [VectorTileFeature] = []
        features.reserveCapacity(featureRanges.count)
        for (index, r) in featureRanges.enumerated() {
            do throws(FeatureProblem) {
                features.append(try decodeFeature(buffer, r, keyCount: keys.count, valueCount: values.count, options: options,
                                                  repaired: { issues.append(VectorTileIssue(layer: name, feature: index, message: $0)) }))
            } catch {
                switch error {
                case .fatal(let m): throw VectorTileError("layer '\(name)' feature \(index): \(m)")
                case .skip(let m): issues.append(VectorTileIssue(layer: name, feature: index, message: "skipped: " + m))
                }
            }
        }
        return VectorTileLayer(name: name, version: Int(version), extent: Int(extent), keys: keys, values: values, features: features)
    }

    private static func decodeValue(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(VectorTileError) -> VectorTileValue {
        var reader = ProtobufReader(buffer, range: range)
        var value: VectorTileValue?
        do {
            while let (field, wire) = try reader.nextField() {
                let v: VectorTileValue
                switch field {
                case 1: try expect(wire, .lengthDelimited, "Value.string_value"); v = .string(try reader.string())
                case 2: try expect(wire, .fixed32, "Value.float_value"); v = .float(Float(bitPattern: try reader.fixed32()))
                case 3: try expect(wire, .fixed64, "Value.double_value"); v = .double(Double(bitPattern: try reader.fixed64()))
                case 4: try expect(wire, .varint, "Value.int_value"); v = .int(Int64(bitPattern: try reader.varint()))
                case 5: try expect(wire, .varint, "Value.uint_value"); v = .uint(try reader.varint())
                case 6: try expect(wire, .varint, "Value.sint_value"); v = .sint(ProtobufReader.zigzag(try reader.varint()))
                case 7: try expect(wire, .varint, "Value.bool_value"); v = .bool(try reader.varint() != 0)
                default: throw VectorTileError("a value has unknown field \(field) (§4.1: exactly one of the seven value types)")
                }
                guard value == nil else { throw VectorTileError("a value has more than one field (§4.1: exactly one)") }
                value = v
            }
        } catch let e as ProtobufError {
            throw VectorTileError("a value: \(e.message)")
        } catch let e as VectorTileError {
            throw e
        } catch {
            throw VectorTileError("\(error)")
        }
        guard let value else { throw VectorTileError("a value has no field (§4.1: exactly one of the seven value types)") }
        return value
    }

    enum FeatureProblem: Error {
        case fatal(String)
        case skip(String)
    }

    private static func decodeFeature(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, keyCount: Int, valueCount: Int,
                                      options: Options, repaired: (String) -> Void) throws(FeatureProblem) -> VectorTileFeature {
        var reader = ProtobufReader(buffer, range: range)
        var id: UInt64?
        var typeCode: UInt64?
        var tags: [UInt32] = []
        var geometryRange: Range<Int>?
        var geometryCount = 0
        do {
            while let (field, wire) = try reader.nextField() {
                switch field {
                case 1:
                    guard wire == .varint else { throw FeatureProblem.fatal("Feature.id has wire type \(wire.rawValue)") }
                    id = try reader.varint()
                case 2:
                    if wire == .lengthDelimited {
                        var packed = ProtobufReader(buffer, range: try reader.lengthDelimited())
                        tags.reserveCapacity(min(packed.end - packed.position, 1 << 20))
                        while !packed.isAtEnd { tags.append(try packed.varint32()) }
                    } else if wire == .varint {
                        tags.append(try reader.varint32())
                    } else {
                        throw FeatureProblem.fatal("Feature.tags has wire type \(wire.rawValue)")
                    }
                case 3:
                    guard wire == .varint else { throw FeatureProblem.fatal("Feature.type has wire type \(wire.rawValue)") }
                    typeCode = try reader.varint()
                case 4:
                    guard wire == .lengthDelimited else { throw FeatureProblem.fatal("Feature.geometry has wire type \(wire.rawValue)") }
                    geometryRange = try reader.lengthDelimited()
                    geometryCount += 1
                default: try reader.skip(wire)
                }
            }
        } catch let e as ProtobufError {
            throw .fatal(e.message)
        } catch let e as FeatureProblem {
            throw e
        } catch {
            throw .fatal("\(error)")
        }
        for (i, t) in tags.enumerated() where Int(t) >= (i % 2 == 0 ? keyCount : valueCount) {
            throw .fatal("tag \(i) is \(t), past the layer's \(i % 2 == 0 ? "\(keyCount) keys" : "\(valueCount) values") (§4.4)")
        }
        guard tags.count % 2 == 0 else { throw .skip("odd number of tags (\(tags.count)); §4.4 requires pairs") }
        // A missing type is UNKNOWN, proto2's default: mvt-fixtures 003 (recoverable) and 016
        // (valid) are the same bytes, so the feature is kept, as UNKNOWN, and reported.
        if typeCode == nil { repaired("no geometry type (§4.2: a feature MUST contain one); read as UNKNOWN") }
        let code = typeCode ?? 0
        guard code <= 3, let type = VectorTileGeometryType(rawValue: UInt8(code)) else {
            throw .skip("unknown geometry type \(code) (§4.3.4)")
        }
        guard let geometryRange else { throw .skip("no geometry (§4.2: a feature MUST contain a geometry)") }
        guard geometryCount == 1 else { throw .skip("\(geometryCount) geometry fields; a feature has one") }
        var raw: [UInt32] = []
        if options.keepsRawGeometry {
            var r = ProtobufReader(buffer, range: geometryRange)
            do {
                while !r.isAtEnd { raw.append(try r.varint32()) }
            } catch { throw .fatal("geometry: \(error.message)") }
        }
        let geometry: TileGeometry
        do throws(VectorTileError) {
            geometry = try GeometryDecoder.decode(buffer, geometryRange, type: type, strict: options.strictGeometry, repaired: repaired)
        } catch {
            throw .fatal(error.message)
        }
        if type != .unknown && geometry.points.isEmpty { throw .skip("no vertices left after repair") }
        return VectorTileFeature(id: id, type: type, tags: tags, geometry: geometry, rawGeometry: raw)
    }
}
