import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// Symbol layouts kept per feature and zoom, and R-tree results shared by the layers of one
/// source, never change what a frame places or draws.
@Suite struct SymbolMemoTests {
    static let helsinki = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9445)

    func fresh(_ camera: CameraState) throws -> (boxes: [SymbolBox], frame: PixelBuffer) {
        var r = try MapRenderer(style: sharedCityStyle, width: 480, height: 270)
        var frame = PixelBuffer(width: 480, height: 270)
        r.render(camera: camera, into: &frame)
        return (r.placedSymbolBoxes, frame)
    }

    /// One renderer flown through zooms, pitches and bearings (its memos kept or forgotten as the
    /// zoom changes) places exactly the boxes that a fresh renderer places for each camera.
    @Test func aReusedRendererPlacesTheBoxesOfAFreshOne() throws {
        let c = SymbolMemoTests.helsinki
        let cameras = [CameraState(center: c, zoom: 16, pitch: 60), CameraState(center: c, zoom: 16, bearing: 70, pitch: 45),
                       CameraState(center: c, zoom: 17.4), CameraState(center: c, zoom: 16, pitch: 60),
                       CameraState(center: LocationCoordinate2D(latitude: 60.165, longitude: 24.95), zoom: 18, bearing: -30)]
        var r = try MapRenderer(style: sharedCityStyle, width: 480, height: 270)
        var frame = PixelBuffer(width: 480, height: 270)
        var placedSomewhere = false
        for camera in cameras {
            r.render(camera: camera, into: &frame)
            let expected = try fresh(camera)
            #expect(r.placedSymbolBoxes == expected.boxes, "zoom \(camera.zoom), bearing \(camera.bearing)")
            #expect(frame == expected.frame)
            placedSomewhere = placedSomewhere || !expected.boxes.isEmpty
        }
        #expect(placedSomewhere)
    }

    /// A cached query returns what a fresh query returns; another box, zoom or source queries anew.
    @Test func sharedQueriesMatchFreshOnes() throws {
        let style = sharedCityStyle
        let roadsIndex = try #require(style.style.sourceIndex(id: "roads"))
        let roads = style.sources[roadsIndex]
        // Boxes around two roads, grown to hold their neighbours.
        func around(_ f: Int) -> MercatorBox {
            let b = roads.data.bounds[f], d = 4 * max(b.maxX - b.minX, b.maxY - b.minY)
            return MercatorBox(minX: b.minX - d, minY: b.minY - d, maxX: b.maxX + d, maxY: b.maxY + d)
        }
        let box = around(0), other = around(roads.data.features.count / 2)
        var cache = SourceQueryCache()
        for (b, zoom) in [(box, 16.0), (box, 16.0), (other, 16.0), (box, 12.0), (box, 16.0)] {
            var cached: [Int32] = [7]   // results are appended
            cache.query(roads, sourceIndex: roadsIndex, b, zoom: zoom, into: &cached)
            var direct: [Int32] = [7]
            roads.data.query(b, zoom: zoom, into: &direct)
            #expect(cached == direct)
            #expect(direct.count > 1)
        }
        cache.forget()
        var afterForget: [Int32] = []
        cache.query(roads, sourceIndex: roadsIndex, other, zoom: 16, into: &afterForget)
        var direct: [Int32] = []
        roads.data.query(other, zoom: 16, into: &direct)
        #expect(afterForget == direct)
    }
}
