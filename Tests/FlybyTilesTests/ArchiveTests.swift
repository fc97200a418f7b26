import FlybyCore
import CSQLite
import FlybyData
import FlybyTiles
import Foundation
import Testing

@Suite struct PMTilesTests {
    static let folder = TileFixtures.root + "/pmtiles"

    @Test func tileIDsFollowTheSpecTable() throws {
        // PMTiles v3 §4.1: (z, x, y) → id, including 12/3423/1763 → 19078479.
        let cases: [(Int, Int, Int, UInt64)] = [(0, 0, 0, 0), (1, 0, 0, 1), (1, 0, 1, 2), (1, 1, 1, 3), (1, 1, 0, 4), (2, 0, 0, 5), (12, 3423, 1763, 19_078_479)]
        for (z, x, y, id) in cases { #expect(PMTilesArchive.tileID(z: z, x: x, y: y) == id, "\(z)/\(x)/\(y)") }
    }

    @Test func theVectorFixtureDecodesToOnePolygon() throws {
        let archive = try PMTilesArchive(path: Self.folder + "/test_fixture_1.pmtiles")
        let info = try archive.info()
        #expect(info.tileType == "mvt" && info.tileCompression == .gzip && info.tiles == 1)
        let tile = try #require(try archive.vectorTile(z: 0, x: 0, y: 0))
        #expect(tile.layers.map(\.name) == ["test_fixture_1pmtiles"])
        #expect(tile.layers[0].features[0].type == .polygon)
        #expect(try archive.tile(z: 1, x: 0, y: 0) == nil)
    }

    @Test func theRasterArchiveCountsRunsAndDeduplicatedContents() throws {
        let archive = try PMTilesArchive(path: Self.folder + "/stamen-toner-z3.pmtiles")
        let info = try archive.info()
        #expect(info.tileType == "png")
        #expect(info.addressedTiles == 85 && info.tileEntries == 84 && info.tileContents == 80 && info.tiles == 85)
        // Every tile of z0–3 is there, and each is a PNG.
        for z in 0...3 { for x in 0..<(1 << z) { for y in 0..<(1 << z) {
            let t = try #require(try archive.tile(z: z, x: x, y: y))
            #expect(Array(t.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        } } }
    }

    @Test(arguments: ["invalid", "invalid_v4", "empty"])
    func badFixturesAreRefusedWithTheFileName(_ name: String) {
        let path = Self.folder + "/\(name).pmtiles"
        #expect { _ = try TileArchives.open(path) } throws: { ($0 as? TileError)?.file == path }
    }

    /// An archive with leaf directories: root → one leaf holding tiles 0/0/0 and 1/0/0..1/1/0.
    static func leafArchive(cyclic: Bool = false) -> [UInt8] {
        let tile = MVTBuilder.tile(features: [(1, [MVTBuilder.command(1, 1), 2, 2], [], nil)])
        let leafEntries = cyclic
            ? [PMTilesBuilder.Entry(tileID: 0, offset: 0, length: 0, runLength: 0)]
            : [PMTilesBuilder.Entry(tileID: 0, offset: 0, length: UInt64(tile.count), runLength: 5)]
        var leaf = PMTilesBuilder.directory(leafEntries)
        if cyclic {
            // The leaf points at itself (offset 0, its own length).
            leaf = PMTilesBuilder.directory([PMTilesBuilder.Entry(tileID: 0, offset: 0, length: UInt64(leaf.count), runLength: 0)])
        }
        var b = PMTilesBuilder(root: PMTilesBuilder.directory([PMTilesBuilder.Entry(tileID: 0, offset: 0, length: UInt64(leaf.count), runLength: 0)]))
        b.leaves = leaf
        b.data = tile
        return b.build()
    }

    @Test func leafDirectoriesAndRunLengthsResolve() throws {
        let path = TileFixtures.temporaryFolder("leaf") + "/leaf.pmtiles"
        TileFixtures.write(Self.leafArchive(), to: path)
        let archive = try PMTilesArchive(path: path)
        for (z, x, y) in [(0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 1, 1), (1, 1, 0)] {
            #expect(try archive.vectorTile(z: z, x: x, y: y)?.layers.count == 1)
        }
        #expect(try archive.tile(z: 2, x: 0, y: 0) == nil)
        #expect(try archive.info().tiles == 5)
    }

    @Test func aCyclicLeafDirectoryIsAnErrorNotAHang() throws {
        let path = TileFixtures.temporaryFolder("cycle") + "/cycle.pmtiles"
        TileFixtures.write(Self.leafArchive(cyclic: true), to: path)
        let archive = try PMTilesArchive(path: path)
        #expect { _ = try archive.tile(z: 0, x: 0, y: 0) } throws: { ($0 as? TileError)?.description.contains("0/0/0") == true }
        #expect(throws: TileError.self) { try archive.info() }
    }

    @Test func offsetsPastTheEndAreRefused() throws {
        let dir = TileFixtures.temporaryFolder("offsets")
        var b = PMTilesBuilder(root: PMTilesBuilder.directory([PMTilesBuilder.Entry(tileID: 0, offset: 0, length: 1000, runLength: 1)]))
        b.data = [1, 2, 3]
        TileFixtures.write(b.build(), to: dir + "/tile.pmtiles")
        let archive = try PMTilesArchive(path: dir + "/tile.pmtiles")
        #expect { _ = try archive.tile(z: 0, x: 0, y: 0) } throws: { ($0 as? TileError)?.tile == TileID(z: 0, x: 0, y: 0) }
        b.overrides = [8: 1 << 40]
        TileFixtures.write(b.build(), to: dir + "/root.pmtiles")
        #expect(throws: TileError.self) { try PMTilesArchive(path: dir + "/root.pmtiles") }
        let whole = b.build()
        TileFixtures.write(Array(whole.prefix(140)), to: dir + "/truncated.pmtiles")
        #expect(throws: TileError.self) { try PMTilesArchive(path: dir + "/truncated.pmtiles") }
    }

    @Test func aDirectoryClaimingHugeCountsIsRefusedWithoutAllocating() throws {
        let dir = TileFixtures.temporaryFolder("huge")
        let b = PMTilesBuilder(root: varint(UInt64.max >> 1) + [0, 0, 0, 0])
        TileFixtures.write(b.build(), to: dir + "/huge.pmtiles")
        #expect(throws: TileError.self) { try PMTilesArchive(path: dir + "/huge.pmtiles") }
        let v = PMTilesBuilder(root: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        TileFixtures.write(v.build(), to: dir + "/varint.pmtiles")
        #expect(throws: TileError.self) { try PMTilesArchive(path: dir + "/varint.pmtiles") }
    }

    @Test func unknownCompressionCodesAreRefused() throws {
        let dir = TileFixtures.temporaryFolder("compression")
        var b = PMTilesBuilder(root: PMTilesBuilder.directory([PMTilesBuilder.Entry(tileID: 0, offset: 0, length: 1, runLength: 1)]))
        b.data = [0]
        b.tileCompression = 9
        TileFixtures.write(b.build(), to: dir + "/c.pmtiles")
        #expect { _ = try PMTilesArchive(path: dir + "/c.pmtiles") } throws: { ($0 as? TileError)?.message.contains("compression") == true }
    }

    @Test func aGzipBombTileIsRefusedNamingTheTile() throws {
        let dir = TileFixtures.temporaryFolder("bomb")
        let bomb = gzip([UInt8](repeating: 0, count: (64 << 20) + 1))
        var b = PMTilesBuilder(root: PMTilesBuilder.directory([PMTilesBuilder.Entry(tileID: 0, offset: 0, length: UInt64(bomb.count), runLength: 1)]))
        b.data = bomb
        b.tileCompression = 2
        TileFixtures.write(b.build(), to: dir + "/bomb.pmtiles")
        let archive = try PMTilesArchive(path: dir + "/bomb.pmtiles")
        #expect { _ = try archive.tile(z: 0, x: 0, y: 0) } throws: { ($0 as? TileError)?.message.contains("limit") == true }
    }

    @Test func gzipDirectoriesAndMetadataAreInflated() throws {
        let dir = TileFixtures.temporaryFolder("gzipdir")
        let tile = gzip(MVTBuilder.tile(features: []))
        var b = PMTilesBuilder(root: gzip(PMTilesBuilder.directory([PMTilesBuilder.Entry(tileID: 0, offset: 0, length: UInt64(tile.count), runLength: 1)])))
        b.internalCompression = 2; b.tileCompression = 2
        b.metadata = gzip(Array(#"{"vector_layers":[{"id":"l"}],"name":"x"}"#.utf8))
        b.data = tile
        TileFixtures.write(b.build(), to: dir + "/g.pmtiles")
        let archive = try PMTilesArchive(path: dir + "/g.pmtiles")
        #expect(try archive.vectorTile(z: 0, x: 0, y: 0)?.layers.map(\.name) == ["l"])
        #expect(String(decoding: try archive.info().json(), as: UTF8.self).contains(#""vectorLayers":[{"id":"l"}]"#))
    }
}

/// MBTiles files made in the test with the SQLite C API.
enum MBTilesMaker {
    static func exec(_ db: OpaquePointer?, _ sql: String) {
        precondition(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK, String(cString: sqlite3_errmsg(db)))
    }

    static func insertBlob(_ db: OpaquePointer?, _ sql: String, _ ints: [Int64], _ blob: [UInt8]) {
        var s: OpaquePointer?
        precondition(sqlite3_prepare_v2(db, sql, -1, &s, nil) == SQLITE_OK)
        for (i, v) in ints.enumerated() { sqlite3_bind_int64(s, Int32(i + 1), v) }
        _ = blob.withUnsafeBytes { sqlite3_bind_blob(s, Int32(ints.count + 1), $0.baseAddress, Int32(blob.count), nil) }
        precondition(sqlite3_step(s) == SQLITE_DONE)
        sqlite3_finalize(s)
    }

    /// Tiles 0/0/0 and 1/1/0 (XYZ) as gzip MVT; `deduplicated` uses tippecanoe's map + images.
    static func make(_ path: String, deduplicated: Bool) {
        try? FileManager.default.removeItem(atPath: path)
        var db: OpaquePointer?
        precondition(sqlite3_open(path, &db) == SQLITE_OK)
        exec(db, "CREATE TABLE metadata (name text, value text)")
        exec(db, """
        INSERT INTO metadata VALUES ('name', 't'), ('format', 'pbf'), ('minzoom', '0'), ('maxzoom', '1'),
          ('bounds', '-180,-85.0511,180,85.0511'), ('center', '0,0,1'),
          ('json', '{"vector_layers":[{"id":"a","fields":{}},{"id":"b","fields":{}}]}')
        """)
        let a = gzip(MVTBuilder.tile(layer: "a", features: [(1, [MVTBuilder.command(1, 1), 2, 2], [], nil)]))
        let b = gzip(MVTBuilder.tile(layer: "b", features: [(1, [MVTBuilder.command(1, 1), 4, 4], [], nil)]))
        // TMS rows: XYZ 1/1/0 is stored as row 1.
        if deduplicated {
            exec(db, "CREATE TABLE map (zoom_level integer, tile_column integer, tile_row integer, tile_id text)")
            exec(db, "CREATE TABLE images (tile_data blob, tile_id text)")
            exec(db, "INSERT INTO map VALUES (0, 0, 0, 'A'), (1, 1, 1, 'B'), (1, 0, 1, 'A')")
            insertBlob(db, "INSERT INTO images VALUES (?1, 'A')", [], a)
            insertBlob(db, "INSERT INTO images VALUES (?1, 'B')", [], b)
        } else {
            exec(db, "CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
            insertBlob(db, "INSERT INTO tiles VALUES (?1, ?2, ?3, ?4)", [0, 0, 0], a)
            insertBlob(db, "INSERT INTO tiles VALUES (?1, ?2, ?3, ?4)", [1, 1, 1], b)
            insertBlob(db, "INSERT INTO tiles VALUES (?1, ?2, ?3, ?4)", [1, 0, 1], a)
        }
        sqlite3_close(db)
    }
}

@Suite struct MBTilesTests {
    @Test(arguments: [false, true])
    func tilesAreFoundByXYZRowWithEitherLayout(_ deduplicated: Bool) throws {
        let path = TileFixtures.temporaryFolder("mb-\(deduplicated)") + "/t.mbtiles"
        MBTilesMaker.make(path, deduplicated: deduplicated)
        let archive = try TileArchives.open(path)
        #expect(try archive.vectorTile(z: 0, x: 0, y: 0)?.layers.map(\.name) == ["a"])
        #expect(try archive.vectorTile(z: 1, x: 1, y: 0)?.layers.map(\.name) == ["b"])
        #expect(try archive.vectorTile(z: 1, x: 0, y: 0)?.layers.map(\.name) == ["a"])
        #expect(try archive.tile(z: 1, x: 1, y: 1) == nil)
        let info = try archive.info()
        #expect(info.format == "mbtiles" && info.tileType == "mvt" && info.tileCompression == .gzip)
        #expect(info.tiles == 3 && info.minZoom == 0 && info.maxZoom == 1)
        #expect(info.bounds == [-180, -85.0511, 180, 85.0511] && info.center == [0, 0, 1])
        #expect(info.vectorLayers?.arrayValue?.count == 2)
    }

    @Test func aFileThatIsNotSQLiteIsRefused() throws {
        let path = TileFixtures.temporaryFolder("notsqlite") + "/x.mbtiles"
        TileFixtures.write(Array("this is not a database at all, just text".utf8), to: path)
        #expect { _ = try TileArchives.open(path) } throws: { ($0 as? TileError)?.message.contains("not an SQLite database") == true }
    }

    @Test func aTruncatedDatabaseIsAnError() throws {
        let dir = TileFixtures.temporaryFolder("truncmb")
        MBTilesMaker.make(dir + "/t.mbtiles", deduplicated: false)
        let whole = try #require(FileManager.default.contents(atPath: dir + "/t.mbtiles"))
        TileFixtures.write([UInt8](whole.prefix(1500)), to: dir + "/cut.mbtiles")
        #expect(throws: TileError.self) {
            let a = try TileArchives.open(dir + "/cut.mbtiles")
            _ = try a.info()
            _ = try a.tile(z: 1, x: 1, y: 0)
        }
    }

    @Test func anSQLiteFileWithoutTilesIsNotMBTiles() throws {
        let path = TileFixtures.temporaryFolder("empty-db") + "/e.mbtiles"
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        MBTilesMaker.exec(db, "CREATE TABLE other (a integer)")
        sqlite3_close(db)
        #expect { _ = try TileArchives.open(path) } throws: { ($0 as? TileError)?.message.contains("not an MBTiles file") == true }
    }
}

@Suite struct OpeningTests {
    @Test func aFileThatIsNoArchiveIsRefusedNamingIt() {
        let path = TileFixtures.temporaryFolder("open") + "/notes.txt"
        TileFixtures.write(Array("hello".utf8), to: path)
        #expect { _ = try TileArchives.open(path) } throws: { ($0 as? TileError)?.description.hasPrefix(path + ": not a tile archive") == true }
        #expect { _ = try TileArchives.open(path + ".missing") } throws: { ($0 as? TileError)?.message == "no such file or folder" }
    }

    @Test func archivesAreRecognisedByContentNotName() throws {
        let dir = TileFixtures.temporaryFolder("sniff")
        TileFixtures.write(try TileFixtures.bytes("pmtiles/test_fixture_1.pmtiles"), to: dir + "/archive.bin")
        #expect(try TileArchives.open(dir + "/archive.bin").info().format == "pmtiles")
        MBTilesMaker.make(dir + "/other.db", deduplicated: false)
        #expect(try TileArchives.open(dir + "/other.db").info().format == "mbtiles")
    }
}

@Suite struct FolderArchiveTests {
    static func makeFolder(_ name: String) -> String {
        let dir = TileFixtures.temporaryFolder(name)
        let tile = MVTBuilder.tile(features: [(1, [MVTBuilder.command(1, 1), 2, 2], [], nil)])
        for (z, x, y, gz) in [(0, 0, 0, false), (1, 1, 0, true), (1, 0, 1, true)] {
            try? FileManager.default.createDirectory(atPath: "\(dir)/\(z)/\(x)", withIntermediateDirectories: true)
            TileFixtures.write(gz ? gzip(tile) : tile, to: "\(dir)/\(z)/\(x)/\(y).pbf")
        }
        return dir
    }

    @Test func gzipAndPlainTilesBothDecode() throws {
        let archive = try TileArchives.open(Self.makeFolder("folder"))
        #expect(try archive.vectorTile(z: 0, x: 0, y: 0)?.layers.count == 1)
        #expect(try archive.vectorTile(z: 1, x: 1, y: 0)?.layers.count == 1)
        #expect(try archive.tile(z: 1, x: 0, y: 0) == nil)
        let info = try archive.info()
        #expect(info.format == "folder" && info.tileType == "mvt" && info.tiles == 3 && info.minZoom == 0 && info.maxZoom == 1)
        #expect(info.bounds?.count == 4)
    }

    @Test func aMetadataJSONFileSuppliesBoundsCenterAndLayers() throws {
        let dir = Self.makeFolder("folder-metadata")
        TileFixtures.write(Array(#"{"name":"t","format":"pbf","bounds":"24.9,60.1,25.0,60.2","center":"24.95,60.15,12","json":"{\"vector_layers\":[{\"id\":\"l\"}]}"}"#.utf8), to: dir + "/metadata.json")
        let info = try TileArchives.open(dir).info()
        #expect(info.bounds == [24.9, 60.1, 25.0, 60.2] && info.center == [24.95, 60.15, 12])
        #expect(info.vectorLayers?.arrayValue?.first?["id"]?.stringValue == "l")
        #expect(info.metadata?["name"]?.stringValue == "t")
    }

    @Test func aFolderWithoutTilesIsAnError() {
        #expect(throws: TileError.self) { try TileArchives.open(TileFixtures.temporaryFolder("nothing")) }
    }

    @Test func aCorruptTileIsAnErrorNamingIt() throws {
        let dir = Self.makeFolder("corrupt")
        TileFixtures.write([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 0xFF, 0xFF], to: "\(dir)/1/1/0.pbf")
        let archive = try TileArchives.open(dir)
        #expect { _ = try archive.tile(z: 1, x: 1, y: 0) } throws: { ($0 as? TileError)?.description.contains("tile 1/1/0") == true }
        #expect { _ = try archive.tile(z: 1, x: 2, y: 0) } throws: { ($0 as? TileError)?.description.contains("1/2/0") == true }
    }
}
