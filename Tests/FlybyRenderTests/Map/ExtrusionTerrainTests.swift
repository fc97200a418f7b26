import Foundation
import FlybyCore
import FlybyData
@testable import FlybyRender
import FlybyTestSupport
import Testing

/// `fill-extrusion` on the terrain (docs/terrain.md, "Buildings on the relief"): blocks stand on
/// the relief, the relief in front of them hides them, and the frame is the same on any number
/// of threads.
@Suite struct ExtrusionTerrainTests {
    /// TerrainDrapeTests' Jacksboro style with two red blocks where its labels are: 'Before'
    /// (120 m) in the valley before the ridge, 'Behind the ridge' (10 m) past it
    /// (Fixtures/terrain/jacksboro-blocks.json). The blocks are the style's last layer.
    static let style: LoadedStyle = {
        var loader = StyleLoader()
        return try! loader.load(repositoryRoot(filePath: RenderGoldenTests.sourceFile) + "/Tests/FlybyRenderTests/Fixtures/terrain/jacksboro-blocks.json")
    }()
    static let camera = TerrainDrapeTests.camera
    static let before = (longitude: -84.2258, latitude: 36.5736), behind = (longitude: -84.2908, latitude: 36.6256)
    static let width = 640, height = 360

    /// The frame with the blocks and without them (the layer range leaving the last layer out),
    /// and their renderers.
    static func frames(threads: Int = 1, terrain: Bool = true) throws -> (with: PixelBuffer, without: PixelBuffer, renderer: MapRenderer,
                                                                       plain: MapRenderer) {
        var frames: [PixelBuffer] = []
        var renderers: [MapRenderer] = []
        for range in [nil, 0..<2] as [Range<Int>?] {
            var r = try MapRenderer(style: style, width: width, height: height)
            r.threads = threads
            r.drawsTerrain = terrain
            r.layerRange = range
            var frame = PixelBuffer(width: width, height: height)
            r.render(camera: camera, into: &frame)
            frames.append(frame)
            renderers.append(r)
        }
        return (frames[0], frames[1], renderers[0], renderers[1])
    }

    /// The screen points where the two frames differ.
    static func differing(_ a: PixelBuffer, _ b: PixelBuffer) -> [(x: Int, y: Int)] {
        var out: [(x: Int, y: Int)] = []
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixels[y * a.width + x] != b.pixels[y * a.width + x] { out.append((x, y)) }
        }
        return out
    }

    /// Where a block's footprint centre lies on the relief, and whether the relief hides it.
    static func place(_ c: (longitude: Double, latitude: Double), _ r: MapRenderer) -> (point: ScreenPoint, hidden: Bool) {
        let g = FrameGeometry(camera: camera, width: width, height: height)
        let drape = r.drapes[0]
        let q = drape.place(worldX: WebMercator.unitX(longitude: c.longitude) * g.worldSize,
                            worldY: WebMercator.unitY(latitude: c.latitude) * g.worldSize, drape.relief(g))!
        return (q.point, q.hidden)
    }

    @Test func aBlockStandsOnTheReliefAndTheRidgeHidesTheOneBehindIt() throws {
        let (with, without, r, plain) = try Self.frames()
        #expect(r.drapes[0].image == plain.drapes[0].image, "the texture draped on the relief has no blocks")
        let changed = Self.differing(with, without)
        let front = Self.place(Self.before, r), back = Self.place(Self.behind, r)
        #expect(!front.hidden && back.hidden)
        func near(_ p: ScreenPoint, _ radius: Double) -> Int {
            changed.filter { (Double($0.x) + 0.5 - p.x) * (Double($0.x) + 0.5 - p.x) + (Double($0.y) + 0.5 - p.y) * (Double($0.y) + 0.5 - p.y) < radius * radius }.count
        }
        // 'Before' is a large block rising from its place on the relief: the pixels just above
        // that place are its walls.
        #expect(near(front.point, 120) > 3_000, "\(near(front.point, 120)) pixels of 'Before'")
        let above = Int(front.point.y) - 10, x = Int(front.point.x)
        #expect(with.pixels[above * Self.width + x] != without.pixels[above * Self.width + x])
        // 'Behind the ridge' is hidden but for what of its roof shows over the crest.
        #expect(near(back.point, 60) < 60, "\(near(back.point, 60)) pixels of 'Behind the ridge'")
        #expect(changed.count - near(front.point, 120) - near(back.point, 60) == 0, "nothing else changes")
    }

    @Test func aBlockOnTheReliefIsQueriedWhereItIsDrawn() throws {
        let (with, without, r, _) = try Self.frames()
        let front = Self.place(Self.before, r)
        let x = front.point.x, y = front.point.y - 10
        #expect(with.pixels[Int(y) * Self.width + Int(x)] != without.pixels[Int(y) * Self.width + Int(x)])
        let hits = r.queryFeatures(in: ScreenRect(x: x, y: y, width: 1, height: 1), camera: Self.camera).filter { $0.layerID == "blocks" }
        #expect(hits.map(\.featureIndex) == [1], "'Before' is feature 1")
        // Where the block's roof would be on the flat map (its ground is below the camera
        // centre's here): relief, with nothing standing on it.
        let g = FrameGeometry(camera: Self.camera, width: Self.width, height: Self.height)
        let projection = ExtrusionProjection(g.unitHomography(copy: 0), g.transform)
        let roof = projection.project(WebMercator.unitX(longitude: Self.before.longitude), WebMercator.unitY(latitude: Self.before.latitude),
                                      120 * MapRenderer.unitsPerMetre(latitude: Self.camera.center.latitude))
        #expect(with.pixels[Int(roof.y) * Self.width + Int(roof.x)] == without.pixels[Int(roof.y) * Self.width + Int(roof.x)])
        let flatRoof = r.queryFeatures(in: ScreenRect(x: roof.x, y: roof.y, width: 1, height: 1), camera: Self.camera)
        #expect(!flatRoof.contains { $0.layerID == "blocks" }, "nothing at the flat roof \(roof)")
        // The sky over the ridge: no building there.
        #expect(!r.queryFeatures(in: ScreenRect(x: 20, y: 2, width: 30, height: 10), camera: Self.camera).contains { $0.layerID == "blocks" })
    }

    @Test func onTheFlatMapBothBlocksAreDrawn() throws {
        let (with, without, _, _) = try Self.frames(terrain: false)
        let changed = Self.differing(with, without)
        // The far block is small at pitch 75 but in full view.
        let g = FrameGeometry(camera: Self.camera, width: Self.width, height: Self.height)
        let p = try #require(g.transform.screenPoint(worldX: WebMercator.unitX(longitude: Self.behind.longitude) * g.worldSize,
                                                     worldY: WebMercator.unitY(latitude: Self.behind.latitude) * g.worldSize, height: 0)).point
        let nearBehind = changed.filter { abs(Double($0.x) - p.x) < 40 && abs(Double($0.y) - p.y) < 40 }.count
        #expect(nearBehind > 20, "\(nearBehind) pixels of 'Behind the ridge' on the flat map")
    }

    @Test func blocksOnTheReliefAreTheSameOnOneAndThreeThreads() throws {
        let one = try Self.frames(threads: 1).with, three = try Self.frames(threads: 3).with
        #expect(one == three)
    }

    /// A face's inverse depth is affine on the screen: at the screen point of any point of the
    /// face, ``FacePlane`` gives that point's depth.
    @Test func aFacePlaneGivesTheDepthOfEachPointOfTheFace() throws {
        let g = FrameGeometry(camera: Self.camera, width: Self.width, height: Self.height)
        let p = ExtrusionProjection(g.unitHomography(copy: 0), g.transform)
        let x0 = WebMercator.unitX(longitude: Self.before.longitude), y0 = WebMercator.unitY(latitude: Self.before.latitude)
        let top = 3e-6, a = (x: x0, y: y0), b = (x: x0 + 2e-5, y: y0 + 1e-5)
        let roof = FacePlane(roofAt: top, p), wall = FacePlane(wallFrom: a, to: b, p)
        for (x, y, z, face) in [(x0 + 1e-5, y0 - 1e-5, top, roof), (x0 - 2e-5, y0 + 3e-5, top, roof),
                                (x0 + 1e-5, y0 + 5e-6, 1e-6, wall), (b.x, b.y, 4e-6, wall)] {
            let s = p.project(x, y, z)
            let w = try #require(face.depth(u: s.x - p.h.originX, v: s.y - p.h.originY))
            #expect(abs(w / p.depth(x, y, z) - 1) < 1e-9)
        }
    }
}
