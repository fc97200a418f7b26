// FlybyMaps: the Mapbox-shaped host API over the Flyby engine, headless.
//
// Guide code for the Mapbox Maps SDK for iOS (v10/v11) reads the same here:
//
// ```swift
// import FlybyMaps
//
// let mapView = try MapView(frame: ScreenSize(width: 640, height: 400),
//                           mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: helsinki, zoom: 12),
//                                                          styleURI: .city))
// // Camera (FlybyCore's FlybyMap through `mapboxMap`; animations through `camera`).
// mapView.mapboxMap.setCamera(to: CameraOptions(zoom: 13))
// try mapView.mapboxMap.setCameraBounds(with: CameraBoundsOptions(minZoom: 10))
// let fit = try mapView.mapboxMap.camera(for: polygon, padding: .init(top: 20, left: 20, bottom: 20, right: 20), bearing: 0, pitch: 0)
// mapView.camera.ease(to: fit, duration: 1)
// let zoomIn = mapView.camera.makeAnimator(duration: 4, curve: .easeInOut) { $0.zoom.toValue = 14 }
// zoomIn.startAnimation()
//
// // Runtime styling.
// var source = GeoJSONSource(id: "points")
// source.data = .featureCollection(points)
// try mapView.mapboxMap.addSource(source)
// var layer = CircleLayer(id: "dots", source: "points")
// layer.circleColor = .constant(StyleColor(red: 1, green: 0, blue: 0))
// layer.circleRadius = .expression(Exp(.interpolate) { Exp(.linear); Exp(.zoom); 5; 2; 15; 12 })
// try mapView.mapboxMap.addLayer(layer, layerPosition: .below("labels"))
// try mapView.mapboxMap.addImage(icon, id: "pin")
// mapView.mapboxMap.setFeatureState(sourceId: "points", featureId: "7", state: ["selected": true])
// let hits = mapView.mapboxMap.queryRenderedFeatures(with: point, options: RenderedQueryOptions(layerIds: ["dots"], filter: nil))
// try mapView.mapboxMap.setLightPreset("night")
//
// // Custom drawing between style layers, annotations, ornaments, the puck.
// try mapView.mapboxMap.addLayer(CustomLayer(id: "blob") { parameters, frame, painter in … }, layerPosition: .below("roads"))
// let lines = mapView.annotations.makePolylineAnnotationManager()
// lines.annotations = [PolylineAnnotation(lineCoordinates: [newYork, washington])]
// mapView.ornaments.options.scaleBar.visibility = .visible
// mapView.location.options.puckType = .puck2D()
//
// // The clock: nothing moves until the host advances it. Input and output for tests.
// mapView.advance(by: 10)           // 600 frames at 60 fps
// mapView.tap(at: ScreenPoint(x: 320, y: 200))
// try mapView.snapshot().writePNG(to: "out/map.png")
// ```
//
// The pieces: `MapView` (clock, input, snapshot), `MapboxMap` (camera forwarding to `FlybyMap`,
// the runtime style: `GeoJSONSource`, `FillLayer`, `LineLayer`, `CircleLayer`, `SymbolLayer`,
// `BackgroundLayer`, `CustomLayer`, `Exp`, `Value`), `AnnotationOrchestrator` and its managers.
// What Mapbox does that this does not (UIKit views, Metal, SwiftUI) is listed in the README's
// parity table.
//
// FlybyMaps re-exports nothing: a file that names engine types imports their module too
// (`import FlybyCore` for `CameraOptions`, `FlybyRender` for `StyleColor`; docs/public-api.md).
import FlybyCore
