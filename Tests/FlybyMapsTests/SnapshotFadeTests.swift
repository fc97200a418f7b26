import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender
import Testing

/// Successive `MapView.snapshot()`s are frames of one sequence: a label that loses collision
/// fades out over `mapboxMap.fadeDuration` of the frame clock's time (MapLibre's `fadeDuration`).
@Suite struct SnapshotFadeTests {
    /// A view at zoom 5 over the sea with a label "Hi" and, placed first, a blocker
    /// "WWWWWWWW" 3.5° west of it: apart at zoom 5, colliding at zoom 3.
    static func view(zoom: Double = 5) throws -> MapView {
        let v = try MapView(frame: ScreenSize(width: 400, height: 100),
                            mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: LocationCoordinate2D(latitude: 0, longitude: -20), zoom: zoom),
                                                           styleURI: .world))
        var source = GeoJSONSource(id: "labels")
        source.data = .featureCollection(FeatureCollection(features: [
            Feature(geometry: .point(LocationCoordinate2D(latitude: 0, longitude: -18.25)), properties: PropertyMap([("name", .string("Hi"))])),
            Feature(geometry: .point(LocationCoordinate2D(latitude: 0, longitude: -21.75)),
                    properties: PropertyMap([("name", .string("WWWWWWWW"))])),
        ], name: "labels"))
        try v.mapboxMap.addSource(source)
        var labels = SymbolLayer(id: "labels", source: "labels")
        labels.textField = .expression(Exp(.get) { "name" })
        labels.textAllowOverlap = .constant(false)
        try v.mapboxMap.addLayer(labels)
        return v
    }

    static func placed(_ v: MapView) -> [String] {
        v.mapboxMap.placedSymbolBoxes.filter { $0.layerID == "labels" }.map(\.text).sorted()
    }

    @Test func aLabelThatLosesCollisionFadesOutOverTheFadeDuration() throws {
        let v = try Self.view()
        _ = v.snapshot()
        #expect(Self.placed(v) == ["Hi", "WWWWWWWW"], "apart at zoom 5")
        let alone = try Self.view(zoom: 3).snapshot()  // the zoom-3 frame with no history
        v.tick()
        v.mapboxMap.setCamera(to: CameraOptions(zoom: 3))
        let first = v.snapshot()
        #expect(Self.placed(v).count == 1, "they collide at zoom 3: \(Self.placed(v))")
        #expect(first.pixels != alone.pixels, "the loser is still fading out")
        v.advance(by: 0.2)
        #expect(v.snapshot().pixels != alone.pixels, "0.2 s into a 0.3 s fade")
        v.advance(by: 0.15)
        #expect(v.snapshot().pixels == alone.pixels, "faded out after 0.3 s")
    }

    @Test func aFadeDurationOfZeroDrawsEveryFrameAsASnapshot() throws {
        let v = try Self.view()
        v.mapboxMap.fadeDuration = 0
        _ = v.snapshot()
        v.tick()
        v.mapboxMap.setCamera(to: CameraOptions(zoom: 3))
        #expect(v.snapshot().pixels == (try Self.view(zoom: 3).snapshot()).pixels)
    }

    @Test func twoSnapshotsOfOneFrameAreTheSame() throws {
        let v = try Self.view()
        _ = v.snapshot()
        v.tick()
        v.mapboxMap.setCamera(to: CameraOptions(zoom: 3))
        _ = v.snapshot()
        // A second snapshot at the same clock time starts a new sequence: no fading.
        #expect(v.snapshot().pixels == (try Self.view(zoom: 3).snapshot()).pixels)
    }
}
