import Foundation
import FlybyCore
import FlybyData
@testable import FlybyRender
import FlybyTestSupport
import Testing

/// The map draped on the style's terrain (docs/terrain.md): occlusion of labels by the relief,
/// determinism across threads and the texture cache, and the 3D projection's agreement with the
/// ground homography.
@Suite struct TerrainDrapeTests {
    /// Jacksboro at exaggeration 2 with a sky and two labels, one behind a ridge as seen from
    /// ``camera`` and one before it (Fixtures/terrain/jacksboro-3d.json).
    static let style: LoadedStyle = {
        var loader = StyleLoader()
        return try! loader.load(repositoryRoot(filePath: RenderGoldenTests.sourceFile) + "/Tests/FlybyRenderTests/Fixtures/terrain/jacksboro-3d.json")
    }()

    /// Looking north-west across the Jacksboro ridge, low over the valley before it.
    static let camera = CameraState(center: LocationCoordinate2D(latitude: 36.5816, longitude: -84.2358), zoom: 13.5,
                                    bearing: 315, pitch: 75)

    static func render(_ camera: CameraState = camera, threads: Int = 1, terrain: Bool = true,
                       width: Int = 320, height: Int = 180) throws -> (PixelBuffer, MapRenderer) {
        var renderer = try MapRenderer(style: style, width: width, height: height)
        renderer.threads = threads
        renderer.drawsTerrain = terrain
        var frame = PixelBuffer(width: width, height: height)
        renderer.render(camera: camera, into: &frame)
        return (frame, renderer)
    }

    /// The widths (pixels) of the labels drawn in the renderer's last frame, narrowest first:
    /// 'Before' is narrower than 'Behind the ridge'.
    static func labelWidths(_ r: MapRenderer) -> [Float] {
        r.symbolDraws.compactMap { draw -> Float? in
            guard case let .text(block, _, _, _, _, _, _, _, _, _, _) = draw else { return nil }
            return block.size.x
        }.sorted()
    }

    @Test func aRidgeHidesTheLabelBehindItButNotTheOneBeforeIt() throws {
        let (_, flat) = try Self.render(terrain: false, width: 640, height: 360)
        let both = Self.labelWidths(flat)
        try #require(both.count == 2, "both labels on the flat map: \(both), \(flat.symbolDraws.count) draws, \(flat.placedSymbolBoxes)")
        let (_, relief) = try Self.render(width: 640, height: 360)
        #expect(Self.labelWidths(relief) == [both[0]], "the ridge hides 'Behind the ridge', not 'Before'")
    }

    @Test func theReliefChangesTheFrameAndTurningItOffGivesTheFlatMap() throws {
        let (draped, _) = try Self.render()
        let (flat, _) = try Self.render(terrain: false)
        let differing = zip(draped.pixels, flat.pixels).filter { $0 != $1 }.count
        #expect(differing > draped.pixels.count / 4, "\(differing) pixels differ")
        // The flat renderer on the same style without its terrain draws the same flat frame.
        var plain = try MapRenderer(style: Self.style, width: 320, height: 180)
        plain.drawsTerrain = false
        var again = PixelBuffer(width: 320, height: 180)
        plain.render(camera: Self.camera, into: &again)
        #expect(again == flat)
    }

    @Test func framesAreTheSameOnOneAndTwoThreads() throws {
        let (one, _) = try Self.render(threads: 1)
        let (two, _) = try Self.render(threads: 2)
        #expect(one == two)
    }

    @Test func aWarmRendererDrawsTheSameBytesAsAColdOne() throws {
        var renderer = try MapRenderer(style: Self.style, width: 320, height: 180)
        var cold = PixelBuffer(width: 320, height: 180)
        renderer.render(camera: Self.camera, into: &cold)
        var warm = PixelBuffer(width: 320, height: 180)
        renderer.render(camera: Self.camera, into: &warm)
        #expect(warm == cold, "the repeated camera reuses the texture")
        // Another camera, then back: the cache must miss and give the cold frame again.
        var other = Self.camera
        other.bearing += 20
        var between = PixelBuffer(width: 320, height: 180)
        renderer.render(camera: other, into: &between)
        #expect(between != cold)
        renderer.render(camera: Self.camera, into: &warm)
        #expect(warm == cold)
        // Without reuse the repeated camera redraws everything, to the same bytes.
        renderer.reusesTerrainFrame = false
        renderer.render(camera: Self.camera, into: &warm)
        #expect(warm == cold)
    }

    /// Drawing only the texture region the relief samples gives the same bytes as drawing the
    /// whole texture, for cameras low and high, turned and flat, on one and two threads; and the
    /// region is smaller than the texture (so the test compares two different drawings).
    @Test func drawingOnlyTheSampledTextureGivesTheSameBytesAsTheWholeTexture() throws {
        for camera in Self.cameras {
            for threads in [1, 2] {
                var limited = try MapRenderer(style: Self.style, width: 320, height: 180)
                limited.threads = threads
                // Through the texture, so that its hillshade is drawn (only in the region).
                _ = limited.prepareDrape()
                limited.drapes[0].samplesRastersDirectly = false
                var a = PixelBuffer(width: 320, height: 180)
                limited.render(camera: camera, into: &a)
                let region = try #require(limited.drapes.first?.texture.textureRegion)
                let texture = limited.drapes[0].image
                let drawn = region.spans[region.rows].reduce(0) { $0 + Int(max(0, $1.y - $1.x)) }
                #expect(drawn < texture.width * texture.height * 9 / 10, "region \(drawn) of \(texture.width * texture.height) texels")
                var whole = try MapRenderer(style: Self.style, width: 320, height: 180)
                whole.threads = threads
                _ = whole.prepareDrape()
                whole.drapes[0].limitsTexture = false
                whole.drapes[0].samplesRastersDirectly = false
                var b = PixelBuffer(width: 320, height: 180)
                whole.render(camera: camera, into: &b)
                #expect(whole.drapes[0].texture.textureRegion == nil)
                #expect(a == b, "camera \(camera), \(threads) threads: \(zip(a.pixels, b.pixels).filter { $0 != $1 }.count) pixels differ")
            }
        }
    }

    /// The mean over pixels (those `mask` marks, or all) of the largest colour-channel
    /// difference (levels), and how many pixels differ by more than 24 levels.
    static func differences(_ a: PixelBuffer, _ b: PixelBuffer, mask: [Bool]? = nil) -> (mean: Double, over24: Int) {
        var total = 0, far = 0, count = 0
        for (k, (p, q)) in zip(a.pixels, b.pixels).enumerated() where mask?[k] ?? true {
            count += 1
            var d = 0
            for shift in [0, 8, 16] { d = max(d, abs(Int(p >> UInt32(shift) & 0xFF) - Int(q >> UInt32(shift) & 0xFF))) }
            total += d
            if d > 24 { far += 1 }
        }
        return (Double(total) / Double(max(1, count)), far)
    }

    static let cameras = [camera,
                          CameraState(center: LocationCoordinate2D(latitude: 36.5896, longitude: -84.2458), zoom: 13, bearing: 100, pitch: 60),
                          CameraState(center: LocationCoordinate2D(latitude: 36.5896, longitude: -84.2458), zoom: 12, bearing: 0, pitch: 0),
                          CameraState(center: LocationCoordinate2D(latitude: 36.60, longitude: -84.30), zoom: 14, bearing: 280, pitch: 85)]

    /// The hillshade sampled at each pixel's ground point (the texture then draws no hillshade),
    /// found from the pixel's texture coordinates as the texture path finds it, gives the frame
    /// that sampling it through the texture gives, but for the blur of a second
    /// bilinear resampling (the texture's texels are not where the relief samples them) and
    /// pixels on the skyline, which may show the near or the far slope. Bounds: the mean channel
    /// difference under 3.5 levels and fewer than 1 pixel in 200 differing by more than 24
    /// levels. Measured at 320 × 180: means 1.6 to 2.8 levels and at most 152 such pixels (of
    /// 57,600) for these cameras; at 1280 × 720, pitch 60: 0.94 levels and 1 pixel.
    @Test func samplingTheHillshadeAtEachPixelMatchesSamplingItThroughTheTexture() throws {
        for camera in Self.cameras {
            var direct = try MapRenderer(style: Self.style, width: 320, height: 180)
            _ = direct.prepareDrape()
            direct.drapes[0].interpolatesGround = false
            var a = PixelBuffer(width: 320, height: 180)
            direct.render(camera: camera, into: &a)
            #expect(direct.drapes[0].texture.drawsRasterLayers == false, "the texture leaves the hillshade to the relief")
            var textured = try MapRenderer(style: Self.style, width: 320, height: 180)
            _ = textured.prepareDrape()
            textured.drapes[0].samplesRastersDirectly = false
            var b = PixelBuffer(width: 320, height: 180)
            textured.render(camera: camera, into: &b)
            #expect(textured.drapes[0].texture.drawsRasterLayers)
            let (mean, far) = Self.differences(a, b)
            #expect(mean < 3.5 && far < a.pixels.count / 200, "camera \(camera): mean \(mean), \(far) pixels over 24")
            #expect(a != b, "two different drawings")
        }
    }

    /// Over a one-colour background the raster carries each pixel's ground point instead of its
    /// texture coordinates: the ground point of the facet seen there. Texture coordinates
    /// interpolate the texture's projection linearly across a triangle, exact only at its
    /// vertices. The check: the point above a pixel's ground point at the pixel's depth (depth
    /// is affine in the height) projects back onto the pixel. Measured over the covered pixels
    /// at 320 × 180 for ``camera``, pixels off: ground points median 0.00005, 95th percentile
    /// 0.0002, at most 0.0007 (Float rounding); texture coordinates 2.4, 28.8 and 74.6 (the
    /// far slopes). Bounds: every ground point within 0.01 px, and the ground points' 95th
    /// percentile below the texture coordinates'.
    @Test func eachPixelOfTheReliefSamplesTheGroundPointOfTheFacetItShows() throws {
        func distances(ground: Bool) throws -> [Double] {
            var r = try MapRenderer(style: Self.style, width: 320, height: 180)
            _ = r.prepareDrape()
            r.drapes[0].interpolatesGround = ground
            var frame = PixelBuffer(width: 320, height: 180)
            r.render(camera: Self.camera, into: &frame)
            let drape = r.drapes[0]
            #expect(drape.mesh.attributes == (ground ? .ground(background: r.uniformBackground(zoom: Self.camera.zoom)!) : .texture))
            let t = FrameGeometry(camera: Self.camera, width: 320, height: 180).transform
            var out: [Double] = []
            for y in 0..<180 {
                for x in 0..<320 where drape.depth.depths[y * 320 + x].isFinite {
                    let k = y * 320 + x, u = Double(drape.pixelAttributes[k].x), v = Double(drape.pixelAttributes[k].y)
                    let w = ground ? (x: t.centerX + u, y: t.centerY + v)
                        : t.worldPoint(for: ScreenPoint(x: u - Double(drape.marginX), y: v - Double(drape.marginTop)))
                    guard let d0 = t.screenPoint(worldX: w.x, worldY: w.y, height: 0)?.depth,
                          let d1 = t.screenPoint(worldX: w.x, worldY: w.y, height: 1)?.depth, d1 != d0,
                          let p = t.screenPoint(worldX: w.x, worldY: w.y, height: (Double(drape.depth.depths[k]) - d0) / (d1 - d0))
                    else { continue }
                    let dx = p.point.x - Double(x) - 0.5, dy = p.point.y - Double(y) - 0.5
                    out.append((dx * dx + dy * dy).squareRoot())
                }
            }
            return out.sorted()
        }
        let ground = try distances(ground: true), texture = try distances(ground: false)
        #expect(ground.count > 40_000 && texture.count > 40_000)
        let g = [ground[ground.count / 2], ground[ground.count * 95 / 100], ground[ground.count - 1]]
        let tx = [texture[texture.count / 2], texture[texture.count * 95 / 100], texture[texture.count - 1]]
        #expect(g[2] < 0.01 && g[1] < tx[1], "ground \(g); texture \(tx)")
    }

    /// Ground points and texture coordinates give the same frame on an unpitched map (the
    /// texture's projection is affine there) and close frames pitched, over the pixels where
    /// both show the same facet (pitched, the ground-point grid also covers ground nearer the
    /// camera than the texture holds, which may hide farther relief: the next test): measured at 320 × 180, mean
    /// channel differences 0.0001 levels unpitched, 0.20 (60°), 0.83 (85°) and 2.29 (75°,
    /// ``camera``, whose steep far slopes are where texture coordinates stray most: the test
    /// above). Bounds: 0.01 unpitched, 3 pitched.
    @Test func groundPointsAndTextureCoordinatesGiveNearlyTheSameFrame() throws {
        for camera in Self.cameras {
            var frames: [PixelBuffer] = []
            var depths: [[Float]] = []
            for ground in [true, false] {
                var r = try MapRenderer(style: Self.style, width: 320, height: 180)
                _ = r.prepareDrape()
                r.drapes[0].interpolatesGround = ground
                var f = PixelBuffer(width: 320, height: 180)
                r.render(camera: camera, into: &f)
                frames.append(f)
                depths.append(r.drapes[0].depth.depths)
            }
            // Both cover the pixel with the same facet (depths within 1 %): near relief the
            // ground-point grid adds may hide what the texture's grid shows.
            let covered = zip(depths[0], depths[1]).map { $0.isFinite && $1.isFinite && abs($0 - $1) <= 0.01 * $1 }
            let mean = Self.differences(frames[0], frames[1], mask: covered).mean
            #expect(mean < (camera.pitch == 0 ? 0.01 : 3), "camera \(camera): mean \(mean)")
        }
    }

    /// With ground points, a pitched grid runs on below the texture, over ground nearer the
    /// camera: relief that rises above the ground plane near a low camera fills the bottom of the
    /// screen, where before the texture's ground ended and the flat map showed (a false second
    /// skyline). The camera: frame 100 of `Traces/camera/jacksboro-ridge.flight.json` (zoom 16,
    /// pitch 72, climbing the ridge), at the flight's 1280 × 720 (a smaller frame puts the eye
    /// inside the hill). Measured: of the 460,800 pixels of the bottom half, 430,403 uncovered
    /// through the texture's grid, none with the longer one. Bounds: under 200 and over 5,000.
    @Test func reliefNearTheCameraCoversTheBottomOfTheScreen() throws {
        let camera = CameraState(center: LocationCoordinate2D(latitude: 36.581944444444446, longitude: -84.21444444444444), zoom: 16,
                                 bearing: 280, pitch: 72)
        func uncovered(ground: Bool) throws -> Int {
            var r = try MapRenderer(style: Self.style, width: 1280, height: 720)
            _ = r.prepareDrape()
            r.drapes[0].interpolatesGround = ground
            var f = PixelBuffer(width: 1280, height: 720)
            r.render(camera: camera, into: &f)
            var count = 0
            for y in 360..<720 { for x in 0..<1280 where !r.drapes[0].depth.depths[y * 1280 + x].isFinite { count += 1 } }
            return count
        }
        let grid = try uncovered(ground: true), texture = try uncovered(ground: false)
        #expect(grid < 200 && texture > 5_000, "uncovered in the bottom half: \(grid) with ground points, \(texture) without")
    }

    /// The loop specialised for one hillshade over a one-colour background (the commonest
    /// terrain frame) draws the generic loop's pixels exactly, for every camera (pitch 0 to 85,
    /// the relief nearer than the near limit, the flat ground under the skyline) and 1 or 3 bands.
    @Test func theOneLayerShadingLoopDrawsTheGenericLoopsPixels() throws {
        for camera in Self.cameras {
            for threads in [1, 3] {
                var frames: [PixelBuffer] = []
                for specialised in [true, false] {
                    var r = try MapRenderer(style: Self.style, width: 320, height: 180)
                    r.threads = threads
                    _ = r.prepareDrape()
                    r.drapes[0].mesh.specialisesOneLayer = specialised
                    var f = PixelBuffer(width: 320, height: 180)
                    r.render(camera: camera, into: &f)
                    #expect(r.drapes[0].mesh.attributes != .texture, "the ground-point path is the one tested")
                    frames.append(f)
                }
                let same = frames[0] == frames[1]
                #expect(same, "camera \(camera), \(threads) threads: \(Self.differences(frames[0], frames[1]))")
            }
        }
    }

    /// A layer other than raster, hillshade and background (a line) must lie over the hillshade
    /// in the texture, so the texture draws everything again.
    @Test func aLineOverTheHillshadeSendsTheHillshadeBackThroughTheTexture() throws {
        let root = repositoryRoot(filePath: RenderGoldenTests.sourceFile)
        let fixture = try String(contentsOfFile: root + "/Tests/FlybyRenderTests/Fixtures/terrain/jacksboro-3d.json", encoding: .utf8)
        let line = ##"{"id": "trail", "type": "line", "source": "places", "paint": {"line-color": "#ff0000", "line-width": 3}},"##
        let json = fixture
            .replacingOccurrences(of: "pmtiles://../../../../Sources", with: "pmtiles://" + root + "/Sources")
            .replacingOccurrences(of: #"{"id": "places", "type": "symbol""#, with: line + #"{"id": "places", "type": "symbol""#)
        #expect(json.contains("\"trail\""))
        let path = NSTemporaryDirectory() + "flyby-drape-line-\(getpid()).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var loader = StyleLoader()
        var renderer = try MapRenderer(style: try loader.load(path), width: 320, height: 180)
        var frame = PixelBuffer(width: 320, height: 180)
        renderer.render(camera: Self.camera, into: &frame)
        #expect(renderer.drapes[0].directLayers(zoom: Self.camera.zoom) == nil)
        #expect(renderer.drapes[0].texture.drawsRasterLayers)
        // The same style's own renderer without the line samples directly.
        var plain = try MapRenderer(style: Self.style, width: 320, height: 180)
        plain.render(camera: Self.camera, into: &frame)
        #expect(plain.drapes[0].directLayers(zoom: Self.camera.zoom) == [1])
    }

    /// The relief's triangles leave no pixel centre uncovered between them: below the skyline no
    /// sky pixel has covered pixels on all four sides (a hole between two triangles would).
    @Test func theReliefHasNoHolesBetweenItsTriangles() throws {
        for camera in Self.cameras {
            for threads in [1, 2] {
                let (_, renderer) = try Self.render(camera, threads: threads, width: 640, height: 360)
                let depth = renderer.drapes[0].depth
                var holes: [String] = []
                for y in 1..<(depth.height - 1) {
                    for x in 1..<(depth.width - 1) where !depth.depth(x: x, y: y).isFinite {
                        if [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)].allSatisfy({ depth.depth(x: $0.0, y: $0.1).isFinite }) {
                            holes.append("(\(x), \(y))")
                        }
                    }
                }
                #expect(holes.isEmpty, "camera \(camera), \(threads) threads: holes at \(holes.prefix(10))")
            }
        }
    }

    @Test func theProjectionAtHeightZeroIsTheGroundHomography() throws {
        let t = MapTransform(size: ScreenSize(width: 1280, height: 720),
                             state: CameraState(center: LocationCoordinate2D(latitude: 36.6, longitude: -84.2), zoom: 13, bearing: 30,
                                                pitch: 60))
        for (sx, sy) in [(100.0, 500.0), (640, 360), (1200, 700), (10, 200)] {
            let w = t.worldPoint(for: ScreenPoint(x: sx, y: sy))
            let p = try #require(t.screenPoint(worldX: w.x, worldY: w.y, height: 0))
            #expect(abs(p.point.x - sx) < 1e-6 && abs(p.point.y - sy) < 1e-6, "\(p.point) for \(sx), \(sy)")
            // A raised point is drawn higher on the screen and nearer the camera.
            let up = try #require(t.screenPoint(worldX: w.x, worldY: w.y, height: 50))
            #expect(up.point.y < p.point.y && up.depth < p.depth)
        }
    }

    @Test func aLargerScreenWithTheSameFocalHeightSeesTheSameViewShifted() {
        let state = CameraState(center: LocationCoordinate2D(latitude: 36.6, longitude: -84.2), zoom: 13, bearing: 30, pitch: 60)
        let screen = MapTransform(size: ScreenSize(width: 400, height: 300), state: state)
        var padded = state
        padded.padding = EdgeInsets(top: 30, left: 50, bottom: 60, right: 50)
        let texture = MapTransform(size: ScreenSize(width: 500, height: 390), state: padded, focalHeight: 300)
        for (x, y) in [(10.0, 290.0), (200, 150), (390, 20)] {
            let a = screen.worldPoint(for: ScreenPoint(x: x, y: y))
            let b = texture.worldPoint(for: ScreenPoint(x: x + 50, y: y + 30))
            #expect(abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6)
        }
    }

    @Test func aDepthBufferKeepsTheNearestAndTestsVisibilityWithABias() {
        var d = DepthBuffer(width: 4, height: 3)
        let first = d.test(x: 1, y: 1, depth: 10)
        let farther = d.test(x: 1, y: 1, depth: 12)
        let nearer = d.test(x: 1, y: 1, depth: 8)
        #expect(first && !farther && nearer, "the nearest is kept")
        #expect(d.depth(x: 1, y: 1) == 8)
        #expect(d.isVisible(x: 1, y: 1, depth: 8.05, bias: 0.01))
        #expect(!d.isVisible(x: 1, y: 1, depth: 9, bias: 0.01))
        let outside = d.test(x: 4, y: 0, depth: 1)
        #expect(!outside, "outside the frame")
        d.clear(rows: 0..<3)
        #expect(d.depth(x: 1, y: 1) == .infinity)
    }
}
