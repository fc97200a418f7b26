import FlybyCore
import FlybyData
import FlybyTiles
import Testing

@Suite struct ProtobufReaderTests {
    func read<T>(_ bytes: [UInt8], _ body: (inout ProtobufReader) throws -> T) rethrows -> T {
        try bytes.withUnsafeBufferPointer { b in var r = ProtobufReader(b); return try body(&r) }
    }

    @Test func varintsDecodeUpToSixtyFourBits() throws {
        #expect(try read([0x96, 0x01]) { try $0.varint() } == 150)
        #expect(try read(varint(UInt64.max)) { try $0.varint() } == UInt64.max)
    }

    @Test func anElevenByteVarintIsRefused() {
        #expect(throws: ProtobufError.self) { try read([UInt8](repeating: 0xFF, count: 10) + [0x01]) { try $0.varint() } }
    }

    @Test func aTenthByteAboveOneOverflowsSixtyFourBits() {
        #expect(throws: ProtobufError.self) { try read([UInt8](repeating: 0xFF, count: 9) + [0x02]) { try $0.varint() } }
    }

    @Test func aTruncatedVarintIsRefused() {
        #expect(throws: ProtobufError.self) { try read([0x80, 0x80]) { try $0.varint() } }
    }

    @Test func aLengthPastTheEndIsRefused() {
        #expect(throws: ProtobufError.self) { try read([0x0A, 0x05, 1, 2]) { r in _ = try r.nextField(); return try r.lengthDelimited() } }
        #expect(throws: ProtobufError.self) { try read([0x0A] + varint(UInt64.max)) { r in _ = try r.nextField(); return try r.lengthDelimited() } }
    }

    @Test func zigzagMapsSmallMagnitudesToSmallCodes() {
        #expect([0, 1, 2, 3, 4294967294, 4294967295].map { ProtobufReader.zigzag32($0) } == [0, -1, 1, -2, 2147483647, -2147483648])
        #expect(ProtobufReader.zigzag(UInt64.max) == Int64.min)
    }

    @Test func unknownFieldsOfEveryWireTypeAreSkipped() throws {
        // Tile with unknown fields: varint 1, fixed64 2, fixed32 5, bytes 4, group 6, then a layer.
        let junk: [UInt8] = [0x08, 0x96, 0x01, 0x11] + [UInt8](repeating: 7, count: 8) + [0x2D, 1, 2, 3, 4, 0x22, 0x02, 9, 9, 0x33, 0x08, 0x01, 0x34]
        let tile = try VectorTileDecoder.decode(junk + MVTBuilder.tile(features: []))
        #expect(tile.layers.map(\.name) == ["l"])
    }

    @Test func wireTypesSixAndSevenAreRefused() {
        #expect(throws: VectorTileError.self) { try VectorTileDecoder.decode([0x0E, 0x00]) }
    }
}

@Suite struct GeometryDecodingTests {
    typealias B = MVTBuilder
    static func decodeOne(type: UInt64, _ geometry: [UInt32], strict: Bool = false) throws -> (VectorTileFeature, VectorTile) {
        let tile = try VectorTileDecoder.decode(B.tile(features: [(type, geometry, [], nil)]), options: .init(strictGeometry: strict))
        return (tile.layers[0].features[0], tile)
    }

    /// A square ring from (x, y) with side `s`: clockwise on screen (y down; positive area) or
    /// counter-clockwise (negative area). The cursor ends at the ring's last vertex.
    static func ring(from start: (Int32, Int32), cursor: inout (Int32, Int32), side s: Int32, clockwise: Bool) -> [UInt32] {
        let dx = start.0 - cursor.0, dy = start.1 - cursor.1
        cursor = clockwise ? (start.0, start.1 + s) : (start.0 + s, start.1)
        let steps: [UInt32] = clockwise ? [B.zz(s), 0, 0, B.zz(s), B.zz(-s), 0] : [0, B.zz(s), B.zz(s), 0, 0, B.zz(-s)]
        return [B.command(1, 1), B.zz(dx), B.zz(dy), B.command(2, 3)] + steps + [B.command(7, 1)]
    }

    @Test func cursorCarriesAcrossPartsWithZigzagDeltas() throws {
        let g: [UInt32] = [B.command(1, 1), B.zz(10), B.zz(20), B.command(2, 1), B.zz(5), B.zz(-5),
                           B.command(1, 1), B.zz(-1), B.zz(-1), B.command(2, 1), B.zz(3), 0]
        let (f, _) = try Self.decodeOne(type: 2, g)
        #expect(f.geometry.points == [TilePoint(x: 10, y: 20), TilePoint(x: 15, y: 15), TilePoint(x: 14, y: 14), TilePoint(x: 17, y: 14)])
        #expect(f.geometry.partStarts == [0, 2, 4])
    }

    @Test func exteriorsStartPolygonsAndNegativeRingsAreTheirHoles() throws {
        var c: (Int32, Int32) = (0, 0)
        let g = Self.ring(from: (0, 0), cursor: &c, side: 100, clockwise: true) + Self.ring(from: (10, 10), cursor: &c, side: 20, clockwise: false)
            + Self.ring(from: (200, 200), cursor: &c, side: 50, clockwise: true)
        let (f, _) = try Self.decodeOne(type: 3, g)
        #expect(f.geometry.partCount == 3)
        #expect(f.geometry.polygonStarts == [0, 2, 3])
    }

    @Test func aFirstNegativeRingFlipsTheWindingConvention() throws {
        var c: (Int32, Int32) = (0, 0)
        let g = Self.ring(from: (0, 0), cursor: &c, side: 100, clockwise: false) + Self.ring(from: (50, 50), cursor: &c, side: 10, clockwise: true)
        let (f, _) = try Self.decodeOne(type: 3, g)
        #expect(f.geometry.polygonStarts == [0, 2])
    }

    @Test func aCommandCountPastTheDataIsRefusedBeforeReserving() {
        #expect(throws: VectorTileError.self) { try Self.decodeOne(type: 1, [B.command(1, 0x1FFF_FFFF), 2, 2]) }
        #expect(throws: VectorTileError.self) { try Self.decodeOne(type: 2, [B.command(1, 1), 0, 0, B.command(2, 1000)]) }
    }

    @Test func aClosePathInALineIsRefused() {
        #expect(throws: VectorTileError.self) { try Self.decodeOne(type: 2, [B.command(1, 1), 0, 0, B.command(2, 1), 2, 2, B.command(7, 1)]) }
    }

    @Test func anUnknownCommandIsRefused() {
        #expect(throws: VectorTileError.self) { try Self.decodeOne(type: 1, [B.command(3, 1), 2, 2]) }
    }

    @Test func repeatedLineVerticesAreKeptAndReported() throws {
        let (f, tile) = try Self.decodeOne(type: 2, [B.command(1, 1), 0, 0, B.command(2, 2), 2, 2, 0, 0])
        #expect(f.geometry.points.count == 3)
        #expect(tile.issues.count == 1)
    }

    @Test func strictModeRefusesAClosePathCountOfTwo() throws {
        let g: [UInt32] = [B.command(1, 1), 0, 0, B.command(2, 2), B.zz(10), 0, 0, B.zz(10), B.command(7, 2)]
        #expect(throws: VectorTileError.self) { try Self.decodeOne(type: 3, g, strict: true) }
        let (f, tile) = try Self.decodeOne(type: 3, g)
        #expect(f.geometry.polygonCount == 1)
        #expect(!tile.issues.isEmpty)
    }

    @Test func tagsPastTheTablesAreFatalAndOddTagListsSkipTheFeature() throws {
        let point: [UInt32] = [B.command(1, 1), 2, 2]
        #expect(throws: VectorTileError.self) { try VectorTileDecoder.decode(B.tile(keys: ["k"], values: ["v"], features: [(1, point, [0, 1], nil)])) }
        let tile = try VectorTileDecoder.decode(B.tile(keys: ["k"], values: ["v"], features: [(1, point, [0], nil), (1, point, [0, 0], 7)]))
        #expect(tile.layers[0].features.count == 1)
        #expect(tile.layers[0].features[0].id == 7)
        #expect(tile.layers[0].properties(of: tile.layers[0].features[0])["k"] == .string("v"))
        #expect(tile.issues.count == 1)
    }

    @Test func projectionMapsTileCornersToUnitMercator() {
        let p = TileProjection(tile: TileID(z: 1, x: 1, y: 0), extent: 512)
        #expect(p.unit(TilePoint(x: 0, y: 0)) == (0.5, 0))
        #expect(p.unit(TilePoint(x: 512, y: 512)) == (1, 0.5))
        #expect(abs(p.coordinate(TilePoint(x: 256, y: 512)).longitude - 90) < 1e-12)
        #expect(abs(p.coordinate(TilePoint(x: 256, y: 512)).latitude) < 1e-12)
    }
}
