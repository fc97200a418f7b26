import FlybyCore
import FlybyData
import FlybyMedia
@testable import FlybyRender
import FlybyTestSupport
import Foundation
import Testing

/// `raster-fade-duration` (``TileFade``): in a sequence of frames a raster tile that replaces
/// others fades in over them in simulation time; one that only comes into view, the first frame
/// of a sequence and a snapshot show every tile fully.
@Suite struct RasterFadeTests {
    static let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF

    /// Level 1 all red, level 2 all blue (256-px tiles: zoom 0.4 draws level 1, zoom 0.6 level 2).
    static func levels() throws -> [TileID: [UInt8]] {
        var tiles: [TileID: [UInt8]] = [:]
        for z in 1...2 {
            let pixels = [UInt32](repeating: z == 1 ? red : blue, count: 256 * 256)
            for y in 0..<(1 << z) { for x in 0..<(1 << z) { tiles[TileID(z: z, x: x, y: y)] = try RasterLayerTests.png(pixels) } }
        }
        return tiles
    }

    static func renderer(fade: String = "1000", tiles: [TileID: [UInt8]]? = nil, maxZoom: Int = 2) throws -> MapRenderer {
        let json = RasterLayerTests.style(paint: #"{"raster-fade-duration": \#(fade)}"#)
        var r = try MapRenderer(style: try RasterLayerTests.loaded(tiles ?? levels(), json: json, maxZoom: maxZoom), width: 64, height: 64)
        r.showsOrnaments = false
        r.attribution = ""
        return r
    }

    static func camera(zoom: Double, x: Double = 0.5, y: Double = 0.5) -> CameraState {
        CameraState(center: LocationCoordinate2D(latitude: WebMercator.latitude(unitY: y), longitude: WebMercator.longitude(unitX: x)), zoom: zoom)
    }

    /// The centre pixel of the frame drawn at `time` (nil: a snapshot).
    static func centre(_ r: inout MapRenderer, zoom: Double, time: Double?, x: Double = 0.5, y: Double = 0.5) -> UInt32 {
        var frame = PixelBuffer(width: 64, height: 64)
        if let time { r.render(camera: camera(zoom: zoom, x: x, y: y), time: time, into: &frame) } else { r.render(camera: camera(zoom: zoom, x: x, y: y), into: &frame) }
        return frame.pixel(x: 32, y: 32)
    }

    @Test func aTileThatReplacesItsParentFadesInOverItForTheFadeDuration() throws {
        var r = try Self.renderer()
        #expect(Self.centre(&r, zoom: 0.4, time: 0) == Self.red)
        // Level 2 appears in the frame at t = 0.25, at weight 0; a quarter of it 0.25 s later,
        // three quarters at 0.75 s (weights 64/256 and 192/256: per channel (255 · w + 128) >> 8),
        // all of it after the second of the fade.
        #expect(Self.centre(&r, zoom: 0.6, time: 0.25) == Self.red)
        #expect(Self.centre(&r, zoom: 0.6, time: 0.5) == 0xFFBF_0040)
        #expect(Self.centre(&r, zoom: 0.6, time: 1.0) == 0xFF40_00BF)
        #expect(Self.centre(&r, zoom: 0.6, time: 1.25) == Self.blue)
        #expect(Self.centre(&r, zoom: 0.6, time: 1.5) == Self.blue)
    }

    @Test func zoomingOutTheParentFadesInOverItsChildren() throws {
        var r = try Self.renderer()
        #expect(Self.centre(&r, zoom: 0.6, time: 0) == Self.blue)
        _ = Self.centre(&r, zoom: 0.4, time: 0.5)
        #expect(Self.centre(&r, zoom: 0.4, time: 0.75) == 0xFF40_00BF)     // blue · 192 + red · 64
        #expect(Self.centre(&r, zoom: 0.4, time: 1.5) == Self.red)
    }

    /// Zooming back across the level within the fade: the parent takes up its fade where its
    /// children left off (half of each at 0.75 s, as the frame before went from three quarters
    /// red towards half) instead of starting from 0 (all blue: the jump the frame showed before).
    @Test func aTileThatReturnsWithinTheFadeTakesUpWhereItsReplacementLeftOff() throws {
        var r = try Self.renderer()
        #expect(Self.centre(&r, zoom: 0.4, time: 0) == Self.red)
        #expect(Self.centre(&r, zoom: 0.6, time: 0.25) == Self.red)       // level 2 appears
        #expect(Self.centre(&r, zoom: 0.6, time: 0.5) == 0xFFBF_0040)     // red · 192 + blue · 64
        // Level 1 returns 0.5 s after it left: weight 1 − 0.5 = 128/256 over the blue it replaces.
        #expect(Self.centre(&r, zoom: 0.4, time: 0.75) == 0xFF80_0080)
        #expect(Self.centre(&r, zoom: 0.4, time: 1.0) == 0xFFBF_0040)
        #expect(Self.centre(&r, zoom: 0.4, time: 1.25) == Self.red)
    }

    @Test func aSnapshotAndTheFirstFrameOfASequenceShowEveryTileFully() throws {
        var r = try Self.renderer()
        #expect(Self.centre(&r, zoom: 0.4, time: 0) == Self.red)
        // A snapshot forgets the sequence; the next timed frame starts a new one.
        #expect(Self.centre(&r, zoom: 0.6, time: nil) == Self.blue)
        #expect(Self.centre(&r, zoom: 0.4, time: 0.25) == Self.red)
        // A time more than a second later, or earlier, starts a sequence too.
        #expect(Self.centre(&r, zoom: 0.6, time: 2) == Self.blue)
        #expect(Self.centre(&r, zoom: 0.4, time: 1.9) == Self.red)
        // So does forgetting it.
        r.forgetSymbolHistory()
        #expect(Self.centre(&r, zoom: 0.6, time: 2) == Self.blue)
    }

    @Test func aTileThatComesIntoViewIsDrawnFullyAtOnce() throws {
        // Level 1 only, one colour a tile; a 64-px frame at zoom 1 sees one tile. Panning from
        // tile (0, 0) to tile (1, 0): the new tile replaces nothing under it.
        var tiles: [TileID: [UInt8]] = [:]
        for (k, colour) in [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFF80_8080].enumerated() {
            tiles[TileID(z: 1, x: k % 2, y: k / 2)] = try RasterLayerTests.png([UInt32](repeating: UInt32(colour), count: 256 * 256))
        }
        var r = try Self.renderer(tiles: tiles, maxZoom: 1)
        #expect(Self.centre(&r, zoom: 1, time: 0, x: 0.25, y: 0.25) == 0xFFFF_0000)
        #expect(Self.centre(&r, zoom: 1, time: 0.1, x: 0.75, y: 0.25) == 0xFF00_FF00)
        #expect(r.rasters.retained.isEmpty, "the tile that left lies under no new tile, so it is not read")
    }

    @Test func withoutAFadeDurationTilesChangeAtOnce() throws {
        var r = try Self.renderer(fade: "0")
        _ = Self.centre(&r, zoom: 0.4, time: 0)
        #expect(Self.centre(&r, zoom: 0.6, time: 0.1) == Self.blue)
        #expect(r.sequenceFadeDuration == r.fadeDuration)
    }

    @Test func theDefaultFadeIs300msAndAZoomExpressionIsReadAtTheFramesZoom() throws {
        var r = try Self.renderer(fade: #"["interpolate", ["linear"], ["zoom"], 0, 0, 1, 2000]"#)
        // At zoom 0.6 the fade is 1200 ms: 0.3024 s after the change is 0.252 of it (weight 64).
        _ = Self.centre(&r, zoom: 0.4, time: 0)
        _ = Self.centre(&r, zoom: 0.6, time: 0.5)
        #expect(Self.centre(&r, zoom: 0.6, time: 0.8024) == 0xFFBF_0040)
        #expect(abs(r.sequenceFadeDuration - 2) < 1e-9, "the longest fade over zooms 0…24")
        let plain = try MapRenderer(style: try RasterLayerTests.loaded(Self.levels(), maxZoom: 2), width: 64, height: 64)
        var quiet = plain
        quiet.fadeDuration = 0
        #expect(abs(quiet.sequenceFadeDuration - 0.3) < 1e-12, "raster-fade-duration's default: 300 ms")
    }

    @Test func aFadingFrameIsTheSameOnOneThreadAndOnThree() throws {
        func frame(threads: Int) throws -> PixelBuffer {
            var r = try Self.renderer()
            r.threads = threads
            var out = PixelBuffer(width: 64, height: 64)
            r.render(camera: Self.camera(zoom: 0.4), time: 0, into: &out)
            let turned = CameraState(center: Self.camera(zoom: 0.6).center, zoom: 0.6, bearing: 30)
            r.render(camera: turned, time: 0.3, into: &out)
            r.render(camera: turned, time: 0.6, into: &out)
            return out
        }
        let one = try frame(threads: 1)
        #expect(one.pixel(x: 32, y: 32) != Self.red && one.pixel(x: 32, y: 32) != Self.blue)
        #expect(try frame(threads: 3) == one)
    }

    /// MapLibre does not fade raster tiles on 3D terrain; nor does Flyby. The Jacksboro terrain
    /// fixture with its DEM's tiles also drawn as a `raster` layer: across a level change a
    /// sequence's frame is its snapshot with terrain, and is not without it (the control).
    @Test func onTerrainRasterTilesDoNotFade() throws {
        let root = repositoryRoot(filePath: RenderGoldenTests.sourceFile)
        let fixture = try String(contentsOfFile: root + "/Tests/FlybyRenderTests/Fixtures/terrain/jacksboro-3d.json", encoding: .utf8)
        let archive = "pmtiles://" + root + "/Sources/FlybyData/Resources/tiles/jacksboro-terrarium-z8-11.pmtiles"
        let raster = #"{"id": "colours", "type": "raster", "source": "image", "paint": {"raster-opacity": 0.5}},"#
        let withRaster = fixture
            .replacingOccurrences(of: "pmtiles://../../../../Sources/FlybyData/Resources/tiles/jacksboro-terrarium-z8-11.pmtiles", with: archive)
            .replacingOccurrences(of: #""sources": {"#, with: #""sources": {"image": {"type": "raster", "url": ""# + archive + #"", "tileSize": 512},"#)
            .replacingOccurrences(of: #"{"id": "hillshade""#, with: raster + #"{"id": "hillshade""#)
        #expect(withRaster.contains("\"colours\"") && withRaster.contains("\"image\""))
        for terrain in [true, false] {
            let json = terrain ? withRaster : withRaster.replacingOccurrences(of: #""terrain": {"source": "dem", "exaggeration": 2}"#, with: #""metadata": {"flat": true}"#)
            #expect(json.contains("\"terrain\"") == terrain)
            let path = NSTemporaryDirectory() + "flyby-raster-fade-\(getpid())-\(terrain).json"
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            var loader = StyleLoader()
            var r = try MapRenderer(style: try loader.load(path), width: 160, height: 90)
            r.fadeDuration = 0
            func camera(_ zoom: Double) -> CameraState {
                CameraState(center: LocationCoordinate2D(latitude: 36.5896, longitude: -84.2458), zoom: zoom, pitch: 60)
            }
            var frame = PixelBuffer(width: 160, height: 90), snapshot = PixelBuffer(width: 160, height: 90)
            r.render(camera: camera(10.4), time: 0, into: &frame)         // level 10
            r.render(camera: camera(10.6), time: 0.1, into: &frame)       // level 11 appears
            r.render(camera: camera(10.6), time: 0.2, into: &frame)       // a third of the 300 ms in
            #expect(r.sequenceFadeDuration == (terrain ? 0 : 0.3))
            r.render(camera: camera(10.6), into: &snapshot)
            #expect((frame == snapshot) == terrain, terrain ? "on terrain" : "flat")
        }
    }
}
