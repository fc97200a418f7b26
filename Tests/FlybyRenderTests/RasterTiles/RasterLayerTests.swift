import FlybyCore
import FlybyData
import FlybyMedia
@testable import FlybyRender
import Testing

/// The `raster` layer: tile pixels on screen pixels, rotation through the inverse mapping,
/// overzoom, the colour paint, the source's attribution, and bad tiles.
@Suite struct RasterLayerTests {
    /// A 256-px tile whose every pixel differs: red = column, green = row, blue = the tile's number.
    static func pattern(_ number: UInt32) -> [UInt32] {
        (0..<(256 * 256)).map { k in 0xFF00_0000 | UInt32(k % 256) << 16 | UInt32(k / 256) << 8 | number }
    }

    static func png(_ pixels: [UInt32], size: Int = 256) throws -> [UInt8] {
        try PNGEncoder().encode(pixels: pixels, width: size, height: size)
    }

    /// The four z1 tiles of the world, tile (x, y) numbered 1 + x + 2y.
    static func worldTiles() throws -> [TileID: [UInt8]] {
        var tiles: [TileID: [UInt8]] = [:]
        for y in 0..<2 { for x in 0..<2 { tiles[TileID(z: 1, x: x, y: y)] = try png(pattern(UInt32(1 + x + 2 * y))) } }
        return tiles
    }

    static func style(paint: String = "{}", attribution: String? = nil) -> String {
        let credit = attribution.map { ", \"attribution\": \"\($0)\"" } ?? ""
        return """
        {"version": 8, "sources": {"r": {"type": "raster", "url": "pmtiles://memory.pmtiles", "tileSize": 256\(credit)}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "r", "type": "raster", "source": "r", "paint": \(paint)}]}
        """
    }

    static func loaded(_ tiles: [TileID: [UInt8]], json: String = style(), maxZoom: Int = 1) throws -> LoadedStyle {
        let style = try Style.parse(Array(json.utf8), file: "raster.json")
        let set = RasterTileSet(sourceID: "r", encodedTiles: tiles, minZoom: 1, maxZoom: maxZoom, tileSize: 256)
        return LoadedStyle(style: style, sources: [LoadedSource(id: "r", data: ProjectedSource(FeatureCollection(features: [], name: "r")),
                                                                promoteId: nil, generateId: false)],
                           rasterSets: [set])
    }

    static func render(_ style: LoadedStyle, zoom: Double = 0, bearing: Double = 0, size: Int = 512, threads: Int = 1) throws -> PixelBuffer {
        var r = try MapRenderer(style: style, width: size, height: size)
        r.showsOrnaments = false
        r.attribution = ""
        r.threads = threads
        var frame = PixelBuffer(width: size, height: size)
        r.render(camera: CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: zoom, bearing: bearing), into: &frame)
        #expect(r.tileError == nil)
        return frame
    }

    @Test func atAnIntegerZoomEachTilePixelLandsOnOneScreenPixel() throws {
        // Zoom 0 with 256-px tiles draws level 1: the 512-px world is the four tiles, pixel for pixel.
        let frame = try Self.render(try Self.loaded(Self.worldTiles()))
        let tiles = (1...4).map { Self.pattern(UInt32($0)) }
        var mismatches = 0
        for y in 0..<512 {
            for x in 0..<512 {
                let expected = tiles[(x / 256) + 2 * (y / 256)][(y % 256) * 256 + x % 256]
                if frame.pixel(x: x, y: y) != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func offTheGridAtAnIntegerZoomTheLayerSnapsToWholePixelsAndStaysSharp() throws {
        // The centre 0.3 px east of the grid: the raster moves by the rounded 0 px; 0.7 px: by 1 px.
        let style = try Self.loaded(Self.worldTiles())
        let aligned = try Self.render(style)
        for (offset, shift) in [(0.3, 0), (0.7, 1)] {
            var r = try MapRenderer(style: style, width: 512, height: 512)
            r.showsOrnaments = false
            r.attribution = ""
            var frame = PixelBuffer(width: 512, height: 512)
            let lon = WebMercator.longitude(unitX: 0.5 + offset / 512)
            r.render(camera: CameraState(center: LocationCoordinate2D(latitude: 0, longitude: lon), zoom: 0), into: &frame)
            var mismatches = 0
            for y in 0..<512 { for x in 0..<(512 - shift) where frame.pixel(x: x, y: y) != aligned.pixel(x: x + shift, y: y) { mismatches += 1 } }
            #expect(mismatches == 0, "offset \(offset)")
        }
    }

    @Test func nearestResamplingGivesTheSamePixelsAtAnIntegerZoom() throws {
        let linear = try Self.render(try Self.loaded(Self.worldTiles()))
        let nearest = try Self.render(try Self.loaded(Self.worldTiles(), json: Self.style(paint: #"{"raster-resampling": "nearest"}"#)))
        #expect(linear == nearest)
    }

    @Test func aFrameTurnedHalfWayRoundIsTheSameFrameUpsideDown() throws {
        // The inverse mapping handles any bearing: at 180° pixel (x, y) shows what (511 − x, 511 − y) showed.
        let style = try Self.loaded(Self.worldTiles())
        let north = try Self.render(style), south = try Self.render(style, bearing: 180)
        var mismatches = 0
        for y in 0..<512 { for x in 0..<512 where south.pixel(x: x, y: y) != north.pixel(x: 511 - x, y: 511 - y) { mismatches += 1 } }
        #expect(mismatches == 0)
    }

    @Test func aMissingTileIsDrawnFromItsParentEnlarged() throws {
        // The source claims level 2 but holds only level 1: at zoom 1 (level 2 wanted) every tile
        // is missing and its parent is drawn twice as large (nearest: each pixel a 2 × 2 block).
        let style = try Self.loaded(Self.worldTiles(), json: Self.style(paint: #"{"raster-resampling": "nearest"}"#), maxZoom: 2)
        let frame = try Self.render(style, zoom: 1)
        // Screen centre = the world's centre; 1024-px world, so screen (x, y) is world (x + 256, y + 256).
        let tiles = (1...4).map { Self.pattern(UInt32($0)) }
        var mismatches = 0
        for y in stride(from: 0, to: 512, by: 7) {
            for x in stride(from: 0, to: 512, by: 7) {
                let wx = (x + 256) / 2, wy = (y + 256) / 2   // in level-1 tile pixels over the 512-px world
                let expected = tiles[(wx / 256) + 2 * (wy / 256)][(wy % 256) * 256 + wx % 256]
                if frame.pixel(x: x, y: y) != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func theSamePixelsOnOneThreadAndOnFour() throws {
        let style = try Self.loaded(Self.worldTiles(), json: Self.style(paint: #"{"raster-opacity": 0.7, "raster-hue-rotate": 40}"#))
        #expect(try Self.render(style, zoom: 0.4, bearing: 17) == (try Self.render(style, zoom: 0.4, bearing: 17, threads: 4)))
    }

    /// The colour at screen (10, 10) (tile 1, pixel (10, 10): red 10, green 10, blue 1) with `paint`.
    static func paintedPixel(_ paint: String, tiles: [TileID: [UInt8]]) throws -> Color {
        try render(try loaded(tiles, json: style(paint: paint))).color(x: 10, y: 10)
    }

    @Test func rasterOpacityBlendsOverWhatIsBelow() throws {
        let c = try Self.paintedPixel(#"{"raster-opacity": 0.5}"#, tiles: Self.worldTiles())
        // Half of (10, 10, 1) over white (255): about 132, 132, 128.
        #expect(abs(Int(c.red) - 132) <= 1 && abs(Int(c.green) - 132) <= 1 && abs(Int(c.blue) - 128) <= 1)
    }

    @Test func brightnessMinAndMaxMapBlackAndWhite() throws {
        let white = try Self.paintedPixel(#"{"raster-brightness-min": 1}"#, tiles: Self.worldTiles())
        #expect(white.red == 255 && white.green == 255 && white.blue == 255)
        let black = try Self.paintedPixel(#"{"raster-brightness-max": 0}"#, tiles: Self.worldTiles())
        #expect(black.red == 0 && black.green == 0 && black.blue == 0)
    }

    @Test func hueRotationTurnsRedToGreenAndSaturationMinusOneGivesGrey() throws {
        var tiles = try Self.worldTiles()
        tiles[TileID(z: 1, x: 0, y: 0)] = try Self.png([UInt32](repeating: 0xFFFF_0000, count: 256 * 256))
        let green = try Self.paintedPixel(#"{"raster-hue-rotate": 120}"#, tiles: tiles)
        #expect(green.green > 250 && green.red < 5 && green.blue < 5)
        let grey = try Self.paintedPixel(#"{"raster-saturation": -1}"#, tiles: tiles)
        #expect(grey.red == grey.green && grey.green == grey.blue && abs(Int(grey.red) - 85) <= 1)
        let flat = try Self.paintedPixel(#"{"raster-contrast": -1}"#, tiles: tiles)
        #expect(abs(Int(flat.red) - 128) <= 1 && abs(Int(flat.blue) - 128) <= 1)
    }

    @Test func theSourceAttributionIsInTheFrameCredits() throws {
        let style = try Self.loaded(Self.worldTiles(), json: Self.style(attribution: "Stamen Design, © OpenStreetMap contributors"))
        #expect(MapRenderer.attribution(for: style).contains("Stamen Design, © OpenStreetMap contributors"))
    }

    @Test func aCorruptTileIsAnErrorNamingTheTileAndTheFrameStillDraws() throws {
        var tiles = try Self.worldTiles()
        tiles[TileID(z: 1, x: 1, y: 0)] = Array(try Self.png(Self.pattern(2)).prefix(100))
        var r = try MapRenderer(style: try Self.loaded(tiles), width: 512, height: 512)
        var frame = PixelBuffer(width: 512, height: 512)
        r.render(camera: CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 0), into: &frame)
        let message = r.tileError.map { "\($0)" } ?? ""
        #expect(message.contains("memory:r") && message.contains("tile 1/1/0"), "\(message)")
        #expect(frame.pixel(x: 10, y: 10) == Self.pattern(1)[10 * 256 + 10])
    }

    @Test func rasterSourcesAndLayersAreChecked() {
        let cases: [(String, String)] = [
            (#"{"version": 8, "sources": {"r": {"type": "raster", "url": "pmtiles://a.pmtiles", "tileSize": 300}}, "layers": []}"#,
             "tileSize must be 256 or 512"),
            (#"{"version": 8, "sources": {"r": {"type": "raster-dem", "url": "pmtiles://a.pmtiles", "encoding": "rgb"}}, "layers": []}"#,
             "unknown encoding 'rgb'"),
            (#"{"version": 8, "sources": {"r": {"type": "raster", "url": "pmtiles://a.pmtiles"}}, "layers": [{"id": "h", "type": "hillshade", "source": "r"}]}"#,
             "a hillshade layer draws a raster-dem source"),
            (#"{"version": 8, "sources": {"r": {"type": "raster", "url": "pmtiles://a.pmtiles"}}, "layers": [{"id": "f", "type": "fill", "source": "r"}]}"#,
             "cannot draw the raster source"),
            (#"{"version": 8, "sources": {"r": {"type": "raster", "url": "pmtiles://a.pmtiles"}}, "layers": [{"id": "r", "type": "raster", "source": "r", "paint": {"raster-opacty": 1}}]}"#,
             "did you mean raster-opacity"),
        ]
        for (json, expected) in cases {
            #expect {
                _ = try Style.parse(Array(json.utf8), file: "s.json")
            } throws: { error in
                "\(error)".contains(expected)
            }
        }
    }

    /// The bilinear sampler in fixed point gives the texels and weights of the direct rule:
    /// the left texel ⌊x − ½⌋ and the right texel's weight (x − ½ − ⌊x − ½⌋) rounded half up to
    /// 1/256, edges repeated; checked at seeded random points inside and just outside a tile, at
    /// every exact half-step of one texel and at the tile's edges.
    @Test func bilinearSamplingWeighsTexelsByTheFractionRoundedToOne256th() {
        let n = 8
        let pixels: [UInt32] = (0..<(n * n)).map { k in 0xFF00_0000 | UInt32(k &* 2_654_435_761 >> 8 & 0xFF_FFFF) }
        func reference(_ x: Double, _ y: Double) -> UInt32 {
            let fx = x - 0.5, fy = y - 0.5
            let x0f = fx.rounded(.down), y0f = fy.rounded(.down)
            let wx = UInt32(((fx - x0f) * 256).rounded()), wy = UInt32(((fy - y0f) * 256).rounded())
            func clamp(_ v: Int) -> Int { min(max(v, 0), n - 1) }
            let x0 = clamp(Int(x0f)), x1 = clamp(Int(x0f) + 1), y0 = clamp(Int(y0f)), y1 = clamp(Int(y0f) + 1)
            let top = RasterSampling.lerp(pixels[y0 * n + x0], pixels[y0 * n + x1], wx)
            let bottom = RasterSampling.lerp(pixels[y1 * n + x0], pixels[y1 * n + x1], wx)
            return RasterSampling.lerp(top, bottom, wy)
        }
        var points: [(Double, Double)] = []
        var random = SplitMix64(seed: 19)
        for _ in 0..<100_000 { points.append((random.range(-1, Double(n + 1)), random.range(-1, Double(n + 1)))) }
        for k in 0...512 { points.append((2 + Double(k) / 512, 3.25)) }
        points += [(0, 0), (0.5, 0.5), (Double(n), Double(n)), (Double(n) - 0.5, 0), (-0.75, Double(n) + 0.75)]
        let mismatches = pixels.withUnsafeBufferPointer { px in
            points.filter { RasterSampling.bilinear(px.baseAddress!, n, $0.0, $0.1) != reference($0.0, $0.1) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
