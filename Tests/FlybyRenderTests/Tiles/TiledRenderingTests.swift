import FlybyCore
import FlybyData
@testable import FlybyRender
import FlybyTiles
import Testing

/// Vector tiles drawn as one source: clipped to their squares, pieces of a feature joined, no
/// seams, the same pixels whatever the cache and the thread count.
@Suite struct TiledRenderingTests {
    static let extent: Int32 = 4096

    /// A polygon (a square from `x0` to `x1`, `y0` to `y1` in tile coordinates) as one feature.
    static func square(id: UInt64?, _ x0: Int32, _ y0: Int32, _ x1: Int32, _ y1: Int32) -> VectorTileFeature {
        let ring = [TilePoint(x: x0, y: y0), TilePoint(x: x1, y: y0), TilePoint(x: x1, y: y1), TilePoint(x: x0, y: y1)]
        return VectorTileFeature(id: id, type: .polygon, geometry: TileGeometry(points: ring, partStarts: [0, 4], polygonStarts: [0, 1]))
    }

    static func line(id: UInt64?, _ points: [(Int32, Int32)]) -> VectorTileFeature {
        VectorTileFeature(id: id, type: .lineString,
                          geometry: TileGeometry(points: points.map { TilePoint(x: $0.0, y: $0.1) }, partStarts: [0, Int32(points.count)]))
    }

    static func tile(_ shapes: [VectorTileFeature], _ lines: [VectorTileFeature]) -> VectorTile {
        VectorTile(layers: [VectorTileLayer(name: "shapes", version: 2, extent: Int(extent), keys: [], values: [], features: shapes),
                            VectorTileLayer(name: "lines", version: 2, extent: Int(extent), keys: [], values: [], features: lines)])
    }

    /// Two z2 tiles side by side (2/1/1 west, 2/2/1 east of the meridian), each holding its part
    /// of the same square (with 300 units of buffer into the other) and of one line.
    static func twoTiles(sameIDs: Bool) -> [TileID: VectorTile] {
        [
            TileID(z: 2, x: 1, y: 1): tile([square(id: 7, 2048, 1000, 4396, 3000)], [line(id: 9, [(1000, 3300), (4396, 3300)])]),
            TileID(z: 2, x: 2, y: 1): tile([square(id: sameIDs ? 7 : 8, -300, 1000, 2048, 3000)],
                                           [line(id: sameIDs ? 9 : 10, [(-300, 3300), (3000, 3300)])]),
        ]
    }

    static let styleJSON = """
    {"version": 8, "sources": {"t": {"type": "vector", "url": "pmtiles://memory.pmtiles"}},
     "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                {"id": "fill", "type": "fill", "source": "t", "source-layer": "shapes",
                 "paint": {"fill-color": "#ff0000", "fill-opacity": 0.5}},
                {"id": "line", "type": "line", "source": "t", "source-layer": "lines",
                 "paint": {"line-color": "#0000ff", "line-opacity": 0.5, "line-width": 12}, "layout": {"line-cap": "round"}}]}
    """

    /// The polygons' outlines as a line layer (borders drawn from country polygons, say).
    static let outlineJSON = """
    {"version": 8, "sources": {"t": {"type": "vector", "url": "pmtiles://memory.pmtiles"}},
     "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                {"id": "outline", "type": "line", "source": "t", "source-layer": "shapes", "paint": {"line-color": "#000000", "line-width": 2}}]}
    """

    /// A fill with an outline colour (the 1 px outline).
    static let fillOutlineJSON = """
    {"version": 8, "sources": {"t": {"type": "vector", "url": "pmtiles://memory.pmtiles"}},
     "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                {"id": "fill", "type": "fill", "source": "t", "source-layer": "shapes",
                 "paint": {"fill-color": "#ff0000", "fill-opacity": 0.5, "fill-outline-color": "#00ff00"}}]}
    """

    static func loaded(_ tiles: [TileID: VectorTile], cacheBudget: Int = 256 << 20, json: String = styleJSON) throws -> LoadedStyle {
        let style = try Style.parse(Array(json.utf8), file: "tiles.json")
        let set = VectorTileSet(sourceID: "t", tiles: tiles, minZoom: 0, maxZoom: 2, cacheBudget: cacheBudget)
        return LoadedStyle(style: style, sources: [LoadedSource(id: "t", data: ProjectedSource(FeatureCollection(features: [], name: "t")),
                                                                promoteId: nil, generateId: false)],
                           tileSets: [set])
    }

    /// A camera that puts the tiles' shared edge (the meridian) at x = 127.7 px: inside a pixel,
    /// so a seam would show as a pixel of its own.
    static let camera: CameraState = {
        let worldSize = WebMercator.worldSize(zoom: 2.5)
        let y = 1.65 / 4   // in the square's rows of tile row 1
        return CameraState(center: LocationCoordinate2D(latitude: WebMercator.latitude(unitY: y),
                                                        longitude: WebMercator.longitude(unitX: 0.5 + 0.3 / worldSize)),
                           zoom: 2.5)
    }()

    static func render(_ style: LoadedStyle, threads: Int = 1, frames: Int = 1) throws -> PixelBuffer {
        var r = try MapRenderer(style: style, width: 256, height: 256)
        r.threads = threads
        r.showsOrnaments = false
        r.attribution = ""
        var frame = PixelBuffer(width: 256, height: 256)
        for _ in 0..<frames { r.render(camera: camera, into: &frame) }
        return frame
    }

    /// Row `y` of the frame, columns 110…145 around the seam at 127.7.
    static func row(_ f: PixelBuffer, _ y: Int) -> [UInt32] { (110...145).map { f.pixel(x: $0, y: y) } }

    @Test func aPolygonCutByATileEdgeIsFilledWithoutASeam() throws {
        let frame = try Self.render(try Self.loaded(Self.twoTiles(sameIDs: true)))
        // Row 110 crosses the square well inside it (its rows are 1000…3000 of the tile's 4096).
        let row = Self.row(frame, 110)
        #expect(Set(row).count == 1, "a seam: \(Set(row).map { String($0, radix: 16) })")
        #expect(frame.color(x: 128, y: 110).red > 200)
    }

    @Test func withoutAFeatureIDThePiecesStaySeparateAndTheSeamShows() throws {
        // The control: the same geometry as two features (ids 7 and 8) is filled as two paths.
        let frame = try Self.render(try Self.loaded(Self.twoTiles(sameIDs: false)))
        #expect(Set(Self.row(frame, 110)).count > 1)
    }

    @Test func aLineCutByATileEdgeIsStrokedWithoutADarkerJoint() throws {
        let style = try Self.loaded(Self.twoTiles(sameIDs: true))
        let frame = try Self.render(style)
        // The line runs along tile row 3300: compare
        // the seam's pixels with the line's pixels either side.
        let t = MapTransform(size: ScreenSize(width: 256, height: 256), state: Self.camera)
        let p = try #require(t.point(for: LocationCoordinate2D(latitude: WebMercator.latitude(unitY: (1 + 3300.0 / 4096) / 4),
                                                                 longitude: 0)))
        let y = Int(p.y)
        let seam = frame.pixel(x: 127, y: y), west = frame.pixel(x: 120, y: y), east = frame.pixel(x: 135, y: y)
        #expect(seam == west && seam == east, "\(String(seam, radix: 16)) \(String(west, radix: 16)) \(String(east, radix: 16))")
        #expect(frame.color(x: 127, y: y).blue > 100)
    }

    @Test func theCutAlongATileEdgeIsNotPartOfAPolygonsOutline() throws {
        let t = MapTransform(size: ScreenSize(width: 256, height: 256), state: Self.camera)
        let bottom = try #require(t.point(for: LocationCoordinate2D(latitude: WebMercator.latitude(unitY: (1 + 3000.0 / 4096) / 4),
                                                                      longitude: 0)))
        for sameIDs in [true, false] {
            let frame = try Self.render(try Self.loaded(Self.twoTiles(sameIDs: sameIDs), json: Self.outlineJSON))
            // Inside the square nothing is drawn at the tile edge…
            #expect((126...129).allSatisfy { frame.pixel(x: $0, y: 110) == Color.white.premultipliedARGB }, "sameIDs \(sameIDs)")
            // …while the square's real edges are outlined: its bottom edge (tile row 3000) is dark.
            #expect(frame.color(x: 100, y: Int(bottom.y)).red < 200)
        }
        let filled = try Self.render(try Self.loaded(Self.twoTiles(sameIDs: true), json: Self.fillOutlineJSON))
        #expect(Set(Self.row(filled, 110)).count == 1)
    }

    @Test func theBufferIsNotDrawnTwice() throws {
        // The square's buffer (300 units into the neighbour) would double the translucent red
        // next to the edge if it were drawn: the pixel beside the edge equals one far from it.
        let frame = try Self.render(try Self.loaded(Self.twoTiles(sameIDs: false)))
        #expect(frame.pixel(x: 125, y: 110) == frame.pixel(x: 100, y: 110))
        #expect(frame.pixel(x: 131, y: 110) == frame.pixel(x: 150, y: 110))
    }

    @Test func framesAreTheSameWhateverTheCacheSizeAndTheThreadCount() throws {
        let tiles = Self.twoTiles(sameIDs: true)
        let reference = try Self.render(try Self.loaded(tiles))
        #expect(try Self.render(try Self.loaded(tiles, cacheBudget: 0)).pixels == reference.pixels)
        #expect(try Self.render(try Self.loaded(tiles), threads: 3, frames: 2).pixels == reference.pixels)
    }

    @Test func pointsOnATileEdgeBelongToOneTileOnly() throws {
        let point = VectorTileFeature(id: 1, type: .point, geometry: TileGeometry(points: [TilePoint(x: 4096, y: 100)], partStarts: [0, 1]))
        let layer = VectorTileLayer(name: "p", version: 2, extent: 4096, keys: [], values: [], features: [point])
        let west = TilePiece(layer: layer, tile: TileID(z: 1, x: 0, y: 0)).features.count
        let eastPoint = VectorTileFeature(id: 1, type: .point, geometry: TileGeometry(points: [TilePoint(x: 0, y: 100)], partStarts: [0, 1]))
        let east = TilePiece(layer: VectorTileLayer(name: "p", version: 2, extent: 4096, keys: [], values: [], features: [eastPoint]),
                             tile: TileID(z: 1, x: 1, y: 0)).features.count
        #expect(west == 0 && east == 1)
    }

    @Test func aVectorSourceWithANetworkURLIsRefusedWithAReason() {
        let json = #"{"version": 8, "sources": {"t": {"type": "vector", "url": "https://example.com/tiles.json"}}, "layers": []}"#
        #expect(throws: InputError.self) { try Style.parse(Array(json.utf8), file: "s.json") }
        do { _ = try Style.parse(Array(json.utf8), file: "s.json") } catch {
            #expect(error.description.contains("no network"))
            #expect(error.description.contains("sources.t.url"))
        }
    }

    @Test func aLayerOfAVectorSourceNeedsItsSourceLayer() {
        let json = #"{"version": 8, "sources": {"t": {"type": "vector", "url": "pmtiles://x.pmtiles"}}, "layers": [{"id": "a", "type": "fill", "source": "t"}]}"#
        do { _ = try Style.parse(Array(json.utf8), file: "s.json"); Issue.record("accepted") } catch {
            #expect(error.description.contains("source-layer"))
        }
    }

    @Test func aMissingArchiveIsAnErrorThatNamesTheStyleAndTheArchive() {
        let json = #"{"version": 8, "sources": {"t": {"type": "vector", "url": "pmtiles://nowhere.pmtiles"}}, "layers": []}"#
        do {
            let style = try Style.parse(Array(json.utf8), file: "/tmp/s.json")
            var loader = StyleLoader()
            _ = try loader.load(style: style)
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("/tmp/s.json"))
            #expect(error.description.contains("/tmp/nowhere.pmtiles"))
        }
    }
}
