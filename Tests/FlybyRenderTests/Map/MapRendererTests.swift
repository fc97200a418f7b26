import FlybyCore
import FlybyData
import FlybyRender
import FlybyTestSupport
import Foundation
import Testing

func makeRenderer(_ json: String, width: Int = 200, height: Int = 120) throws -> MapRenderer {
    let style = try Style.parse(Array(json.utf8), file: "test-style.json")
    var loader = StyleLoader()
    var r = try MapRenderer(style: try loader.load(style: style), width: width, height: height)
    r.showsOrnaments = false
    return r
}

func isRed(_ c: Color) -> Bool { c.red > 200 && c.green < 60 && c.blue < 60 }
func isBlue(_ c: Color) -> Bool { c.blue > 200 && c.red < 60 && c.green < 60 }

/// The built-in world style, loaded once for all tests (parsing the 50m data is the slow part).
let sharedWorldStyle: LoadedStyle = {
    var loader = StyleLoader()
    return try! loader.load("world")
}()

/// The built-in city style, loaded once for the renderer tests that need it.
let sharedCityStyle: LoadedStyle = {
    var loader = StyleLoader()
    return try! loader.load("city")
}()

@Suite struct MapRendererTests {
    @Test func twoRunsGiveIdenticalPixels() throws {
        let style = sharedWorldStyle
        var a = try MapRenderer(style: style, width: 160, height: 90)
        var b = try MapRenderer(style: style, width: 160, height: 90)
        let camera = CameraState(center: .init(latitude: 30, longitude: 10), zoom: 1.5, bearing: 20, pitch: 30)
        var fa = PixelBuffer(width: 160, height: 90), fb = PixelBuffer(width: 160, height: 90)
        a.render(camera: camera, into: &fa)
        b.render(camera: camera, into: &fb)
        a.render(camera: camera, into: &fa)  // a second frame from the same renderer, too
        #expect(fa == fb)
    }

    @Test(arguments: [(0.0, 0.0), (30.0, 40.0), (300.0, 60.0)])
    func projectedSquareLandsWhereTheTransformSays(bearing: Double, pitch: Double) throws {
        var r = try makeRenderer(squareStyle(lng: 20, lat: 45, half: 0.5), width: 200, height: 120)
        let camera = CameraState(center: .init(latitude: 45.2, longitude: 20.3), zoom: 7, bearing: bearing, pitch: pitch)
        var frame = PixelBuffer(width: 200, height: 120)
        r.render(camera: camera, into: &frame)
        let t = MapTransform(size: ScreenSize(width: 200, height: 120), state: camera)
        // Points a little inside the square are red, a little outside white.
        for (dl, inside) in [(0.0, true), (0.4, true), (-0.4, true), (0.62, false), (-0.62, false)] {
            for (lng, lat) in [(20 + dl, 45.0), (20.0, 45 + dl)] {
                let p = try #require(t.point(for: .init(latitude: lat, longitude: lng)))
                guard p.x >= 0 && p.y >= 0 && p.x < 200 && p.y < 100 else { continue }  // rows below: attribution
                let c = frame.color(x: Int(p.x), y: Int(p.y))
                #expect(isRed(c) == inside, "(\(lng), \(lat)) at \(p): \(c)")
            }
        }
    }

    @Test func pitchedViewHasSkyAboveTheHorizonAndNoNaNAt85() throws {
        var r = try makeRenderer(squareStyle(lng: 20, lat: 45, half: 3), width: 160, height: 100)
        var frame = PixelBuffer(width: 160, height: 100)
        let camera = CameraState(center: .init(latitude: 45, longitude: 20), zoom: 6, pitch: 85)
        r.render(camera: camera, into: &frame)
        let t = MapTransform(size: ScreenSize(width: 160, height: 100), state: camera)
        #expect(t.horizonY > 2)
        #expect(isBlue(frame.color(x: 80, y: 0)), "sky at the top: \(frame.color(x: 80, y: 0))")
        #expect(isRed(frame.color(x: 80, y: 99)), "the square fills the bottom: \(frame.color(x: 80, y: 99))")
        #expect(frame.pixels.allSatisfy { $0 >> 24 == 255 }, "every pixel opaque")
        for pitch in [0.0, 45, 60, 75, 80, 84.9, 85] {
            for bearing in [0.0, 90, 200] {
                r.render(camera: CameraState(center: .init(latitude: 45, longitude: 20), zoom: 3, bearing: bearing, pitch: pitch), into: &frame)
            }
        }
    }

    @Test func worldCopiesWrapAtZoomZero() throws {
        var r = try makeRenderer(squareStyle(lng: 170, lat: 0, half: 4), width: 1024, height: 100)
        var frame = PixelBuffer(width: 1024, height: 100)
        r.render(camera: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 0), into: &frame)
        // x = 512 + 170/360·512 ≈ 753.8, and its copy one world (512 px) to the west.
        #expect(isRed(frame.color(x: 754, y: 50)))
        #expect(isRed(frame.color(x: 242, y: 50)))
        #expect(!isRed(frame.color(x: 512, y: 50)))
    }

    @Test func featureStateSelectChangesTheColour() throws {
        var r = try makeRenderer(squareStyle(lng: 0, lat: 0))
        var frame = PixelBuffer(width: 200, height: 120)
        let camera = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 5)
        r.render(camera: camera, into: &frame)
        #expect(isRed(frame.color(x: 100, y: 60)))
        r.featureStates.set("select", .bool(true), source: "sq", feature: .number(0))
        r.render(camera: camera, into: &frame)
        #expect(isBlue(frame.color(x: 100, y: 60)))
    }

    @Test func queryFindsTheFeatureUnderAPoint() throws {
        let r = try makeRenderer(squareStyle(lng: 0, lat: 0))
        let camera = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 5, pitch: 30)
        let hits = r.queryFeatures(at: ScreenPoint(x: 100, y: 60), camera: camera)
        #expect(hits.map(\.layerID) == ["square"])
        #expect(hits.first?.featureID == .number(0))
        #expect(hits.first?.properties["name"] == .string("Square"))
        #expect(r.queryFeatures(at: ScreenPoint(x: 2, y: 2), camera: CameraState(center: .init(latitude: 30, longitude: 30), zoom: 5)).isEmpty)
    }

    @Test func labelsDoNotOverlap() throws {
        var r = try MapRenderer(style: sharedWorldStyle, width: 400, height: 240)
        var frame = PixelBuffer(width: 400, height: 240)
        r.render(camera: CameraState(center: .init(latitude: 48, longitude: 10), zoom: 3), into: &frame)
        let boxes = r.placedSymbolBoxes
        #expect(boxes.count >= 5)
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                #expect(!boxes[i].overlaps(boxes[j]), "\(boxes[i].text) overlaps \(boxes[j].text)")
            }
        }
    }

    @Test func labelPlacementIsStableUnderASmallPan() throws {
        var r = try MapRenderer(style: sharedWorldStyle, width: 400, height: 240)
        var frame = PixelBuffer(width: 400, height: 240)
        r.render(camera: CameraState(center: .init(latitude: 48, longitude: 10), zoom: 3), into: &frame)
        let a = Set(r.placedSymbolBoxes.map(\.text))
        r.render(camera: CameraState(center: .init(latitude: 48, longitude: 10.01), zoom: 3), into: &frame)
        let b = Set(r.placedSymbolBoxes.map(\.text))
        #expect(a == b)
    }

    @Test(arguments: [0.0, 60.0])
    func thinAndThickLinesKeepTheirColourAndWidth(pitch: Double) throws {
        let extra = """
        , {"id": "thin", "type": "line", "source": "sq", "paint": {"line-color": "#808080", "line-width": 0.8}},
          {"id": "thick", "type": "line", "source": "sq", "paint": {"line-color": "#808080", "line-width": 3}}
        """
        var r = try makeRenderer(squareStyle(lng: 0, lat: 0, half: 0.3, extra: extra))
        var frame = PixelBuffer(width: 200, height: 120)
        r.render(camera: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 6, pitch: pitch), into: &frame)
        var touched = 0
        for y in 0..<100 {
            for x in 0..<200 {
                let c = frame.color(x: x, y: y)
                if c == .white || isRed(c) { continue }
                touched += 1
                // Grey over white or red: green and blue always equal (no channel is lost).
                #expect(c.green == c.blue, "(\(x), \(y)): \(c)")
            }
        }
        // The outline of a ~107 px square, ≤ 4 px wide: a few hundred to ~2,000 pixels.
        #expect(touched > 300 && touched < 2500, "\(touched) line pixels")
    }

    @Test func iconsAreDrawnByName() throws {
        let extra = """
        , {"id": "pins", "type": "symbol", "source": "sq", "layout": {"icon-image": "pin", "icon-size": 2}}
        """
        var r = try makeRenderer(squareStyle(lng: 0, lat: 0, half: 0.01, extra: extra))
        r.addImage(name: "pin", image: PixelBuffer(width: 6, height: 6, color: Color(rgb: 0x00FF00)))
        var frame = PixelBuffer(width: 200, height: 120)
        r.render(camera: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 5), into: &frame)
        let c = frame.color(x: 104, y: 63)
        #expect(c.green > 200 && c.red < 60, "icon pixel \(c)")
        #expect(frame.color(x: 120, y: 60) == Color.white)
    }

    @Test func puckIsDrawnAtItsCoordinate() throws {
        var r = try makeRenderer(squareStyle(lng: 50, lat: 50))
        var frame = PixelBuffer(width: 200, height: 120)
        let camera = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 5)
        let location = Location(coordinate: .init(latitude: 0.05, longitude: 0.05), timestamp: 0, course: 90, horizontalAccuracy: 5)
        let puck = PuckState(location: location)
        r.render(camera: camera, puck: puck, into: &frame)
        let p = try #require(MapTransform(size: ScreenSize(width: 200, height: 120), state: camera).point(for: location.coordinate))
        let c = frame.color(x: Int(p.x), y: Int(p.y))
        #expect(c.blue > 180 && c.red < 100, "puck centre \(c)")
    }
}

/// The per-layer memos (``FeatureMemo``) and the label layout cache keep values from frame to
/// frame; a renderer that has drawn other frames must still draw exactly what a fresh one draws.
@Suite struct RendererMemoTests {
    func fresh(_ camera: CameraState, states: FeatureStateStore = FeatureStateStore()) throws -> PixelBuffer {
        var r = try MapRenderer(style: sharedCityStyle, width: 320, height: 180)
        r.featureStates = states
        var frame = PixelBuffer(width: 320, height: 180)
        r.render(camera: camera, into: &frame)
        return frame
    }

    @Test func aReusedRendererDrawsWhatAFreshOneDrawsAfterZoomAndPitchChanges() throws {
        let center = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9445)
        let cameras = [CameraState(center: center, zoom: 15, pitch: 60), CameraState(center: center, zoom: 16.3, pitch: 30),
                       CameraState(center: center, zoom: 14.2), CameraState(center: center, zoom: 15, bearing: 40, pitch: 60)]
        var r = try MapRenderer(style: sharedCityStyle, width: 320, height: 180)
        var frame = PixelBuffer(width: 320, height: 180)
        for camera in cameras {
            r.render(camera: camera, into: &frame)
            #expect(frame == (try fresh(camera)), "zoom \(camera.zoom), pitch \(camera.pitch)")
        }
    }

    @Test func aFeatureStateChangeReachesTheNextFrameOfTheSameRenderer() throws {
        let camera = CameraState(center: LocationCoordinate2D(latitude: 60.1699, longitude: 24.9445), zoom: 16)
        var r = try MapRenderer(style: sharedCityStyle, width: 320, height: 180)
        var frame = PixelBuffer(width: 320, height: 180)
        r.render(camera: camera, into: &frame)
        let before = frame
        var states = FeatureStateStore()
        for id in 0..<446 { states.set("select", .bool(true), source: "buildings", feature: .number(Double(id))) }
        r.featureStates = states
        r.render(camera: camera, into: &frame)
        #expect(frame != before)
        #expect(frame == (try fresh(camera, states: states)))
        r.featureStates.removeAll()
        r.render(camera: camera, into: &frame)
        #expect(frame == before)
    }
}
