import Foundation
import FlybyCore
import FlybyData
import FlybyMedia
@testable import FlybyRender
import Testing

/// `raster-dem` sources and the `hillshade` layer: the two encodings, slopes that run on across
/// tile borders, a DEM tile of the wrong size, and the layer drawn.
@Suite struct HillshadeTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TileImageDecoderTests.folder.appendingPathComponent(name)))
    }

    @Test func theTwoEncodingsGiveTheSpecificationsHeights() {
        // Terrarium: R · 256 + G + B / 256 − 32768; Mapbox: −10000 + (R · 65536 + G · 256 + B) · 0.1.
        #expect(DEMEncoding.terrarium.elevation(r: 128, g: 0, b: 0) == 0)
        #expect(DEMEncoding.terrarium.elevation(r: 129, g: 44, b: 128) == 256 + 44 + 0.5)
        #expect(DEMEncoding.mapbox.elevation(r: 1, g: 134, b: 160) == 0)
        #expect(abs(DEMEncoding.mapbox.elevation(r: 1, g: 146, b: 208) - 312) < 1e-3)   // 103120 · 0.1 − 10000
    }

    /// A Terrarium tile of `size` pixels whose height is `height(globalColumn, globalRow)` metres.
    static func terrarium(_ id: TileID, size: Int = 64, _ height: (Int, Int) -> Double) throws -> [UInt8] {
        let pixels: [UInt32] = (0..<(size * size)).map { k in
            let v = height(id.x * size + k % size, id.y * size + k / size) + 32768
            let r = UInt32(v / 256), g = UInt32(v) % 256, b = UInt32((v - v.rounded(.down)) * 256)
            return 0xFF00_0000 | r << 16 | g << 8 | b
        }
        return try PNGEncoder().encode(pixels: pixels, width: size, height: size)
    }

    @Test func slopesRunOnAcrossATileBorderWithoutASeam() throws {
        // A plane rising 2 m per pixel southwards over two tiles one above the other: Horn's
        // gradient is the same on both sides of the border (only the latitude's cos φ changes it,
        // smoothly); a tile shaded without its neighbour would halve it in the edge rows.
        let top = TileID(z: 3, x: 4, y: 2), bottom = TileID(z: 3, x: 4, y: 3)
        let plane: (Int, Int) -> Double = { _, row in Double(row) * 2 }
        let set = RasterTileSet(sourceID: "dem", encodedTiles: [top: try Self.terrarium(top, plane), bottom: try Self.terrarium(bottom, plane)],
                                minZoom: 3, maxZoom: 3, tileSize: 256, encoding: .terrarium)
        let a = try #require(try set.slope(top)), b = try #require(try set.slope(bottom))
        let n = a.size
        for column in [0, 20, 63] {
            let above = a.dy[(n - 2) * n + column], lastTop = a.dy[(n - 1) * n + column]
            let firstBottom = b.dy[column], below = b.dy[n + column]
            let step = abs(above - lastTop)
            #expect(abs(lastTop - firstBottom) <= 2 * step + 1e-9, "\(above) \(lastTop) | \(firstBottom) \(below)")
            #expect(lastTop > 0 && firstBottom > 0)
        }
        // The outer edges (no neighbour) repeat the edge row: half the gradient there.
        #expect(a.dy[20] < a.dy[n + 20] * 0.6)
    }

    @Test func theShadingOfRealTerrainIsContinuousAcrossTheBorder() throws {
        // Two real Jacksboro tiles, 10/272/399 above 10/272/400: the change of the shading from
        // the top tile's last row to the bottom tile's first is like the change between two rows
        // inside a tile.
        let top = TileID(z: 10, x: 272, y: 399), bottom = TileID(z: 10, x: 272, y: 400)
        let set = RasterTileSet(sourceID: "dem", encodedTiles: [top: try Self.fixture("jacksboro-10-272-399.png"),
                                                               bottom: try Self.fixture("jacksboro-10-272-400.png")],
                                minZoom: 10, maxZoom: 10, tileSize: 512, encoding: .terrarium)
        let paint = HillshadePaint(azimuth: 315, exaggeration: 0.5, shadow: 0xFF00_0000, highlight: 0xFFFF_FFFF, accent: 0xFF00_0000)
        let a = paint.shade(try #require(try set.slope(top))), b = paint.shade(try #require(try set.slope(bottom)))
        let n = a.size
        func alpha(_ image: RasterImage, _ row: Int, _ column: Int) -> Int { Int(image.pixel(x: column, y: row) >> 24) }
        func meanStep(_ rowA: (Int) -> Int, _ rowB: (Int) -> Int) -> Double {
            Double((0..<n).reduce(0) { $0 + abs(rowA($1) - rowB($1)) }) / Double(n)
        }
        let across = meanStep({ alpha(a, n - 1, $0) }, { alpha(b, 0, $0) })
        let inside = meanStep({ alpha(a, n - 2, $0) }, { alpha(a, n - 1, $0) })
        #expect(inside > 0.5, "the tiles have relief")
        #expect(across < 1.5 * inside + 1, "across \(across), inside \(inside)")
    }

    /// The shading computes four pixels' light at once; every pixel, the partial last group of
    /// an odd-sized tile's included, is the documented per-pixel formula's (computed here one by
    /// one, in the same float operations): the highlight or shadow at |d|·2e, the accent over it.
    @Test func everyPixelOfAnOddSizedTileIsThePerPixelShading() {
        var rng = SplitMix64(seed: 31)
        let n = 7   // 49 pixels: twelve groups of four and one of one
        let dx = (0..<(n * n)).map { _ in Float(Int(rng.next() % 2001) - 1000) / 400 }
        let dy = (0..<(n * n)).map { _ in Float(Int(rng.next() % 2001) - 1000) / 400 }
        let slope = SlopeTile(size: n, dx: dx, dy: dy)
        for paint in [HillshadePaint(azimuth: 315, exaggeration: 0.5, shadow: 0xFF00_0000, highlight: 0xFFFF_FFFF, accent: 0xFF00_0000),
                      HillshadePaint(azimuth: 97, exaggeration: 1, shadow: 0xFF47_3B24, highlight: 0x8080_8080, accent: 0x0000_0000)] {
            let image = paint.shade(slope)
            let a = paint.azimuth * Double.pi / 180, h = HillshadePaint.altitude * Double.pi / 180
            let lx = Float(sin(a) * cos(h)), ly = Float(cos(a) * cos(h)), lz = Float(sin(h))
            for k in 0..<(n * n) {
                let norm = slope.normalUp[k]
                let d = (-dx[k] * lx - (-dy[k]) * ly + lz) * norm - lz
                let alpha = min(1, abs(d) * Float(2 * paint.exaggeration))
                var p = PixelBlend.scale(d >= 0 ? paint.highlight : paint.shadow, by: UInt32(alpha * 255 + 0.5))
                let accentAlpha = min(1, (1 - norm) * Float(paint.exaggeration))
                if accentAlpha > 0 { p = PixelBlend.sourceOver(PixelBlend.scale(paint.accent, by: UInt32(accentAlpha * 255 + 0.5)), p) }
                #expect(image.pixel(x: k % n, y: k / n) == p, "pixel \(k), azimuth \(paint.azimuth)")
            }
        }
    }

    @Test func aDEMTileOfAnotherSizeIsAnErrorNamingIt() throws {
        let first = TileID(z: 3, x: 4, y: 2), other = TileID(z: 3, x: 5, y: 2)
        let flat: (Int, Int) -> Double = { _, _ in 100 }
        let set = RasterTileSet(sourceID: "dem", encodedTiles: [first: try Self.terrarium(first, flat), other: try Self.terrarium(other, size: 32, flat)],
                                minZoom: 3, maxZoom: 3, tileSize: 256, encoding: .terrarium)
        _ = try set.elevation(first)
        #expect {
            _ = try set.slope(first)   // reads its neighbour, the 32-px tile
        } throws: { error in
            let m = "\(error)"
            return m.contains("tile 3/5/2") && m.contains("32×32") && m.contains("64×64")
        }
    }

    @Test func aHillshadeLayerShadesSlopesAndLeavesFlatGroundAlone() throws {
        // A ridge running north–south in the middle of one tile (z10, 64 px of about 611 m; 400 m
        // of height a pixel either side), lit from the west.
        let id = TileID(z: 10, x: 512, y: 512)
        let ridge: (Int, Int) -> Double = { column, _ in 20000 - Double(abs(column - 512 * 64 - 32)) * 400 }
        let set = RasterTileSet(sourceID: "dem", encodedTiles: [id: try Self.terrarium(id, ridge)], minZoom: 10, maxZoom: 10,
                                tileSize: 256, encoding: .terrarium)
        let json = """
        {"version": 8, "sources": {"dem": {"type": "raster-dem", "url": "pmtiles://m.pmtiles", "tileSize": 256, "encoding": "terrarium"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#808080"}},
                    {"id": "h", "type": "hillshade", "source": "dem",
                     "paint": {"hillshade-illumination-direction": 270, "hillshade-illumination-anchor": "map", "hillshade-accent-color": "rgba(0,0,0,0)"}}]}
        """
        let style = try Style.parse(Array(json.utf8), file: "h.json")
        let loaded = LoadedStyle(style: style, sources: [LoadedSource(id: "dem", data: ProjectedSource(FeatureCollection(features: [], name: "dem")),
                                                                      promoteId: nil, generateId: false)], rasterSets: [set])
        var r = try MapRenderer(style: loaded, width: 512, height: 512)
        r.showsOrnaments = false
        r.attribution = ""
        var frame = PixelBuffer(width: 512, height: 512)
        // Zoom 9 draws level 10 (256-px tiles): the tile is the middle 256 px, 4 screen px a column.
        let center = LocationCoordinate2D(latitude: WebMercator.latitude(unitY: 512.5 / 1024), longitude: WebMercator.longitude(unitX: 512.5 / 1024))
        r.render(camera: CameraState(center: center, zoom: 9), into: &frame)
        #expect(r.tileError == nil)
        // West slope (lit): lighter than the background; east slope: darker; beyond the tile: the background.
        let west = frame.color(x: 192, y: 256), east = frame.color(x: 320, y: 256), elsewhere = frame.color(x: 50, y: 50)
        #expect(west.red > 140, "\(west)")
        #expect(east.red < 110, "\(east)")
        #expect(elsewhere.red == 128)
    }
}
