import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender
import Testing

@Suite struct MapViewTests {
    static let helsinki = LocationCoordinate2D(latitude: 60.17, longitude: 24.94)

    func makeView(_ style: StyleURI = .city) throws -> MapView {
        try MapView(frame: ScreenSize(width: 320, height: 200),
                    mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: Self.helsinki, zoom: 13), styleURI: style))
    }

    @Test func startsAtTheGivenCameraAndFillsTheRestFromTheStyle() throws {
        let v = try makeView()
        #expect(v.mapboxMap.cameraState.zoom == 13)
        #expect(v.mapboxMap.cameraState.center == Self.helsinki)
        #expect(v.mapboxMap.cameraState.bearing == 0)
    }

    @Test func advanceRunsWholeFramesOfTheClock() throws {
        let v = try makeView()
        v.camera.ease(to: CameraOptions(zoom: 14), duration: 1, curve: .linear)
        v.advance(by: 0.5)
        #expect(v.clock.frame == 30)
        #expect(abs(v.mapboxMap.cameraState.zoom - 13.5) < 1e-9)
        v.advance(by: 0.5)
        #expect(v.mapboxMap.cameraState.zoom == 14)
    }

    @Test func addedLayerIsDrawnAndAppearsInTheLayerList() throws {
        let v = try makeView()
        let before = v.snapshot()
        var source = GeoJSONSource(id: "dot")
        source.data = .geometry(.point(Self.helsinki))
        try v.mapboxMap.addSource(source)
        var layer = CircleLayer(id: "dot-layer", source: "dot")
        layer.circleColor = .constant(StyleColor(red: 1, green: 0, blue: 0))
        layer.circleRadius = .constant(20)
        try v.mapboxMap.addLayer(layer)
        #expect(v.mapboxMap.allLayerIdentifiers.last == "dot-layer")
        let after = v.snapshot()
        #expect(after.color(x: 160, y: 100) == Color(red: 255, green: 0, blue: 0))
        #expect(before.color(x: 160, y: 100) != Color(red: 255, green: 0, blue: 0))
    }

    @Test func badLayerPropertyThrowsWithItsPathAndLeavesTheStyleAsItWas() throws {
        let v = try makeView()
        let count = v.mapboxMap.allLayerIdentifiers.count
        var layer = FillLayer(id: "bad", source: "nowhere")
        layer.fillColor = .constant(.white)
        #expect(throws: InputError.self) { try v.mapboxMap.addLayer(layer) }
        #expect(v.mapboxMap.allLayerIdentifiers.count == count)
        do {
            var l2 = FillLayer(id: "bad2", source: v.mapboxMap.allSourceIdentifiers[0])
            l2.fillOpacity = .expression(Exp(.get) { 3 })
            try v.mapboxMap.addLayer(l2)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("bad2"))
            #expect(error.description.contains("fill-opacity"))
        }
    }

    @Test func aFillExtrusionLayerAddedInSwiftRaisesItsPolygonsOffTheMap() throws {
        let v = try makeView()
        var source = GeoJSONSource(id: "block")
        let d = 0.0004
        source.data = .geometry(.polygon([[LocationCoordinate2D(latitude: 60.17 - d, longitude: 24.94 - 2 * d),
                                           LocationCoordinate2D(latitude: 60.17 - d, longitude: 24.94 + 2 * d),
                                           LocationCoordinate2D(latitude: 60.17 + d, longitude: 24.94 + 2 * d),
                                           LocationCoordinate2D(latitude: 60.17 + d, longitude: 24.94 - 2 * d)]]))
        try v.mapboxMap.addSource(source)
        var block = FillExtrusionLayer(id: "block-3d", source: "block")
        block.fillExtrusionColor = .constant(StyleColor(red: 1, green: 0, blue: 0))
        block.fillExtrusionHeight = .constant(80)
        try v.mapboxMap.addLayer(block)
        v.mapboxMap.setCamera(to: CameraOptions(center: LocationCoordinate2D(latitude: 60.1695, longitude: 24.94), zoom: 16, pitch: 60))
        func reddish(_ c: Color) -> Bool { c.red > 60 && c.green < 40 && c.blue < 40 }
        let frame = v.snapshot()
        let column = (0..<frame.height).filter { reddish(frame.color(x: frame.width / 2, y: $0)) }
        // 80 m at zoom 16 and 60° of pitch stand far above the 90 m deep footprint on screen.
        #expect(column.count > 30, "\(column)")
        var wrong = FillExtrusionLayer(id: "bad-3d", source: "block")
        wrong.fillExtrusionOpacity = .constant(2)
        #expect(throws: InputError.self) { try v.mapboxMap.addLayer(wrong) }
    }

    @Test func aRuntimeStyleChangeKeepsTheVectorTilesAndTheSprite() throws {
        let v = try MapView(frame: ScreenSize(width: 160, height: 100),
                            mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: Self.helsinki, zoom: 15), styleURI: .osmBright))
        let before = v.snapshot()
        // A change that draws nothing: the style is rebuilt, and must still have its tiles and icons.
        try v.mapboxMap.addSource(GeoJSONSource(id: "nothing"))
        var none = CircleLayer(id: "none", source: "nothing")
        none.circleRadius = .constant(0)
        try v.mapboxMap.addLayer(none)
        #expect(v.snapshot() == before)
    }

    @Test func customLayerDrawsBetweenTwoStyleLayers() throws {
        let v = try makeView()
        var source = GeoJSONSource(id: "sq")
        let d = 0.004
        source.data = .geometry(.polygon([[LocationCoordinate2D(latitude: 60.17 - d, longitude: 24.94 - 2 * d),
                                           LocationCoordinate2D(latitude: 60.17 - d, longitude: 24.94 + 2 * d),
                                           LocationCoordinate2D(latitude: 60.17 + d, longitude: 24.94 + 2 * d),
                                           LocationCoordinate2D(latitude: 60.17 + d, longitude: 24.94 - 2 * d)]]))
        try v.mapboxMap.addSource(source)
        var lower = FillLayer(id: "lower", source: "sq")
        lower.fillColor = .constant(StyleColor(red: 0, green: 0, blue: 1))
        try v.mapboxMap.addLayer(lower)
        var upper = CircleLayer(id: "upper", source: "sq")
        upper.circleRadius = .constant(0)
        try v.mapboxMap.addLayer(upper)
        try v.mapboxMap.addLayer(CustomLayer(id: "custom") { parameters, frame, painter in
            guard let p = parameters.point(for: Self.helsinki) else { return }
            painter.fillCircle(center: p, radius: 10, color: Color(red: 0, green: 255, blue: 0), into: frame)
        }, layerPosition: .below("upper"))
        #expect(v.mapboxMap.allLayerIdentifiers.suffix(3) == ["lower", "custom", "upper"])
        let frame = v.snapshot()
        #expect(frame.color(x: 160, y: 100) == Color(red: 0, green: 255, blue: 0))
        #expect(frame.color(x: 160 + 25, y: 100) == Color(red: 0, green: 0, blue: 255))
    }
}

@Suite struct MapViewDeterminismTests {
    /// Same calls, same pixels: two views built and driven alike give byte-identical frames.
    @Test func sameCallsGiveTheSamePixels() throws {
        func run() throws -> PixelBuffer {
            let v = try MapView(frame: ScreenSize(width: 200, height: 120),
                                mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: MapViewTests.helsinki, zoom: 14), styleURI: .city))
            let lines = v.annotations.makePolylineAnnotationManager()
            var line = PolylineAnnotation(lineCoordinates: [MapViewTests.helsinki, LocationCoordinate2D(latitude: 60.172, longitude: 24.95)])
            line.lineWidth = 4
            lines.annotations = [line]
            v.camera.fly(to: CameraOptions(zoom: 15, bearing: 20, pitch: 30), duration: 1)
            v.advance(by: 0.75)
            return v.snapshot()
        }
        #expect(try run() == run())
    }
}
