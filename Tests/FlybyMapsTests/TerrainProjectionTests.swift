import FlybyCore
import FlybyData
@testable import FlybyMaps
@testable import FlybyRender
import Foundation
import Testing

/// Screen ↔ map on the relief (docs/terrain.md): `point(for:)` raises a coordinate to the relief
/// as the drape draws it, `coordinate(for:)` finds where the view ray meets it, queries, the puck
/// and view annotations follow, and the relief hides what is behind a ridge. The built-in
/// `jacksboro-terrain` style, looking north-west across the Jacksboro ridge.
@Suite struct TerrainProjectionTests {
    static let camera = CameraOptions(center: LocationCoordinate2D(latitude: 36.5816, longitude: -84.2358), zoom: 13.5,
                                      bearing: 315, pitch: 75)
    /// Behind the ridge, and before it, as seen from ``camera`` (the labels of TerrainDrapeTests).
    static let behind = LocationCoordinate2D(latitude: 36.6256, longitude: -84.2908)
    static let before = LocationCoordinate2D(latitude: 36.5736, longitude: -84.2258)
    static let size = ScreenSize(width: 640, height: 360)

    static func makeView() throws -> MapView {
        try MapView(frame: size, mapInitOptions: MapInitOptions(cameraOptions: camera, styleURI: .jacksboroTerrain))
    }

    /// The highest ground point seen through a grid of screen points that the relief does not
    /// hide: a summit of the ridge, in view.
    static func summit(_ map: MapboxMap) throws -> LocationCoordinate2D {
        var best: (LocationCoordinate2D, Double)?
        for c in try visibleGround(map) {
            let e = map.elevation(at: c) ?? 0
            if e > best?.1 ?? -.infinity { best = (c, e) }
        }
        return try #require(best).0
    }

    /// The ground seen through a grid of screen points (20 rows of 40 points apart, inside a
    /// 40-point border), where the relief does not hide it.
    static func visibleGround(_ map: MapboxMap) throws -> [LocationCoordinate2D] {
        let relief = try #require(map.relief)
        var seen: [LocationCoordinate2D] = []
        for y in stride(from: 20.0, to: size.height - 40, by: 20) {
            for x in stride(from: 40.0, to: size.width - 40, by: 40) {
                guard let c = relief.coordinate(for: ScreenPoint(x: x, y: y)), !relief.isHidden(c) else { continue }
                seen.append(c)
            }
        }
        return seen
    }

    /// Ground distance in metres (equirectangular; fine over a few hundred metres).
    static func metres(_ a: LocationCoordinate2D, _ b: LocationCoordinate2D) -> Double {
        let k = 6_371_000 * Double.pi / 180
        let dx = (a.longitude - b.longitude) * cos(a.latitude * .pi / 180) * k, dy = (a.latitude - b.latitude) * k
        return (dx * dx + dy * dy).squareRoot()
    }

    static func render(_ map: MapboxMap, puck: PuckState? = nil, puck3D: Puck3D? = nil, terrain: Bool = true,
                       threads: Int = 1) throws -> (PixelBuffer, MapRenderer) {
        var r = try MapRenderer(style: map.loadedStyle, width: Int(size.width), height: Int(size.height))
        r.drawsTerrain = terrain
        r.threads = threads
        r.puck3D = puck3D
        var frame = PixelBuffer(width: r.width, height: r.height)
        r.render(camera: map.cameraState, puck: puck, into: &frame)
        return (frame, r)
    }

    static func puck(at c: LocationCoordinate2D) -> PuckState {
        PuckState(location: Location(coordinate: c, timestamp: 0, horizontalAccuracy: 0))
    }

    /// The bounding box of the pixels that differ between two frames.
    static func changed(_ a: PixelBuffer, _ b: PixelBuffer) -> PixelRect? {
        var box: PixelRect?
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixels[y * a.width + x] != b.pixels[y * a.width + x] {
                box = box.map { PixelRect(minX: min($0.minX, x), minY: min($0.minY, y), maxX: max($0.maxX, x + 1), maxY: max($0.maxY, y + 1)) }
                    ?? PixelRect(minX: x, minY: y, maxX: x + 1, maxY: y + 1)
            }
        }
        return box
    }

    @Test func pointForASummitIsRaisedAndIsWhereTheDrapeDrawsIt() throws {
        let v = try Self.makeView()
        let map = v.mapboxMap
        let summit = try Self.summit(map)
        let raised = try #require(map.point(for: summit))
        let flat = try #require(map.map.point(for: summit))
        #expect(flat.y - raised.y > 10, "the summit is drawn above its flat point: \(raised) vs \(flat)")

        // The drape's depth buffer holds the summit's depth at its raised point.
        let (_, r) = try Self.render(map)
        let depth = try #require(map.relief?.point(for: summit)).depth
        let drawn = Double(r.drapes[0].depth.depth(x: Int(raised.x), y: Int(raised.y)))
        #expect(abs(drawn - depth) < depth * 0.01, "drawn depth \(drawn), summit \(depth)")

        // Every mesh vertex on screen is point(for:) of the ground point its texture pixel sees.
        let drape = r.drapes[0], mesh = drape.mesh
        let g = FrameGeometry(camera: map.cameraState, width: r.width, height: r.height)
        var compared = 0
        for j in stride(from: 0, to: mesh.rows, by: 3) {
            for i in stride(from: 0, to: mesh.columns, by: 3) {
                let vertex = mesh.vertices[j * mesh.columns + i]
                guard !vertex.z.isNaN, vertex.x >= 0, vertex.y >= 0, Double(vertex.x) < Self.size.width,
                      Double(vertex.y) < Self.size.height else { continue }
                let tx = Double(min(drape.image.width, i * drape.step)), ty = Double(min(drape.image.height, mesh.top + j * drape.step))
                let c = g.transform.coordinate(for: ScreenPoint(x: tx - Double(drape.marginX), y: ty - Double(drape.marginTop)))
                let p = try #require(map.point(for: c))
                #expect(abs(p.x - Double(vertex.x)) < 0.05 && abs(p.y - Double(vertex.y)) < 0.05, "vertex \(i), \(j): \(vertex) vs \(p)")
                compared += 1
            }
        }
        #expect(compared > 100, "\(compared) vertices compared")
    }

    @Test func coordinateForAPointOnTheRidgeRoundTripsAndTheSkyFallsBackToThePlane() throws {
        let v = try Self.makeView()
        let map = v.mapboxMap
        let relief = try #require(map.relief)
        let summit = try Self.summit(map)
        var checked = 0
        let ground = try Self.visibleGround(map)
        for c in [summit, Self.before] + stride(from: 0, to: ground.count, by: max(1, ground.count / 12)).map({ ground[$0] }) {
            guard let p = map.point(for: c), p.x >= 0, p.y >= 0, p.x < Self.size.width, p.y < Self.size.height,
                  !relief.isHidden(c) else { continue }
            let back = map.coordinate(for: p)
            #expect(Self.metres(back, c) < 3, "\(c) → \(p) → \(back): \(Self.metres(back, c)) m")
            // The flat plane's point under the same pixel is elsewhere (the relief moved it).
            if c.latitude == summit.latitude { #expect(Self.metres(map.map.coordinate(for: p), c) > 50) }
            checked += 1
        }
        #expect(checked >= 5, "\(checked) visible points")

        // The top-left corner shows the sky: no relief there, so the flat plane's coordinate.
        let sky = ScreenPoint(x: 2, y: 1)
        #expect(relief.coordinate(for: sky) == nil)
        #expect(map.coordinate(for: sky) == map.map.coordinate(for: sky))
        let (_, r) = try Self.render(map)
        #expect(r.drapes[0].depth.depth(x: 2, y: 1) == .infinity, "the drape draws no relief there either")
    }

    @Test func aQueryAtTheRaisedPointOfACircleOnTheSlopeFindsIt() throws {
        let v = try Self.makeView()
        let map = v.mapboxMap
        let summit = try Self.summit(map)
        var source = GeoJSONSource(id: "dot")
        source.data = .feature(Feature(id: .string("summit"), geometry: .point(summit)))
        try map.addSource(source)
        var layer = CircleLayer(id: "dot-layer", source: "dot")
        layer.circleColor = .constant(StyleColor(red: 1, green: 0, blue: 0))
        layer.circleRadius = .constant(4)
        try map.addLayer(layer)
        let raised = try #require(map.point(for: summit)), flat = try #require(map.map.point(for: summit))
        // It is drawn at its raised point, on the relief…
        let frame = v.snapshot()
        let red = frame.color(x: Int(raised.x), y: Int(raised.y))
        #expect(red.red > 200 && red.green < 60 && red.blue < 60, "\(red) at \(raised)")
        // …and found there, not at its flat point.
        let found = map.queryRenderedFeatures(with: raised, options: RenderedQueryOptions(layerIds: ["dot-layer"], filter: nil))
        #expect(found.map(\.featureID) == [.string("summit")])
        let atFlat = map.queryRenderedFeatures(with: flat, options: RenderedQueryOptions(layerIds: ["dot-layer"], filter: nil))
        #expect(atFlat.isEmpty, "the flat point \(flat) shows other ground")
    }

    @Test func aLabelIsQueriedWhereTheReliefDrawsItAndNotBehindTheRidge() throws {
        let v = try Self.makeView()
        let map = v.mapboxMap
        let summit = try Self.summit(map)
        var source = GeoJSONSource(id: "places")
        source.data = .featureCollection(FeatureCollection(features: [
            Feature(id: .string("summit"), geometry: .point(summit)), Feature(id: .string("behind"), geometry: .point(Self.behind))], name: "places"))
        try map.addSource(source)
        var labels = SymbolLayer(id: "labels", source: "places")
        labels.textField = .constant("Label")
        labels.textAllowOverlap = .constant(true)
        labels.textIgnorePlacement = .constant(true)
        try map.addLayer(labels)
        _ = v.snapshot()
        let only = RenderedQueryOptions(layerIds: ["labels"], filter: nil)
        let raised = try #require(map.point(for: summit)), flat = try #require(map.map.point(for: summit))
        #expect(map.queryRenderedFeatures(with: raised, options: only).map(\.featureID) == [.string("summit")])
        #expect(map.queryRenderedFeatures(with: flat, options: only).isEmpty, "the label is not at its flat point \(flat)")
        // The label behind the ridge is placed (on the flat map) but not drawn, nor found.
        let hiddenFlat = try #require(map.map.point(for: Self.behind))
        let hiddenRaised = try #require(map.point(for: Self.behind))
        for p in [hiddenFlat, hiddenRaised] {
            #expect(!map.queryRenderedFeatures(with: p, options: only).contains { $0.featureID == .string("behind") })
        }
        #expect(map.placedSymbolBoxes.contains { $0.featureIndex == 1 }, "placed, then hidden by the relief")
    }

    @Test func thePuckBehindTheRidgeIsHiddenAndInFrontIsDrawnAtItsRaisedPoint() throws {
        let v = try Self.makeView()
        let map = v.mapboxMap
        let (plain, _) = try Self.render(map)
        let (hidden, _) = try Self.render(map, puck: Self.puck(at: Self.behind))
        #expect(hidden == plain, "the ridge hides the puck behind it")
        let (flatPlain, _) = try Self.render(map, terrain: false)
        let (flatPuck, _) = try Self.render(map, puck: Self.puck(at: Self.behind), terrain: false)
        #expect(flatPuck != flatPlain, "on the flat map the same puck is drawn")

        let summit = try Self.summit(map)
        let raised = try #require(map.point(for: summit)), flat = try #require(map.map.point(for: summit))
        let (shown, _) = try Self.render(map, puck: Self.puck(at: summit))
        let box = try #require(Self.changed(plain, shown))
        let middle = ScreenPoint(x: Double(box.minX + box.maxX) / 2, y: Double(box.minY + box.maxY) / 2)
        #expect(abs(middle.x - raised.x) < 1.5 && abs(middle.y - raised.y) < 1.5, "puck drawn around \(middle), raised \(raised), flat \(flat)")
        #expect(shown.color(x: Int(raised.x), y: Int(raised.y)) == Color(rgb: 0x1E88E5))

        // The 3D puck stands on the relief too.
        let model = Puck3D(model: try GLTFModel.load(path: BuiltinData.path("models/arrow.glb")!))
        let (model3D, _) = try Self.render(map, puck: Self.puck(at: summit), puck3D: model)
        let box3D = try #require(Self.changed(plain, model3D))
        #expect(box3D.minY <= Int(raised.y) && Int(raised.y) < box3D.maxY && box3D.minX <= Int(raised.x) && Int(raised.x) < box3D.maxX,
                "3D puck in \(box3D), raised \(raised)")
        let middle3D = ScreenPoint(x: Double(box3D.minX + box3D.maxX) / 2, y: Double(box3D.minY + box3D.maxY) / 2)
        #expect(abs(middle3D.y - raised.y) < abs(middle3D.y - flat.y), "3D puck around \(middle3D): nearer \(raised) than \(flat)")
        // Behind the ridge the relief hides the model (but for a tip above the skyline); on the
        // flat map it is drawn whole.
        func count(_ a: PixelBuffer, _ b: PixelBuffer) -> Int { zip(a.pixels, b.pixels).filter { $0 != $1 }.count }
        let (model3DHidden, _) = try Self.render(map, puck: Self.puck(at: Self.behind), puck3D: model)
        let (model3DFlat, _) = try Self.render(map, puck: Self.puck(at: Self.behind), puck3D: model, terrain: false)
        let hiddenCount = count(plain, model3DHidden), flatCount = count(flatPlain, model3DFlat)
        #expect(hiddenCount * 10 < flatCount, "\(hiddenCount) pixels drawn behind the ridge, \(flatCount) on the flat map")
    }

    @Test func viewAnnotationsStandOnTheReliefAndHideBehindTheRidge() throws {
        let v = try Self.makeView()
        let summit = try Self.summit(v.mapboxMap)
        let hidden = ViewAnnotation(coordinate: Self.behind, title: "Behind")
        let shown = ViewAnnotation(coordinate: summit, title: "Summit")
        v.viewAnnotations.add(hidden)
        v.viewAnnotations.add(shown)
        v.viewAnnotations.layout()
        #expect(hidden.isHidden)
        #expect(!shown.isHidden)
        let raised = try #require(v.mapboxMap.point(for: summit))
        #expect(shown.anchorPoint == raised)
        #expect(raised != v.mapboxMap.map.point(for: summit))
        #expect(v.mapboxMap.isHiddenByTerrain(Self.behind) && !v.mapboxMap.isHiddenByTerrain(summit))
        // Without terrain drawing (a flat map) the annotation behind the ridge shows.
        let flat = try MapView(frame: Self.size, mapInitOptions: MapInitOptions(cameraOptions: Self.camera, styleURI: StyleURI(rawValue: "jacksboro-hillshade")))
        let there = ViewAnnotation(coordinate: Self.behind, title: "Behind")
        flat.viewAnnotations.add(there)
        flat.viewAnnotations.layout()
        #expect(!there.isHidden)
    }

    @Test func theSameOnOneAndTwoThreads() throws {
        let v = try Self.makeView()
        let map = v.mapboxMap
        let summit = try Self.summit(map)
        let (one, _) = try Self.render(map, puck: Self.puck(at: summit), threads: 1)
        let (two, _) = try Self.render(map, puck: Self.puck(at: summit), threads: 2)
        #expect(one == two)
    }
}
