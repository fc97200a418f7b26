import FlybyCore
import FlybyData
@testable import FlybyFlight
import FlybyMedia
@testable import FlybyRender
import Testing

/// Raster tiles fade in `flyby play` and the farm as labels do (`raster-fade-duration`, issue 19):
/// a frame's fading depends only on the plan and its index, so thread counts and segments give
/// the same frames.
@Suite struct PlaybackRasterFadeTests {
    static let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF

    /// Level 1 red, level 2 blue, `raster-fade-duration` 300 ms (the default).
    static func style() throws -> LoadedStyle {
        var tiles: [TileID: [UInt8]] = [:]
        for z in 1...2 {
            let pixels = [UInt32](repeating: z == 1 ? red : blue, count: 256 * 256)
            let png = try PNGEncoder().encode(pixels: pixels, width: 256, height: 256)
            for y in 0..<(1 << z) { for x in 0..<(1 << z) { tiles[TileID(z: z, x: x, y: y)] = png } }
        }
        let json = """
        {"version": 8, "sources": {"r": {"type": "raster", "url": "pmtiles://memory.pmtiles", "tileSize": 256}},
         "layers": [{"id": "r", "type": "raster", "source": "r"}]}
        """
        let set = RasterTileSet(sourceID: "r", encodedTiles: tiles, minZoom: 1, maxZoom: 2, tileSize: 256)
        return LoadedStyle(style: try Style.parse(Array(json.utf8), file: "fade.json"),
                           sources: [LoadedSource(id: "r", data: ProjectedSource(FeatureCollection(features: [], name: "r")),
                                                  promoteId: nil, generateId: false)],
                           rasterSets: [set])
    }

    /// 30 fps, panning east: frames 0…9 at zoom 0.4 (level 1), then zoom 0.6 (level 2).
    static func plan(frames: Int = 40) -> PlaybackPlan {
        let records = (0..<frames).map { k in
            FrameRecord(frame: k, t: Double(k) / 30, camera: CameraState(center: LocationCoordinate2D(latitude: 10, longitude: 20 + Double(k)),
                                                                       zoom: k < 10 ? 0.4 : 0.6))
        }
        return PlaybackPlan(fps: 30, width: 64, height: 64, style: "memory", records: records, pucks: Array(repeating: nil, count: frames))
    }

    static func run(_ plan: PlaybackPlan, threads: Int, range: Range<Int>? = nil) throws -> [Int: PixelBuffer] {
        let style = try style()
        var frames: [Int: PixelBuffer] = [:]
        try FramePipeline(threads: threads) { try makeFrameRenderer(loadedStyle: style, size: (plan.width, plan.height)) }
            .run(plan, range: range ?? 0..<plan.frameCount) { i, frame in frames[i] = frame.pixels }
        return frames
    }

    @Test func aNewLevelFadesInOverNineFramesAt30fps() throws {
        let frames = try Self.run(Self.plan(), threads: 1)
        let centre = (0..<40).map { frames[$0]!.pixel(x: 32, y: 32) }
        #expect(centre[9] == Self.red && centre[10] == Self.red, "level 2 appears at weight 0: \(centre.map { String($0, radix: 16) })")
        // The blue channel rises frame by frame while level 2 fades in, then stays.
        for k in 11...18 { #expect(centre[k] & 0xFF > centre[k - 1] & 0xFF && centre[k] != Self.blue, "frame \(k): \(centre)") }
        #expect(centre[19] == Self.blue && centre[39] == Self.blue)
    }

    @Test func fadingFramesAreTheSameForAnyThreadCountAndAnyRange() throws {
        let plan = Self.plan()
        let one = try Self.run(plan, threads: 1)
        // (Compared as Booleans: a failure names the frame, not its pixels.)
        let two = try Self.run(plan, threads: 2) == one, three = try Self.run(plan, threads: 3) == one
        #expect(two, "2 threads")
        #expect(three, "3 threads")
        let segment = try Self.run(plan, threads: 2, range: 13..<25)
        for k in 13..<25 {
            let same = segment[k] == one[k]
            #expect(same, "frame \(k) of the segment")
        }
    }
}
