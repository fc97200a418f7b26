import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender
import Testing

/// Runtime styling, feature state, queries and style switches through `mapView.mapboxMap`.
@Suite struct RuntimeStyleTests {
    static let center = LocationCoordinate2D(latitude: 10, longitude: 20)

    /// A world-style view with a runtime source of three squares (ids 1, 2, 3 west to east).
    func makeView() throws -> MapView {
        let v = try MapView(frame: ScreenSize(width: 300, height: 200),
                            mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: Self.center, zoom: 5), styleURI: .world))
        var source = GeoJSONSource(id: "squares")
        source.data = .featureCollection(FeatureCollection(features: (1...3).map { k in
            let lng = 20 + Double(k - 2) * 2.5
            let ring = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { LocationCoordinate2D(latitude: 10 + $0.1, longitude: lng + $0.0) }
            return Feature(id: .number(Double(k)), geometry: .polygon([ring]),
                           properties: PropertyMap([("kind", .string(k == 2 ? "middle" : "side"))]))
        }, name: "squares"))
        try v.mapboxMap.addSource(source)
        var fill = FillLayer(id: "squares-fill", source: "squares")
        fill.fillColor = .expression(Exp(.switchCase) {
            Exp(.eq) { Exp(.featureState) { "selected" }; true }
            StyleColor(red: 1, green: 0, blue: 0)
            StyleColor(red: 0, green: 0, blue: 1)
        })
        try v.mapboxMap.addLayer(fill)
        return v
    }

    func pixel(_ v: MapView, _ frame: PixelBuffer, _ c: LocationCoordinate2D) throws -> Color {
        let p = try #require(v.mapboxMap.point(for: c))
        return frame.color(x: Int(p.x), y: Int(p.y))
    }

    @Test func featureStateRestylesOneFeatureAndResetClearsIt() throws {
        let v = try makeView()
        let middle = Self.center, east = LocationCoordinate2D(latitude: 10, longitude: 22.5)
        var result: Result<Void, InputError>?
        v.mapboxMap.setFeatureState(sourceId: "squares", featureId: "2", state: ["selected": true]) { result = $0 }
        #expect((try? result?.get()) != nil)
        #expect(v.mapboxMap.getFeatureState(sourceId: "squares", featureId: "2")["selected"] == .bool(true))
        var frame = v.snapshot()
        #expect(try pixel(v, frame, middle) == Color(red: 255, green: 0, blue: 0))
        #expect(try pixel(v, frame, east) == Color(red: 0, green: 0, blue: 255))
        v.mapboxMap.resetFeatureStates(sourceId: "squares")
        frame = v.snapshot()
        #expect(try pixel(v, frame, middle) == Color(red: 0, green: 0, blue: 255))
    }

    @Test func removeFeatureStateRemovesOneKey() throws {
        let v = try makeView()
        v.mapboxMap.setFeatureState(sourceId: "squares", featureId: "1", state: ["selected": true, "hover": 1])
        v.mapboxMap.removeFeatureState(sourceId: "squares", featureId: "1", stateKey: "selected")
        #expect(v.mapboxMap.getFeatureState(sourceId: "squares", featureId: "1") == ["hover": .number(1)])
    }

    @Test func unsupportedFeatureStateValueFailsTheCallbackAndSetsNothing() throws {
        let v = try makeView()
        var result: Result<Void, InputError>?
        v.mapboxMap.setFeatureState(sourceId: "squares", featureId: "1", state: ["selected": true, "bad": [1, 2]]) { result = $0 }
        guard case .failure(let e)? = result else { Issue.record("expected a failure"); return }
        #expect(e.description.contains("bad"))
        #expect(v.mapboxMap.getFeatureState(sourceId: "squares", featureId: "1").isEmpty)
    }

    @Test func queryFindsLabelsPlacedForTheCurrentCameraOnTopWithoutASnapshot() throws {
        let v = try makeView()
        var labels = SymbolLayer(id: "squares-labels", source: "squares")
        labels.textField = .expression(Exp(.get) { "kind" })
        try v.mapboxMap.addLayer(labels)
        let only = RenderedQueryOptions(layerIds: ["squares-labels"], filter: nil)
        let p = try #require(v.mapboxMap.point(for: Self.center))
        #expect(v.mapboxMap.queryRenderedFeatures(with: p, options: only).map(\.featureID) == [.number(2)])
        #expect(v.mapboxMap.queryRenderedFeatures(with: p).prefix(2).map(\.layerID) == ["squares-labels", "squares-fill"])
        // Inside the square but below its label.
        #expect(v.mapboxMap.queryRenderedFeatures(with: ScreenPoint(x: p.x, y: p.y + 18), options: only).isEmpty)
        // After a camera move the query places the labels for the new camera.
        v.mapboxMap.setCamera(to: CameraOptions(center: LocationCoordinate2D(latitude: 10, longitude: 22.5), zoom: 5))
        let moved = try #require(v.mapboxMap.point(for: Self.center))
        #expect(v.mapboxMap.queryRenderedFeatures(with: moved, options: only).map(\.featureID) == [.number(2)])
        #expect(v.mapboxMap.queryRenderedFeatures(with: p, options: only).map(\.featureID) == [.number(3)])
    }

    @Test func queryFindsTheFeatureUnderThePointAndHonoursLayerIdsAndFilter() throws {
        let v = try makeView()
        let p = try #require(v.mapboxMap.point(for: Self.center))
        let hits = v.mapboxMap.queryRenderedFeatures(with: p, options: RenderedQueryOptions(layerIds: ["squares-fill"], filter: nil))
        #expect(hits.map(\.featureID) == [.number(2)])
        let filtered = v.mapboxMap.queryRenderedFeatures(with: p, options: RenderedQueryOptions(
            layerIds: ["squares-fill"], filter: Exp(.eq) { Exp(.get) { "kind" }; "side" }))
        #expect(filtered.isEmpty)
        var completed: [QueriedRenderedFeature]?
        v.mapboxMap.queryRenderedFeatures(with: p, options: RenderedQueryOptions(layerIds: ["squares-fill"], filter: nil)) { completed = try? $0.get() }
        #expect(completed?.count == 1)
    }

    @Test func invalidQueryFilterIsAnErrorAndMatchesNothing() throws {
        #expect(throws: InputError.self) {
            _ = try RenderedQueryOptions(layerIds: nil, validatedFilter: Exp(.get) { 5 })
        }
        let v = try makeView()
        let p = try #require(v.mapboxMap.point(for: Self.center))
        let bad = RenderedQueryOptions(layerIds: nil, filter: Exp(.get) { 5 })
        #expect(v.mapboxMap.queryRenderedFeatures(with: p, options: bad).isEmpty)
        var error: InputError?
        v.mapboxMap.queryRenderedFeatures(with: p, options: bad) { if case .failure(let e) = $0 { error = e } }
        #expect(error?.description.contains("RenderedQueryOptions.filter") == true)
    }

    @Test func layerPositionsPlaceLayersAboveBelowAndAt() throws {
        let v = try makeView()
        let map = v.mapboxMap
        try map.addLayer(BackgroundLayer(id: "first"), layerPosition: .at(0))
        try map.addLayer(LineLayer(id: "under-fill", source: "squares"), layerPosition: .below("squares-fill"))
        try map.addLayer(CircleLayer(id: "over-ocean", source: "squares"), layerPosition: .above("ocean"))
        let ids = map.allLayerIdentifiers
        #expect(ids.first == "first")
        #expect(ids[1] == "ocean" && ids[2] == "over-ocean")
        #expect(ids.suffix(2) == ["under-fill", "squares-fill"])
        #expect(throws: InputError.self) { try map.addLayer(LineLayer(id: "x", source: "squares"), layerPosition: .below("nope")) }
        #expect(throws: InputError.self) { try map.addLayer(LineLayer(id: "first", source: "squares")) }
        try map.removeLayer(withId: "first")
        #expect(!map.layerExists(withId: "first"))
    }

    @Test func updateLayerRestylesInPlace() throws {
        let v = try makeView()
        var fill = FillLayer(id: "squares-fill", source: "squares")
        fill.fillColor = .constant(StyleColor(red: 0, green: 1, blue: 0))
        try v.mapboxMap.updateLayer(fill)
        #expect(try pixel(v, v.snapshot(), Self.center) == Color(red: 0, green: 255, blue: 0))
        #expect(v.mapboxMap.allLayerIdentifiers.last == "squares-fill")
    }

    @Test func updatingSourceDataRedrawsIt() throws {
        let v = try makeView()
        try v.mapboxMap.updateGeoJSONSource(withId: "squares", data: .featureCollection(FeatureCollection(features: [], name: "empty")))
        #expect(try pixel(v, v.snapshot(), Self.center) != Color(red: 0, green: 0, blue: 255))
    }

    @Test func badGeoJSONTextNamesTheSourceAndLine() throws {
        let v = try makeView()
        var s = GeoJSONSource(id: "broken")
        s.data = .string("{\"type\": \"FeatureCollection\",\n \"features\": [}")
        do {
            try v.mapboxMap.addSource(s)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("broken"))
            #expect(error.line == 2)
        }
        #expect(!v.mapboxMap.sourceExists(withId: "broken"))
    }

    @Test func lightPresetSwitchRestylesAndUnknownPresetIsRefused() throws {
        let v = try makeView()
        let day = v.snapshot()
        try v.mapboxMap.setStyleImportConfigProperty(for: "basemap", config: "lightPreset", value: "night")
        #expect(v.mapboxMap.lightPreset == "night")
        #expect(v.snapshot() != day)
        #expect(v.mapboxMap.layerExists(withId: "squares-fill"))
        #expect(throws: InputError.self) { try v.mapboxMap.setLightPreset("noon") }
        #expect(v.mapboxMap.lightPreset == "night")
    }

    @Test func styleSwitchDropsRuntimeLayersButAnnotationsComeBack() throws {
        let v = try makeView()
        let circles = v.annotations.makeCircleAnnotationManager()
        var c = CircleAnnotation(centerCoordinate: Self.center)
        c.circleRadius = 10
        c.circleColor = StyleColor(red: 0, green: 1, blue: 0)
        circles.annotations = [c]
        var failed: InputError?
        v.mapboxMap.loadStyle(.city) { failed = $0 }
        #expect(failed == nil)
        #expect(!v.mapboxMap.layerExists(withId: "squares-fill"))
        #expect(v.mapboxMap.layerExists(withId: circles.layerId))
        #expect(try pixel(v, v.snapshot(), Self.center) == Color(red: 0, green: 255, blue: 0))
    }

    @Test func missingStyleFileIsAnErrorNotACrash() throws {
        #expect(throws: InputError.self) {
            _ = try MapView(frame: ScreenSize(width: 10, height: 10), mapInitOptions: MapInitOptions(styleURI: StyleURI(file: "/nonexistent/style.json")))
        }
    }

    @Test func hiddenOrnamentsAreNotDrawnButTheAttributionIs() throws {
        let v = try MapView(frame: ScreenSize(width: 640, height: 200),
                            mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: Self.center, zoom: 5, bearing: 30), styleURI: .world))
        let shown = v.snapshot()
        v.ornaments.options.scaleBar.visibility = .hidden
        v.ornaments.options.compass.visibility = .hidden
        let hidden = v.snapshot()
        // Compass top-right and the scale bar's left tick differ; the attribution row bottom-right is the same.
        #expect(shown.color(x: 610, y: 30) != hidden.color(x: 610, y: 30))
        #expect(shown.color(x: 10, y: 184) != hidden.color(x: 10, y: 184))
        let attributionRow = (186..<200).flatMap { y in (300..<640).map { x in shown.pixel(x: x, y: y) == hidden.pixel(x: x, y: y) } }
        #expect(attributionRow.allSatisfy { $0 })
    }
}
