import FlybyCore
import FlybyData
import FlybyRender
import Testing

/// The 3D puck drawn by the map renderer: at the puck, turned to its bearing, sized by zoom
/// (Mapbox's viewport scale), translucent with `modelOpacity`, and the same pixels on any
/// number of threads.
@Suite struct Puck3DTests {
    static let arrow: GLTFModel = try! GLTFModel.load(path: BuiltinData.path("models/arrow.glb")!)
    static let here = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9445)
    static let plain = ##"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#808080"}}]}"##

    static func puck(course: Double) -> PuckState {
        PuckState(location: Location(coordinate: here, timestamp: 0, course: course, horizontalAccuracy: 0))
    }

    /// The frame box of the pixels that differ from the grey background, and the pixels.
    static func drawn(_ config: Puck3D, course: Double = 0, camera: CameraState = CameraState(center: here, zoom: 16),
                      threads: Int = 1, size: Int = 200) throws -> (box: PixelRect?, frame: PixelBuffer) {
        var r = try makeRenderer(plain, width: size, height: size)
        r.attribution = ""
        r.threads = threads
        r.puck3D = config
        var frame = PixelBuffer(width: size, height: size)
        r.render(camera: camera, puck: puck(course: course), into: &frame)
        let grey = frame.pixels[0]
        var box: PixelRect?
        for y in 0..<size {
            for x in 0..<size where frame.pixels[y * size + x] != grey {
                box = box.map { PixelRect(minX: min($0.minX, x), minY: min($0.minY, y), maxX: max($0.maxX, x + 1), maxY: max($0.maxY, y + 1)) }
                    ?? PixelRect(minX: x, minY: y, maxX: x + 1, maxY: y + 1)
            }
        }
        return (box, frame)
    }

    @Test func theModelIsDrawnAtThePuckPointingAlongItsCourse() throws {
        let north = try #require(try Self.drawn(Puck3D(model: Self.arrow)).box)
        // 0.85 model units ≈ 45 points long, 0.84 wide at the wings; the tip 0.5 ahead of the centre.
        #expect(north.minY < 100 && north.maxY > 100 && north.minX < 100 && north.maxX > 100, "\(north)")
        #expect((40...52).contains(north.height), "\(north)")
        #expect(100 - north.minY > north.maxY - 100, "the tip is ahead (north, up on the screen): \(north)")
        let east = try #require(try Self.drawn(Puck3D(model: Self.arrow), course: 90).box)
        #expect((40...52).contains(east.width), "\(east)")
        #expect(east.maxX - 100 > 100 - east.minX, "turned to the east, the tip points right: \(east)")
        // The map's bearing turns the model with the map: course 90 seen with bearing 90 points up.
        let turned = try #require(try Self.drawn(Puck3D(model: Self.arrow), course: 90,
                                                 camera: CameraState(center: Self.here, zoom: 16, bearing: 90)).box)
        #expect(abs(turned.height - north.height) <= 1 && abs(turned.minY - north.minY) <= 1, "\(turned) vs \(north)")
    }

    @Test func viewportScaleKeepsTheScreenSizeAndMapScaleFollowsTheZoom() throws {
        let viewport = Puck3D(model: Self.arrow)
        let near = try #require(try Self.drawn(viewport, camera: CameraState(center: Self.here, zoom: 17)).box)
        let far = try #require(try Self.drawn(viewport, camera: CameraState(center: Self.here, zoom: 13)).box)
        #expect(abs(near.height - far.height) <= 1, "viewport: \(near) at z17, \(far) at z13")
        // Map scale: 0.85 m × 40 is 34 m, which doubles on screen with each zoom level.
        let map = Puck3D(model: Self.arrow, modelScale: SIMD3(40, 40, 40), modelScaleMode: .map)
        let z17 = try #require(try Self.drawn(map, camera: CameraState(center: Self.here, zoom: 17)).box)
        let z16 = try #require(try Self.drawn(map, camera: CameraState(center: Self.here, zoom: 16)).box)
        #expect(abs(Double(z17.height) / Double(z16.height) - 2) < 0.15, "\(z17) vs \(z16)")
        #expect(abs(Puck3D.viewportScale(zoom: 22) - 1) < 1e-9 && abs(Puck3D.viewportScale(zoom: 0.5) - 2_965_820.3) < 1)
        #expect(abs(Puck3D.viewportScale(zoom: 12) / 1024 - 1) < 1e-3, "about 2^(22 − zoom)")
    }

    @Test func opacityBlendsTheWholeModelWithTheMap() throws {
        let opaque = try Self.drawn(Puck3D(model: Self.arrow)).frame
        let half = try Self.drawn(Puck3D(model: Self.arrow, modelOpacity: 0.5)).frame
        let grey = Color(premultipliedARGB: opaque.pixels[0])
        let centre = 100 * 200 + 100   // on the model's top
        let a = Color(premultipliedARGB: opaque.pixels[centre]), b = Color(premultipliedARGB: half.pixels[centre])
        #expect(a != grey)
        #expect(abs(Int(b.blue) - (Int(a.blue) + Int(grey.blue)) / 2) <= 2 && abs(Int(b.red) - (Int(a.red) + Int(grey.red)) / 2) <= 2,
                "\(b) is halfway between \(a) and \(grey)")
        let none = try Self.drawn(Puck3D(model: Self.arrow, modelOpacity: 0))
        #expect(none.box == nil)
    }

    @Test func pitchedFramesAreTheSameOnAnyNumberOfThreads() throws {
        let camera = CameraState(center: Self.here, zoom: 17, bearing: 30, pitch: 60)
        let config = Puck3D(model: Self.arrow, modelScale: SIMD3(2, 2, 2))
        let one = try Self.drawn(config, course: 30, camera: camera).frame
        #expect(try Self.drawn(config, course: 30, camera: camera).box != nil)
        for threads in [2, 3, 4] {
            let many = try Self.drawn(config, course: 30, camera: camera, threads: threads).frame
            #expect(many.pixels == one.pixels, "\(threads) threads")
        }
    }

    @Test func theLightShadesTheModel() throws {
        var r = try makeRenderer(#"{"version": 8, "sources": {}, "light": {"intensity": 1, "position": [1, 0, 90]}, "layers": []}"#,
                                 width: 120, height: 120)
        r.attribution = ""
        r.puck3D = Puck3D(model: Self.arrow)
        var frame = PixelBuffer(width: 120, height: 120)
        let camera = CameraState(center: Self.here, zoom: 16, pitch: 60)
        r.render(camera: camera, puck: Self.puck(course: 0), into: &frame)
        var dim = PixelBuffer(width: 120, height: 120)
        var r2 = try makeRenderer(#"{"version": 8, "sources": {}, "light": {"intensity": 0}, "layers": []}"#, width: 120, height: 120)
        r2.attribution = ""
        r2.puck3D = Puck3D(model: Self.arrow)
        r2.render(camera: camera, puck: Self.puck(course: 0), into: &dim)
        #expect(frame.pixels != dim.pixels, "a light from the horizon shades the faces differently from no light")
    }
}
