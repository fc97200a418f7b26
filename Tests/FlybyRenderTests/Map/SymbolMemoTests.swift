import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// Symbol layouts kept per feature and zoom never change what a frame places or draws.
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
}
