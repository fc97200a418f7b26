import FlybyCore
import FlybyData
import FlybyExamples
import FlybyMaps
import FlybyRender
import Testing

@Suite struct FeaturesetInteractionsTests {
    @Test func tappingAPoiHidesItAndPutsAViewAnnotationInItsPlace() throws {
        let example = try FeaturesetInteractionsExample()
        let p = try #require(example.point(ofPoi: "Ateneum"))
        example.mapView.tap(at: p)
        let poi = try #require(example.selectedPoi)
        #expect(poi.properties["name"]?.stringValue == "Ateneum")
        #expect(example.mapView.mapboxMap.getFeatureState(sourceId: "pois", featureId: try #require(poi.id))["hide"] == .bool(true))
        let annotation = try #require(example.poiAnnotation)
        #expect(example.mapView.viewAnnotations.allAnnotations.count == 1)
        example.mapView.viewAnnotations.layout()
        let anchor = try #require(annotation.anchorPoint)
        #expect(abs(anchor.x - p.x) < 0.5 && abs(anchor.y - p.y) < 0.5)
        #expect(annotation.title == "Ateneum")

        // A second POI: the first comes back, only the second is hidden.
        let q = try #require(example.point(ofPoi: "Kauppakeskus Citycenter"))
        example.mapView.tap(at: q)
        #expect(example.mapView.mapboxMap.getFeatureState(sourceId: "pois", featureId: poi.id!)["hide"] == nil)
        #expect(example.mapView.viewAnnotations.allAnnotations.count == 1)
    }

    @Test func tappingABuildingSelectsIt() throws {
        let example = try FeaturesetInteractionsExample()
        example.mapView.tap(at: try #require(example.point(ofBuilding: "Aikatalo")))
        let states = example.allStates()
        #expect(states.count == 1)
        let (key, state) = try #require(states.first)
        #expect(key.hasPrefix("buildings/"))
        #expect(state["select"] == .bool(true))
    }

    @Test func tappingAPlaceLabelSelectsIt() throws {
        let example = try FeaturesetInteractionsExample()
        example.mapView.tap(at: try #require(example.point(ofPlaceLabel: "Hamsteri")))
        let states = example.allStates()
        let places = states.filter { $0.key.hasPrefix("places/") }
        #expect(places.count == 1)
        #expect(places.first?.value["select"] == .bool(true))
        #expect(example.log.last?.contains("Hamsteri") == true)
    }

    @Test func aLongPressClearsEveryState() throws {
        let example = try FeaturesetInteractionsExample()
        example.mapView.tap(at: try #require(example.point(ofPoi: "Ateneum")))
        example.mapView.tap(at: try #require(example.point(ofBuilding: "Aikatalo")))
        example.mapView.tap(at: try #require(example.point(ofPlaceLabel: "Hamsteri")))
        #expect(Set(example.allStates().keys.map { $0.split(separator: "/")[0] }) == ["pois", "buildings", "places"])
        example.mapView.longPress(at: ScreenPoint(x: 20, y: 20))
        #expect(example.allStates().isEmpty)
        #expect(example.mapView.viewAnnotations.allAnnotations.isEmpty)
        #expect(example.selectedPoi == nil)
    }

    @Test(arguments: ["dawn", "dusk", "night"])
    func aLightPresetRestylesTheMap(_ preset: String) throws {
        let example = try FeaturesetInteractionsExample(size: ScreenSize(width: 160, height: 100))
        let day = example.mapView.snapshot()
        try example.setLightPreset(preset)
        #expect(example.mapView.mapboxMap.lightPreset == preset)
        #expect(FeaturesetInteractionsTests.changedFraction(day, example.mapView.snapshot()) > 0.5)
    }

    @Test(arguments: [MapTheme.faded, .monochrome])
    func aThemeRestylesTheMap(_ theme: MapTheme) throws {
        let example = try FeaturesetInteractionsExample(size: ScreenSize(width: 160, height: 100))
        let plain = example.mapView.snapshot()
        try example.setTheme(theme)
        let themed = example.mapView.snapshot()
        #expect(FeaturesetInteractionsTests.changedFraction(plain, themed) > 0.5)
        if theme == .monochrome {
            // Nearly grey: no channel more than a few levels from the others (the puck-free map).
            let spread = themed.pixels.map { p -> Int in
                let r = Int((p >> 16) & 0xFF), g = Int((p >> 8) & 0xFF), b = Int(p & 0xFF)
                return max(r, g, b) - min(r, g, b)
            }.max() ?? 0
            #expect(spread <= 12)
        }
        try example.setTheme(.default)
        let restored = example.mapView.snapshot().pixels == plain.pixels
        #expect(restored)
    }

    @Test func anUnknownThemeIsAnErrorNamingIt() throws {
        let example = try FeaturesetInteractionsExample(size: ScreenSize(width: 64, height: 64))
        #expect(throws: InputError.self) { try example.mapView.mapboxMap.setStyleImportConfigProperty(for: "basemap", config: "theme", value: "sepia") }
    }

    /// The share of pixels that differ between two frames of the same size.
    static func changedFraction(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        Double(zip(a.pixels, b.pixels).filter { $0 != $1 }.count) / Double(a.pixels.count)
    }
}
