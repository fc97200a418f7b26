import FlybyCore
import FlybyData
import FlybyRender
import Foundation
import Testing

/// A style over (0°, 0°): a square fill (±1°), a vertical line at 0.5° E (±0.2° of latitude), a
/// circle at 0.5° W, and a label "Here" on a point at 0.5° S, layers in that order (the label on top).
private let layeredStyle = """
    {"version": 8, "center": [0, 0], "zoom": 5,
     "sources": {
       "sq": {"type": "geojson", "data": {"type": "Feature", "properties": {"name": "Square"}, "geometry": {"type": "Polygon",
         "coordinates": [[[-1, -1], [1, -1], [1, 1], [-1, 1], [-1, -1]]]}}},
       "ln": {"type": "geojson", "data": {"type": "Feature", "properties": {}, "geometry": {"type": "LineString",
         "coordinates": [[0.5, -0.2], [0.5, 0.2]]}}},
       "pt": {"type": "geojson", "data": {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [-0.5, 0]}}},
       "lb": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
         {"type": "Feature", "properties": {"name": "Other"}, "geometry": {"type": "Point", "coordinates": [-4, 0]}},
         {"type": "Feature", "properties": {"name": "Here"}, "geometry": {"type": "Point", "coordinates": [0, -0.5]}}]}}},
     "layers": [
       {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
       {"id": "square", "type": "fill", "source": "sq", "paint": {"fill-color": "#ff0000"}},
       {"id": "line", "type": "line", "source": "ln", "paint": {"line-width": 4}},
       {"id": "dot", "type": "circle", "source": "pt", "paint": {"circle-radius": 5}},
       {"id": "label", "type": "symbol", "source": "lb", "layout": {"text-field": ["get", "name"], "text-size": 14}}
     ]}
    """

private let camera = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 5)

/// Screen point of a coordinate for `camera` in a 200 × 120 frame.
private func screen(_ lng: Double, _ lat: Double, _ camera: CameraState = camera) throws -> ScreenPoint {
    try #require(MapTransform(size: ScreenSize(width: 200, height: 120), state: camera).point(for: .init(latitude: lat, longitude: lng)))
}

private func layers(_ hits: [QueriedFeature]) -> [String] { hits.map(\.layerID) }

@Suite struct FeatureQueryTests {
    @Test func aPointOnAPlacedLabelFindsItsFeatureAndAPointBesideItDoesNot() throws {
        var r = try makeRenderer(layeredStyle)
        var frame = PixelBuffer(width: 200, height: 120)
        r.render(camera: camera, into: &frame)
        let box = try #require(r.placedSymbolBoxes.first { $0.text == "Here" })
        #expect(box.featureIndex == 1)
        let onLabel = r.queryFeatures(at: ScreenPoint(x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2), camera: camera)
        #expect(layers(onLabel).first == "label")
        #expect(onLabel.first?.featureIndex == 1)
        #expect(onLabel.first?.properties["name"] == .string("Here"))
        let beside = r.queryFeatures(at: ScreenPoint(x: box.maxX + 2, y: (box.minY + box.maxY) / 2), camera: camera)
        #expect(!layers(beside).contains("label"))
    }

    @Test func anIconIsFoundInsideItsPlacedBoxAndNotBesideIt() throws {
        let style = layeredStyle.replacingOccurrences(of: #""text-field": ["get", "name"], "text-size": 14"#, with: #""icon-image": "pin""#)
        var r = try makeRenderer(style)
        r.addImage(name: "pin", image: PixelBuffer(width: 10, height: 10, color: Color(rgb: 0x00FF00)))
        var frame = PixelBuffer(width: 200, height: 120)
        r.render(camera: camera, into: &frame)
        let pin = try screen(0, -0.5)
        #expect(r.queryFeatures(at: ScreenPoint(x: pin.x + 4, y: pin.y - 4), camera: camera).first?.featureIndex == 1)
        #expect(layers(r.queryFeatures(at: ScreenPoint(x: pin.x + 4, y: pin.y - 4), camera: camera)) == ["label", "square"])
        #expect(layers(r.queryFeatures(at: ScreenPoint(x: pin.x + 9, y: pin.y), camera: camera)) == ["square"])
    }

    @Test func labelsAreOnlyFoundForTheCameraThatPlacedThem() throws {
        var r = try makeRenderer(layeredStyle)
        var frame = PixelBuffer(width: 200, height: 120)
        let here = try screen(0, -0.5)
        #expect(!layers(r.queryFeatures(at: here, camera: camera)).contains("label"), "nothing placed yet")
        r.render(camera: camera, into: &frame)
        #expect(r.symbolPlacementCamera == camera)
        #expect(layers(r.queryFeatures(at: here, camera: camera)).contains("label"))
        var moved = camera
        moved.zoom += 0.1
        #expect(!layers(r.queryFeatures(at: here, camera: moved)).contains("label"))
    }

    @Test func hitsComeTopmostFirstWithSymbolsAboveEverything() throws {
        var r = try makeRenderer(layeredStyle)
        var frame = PixelBuffer(width: 200, height: 120)
        r.render(camera: camera, into: &frame)
        // A rectangle over the whole square holds every feature but the far label.
        let a = try screen(-1, 1), b = try screen(1, -1)
        let hits = r.queryFeatures(in: ScreenRect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y), camera: camera)
        #expect(layers(hits) == ["label", "dot", "line", "square"])
        #expect(hits.first?.featureIndex == 1)
    }

    @Test func aRectangleTouchingOnlyThePolygonEdgeFindsItAndOneBesideItDoesNot() throws {
        let r = try makeRenderer(layeredStyle)
        let edge = try screen(1, 0).x
        // Centred well outside the square: only its left side reaches the edge.
        let touching = r.queryFeatures(in: ScreenRect(x: edge - 0.25, y: 50, width: 30, height: 20), camera: camera)
        #expect(layers(touching) == ["square"])
        let beside = r.queryFeatures(in: ScreenRect(x: edge + 0.75, y: 50, width: 30, height: 20), camera: camera)
        #expect(beside.isEmpty)
    }

    @Test func aLineInsideTheRectangleFarFromItsCentreIsFound() throws {
        let r = try makeRenderer(layeredStyle)
        let line = try screen(0.5, 0)
        // The line (x ≈ 123) sits near the right end of a wide, short rectangle centred at x = 60.
        let hits = r.queryFeatures(in: ScreenRect(x: line.x - 126, y: line.y - 2, width: 130, height: 4), camera: camera)
        #expect(layers(hits).contains("line"))
    }

    @Test func aLineJustOutsideTheRectangleIsNotFoundThoughNearItsCentre() throws {
        let r = try makeRenderer(layeredStyle)
        let line = try screen(0.5, 0)
        // 6 px right of the rectangle: more than half the 4 px width, less than half its diagonal.
        let hits = r.queryFeatures(in: ScreenRect(x: line.x - 46, y: line.y - 20, width: 40, height: 40), camera: camera)
        #expect(!layers(hits).contains("line"))
        #expect(layers(hits).contains("dot"))
    }

    @Test func aCircleIsFoundWhenItsDiskReachesTheRectangle() throws {
        let r = try makeRenderer(layeredStyle)
        let dot = try screen(-0.5, 0)
        #expect(layers(r.queryFeatures(in: ScreenRect(x: dot.x + 4, y: dot.y - 2, width: 10, height: 4), camera: camera)).contains("dot"))
        #expect(!layers(r.queryFeatures(in: ScreenRect(x: dot.x + 6, y: dot.y - 2, width: 10, height: 4), camera: camera)).contains("dot"))
    }

    @Test func aPitchedRectangleQueryFindsThePolygonExactlyWhereThePointQueryDoes() throws {
        let r = try makeRenderer(layeredStyle)
        let pitched = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 5, bearing: 20, pitch: 60)
        // Walk left along the row of 0.9° N from inside the square to its first missed point.
        var x = try screen(0, 0.9, pitched).x
        let y = try screen(0, 0.9, pitched).y
        #expect(layers(r.queryFeatures(at: ScreenPoint(x: x, y: y), camera: pitched, tolerance: 0)).contains("square"))
        while layers(r.queryFeatures(at: ScreenPoint(x: x, y: y), camera: pitched, tolerance: 0)).contains("square") { x -= 0.25 }
        // A rectangle to the left ending on the last hit point finds it; one ending on the miss does not.
        #expect(layers(r.queryFeatures(in: ScreenRect(x: x - 20, y: y, width: 20.25, height: 0), camera: pitched)).contains("square"))
        #expect(!layers(r.queryFeatures(in: ScreenRect(x: x - 20, y: y, width: 20, height: 0), camera: pitched)).contains("square"))
    }
}
