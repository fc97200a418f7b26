import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// The style's `terrain`: parsing it, and the ground's height read from its `raster-dem` source
/// (bilinear between pixel centres, across tile edges, times the exaggeration).
@Suite struct TerrainElevationTests {
    /// Two Terrarium tiles side by side at zoom 3 (x 4 and 5, row 2), 64 px, of a plane rising
    /// 3 m per pixel eastwards from 1,000 m.
    static func plane(exaggeration: Double = 2) throws -> TerrainElevation {
        let a = TileID(z: 3, x: 4, y: 2), b = TileID(z: 3, x: 5, y: 2)
        let h: (Int, Int) -> Double = { column, _ in 1000 + 3 * Double(column) }
        let set = RasterTileSet(sourceID: "dem", encodedTiles: [a: try HillshadeTests.terrarium(a, h), b: try HillshadeTests.terrarium(b, h)],
                                minZoom: 3, maxZoom: 3, tileSize: 512, encoding: .terrarium)
        return TerrainElevation(tiles: set, exaggeration: exaggeration)
    }

    /// The coordinate at unit Mercator (`x`, `y`).
    static func at(_ x: Double, _ y: Double) -> LocationCoordinate2D {
        LocationCoordinate2D(latitude: WebMercator.latitude(unitY: y), longitude: WebMercator.longitude(unitX: x))
    }

    @Test func aPixelCentreGivesItsHeightTimesTheExaggeration() throws {
        let dem = try Self.plane()
        // Column 300 of the world at zoom 3 (tile 4, its column 44), centre at x = 300.5 / 512.
        let e = try #require(dem.elevation(at: Self.at(300.5 / 512, 2.5 / 8)))
        #expect(abs(e - 2 * (1000 + 3 * 300)) < 1e-6, "\(e)")
    }

    @Test func heightsAreBilinearAcrossATileEdge() throws {
        let dem = try Self.plane(exaggeration: 1)
        // The edge between the tiles: half-way between column 319 (tile 4) and 320 (tile 5).
        let e = try #require(dem.elevation(at: Self.at(5.0 / 8, 2.5 / 8)))
        #expect(abs(e - (1000 + 3 * 319.5)) < 1e-6, "\(e)")
        let quarter = try #require(dem.elevation(at: Self.at(319.75 / 512, 2.5 / 8)))
        #expect(abs(quarter - (1000 + 3 * 319.25)) < 1e-6, "\(quarter)")
    }

    @Test func whereTheArchiveHasNoTileThereIsNoElevation() throws {
        let dem = try Self.plane()
        #expect(dem.elevation(at: Self.at(6.5 / 8, 2.5 / 8)) == nil)
        #expect(dem.firstError == nil)
    }

    @Test func theBuiltInJacksboroTerrainReadsTheRealDEM() throws {
        var loader = StyleLoader()
        let style = try loader.load("jacksboro-terrain")
        let dem = try #require(style.terrainElevation)
        #expect(style.style.terrain == StyleTerrain(source: "dem", exaggeration: 2))
        #expect(dem.zoom == 11)
        // The DEM spans 236–1,076 m; exaggerated twice.
        let centre = try #require(dem.elevation(at: LocationCoordinate2D(latitude: 36.5896, longitude: -84.2458)))
        #expect(centre >= 2 * 236 - 1 && centre <= 2 * 1076 + 1, "\(centre)")
        #expect(dem.elevation(at: LocationCoordinate2D(latitude: 10, longitude: 10)) == nil)
        #expect(dem.firstError == nil)
    }

    static func parse(_ terrain: String) throws(InputError) -> Style {
        try Style.parse(Array("""
            {"version": 8, "sources": {"dem": {"type": "raster-dem", "url": "pmtiles://x.pmtiles"},
                                       "img": {"type": "raster", "url": "pmtiles://y.pmtiles"}},
             "layers": [], "terrain": \(terrain)}
            """.utf8), file: "t.json")
    }

    @Test(arguments: [
        (#"{"source": "nope"}"#, "terrain.source", "no source 'nope'"),
        (#"{"source": "img"}"#, "terrain.source", "terrain needs a raster-dem source; 'img' is not one"),
        (#"{"source": "dem", "exaggeration": 1e9}"#, "terrain.exaggeration", "exaggeration must be between 0 and 100"),
        (#"{"source": "dem", "exaggeration": -1}"#, "terrain.exaggeration", "exaggeration must be between 0 and 100"),
        (#"{"source": "dem", "extent": 2}"#, "terrain", "extent"),
        (#"{"exaggeration": 2}"#, "terrain", "source"),
    ])
    func aBadTerrainIsRefusedNamingItsPath(json: String, path: String, message: String) {
        do {
            _ = try Self.parse(json)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.description.contains("t.json:") && error.description.contains(path) && error.description.contains(message),
                    "\(error.description)")
        }
    }

    @Test func aStyleWithoutTerrainHasNone() throws {
        var loader = StyleLoader()
        #expect(try loader.load("jacksboro-hillshade").terrainElevation == nil)
    }
}
