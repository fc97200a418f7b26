import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// `fill-extrusion` (3D buildings) and the root `light`.
@Suite struct FillExtrusionTests {
    /// A white map with square buildings: `{"h": metres, "lng": centre}` each 0.0004° wide at 60° N.
    static func style(_ buildings: [(height: Double, lng: Double)], paint: String = "", light: String = "") -> String {
        let features = buildings.map { b in
            let (w, e, s, n) = (b.lng - 0.0002, b.lng + 0.0002, 59.9999, 60.0001)
            return """
            {"type": "Feature", "properties": {"h": \(b.height)}, "geometry": {"type": "Polygon", "coordinates": [[[\(w), \(s)], [\(e), \(s)], [\(e), \(n)], [\(w), \(n)], [\(w), \(s)]]]}}
            """
        }.joined(separator: ", ")
        return """
        {"version": 8, \(light.isEmpty ? "" : "\"light\": \(light),")
         "sources": {"b": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "3d", "type": "fill-extrusion", "source": "b",
                     "paint": {"fill-extrusion-color": "#ff0000", "fill-extrusion-height": ["get", "h"]\(paint)}}]}
        """
    }

    static func render(_ json: String, camera: CameraState, size: Int = 200, threads: Int = 1) throws -> PixelBuffer {
        var loader = StyleLoader()
        let loaded = try loader.load(style: try Style.parse(Array(json.utf8), file: "extrusion.json"))
        var renderer = try MapRenderer(style: loaded, width: size, height: size)
        renderer.threads = threads
        renderer.showsOrnaments = false
        renderer.attribution = ""
        var frame = PixelBuffer(width: size, height: size)
        renderer.render(camera: camera, into: &frame)
        return frame
    }

    /// Rows (from the top) where column `x` is not the white background.
    static func paintedRows(_ f: PixelBuffer, x: Int) -> [Int] {
        (0..<f.height).filter { f.pixel(x: x, y: $0) != Color.white.premultipliedARGB }
    }

    static let pitched = CameraState(center: LocationCoordinate2D(latitude: 60, longitude: 24), zoom: 17, pitch: 60)

    @Test func aTallerBuildingReachesHigherOnAPitchedScreen() throws {
        let low = Self.paintedRows(try Self.render(Self.style([(10, 24)]), camera: Self.pitched), x: 100)
        let high = Self.paintedRows(try Self.render(Self.style([(60, 24)]), camera: Self.pitched), x: 100)
        let flat = Self.paintedRows(try Self.render(Self.style([(0, 24)]), camera: Self.pitched), x: 100)
        #expect(flat.isEmpty, "height 0 draws nothing (height must exceed base)")
        let lowTop = try #require(low.first), highTop = try #require(high.first)
        #expect(highTop < lowTop - 20, "60 m reaches rows above 10 m: \(highTop) vs \(lowTop)")
        // Both stand on the same footprint: their lowest painted rows agree.
        #expect(abs((low.last ?? 0) - (high.last ?? 0)) <= 1)
    }

    @Test func theBaseLiftsTheBuildingOffTheGround() throws {
        let grounded = Self.paintedRows(try Self.render(Self.style([(40, 24)]), camera: Self.pitched), x: 100)
        let lifted = Self.paintedRows(try Self.render(Self.style([(40, 24)], paint: #", "fill-extrusion-base": 20"#), camera: Self.pitched), x: 100)
        #expect(!lifted.isEmpty && lifted.first == grounded.first, "same top")
        #expect((lifted.last ?? 0) < (grounded.last ?? 0) - 5, "the bottom rises: \(lifted.last ?? 0) vs \(grounded.last ?? 0)")
    }

    @Test func wallsFacingTheLightAreBrighterThanWallsAway() throws {
        // Light from the east, map-anchored, nearly level (polar 80°): the east wall is lit
        // (shade 0.2 + 0.8 · 0.98), the south and west walls and the roof are not (0.2 and
        // 0.2 + 0.8 · cos 80°). Looking north-west the camera sees the east and south walls;
        // looking north-east, the south and west ones.
        let light = #"{"anchor": "map", "position": [1.15, 90, 80], "intensity": 0.8}"#
        // Without the vertical gradient (its darkening has tests of its own below), so the
        // figures are the light's alone.
        let json = Self.style([(60, 24)], paint: #", "fill-extrusion-vertical-gradient": false"#, light: light)
        func brightestRed(bearing: Double) throws -> UInt32 {
            let f = try Self.render(json, camera: CameraState(center: LocationCoordinate2D(latitude: 59.9997, longitude: 24), zoom: 17,
                                                              bearing: bearing, pitch: 60))
            // Pixels wholly inside a face (green 0: no white background blended in at an edge).
            return f.pixels.filter { ($0 >> 8) & 0xFF == 0 }.map { ($0 >> 16) & 0xFF }.max() ?? 0
        }
        let seesEastWall = try brightestRed(bearing: -45), seesWestWall = try brightestRed(bearing: 45)
        #expect(seesEastWall > 230, "the lit wall: \(seesEastWall)")
        #expect(seesWestWall < 110, "no lit face: \(seesWestWall)")
    }

    /// The red channel down column `x` of the south wall's pixels, top to bottom: the pixels
    /// wholly inside a red face (green 0), less the roof seen from above (the first run of one
    /// shade) and the row where roof and wall meet.
    static func wallReds(_ f: PixelBuffer, x: Int) -> [UInt32] {
        var faces: [UInt32] = []
        for y in 0..<f.height {
            let p = f.pixel(x: x, y: y)
            if (p >> 8) & 0xFF == 0 && p >> 24 == 0xFF { faces.append((p >> 16) & 0xFF) }
        }
        guard let roof = faces.first else { return [] }
        return Array(faces.drop { $0 == roof }.dropFirst())
    }

    /// Looking north at a building's south wall, the whole of a 240 m tower in view.
    static let facingWall = CameraState(center: LocationCoordinate2D(latitude: 60.0008, longitude: 24), zoom: 14, pitch: 30)

    @Test func aTowersWallsAreDarkerFartherDown() throws {
        let tower = Self.style([(240, 24)])
        let reds = Self.wallReds(try Self.render(tower, camera: Self.facingWall), x: 100)
        #expect(reds.count > 30, "the wall spans rows: \(reds.count)")
        let top = reds.prefix(5).map(Double.init).reduce(0, +) / 5, bottom = reds.suffix(5).map(Double.init).reduce(0, +) / 5
        // Default light (intensity 0.5): lo = 0.84; the factor is 1 from 150 m up and 0.84 at
        // the ground, so the top is about 1/0.84 = 1.19 of the bottom.
        #expect(top > bottom * 1.12 && top < bottom * 1.25, "top \(top), bottom \(bottom)")
        #expect(zip(reds, reds.dropFirst()).allSatisfy { $0 + 1 >= $1 }, "darker (or the same) row by row downwards: \(reds)")
        let plain = Self.wallReds(try Self.render(Self.style([(240, 24)], paint: #", "fill-extrusion-vertical-gradient": false"#),
                                                  camera: Self.facingWall), x: 100)
        #expect(plain.max()! - plain.min()! <= 1, "without the gradient one shade: \(plain.min()!)…\(plain.max()!)")
        #expect(abs(Double(plain.max()!) - top) <= 2, "the top of the tower is unshaded by the gradient: \(plain.max()!) vs \(top)")
    }

    /// Close to a 20 m building, looking north at its south wall.
    static let nearWall = CameraState(center: LocationCoordinate2D(latitude: 59.9999, longitude: 24), zoom: 17, pitch: 50)

    @Test func anOrdinaryBuildingsWallsAreOneShadeDarkerByTheGradient() throws {
        func wall(_ paint: String = "", light: String = "") throws -> (min: Double, max: Double) {
            let reds = Self.wallReds(try Self.render(Self.style([(20, 24)], paint: paint, light: light), camera: Self.nearWall), x: 100)
            #expect(reds.count > 20, "the wall spans rows: \(reds.count)")
            return (Double(try #require(reds.min())), Double(try #require(reds.max())))
        }
        let off = #", "fill-extrusion-vertical-gradient": false"#
        let with = try wall(), without = try wall(off)
        #expect(with.max - with.min <= 1, "one shade below 150 · lo² m ≈ 106 m: \(with)")
        #expect(abs(with.max / without.max - 0.84) < 0.01, "darker by lo = 0.84 with the default light: \(with.max / without.max)")
        // With intensity 0 every face is unlit red (255, the roof's shade too), so the wall is 255 · lo.
        let dim = try wall(light: #"{"intensity": 0}"#)
        #expect(abs(dim.max / 255 - 0.98) < 0.01, "lo = 0.98 with no directional light: \(dim.max / 255)")
    }

    @Test func theGradientDrawsTheSamePixelsOnOneAndTwoThreads() throws {
        let tower = Self.style([(240, 24), (30, 24.0006)])
        let one = try Self.render(tower, camera: Self.facingWall, threads: 1)
        let two = try Self.render(tower, camera: Self.facingWall, threads: 2)
        #expect(one.pixels == two.pixels)
    }

    @Test func aTranslucentLayerShowsNoWallThroughAnother() throws {
        let opaque = try Self.render(Self.style([(40, 24)]), camera: Self.pitched)
        let half = try Self.render(Self.style([(40, 24)], paint: #", "fill-extrusion-opacity": 0.5"#), camera: Self.pitched)
        // Every painted pixel is the opaque frame's pixel at half strength over white: the layer is
        // composited once, so hidden walls and the roof over them never add up.
        var compared = 0
        for y in 0..<200 {
            for x in 0..<200 where opaque.pixel(x: x, y: y) != Color.white.premultipliedARGB {
                let o = opaque.color(x: x, y: y), h = half.color(x: x, y: y)
                for (a, b) in [(o.red, h.red), (o.green, h.green), (o.blue, h.blue)] {
                    let expected = (Double(a) + 255) / 2
                    #expect(abs(Double(b) - expected) <= 1.5, "(\(x), \(y)): \(b) vs \(expected)")
                }
                compared += 1
            }
        }
        #expect(compared > 500)
    }

    @Test func lightAndExtrusionPropertiesAreCheckedWhenTheStyleIsRead() {
        let cases: [(String, String)] = [
            (Self.style([(10, 24)], light: #"{"intensity": 2}"#), "intensity"),
            (Self.style([(10, 24)], light: #"{"anchor": "sun"}"#), "anchor"),
            (Self.style([(10, 24)], light: #"{"position": [1, 2]}"#), "position"),
            (Self.style([(10, 24)], light: #"{"color": ["get", "c"]}"#), "color"),
            (Self.style([(10, 24)], light: #"{"shadow": true}"#), "shadow"),
            (Self.style([(10, 24)], paint: #", "fill-extrusion-vertical-gradient": 3"#), "fill-extrusion-vertical-gradient"),
            (Self.style([(10, 24)], paint: #", "fill-extrusion-pattern": "brick""#), "fill-extrusion-pattern"),
            (Self.style([(10, 24)], paint: #", "fill-extrusion-opacity": 3"#), "fill-extrusion-opacity"),
        ]
        for (json, named) in cases {
            #expect(throws: InputError.self, "\(named)") { _ = try Style.parse(Array(json.utf8), file: "bad.json") }
            do { _ = try Style.parse(Array(json.utf8), file: "bad.json") } catch {
                #expect(error.description.contains(named) && error.description.contains("bad.json"), "\(error)")
            }
        }
    }

    @Test func theLightOfAStyleAndOfItsPresetAreRead() throws {
        let json = """
        {"version": 8, "light": {"anchor": "map", "position": [1, 90, 45], "color": "#ff0000", "intensity": 0.25},
         "metadata": {"flyby:presets": {"dusk": {"light": {"intensity": 0.75}}}},
         "sources": {}, "layers": []}
        """
        let day = try Style.parse(Array(json.utf8), file: "l.json")
        #expect(day.light.anchorsToMap && day.light.azimuth == 90 && day.light.polar == 45 && day.light.intensity == 0.25)
        #expect(day.light.color == StyleColor(red: 1, green: 0, blue: 0))
        let dusk = try Style.parse(Array(json.utf8), file: "l.json", preset: "dusk")
        #expect(dusk.light.intensity == 0.75 && !dusk.light.anchorsToMap, "a preset's light replaces the whole light")
        let none = try Style.parse(Array(#"{"version": 8, "sources": {}, "layers": []}"#.utf8), file: "n.json")
        #expect(none.light == StyleLight() && none.light.azimuth == 210 && none.light.polar == 30 && none.light.intensity == 0.5)
    }

    @Test func aClickOnARoofAboveTheFootprintPicksTheBuilding() throws {
        var loader = StyleLoader()
        let json = Self.style([(20, 24)])
        let loaded = try loader.load(style: try Style.parse(Array(json.utf8), file: "extrusion.json"))
        var renderer = try MapRenderer(style: loaded, width: 200, height: 200)
        var frame = PixelBuffer(width: 200, height: 200)
        renderer.render(camera: Self.pitched, into: &frame)
        let rows = Self.paintedRows(frame, x: 100)
        let roofRow = try #require(rows.first) + 3
        // The footprint's ground point under the roof pixel is not the building: only the prism is.
        let ground = MapTransform(size: ScreenSize(width: 200, height: 200), state: Self.pitched).coordinate(for: ScreenPoint(x: 100, y: Double(roofRow)))
        #expect(ground.latitude > 60.0001, "the roof is drawn over ground north of the building")
        let hits = renderer.queryFeatures(at: ScreenPoint(x: 100, y: Double(roofRow)), camera: Self.pitched, tolerance: 0)
        #expect(hits.map(\.layerID) == ["3d"], "\(hits)")
        let firstHit = (0..<200).first { !renderer.queryFeatures(at: ScreenPoint(x: 100, y: Double($0)), camera: Self.pitched, tolerance: 0).isEmpty }
        #expect(abs((firstHit ?? -99) - (rows.first ?? 0)) <= 1, "the pick starts where the drawn roof starts")
        let above = renderer.queryFeatures(at: ScreenPoint(x: 100, y: Double(roofRow - 8)), camera: Self.pitched, tolerance: 0)
        #expect(above.isEmpty, "above the roof: \(above)")
    }

    /// The featureset-interactions guide's building highlight: a click picks a building, its
    /// feature state `select` is set, and only that building is drawn in the highlight colour.
    @Test func aPickedBuildingIsHighlightedByFeatureStateAndItsNeighbourIsNot() throws {
        let buildings = [23.9996, 24.0004].enumerated().map { i, lng in
            let (w, e, s, n) = (lng - 0.0002, lng + 0.0002, 59.9999, 60.0001)
            return """
            {"type": "Feature", "id": \(i), "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[\(w), \(s)], [\(e), \(s)], [\(e), \(n)], [\(w), \(n)], [\(w), \(s)]]]}}
            """
        }.joined(separator: ", ")
        let json = """
        {"version": 8, "light": {"anchor": "viewport", "intensity": 0},
         "sources": {"b": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(buildings)]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "3d", "type": "fill-extrusion", "source": "b",
                     "paint": {"fill-extrusion-height": 30,
                               "fill-extrusion-color": ["case", ["boolean", ["feature-state", "select"], false], "#0000ff", "#ff0000"]}}]}
        """
        var loader = StyleLoader()
        let loaded = try loader.load(style: try Style.parse(Array(json.utf8), file: "highlight.json"))
        var renderer = try MapRenderer(style: loaded, width: 200, height: 200)
        renderer.showsOrnaments = false
        renderer.attribution = ""
        /// Mostly-red and mostly-blue painted pixels in the columns around `x`.
        func colours(_ f: PixelBuffer, x: Int) -> (red: Int, blue: Int) {
            var red = 0, blue = 0
            for y in 0..<f.height {
                for dx in -5...5 {
                    let p = f.pixel(x: x + dx, y: y), r = (p >> 16) & 0xFF, b = p & 0xFF, g = (p >> 8) & 0xFF
                    if r > 2 * b + 20 && r > 2 * g + 20 { red += 1 } else if b > 2 * r + 20 && b > 2 * g + 20 { blue += 1 }
                }
            }
            return (red, blue)
        }
        var before = PixelBuffer(width: 200, height: 200)
        renderer.render(camera: Self.pitched, into: &before)
        let (left, right) = (27, 173)
        #expect(colours(before, x: left).red > 100 && colours(before, x: right).red > 100, "both buildings drawn red")
        #expect(colours(before, x: right).blue == 0)

        // A click on the right building's roof picks it.
        let row = try #require(Self.paintedRows(before, x: right).first) + 3
        let hit = try #require(renderer.queryFeatures(at: ScreenPoint(x: Double(right), y: Double(row)), camera: Self.pitched, tolerance: 0).first)
        #expect(hit.layerID == "3d" && hit.featureID == .number(1), "\(hit)")
        renderer.featureStates.set("select", .bool(true), source: hit.sourceID, feature: try #require(hit.featureID))

        var after = PixelBuffer(width: 200, height: 200)
        renderer.render(camera: Self.pitched, into: &after)
        let r = colours(after, x: right), l = colours(after, x: left)
        #expect(r.blue > 100 && r.red == 0, "the selected building is blue: \(r)")
        #expect(l.red == colours(before, x: left).red && l.blue == 0, "its neighbour stays red: \(l)")
        renderer.featureStates.set("select", .null, source: hit.sourceID, feature: .number(1))
        var cleared = PixelBuffer(width: 200, height: 200)
        renderer.render(camera: Self.pitched, into: &cleared)
        #expect(cleared == before, "clearing the state restores the frame")
    }
}
