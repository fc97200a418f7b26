import FlybyCore
import Testing

@Suite struct TileCoverTests {
    static let helsinki = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)
    static let size = ScreenSize(width: 1280, height: 720)

    static func transform(_ center: LocationCoordinate2D = helsinki, zoom: Double, pitch: Double = 0,
                          bearing: Double = 0, size: ScreenSize = size) -> MapTransform {
        MapTransform(size: size, state: CameraState(center: center, zoom: zoom, bearing: bearing, pitch: pitch))
    }

    /// Every ground point seen on a grid of screen points (below the horizon) lies in some tile.
    static func uncoveredSamples(_ t: MapTransform, _ tiles: [TileID]) -> Int {
        var missing = 0
        let top = max(0, t.horizonY + 1)
        for i in 0...16 {
            for j in 0...16 {
                let p = ScreenPoint(x: t.size.width * Double(i) / 16, y: top + (t.size.height - top) * Double(j) / 16)
                let g = t.worldPoint(for: p)
                let ux = g.x / t.worldSize, uy = g.y / t.worldSize
                let hit = tiles.contains { tile in
                    let b = tile.unitBounds
                    return ux >= b.minX && ux <= b.maxX && uy >= b.minY && uy <= b.maxY
                }
                if !hit { missing += 1 }
            }
        }
        return missing
    }

    /// No tile is another's ancestor in the same world copy (nothing is drawn twice).
    static func overlaps(_ tiles: [TileID]) -> Bool {
        let set = Set(tiles)
        for t in tiles where t.z > 0 {
            for z in 0..<t.z where set.contains(t.ancestor(atZoom: z)) { return true }
        }
        return false
    }

    @Test func aFlatViewIsCoveredAtTheCameraLevelAlone() {
        let t = Self.transform(zoom: 14.6)
        let tiles = TileCover.tiles(for: t)
        #expect(!tiles.isEmpty)
        #expect(tiles.allSatisfy { $0.z == 14 })
        // 1280×720 at 1.52× the tile size: at most 5 × 3 tiles of 512 × 1.52 points.
        #expect(tiles.count <= 15)
        #expect(Self.uncoveredSamples(t, tiles) == 0)
        #expect(!Self.overlaps(tiles))
    }

    @Test(arguments: [45.0, 60.0, 75.0, 85.0])
    func aPitchedViewGetsCoarserTilesInTheDistanceAndNoHoles(pitch: Double) {
        let t = Self.transform(zoom: 14, pitch: pitch, bearing: 30)
        let tiles = TileCover.tiles(for: t)
        #expect(Self.uncoveredSamples(t, tiles) == 0)
        #expect(!Self.overlaps(tiles))
        #expect(tiles.count <= TileCover.maximumTiles)
        #expect(tiles.map(\.z).max() == 14)
        if pitch >= 60 { #expect(tiles.map(\.z).min()! < 14) }
        // The ground under the bottom middle of the screen is drawn at full detail.
        let g = t.worldPoint(for: ScreenPoint(x: 640, y: 719))
        let ux = g.x / t.worldSize, uy = g.y / t.worldSize
        let near = tiles.first { tile in
            let b = tile.unitBounds
            return ux >= b.minX && ux <= b.maxX && uy >= b.minY && uy <= b.maxY
        }
        #expect(near?.z == 14)
    }

    @Test func beyondTheSourceMaximumTheDeepestTilesAreUsed() {
        let tiles = TileCover.tiles(for: Self.transform(zoom: 16.3), maxZoom: 12)
        #expect(!tiles.isEmpty)
        #expect(tiles.allSatisfy { $0.z == 12 })
    }

    @Test func belowTheSourceMinimumNothingIsAsked() {
        #expect(TileCover.tiles(for: Self.transform(zoom: 3.5), minZoom: 5).isEmpty)
    }

    @Test func distantTilesNeverGoBelowTheSourceMinimum() {
        let t = Self.transform(zoom: 14, pitch: 85)
        let tiles = TileCover.tiles(for: t, minZoom: 12, maxZoom: 14)
        #expect(tiles.allSatisfy { $0.z >= 12 })
        #expect(Self.uncoveredSamples(t, tiles) == 0)
    }

    @Test func aViewAcrossTheAntimeridianAsksForBothWorldCopies() {
        let t = Self.transform(LocationCoordinate2D(latitude: 0, longitude: 179.5), zoom: 5)
        let tiles = TileCover.tiles(for: t)
        #expect(Set(tiles.map(\.wrap)) == [0, 1])
        #expect(tiles.allSatisfy { $0.x >= 0 && $0.x < $0.tilesPerSide })
        #expect(tiles.contains { $0.wrap == 1 && $0.x == 0 })
        #expect(Self.uncoveredSamples(t, tiles) == 0)
    }

    @Test func rasterSourcesOf256PointTilesUseTheLevelAboveAndRound() {
        let t = Self.transform(zoom: 10.6)
        #expect(TileCover.tiles(for: t, tileSize: 256).allSatisfy { $0.z == 11 })
        #expect(TileCover.tiles(for: t, tileSize: 256, roundZoom: true).allSatisfy { $0.z == 12 })
    }

    @Test func theCoverIsTheSameOnEveryCallAndInFixedOrder() {
        let t = Self.transform(zoom: 13.2, pitch: 70, bearing: 200)
        let a = TileCover.tiles(for: t), b = TileCover.tiles(for: t)
        #expect(a == b)
        #expect(a == a.sorted())
    }

    @Test func aWholeWorldViewAtZoomZeroIsOneTilePerCopy() {
        let t = Self.transform(LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 0,
                               size: ScreenSize(width: 400, height: 400))
        #expect(TileCover.tiles(for: t) == [TileID(z: 0, x: 0, y: 0)])
    }
}
