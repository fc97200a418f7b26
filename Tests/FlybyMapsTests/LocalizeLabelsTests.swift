import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender
import Foundation
import Testing

/// `localizeLabels(into:)` on the Mapbox-shaped style API.
@Suite struct LocalizeLabelsTests {
    @Test func labelsReadTheLocalesNameAndFallBackToTheName() throws {
        let center = LocationCoordinate2D(latitude: 10, longitude: 20)
        let v = try MapView(frame: ScreenSize(width: 300, height: 200),
                            mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: center, zoom: 5), styleURI: .world))
        var source = GeoJSONSource(id: "places")
        source.data = .featureCollection(FeatureCollection(features: [
            Feature(geometry: .point(LocationCoordinate2D(latitude: 10, longitude: 18)),
                    properties: PropertyMap([("name", .string("Helsingfors")), ("name:fi", .string("Helsinki"))])),
            Feature(geometry: .point(LocationCoordinate2D(latitude: 10, longitude: 22)),
                    properties: PropertyMap([("name", .string("Espoo"))])),
        ], name: "places"))
        try v.mapboxMap.addSource(source)
        var labels = SymbolLayer(id: "place-labels", source: "places")
        labels.textField = .expression(Exp(.get) { "name" })
        try v.mapboxMap.addLayer(labels)
        func placed() -> [String] {
            _ = v.snapshot()
            return v.mapboxMap.placedSymbolBoxes.filter { $0.layerID == "place-labels" }.map(\.text).sorted()
        }
        #expect(placed() == ["Espoo", "Helsingfors"])
        try v.mapboxMap.localizeLabels(into: Locale(identifier: "fi_FI"))
        #expect(placed() == ["Espoo", "Helsinki"])
    }
}
