import FlybyCore
import FlybyData
import FlybyExamples
import FlybyMaps
import FlybyRender
import Testing

@Suite struct InteractivePointsTests {
    @Test func aTapSelectsTheFeatureNearestTheTapNotJustAnyInTheBox() throws {
        let mapView = try InteractivePointsExample.makeMapView()
        // New York and Bridgeport are about 33 points apart at this zoom: both fall in a 44 × 44
        // box around a tap between them (the query is exact: a circle counts when its disk meets
        // the box), so the answer depends on which is nearer.
        let newYork = try #require(mapView.mapboxMap.point(for: LocationCoordinate2D(latitude: 40.751925, longitude: -73.981963)))
        let bridgeport = try #require(mapView.mapboxMap.point(for: LocationCoordinate2D(latitude: 41.181925, longitude: -73.201907)))
        let between = ScreenPoint(x: (newYork.x + bridgeport.x) / 2, y: (newYork.y + bridgeport.y) / 2)
        let hits = mapView.mapboxMap.queryRenderedFeatures(with: ScreenRect(center: between, size: InteractivePointsExample.tapBox),
                                                           options: RenderedQueryOptions(layerIds: [InteractivePointsExample.circleLayerId], filter: nil))
        #expect(hits.count >= 2, "the box between New York and Bridgeport holds both")

        for hit in hits {
            let feature = mapView.mapboxMap.loadedStyle.sources.first { $0.id == InteractivePointsExample.sourceId }!.data.features[hit.featureIndex]
            guard case .point(let c) = feature.geometry, let p = mapView.mapboxMap.point(for: c) else { continue }
            // A tap 3 pt from this place, on the side away from the box centre, must pick it.
            let dx = p.x - between.x, dy = p.y - between.y
            let norm = max((dx * dx + dy * dy).squareRoot(), 1)
            let tap = ScreenPoint(x: p.x + 3 * dx / norm, y: p.y + 3 * dy / norm)
            let nearest = InteractivePointsExample.nearestFeature(in: mapView, at: tap)
            #expect(nearest?.name == hit.properties["name"]?.stringValue)
        }
    }

    @Test func anEmptyBoxSelectsNothingAndShowsNoCallout() throws {
        let mapView = try InteractivePointsExample.makeMapView()
        // Far out in the Atlantic.
        let sea = try #require(mapView.mapboxMap.point(for: LocationCoordinate2D(latitude: 33, longitude: -66)))
        #expect(InteractivePointsExample.handleTap(mapView, at: sea) == nil)
        #expect(mapView.viewAnnotations.allAnnotations.isEmpty)
    }

    @Test func theTapShowsACalloutWithTheSelectedName() throws {
        let report = try InteractivePointsExample.run()
        #expect(report.selected?.name == "Boston")
        // The callout is drawn: the frame differs from the same map without the tap.
        let plain = try InteractivePointsExample.makeMapView().snapshot()
        let differs = plain.pixels != report.snapshot.pixels
        #expect(differs)
    }

    @Test func circleRadiusFollowsTheZoomAndOpacityStepsWithIt() throws {
        let mapView = try InteractivePointsExample.makeMapView()
        let layer = try #require(mapView.mapboxMap.loadedStyle.style.layer(id: InteractivePointsExample.circleLayerId))
        #expect(layer.number(.circleRadius, zoom: 2) == 2)
        #expect(layer.number(.circleRadius, zoom: 12) == 16)
        let r5 = layer.number(.circleRadius, zoom: 5)
        #expect(r5 > 2 && r5 < 6)
        #expect(layer.number(.circleOpacity, zoom: 3) == 0.4)
        #expect(layer.number(.circleOpacity, zoom: 4.5) == 0.7)
        #expect(layer.number(.circleOpacity, zoom: 7) == 0.95)
    }
}
