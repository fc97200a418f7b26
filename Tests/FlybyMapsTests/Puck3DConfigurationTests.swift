import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender
import Testing

/// `mapView.location.options.puckType = .puck3D(…)` (Mapbox's `Puck3DConfiguration`) draws the
/// model where the 2D puck would be.
@Suite struct Puck3DConfigurationTests {
    @Test func aPuck3DTypeDrawsTheModelInsteadOfTheDot() throws {
        let here = LocationCoordinate2D(latitude: 60.17, longitude: 24.94)
        let track = try Track(name: "north", fixes: [Location(coordinate: here, timestamp: 0, course: 0, horizontalAccuracy: 0),
                                                     Location(coordinate: here, timestamp: 60, course: 0, horizontalAccuracy: 0)])
        let v = try MapView(frame: ScreenSize(width: 200, height: 120),
                            mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: here, zoom: 16, pitch: 50), styleURI: .world))
        v.location.override(track: track)
        v.advance(by: 0.5)
        v.location.options.puckType = .puck2D()
        let flat = v.snapshot()
        let config = Puck3DConfiguration(model: try Model.arrow(), modelScale: [1.5, 1.5, 1.5])
        v.location.options.puckType = .puck3D(config)
        let model = v.snapshot()
        #expect(flat.pixels != model.pixels)
        let p = try #require(v.mapboxMap.point(for: here))
        // The arrow's blue top covers the puck's point; the 2D puck's white ring 8 points left of it is gone.
        let top = model.color(x: Int(p.x), y: Int(p.y) - 4)
        #expect(Int(top.blue) > Int(top.red) + 60, "\(top)")
        let ring = flat.color(x: Int(p.x) - 7, y: Int(p.y)), there = model.color(x: Int(p.x) - 7, y: Int(p.y))
        #expect(ring != there)
        #expect(config.modelRotation == nil, "nil keeps Mapbox's default [0, 0, 90]")
    }
}
