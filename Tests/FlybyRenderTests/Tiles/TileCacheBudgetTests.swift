import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// The tile caches' bounds: a count sized from the viewport (MapLibre's rule) besides the bytes,
/// and one byte budget for everything a `raster-dem` source keeps (images, elevations, slopes).
@Suite struct TileCacheBudgetTests {
    @Test func theViewportCountIsFiveViewsOfTilesEachWayPlusOne() {
        // (⌈1280 / 512⌉ + 1) · (⌈720 / 512⌉ + 1) · 5 = 4 · 3 · 5.
        #expect(StyleLoader.viewportTileCount(width: 1280, height: 720) == 60)
        #expect(StyleLoader.viewportTileCount(width: 512, height: 512) == 20)
        #expect(StyleLoader.viewportTileCount(width: 1920, height: 1080) == 5 * 4 * 5)
        #expect(StyleLoader.viewportTileCount(width: 256, height: 256, tileSize: 256) == 20)
    }

    @Test func aTileCountBoundKeepsOnlyTheMostRecentlyUsedTiles() throws {
        let ids = (0..<10).map { TileID(z: 4, x: $0, y: 3) }
        let bounded = VectorTileSet(sourceID: "t", tiles: [:], minZoom: 0, maxZoom: 4, cacheTiles: 3)
        let unbounded = VectorTileSet(sourceID: "t", tiles: [:], minZoom: 0, maxZoom: 4)
        for id in ids {
            _ = try bounded.tile(id)
            _ = try unbounded.tile(id)
        }
        #expect(bounded.cachedTileCount == 3)
        #expect(unbounded.cachedTileCount == 10)
        // Using a kept tile again makes it the most recent: the next new tile evicts another.
        _ = try bounded.tile(ids[7])
        _ = try bounded.tile(TileID(z: 4, x: 12, y: 3))
        #expect(bounded.cachedTileCount == 3)
    }

    @Test func aDEMSourceKeepsImagesElevationsAndSlopesUnderOneBudget() throws {
        let id = TileID(z: 3, x: 4, y: 2)
        let ramp: (Int, Int) -> Double = { column, row in Double(column + 3 * row) }
        let tiles = [id: try HillshadeTests.terrarium(id, ramp)]
        // A 64-pixel tile: image 16,512 bytes, elevations 16,512, slope 49,280 (its gradients and
        // normals' up component, 12 bytes a pixel; 82,304 together).
        let budget = 60_000
        let small = RasterTileSet(sourceID: "dem", encodedTiles: tiles, minZoom: 3, maxZoom: 3, tileSize: 256,
                                  encoding: .terrarium, cacheBudget: budget)
        let large = RasterTileSet(sourceID: "dem", encodedTiles: tiles, minZoom: 3, maxZoom: 3, tileSize: 256, encoding: .terrarium)
        let a = try #require(try small.slope(id)), b = try #require(try large.slope(id))
        #expect(small.cachedBytes <= budget, "\(small.cachedBytes) bytes cached over a budget of \(budget)")
        #expect(large.cachedBytes == 16_512 + 16_512 + 49_280)
        #expect(large.cachedEntryCount == 3)
        // What the cache keeps never changes the result.
        #expect(a.dx == b.dx && a.dy == b.dy)
    }

    @Test func aDEMTileCountsOnceForItsThreeEntries() throws {
        let ids = (3...5).map { TileID(z: 3, x: $0, y: 2) }
        var tiles: [TileID: [UInt8]] = [:]
        for id in ids { tiles[id] = try HillshadeTests.terrarium(id, size: 16) { c, r in Double(c + r) } }
        let set = RasterTileSet(sourceID: "dem", encodedTiles: tiles, minZoom: 3, maxZoom: 3, tileSize: 256,
                                encoding: .terrarium, cacheTiles: 1)
        _ = try set.slope(ids[1])   // reads its neighbours' elevations too
        #expect(set.cachedEntryCount == 3)
    }
}
