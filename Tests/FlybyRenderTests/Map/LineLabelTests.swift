import FlybyCore
import FlybyData
@testable import FlybyRender
import FlybyTiles
import Testing

/// Labels along lines (issue 18 item 3, issue 17 item 3): `symbol-placement` `line` and
/// `line-center`, glyph by glyph along the line, `symbol-spacing`, `text-max-angle`,
/// `text-keep-upright`, `text-rotate`, collision along the path, and stability through a
/// rotating and a zooming flight.
///
/// The scenes sit on the equator at zoom 8 (512 · 2⁸ / 360 ≈ 364 px per degree), north up, in a
/// 800 × 500 frame: 1° of longitude is 364 px to the right, 1° of latitude about 364 px up.
@Suite struct LineLabelTests {
    static let width = 800, height = 500
    static let pxPerDegree = 512.0 * 256 / 360

    /// A style of `lines` (each a list of lon/lat points, with a `name`) labelled along them.
    static func style(_ lines: [(name: String, points: [(Double, Double)])], layout: String = "") -> String {
        let features = lines.map { line in
            let coords = line.points.map { "[\($0.0), \($0.1)]" }.joined(separator: ", ")
            return """
                {"type": "Feature", "properties": {"name": "\(line.name)"}, "geometry": {"type": "LineString", "coordinates": [\(coords)]}}
                """
        }.joined(separator: ",\n")
        return """
            {"version": 8, "sources": {"lines": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "roads", "type": "line", "source": "lines", "paint": {"line-color": "#cccccc", "line-width": 6}},
                        {"id": "names", "type": "symbol", "source": "lines",
                         "layout": {"symbol-placement": "line", "text-field": ["get", "name"], "text-size": 16\(layout)},
                         "paint": {"text-color": "#000000"}}]}
            """
    }

    static func render(_ json: String, camera: CameraState = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 8))
        throws -> MapRenderer {
        var r = try makeRenderer(json, width: width, height: height)
        r.attribution = ""
        var frame = PixelBuffer(width: width, height: height)
        r.render(camera: camera, into: &frame)
        return r
    }

    /// The glyph runs drawn for the line labels, in placement order.
    static func glyphRuns(_ r: MapRenderer) -> [[PlacedGlyph]] {
        r.symbolDraws.compactMap { if case let .glyphs(g, _, _, _, _) = $0 { return g } else { return nil } }
    }

    /// An arc of radius `radius` degrees around (0, 0), from `from`° to `to`° (counter-clockwise on the map).
    static func arc(radius: Double, from: Double, to: Double, steps: Int = 60) -> [(Double, Double)] {
        (0...steps).map { i in
            let a = (from + (to - from) * Double(i) / Double(steps)) * Double.pi / 180
            return (radius * mapCos(a), radius * mapSin(a))
        }
    }

    @Test func glyphsOnACurvedLineFollowTheCurve() throws {
        // The upper half of a circle of radius 0.5° (182 px) around the frame's centre, west to east.
        let json = Self.style([("Along the curved street", Self.arc(radius: 0.5, from: 160, to: 20))], layout: #", "symbol-placement": "line-center""#)
        let r = try Self.render(json)
        let runs = Self.glyphRuns(r)
        try #require(runs.count == 1, "one label at the middle of the arc")
        let centre = (x: Double(Self.width) / 2, y: Double(Self.height) / 2)
        var angles: [Double] = []
        for g in runs[0] {
            // The tangent of the circle at the glyph's centre on the path is perpendicular to the radius.
            let rx = g.origin.x - centre.x, ry = g.origin.y - centre.y
            let radius = (rx * rx + ry * ry).squareRoot()
            #expect(abs(radius - 0.5 * Self.pxPerDegree) < 2, "the glyph's centre is on the line: \(radius) px from the centre")
            let along = abs(g.cos * (-ry) + g.sin * rx) / radius  // |cos| of the angle between glyph and tangent
            #expect(along > mapCos(4 * Double.pi / 180), "glyph turned along the curve (cos \(along))")
            angles.append(mapAtan2(g.sin, g.cos))
        }
        #expect((angles.max() ?? 0) - (angles.min() ?? 0) > 20 * Double.pi / 180, "the glyphs turn with the curve: \(angles)")
        // West to east over the top: reads left to right, so nothing was flipped.
        #expect(runs[0].first!.origin.x < runs[0].last!.origin.x)
    }

    /// A right angle under the label: over `text-max-angle` (45° by default) the label is dropped.
    @Test func aLabelOverABendSharperThanTextMaxAngleIsDropped() throws {
        let corner = [(-0.6, 0.0), (0.0, 0.0), (0.0, 0.6)]
        let straight = [(-0.6, 0.0), (0.6, 0.0)]
        let center = #", "symbol-placement": "line-center""#
        #expect(Self.glyphRuns(try Self.render(Self.style([("Corner street", corner)], layout: center))).isEmpty)
        #expect(Self.glyphRuns(try Self.render(Self.style([("Corner street", straight)], layout: center))).count == 1)
        let wide = center + #", "text-max-angle": 100"#
        #expect(Self.glyphRuns(try Self.render(Self.style([("Corner street", corner)], layout: wide))).count == 1)
    }

    @Test func keepUprightFlipsALineDrawnRightToLeft() throws {
        let eastToWest = [(0.8, 0.1), (-0.8, 0.1)]
        let center = #", "symbol-placement": "line-center""#
        let upright = Self.glyphRuns(try Self.render(Self.style([("Westward", eastToWest)], layout: center)))
        try #require(upright.count == 1)
        #expect(upright[0].allSatisfy { $0.cos > 0.999 }, "level and upright")
        #expect(upright[0].first!.origin.x < upright[0].last!.origin.x, "read left to right")
        let asDrawn = Self.glyphRuns(try Self.render(Self.style([("Westward", eastToWest)], layout: center + #", "text-keep-upright": false"#)))
        try #require(asDrawn.count == 1)
        #expect(asDrawn[0].allSatisfy { $0.cos < -0.999 }, "upside down, along the line's direction")
        #expect(asDrawn[0].first!.origin.x > asDrawn[0].last!.origin.x)
    }

    @Test func lineCenterPlacesOneLabelPerLine() throws {
        let lines = [("North", [(-0.9, 0.4), (0.9, 0.4)]), ("Middle", [(-0.9, 0.0), (0.9, 0.0)]), ("South", [(-0.9, -0.4), (0.9, -0.4)])]
        let r = try Self.render(Self.style(lines, layout: #", "symbol-placement": "line-center""#))
        let texts = r.placedSymbolBoxes.map(\.text).sorted()
        #expect(texts == ["Middle", "North", "South"])
        // At the middle of each line (x = 0 is the frame's centre column).
        for b in r.placedSymbolBoxes { #expect(abs((b.minX + b.maxX) / 2 - Double(Self.width) / 2) < 2, "\(b)") }
    }

    @Test func symbolSpacingRepeatsTheLabelAlongALongStraightLine() throws {
        // 2° = 728 px of line at an integer zoom, where the spacing is in screen pixels.
        let line = [(-1.0, 0.0), (1.0, 0.0)]
        for spacing in [100.0, 180.0] {
            let r = try Self.render(Self.style([("ab", line)], layout: #", "symbol-spacing": \#(spacing)"#))
            let xs = r.placedSymbolBoxes.map { ($0.minX + $0.maxX) / 2 }.sorted()
            let expected = 2 * Self.pxPerDegree / spacing
            #expect(Double(xs.count) >= expected - 1 && Double(xs.count) <= expected + 1, "spacing \(spacing): \(xs.count) labels")
            for (a, b) in zip(xs, xs.dropFirst()) { #expect(abs(b - a - spacing) < 1, "spacing \(spacing): \(b - a) px apart") }
        }
    }

    @Test func lineLabelsDoNotOverlapEachOther() throws {
        // Crossing lines with long names repeated every 60 px: the collision keeps them apart.
        let lines = [("Long crossing street name", [(-1.0, -0.6), (1.0, 0.6)]), ("Another long street name", [(-1.0, 0.6), (1.0, -0.6)]),
                     ("Third long street name", [(-1.0, 0.05), (1.0, -0.05)])]
        let r = try Self.render(Self.style(lines, layout: #", "symbol-spacing": 60"#))
        let n = r.placer.placed.count
        #expect(n >= 4, "\(n) labels placed")
        var chained = 0
        for i in 0..<n {
            let a = r.placer.collisionBoxes(ofPlaced: i)
            if a.count > 1 { chained += 1 }
            for j in (i + 1)..<n {
                let b = r.placer.collisionBoxes(ofPlaced: j)
                #expect(!a.contains { p in b.contains { p.overlaps($0) } }, "\(r.placer.placed[i].text) overlaps \(r.placer.placed[j].text)")
            }
        }
        #expect(chained == n, "every line label collides as a chain of glyph boxes")
        // The two diagonal streets cross at the centre; both have labels (their chains fit where their boxes would not).
        #expect(Set(r.placer.placed.map(\.text)).count == 3)
    }

    @Test func textRotateTurnsAPointLabel() throws {
        let json = """
            {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": {},
              "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
             "layers": [{"id": "names", "type": "symbol", "source": "p",
                         "layout": {"text-field": "Rotated label", "text-size": 16, "text-rotate": 90}}]}
            """
        let b = try #require(try Self.render(json).placedSymbolBoxes.first)
        #expect(b.maxY - b.minY > 3 * (b.maxX - b.minX), "turned a quarter: \(b)")
    }

    /// A line label kept from one frame to the next stays at its point of the line: its box moves
    /// with that point's projection (continuously, as the camera does), never by more than 2 px
    /// relative to it per small camera step; the anchor is not chosen again on screen each frame.
    @Test func lineLabelsMoveContinuouslyThroughARotatingAndAZoomingFlight() throws {
        let lines = [("Curving avenue", Self.arc(radius: 0.4, from: 200, to: -20)), ("Straight street", [(-1.2, -0.3), (1.2, -0.25)]),
                     ("Diagonal road", [(-0.9, 0.9), (0.9, -0.9)])]
        let json = Self.style(lines, layout: #", "symbol-spacing": 150"#)
        let c = LocationCoordinate2D(latitude: 0, longitude: 0)
        let rotating = (0...30).map { CameraState(center: c, zoom: 8.3, bearing: Double($0), pitch: 40) }
        let zooming = (0...30).map { CameraState(center: c, zoom: 8.05 + 0.03 * Double($0), bearing: 10, pitch: 30) }
        for (name, flight) in [("rotating", rotating), ("zooming", zooming)] {
            var r = try makeRenderer(json, width: Self.width, height: Self.height)
            r.attribution = ""
            var frame = PixelBuffer(width: Self.width, height: Self.height)
            // Per label: where its box's centre is relative to its anchor's own screen point.
            var previous: [String: (x: Double, y: Double)] = [:]
            var kept = 0, largest = 0.0
            for camera in flight {
                r.render(camera: camera, into: &frame)
                let transform = MapTransform(size: ScreenSize(width: Double(Self.width), height: Double(Self.height)), state: camera)
                var now: [String: (x: Double, y: Double)] = [:]
                for (i, b) in r.placer.placed.enumerated() {
                    let a = try #require(r.placer.placedAnchors[i], "a line label records its anchor")
                    let seen = try #require(transform.point(for: LocationCoordinate2D(latitude: WebMercator.latitude(unitY: a.y),
                                                                                       longitude: WebMercator.longitude(unitX: a.x))))
                    now["\(b.text)@\(a.x),\(a.y)"] = ((b.minX + b.maxX) / 2 - seen.x, (b.minY + b.maxY) / 2 - seen.y)
                    largest = max(largest, abs(seen.x - Double(Self.width) / 2))
                }
                for (key, p) in now {
                    guard let q = previous[key] else { continue }
                    kept += 1
                    let moved = ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
                    #expect(moved <= 2, "\(name), zoom \(camera.zoom), bearing \(camera.bearing): \(key) moved \(moved) px off its anchor")
                }
                previous = now
            }
            #expect(kept >= 3 * (flight.count - 1), "\(name): labels stay placed (\(kept) kept over \(flight.count - 1) steps)")
            #expect(largest > 100, "\(name): labels away from the centre, where the camera moves them most")
        }
    }

    /// A line around the world seen at zoom 18 with the smallest spacing: its length is about
    /// 3 · 10¹⁰ px there, and only the anchors on the visible ground are made.
    @Test func aTinySpacingOnAWorldLongLineMakesOnlyTheVisibleAnchors() throws {
        let json = Self.style([("i", [(-179.0, 0.0), (179.0, 0.0)])], layout: #", "symbol-spacing": 1, "text-size": 10"#)
        let r = try Self.render(json, camera: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 18))
        #expect(r.placedSymbolBoxes.count > 20, "\(r.placedSymbolBoxes.count) labels")
        #expect(r.lineAnchorScratch.count < 2 * LineLabelAnchor.maxAnchorsPerPart)
    }

    @Test func theLinePlacementPropertiesAreMarkedDrawn() {
        for p: StyleProperty in [.symbolSpacing, .symbolAvoidEdges, .textRotate, .textMaxAngle, .textKeepUpright] {
            #expect(p.drawing == .drawn, "\(p.rawValue)")
        }
    }
}

/// `symbol-avoid-edges` with a tiled source: a label reaching over its tile's edge is not placed
/// (tiles are drawn as one picture, so nothing would be cut; the property's placement rule is kept).
@Suite struct SymbolAvoidEdgesTests {
    /// Tile 4/8/5 with a place at its middle and one 91 units (of 4096) from its east edge.
    static func tiles() -> [TileID: VectorTile] {
        let lat = 48.9
        let uy = WebMercator.unitY(latitude: lat) * 16
        let py = Int32(((uy - 5) * 4096).rounded())
        let features = [(2048, 0), (4005, 1)].map { px, k in
            VectorTileFeature(id: UInt64(k + 1), type: .point, tags: [0, UInt32(k)],
                              geometry: TileGeometry(points: [TilePoint(x: Int32(px), y: py)], partStarts: [0, 1]))
        }
        let layer = VectorTileLayer(name: "places", version: 2, extent: 4096, keys: ["name"],
                                    values: [.string("Middle of the tile"), .string("Edge of the tile")], features: features)
        return [TileID(z: 4, x: 8, y: 5): VectorTile(layers: [layer])]
    }

    static func placed(avoidEdges: Bool) throws -> [String] {
        let json = """
            {"version": 8, "sources": {"t": {"type": "vector", "url": "pmtiles://memory.pmtiles"}},
             "layers": [{"id": "names", "type": "symbol", "source": "t", "source-layer": "places",
                         "layout": {"text-field": ["get", "name"], "text-size": 14, "symbol-avoid-edges": \(avoidEdges)}}]}
            """
        let style = try Style.parse(Array(json.utf8), file: "edges.json")
        let set = VectorTileSet(sourceID: "t", tiles: Self.tiles(), minZoom: 4, maxZoom: 4)
        let loaded = LoadedStyle(style: style, sources: [LoadedSource(id: "t", data: ProjectedSource(FeatureCollection(features: [], name: "t")),
                                                                      promoteId: nil, generateId: false)], tileSets: [set])
        var r = try MapRenderer(style: loaded, width: 800, height: 500)
        r.showsOrnaments = false
        r.attribution = ""
        var frame = PixelBuffer(width: 800, height: 500)
        r.render(camera: CameraState(center: LocationCoordinate2D(latitude: 48.9, longitude: 11.25), zoom: 4.5), into: &frame)
        return r.placedSymbolBoxes.map(\.text).sorted()
    }

    @Test func aLabelCrossingItsTilesEdgeIsNotPlacedWithAvoidEdges() throws {
        #expect(try Self.placed(avoidEdges: false) == ["Edge of the tile", "Middle of the tile"])
        #expect(try Self.placed(avoidEdges: true) == ["Middle of the tile"])
    }
}
