import FlybyCore
import FlybyMaps
import FlybyRender

/// Example 1 (Mapbox v10 migration guide, "Camera animations"): three animators chained through
/// their completions — zoom to 14 over 4 s, then pitch to 55 over 2 s, then bearing to −45 over
/// 4 s — plus `fromValue`/`toValue` transitions, animator owners, an animator released before it
/// ends, the guide's restricted camera bounds with the scale bar, and fitting the camera to a shape.
public enum ChainedCameraAnimatorsExample {
    /// What the run did, for the test and the printout.
    public struct Report {
        /// `t=… message` lines in the order things happened (completions and engine events).
        public var log: [String] = []
        /// Completion order with times: ("zoom", 4.0), ("pitch", 6.0), ("bearing", 10.0).
        public var completions: [(name: String, time: Double, position: UIViewAnimatingPosition)] = []
        /// The camera after 10 s.
        public var cameraAfterChain = CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 0)
        /// The owners of the three chain animators and of an `ease(to:)`.
        public var owners: [String] = []
        /// Zoom during the `fromValue`/`toValue` animator (12 → 11 over 1 s, linear, started at
        /// zoom 13): after its first frame and at its end.
        public var fromToZoom: (start: Double, end: Double) = (0, 0)
        /// The released (paused) animator was deallocated and the camera stayed where it was.
        public var releasedAnimatorStopped = false
        public var releasedAnimatorCompletionCalls = 0
        /// The camera after trying to leave the restricted bounds (zoom 2, far outside).
        public var restrictedCamera = CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 0)
        public var restrictedBounds = CameraBounds()
        /// The camera fitted to the shape, and the shape's corners on screen with it.
        public var fittedCamera = CameraOptions()
        public var fittedCorners: [ScreenPoint] = []
        /// The snapshot with the scale bar, over the restricted area.
        public var snapshot = PixelBuffer(width: 1, height: 1)
    }

    static let newYork = LocationCoordinate2D(latitude: 40.7128, longitude: -74.0060)

    public static func run(size: ScreenSize = ScreenSize(width: 640, height: 400)) throws -> Report {
        var report = Report()
        let mapView = try MapView(frame: size, mapInitOptions: MapInitOptions(
            cameraOptions: CameraOptions(center: newYork, zoom: 10, bearing: 0, pitch: 0), styleURI: .world))
        func log(_ s: String) { report.log.append("t=\(format3(mapView.now)) \(s)") }

        // The chain, as in the guide: each completion starts the next animator.
        let chainOwner = AnimationOwner(rawValue: "chain")
        let bearingAnimator = mapView.camera.makeAnimator(duration: 4, curve: .easeInOut, animationOwner: chainOwner) { transition in
            transition.bearing.toValue = -45
        }
        bearingAnimator.addCompletion { position in
            report.completions.append(("bearing", mapView.now, position))
            log("bearing animator completed (\(position)): all animations complete")
        }
        let pitchAnimator = mapView.camera.makeAnimator(duration: 2, curve: .easeInOut, animationOwner: chainOwner) { transition in
            transition.pitch.toValue = 55
        }
        pitchAnimator.addCompletion { position in
            report.completions.append(("pitch", mapView.now, position))
            log("pitch animator completed (\(position)); animating bearing 0° → −45°")
            bearingAnimator.startAnimation()
        }
        let zoomAnimator = mapView.camera.makeAnimator(duration: 4, curve: .easeInOut, animationOwner: chainOwner) { transition in
            transition.zoom.toValue = 14
        }
        zoomAnimator.addCompletion { position in
            report.completions.append(("zoom", mapView.now, position))
            log("zoom animator completed (\(position)); animating pitch 0° → 55°")
            pitchAnimator.startAnimation()
        }
        log("animating zoom 10 → 14")
        zoomAnimator.startAnimation()
        for e in mapView.simulation.takeEvents() { log(e) }
        for _ in 0..<600 {
            mapView.tick()
            for e in mapView.simulation.takeEvents() { log(e) }
        }
        report.cameraAfterChain = mapView.mapboxMap.cameraState
        report.owners = [zoomAnimator.owner.rawValue, pitchAnimator.owner.rawValue, bearingAnimator.owner.rawValue]
        // ease(to:) returns a Cancelable; its animator is the newest in `cameraAnimators`.
        mapView.camera.ease(to: CameraOptions(zoom: 13), duration: 0.5)
        report.owners.append(mapView.camera.cameraAnimators.last?.owner.rawValue ?? "none")
        mapView.advance(by: 0.5)

        // fromValue / toValue: the animation starts from 12 whatever the camera shows.
        let fromTo = mapView.camera.makeAnimator(duration: 1, curve: .linear) { transition in
            transition.zoom.fromValue = 12
            transition.zoom.toValue = 11
        }
        fromTo.startAnimation()
        mapView.tick()
        report.fromToZoom.start = mapView.mapboxMap.cameraState.zoom
        mapView.advance(by: 1)
        report.fromToZoom.end = mapView.mapboxMap.cameraState.zoom

        // An animator released before it ends: paused, then the last reference dropped. The runner
        // only keeps running animators, so it is deallocated and never moves the camera again.
        do {
            var released: BasicCameraAnimator? = mapView.camera.makeAnimator(duration: 2, curve: .linear) { $0.zoom.toValue = 3 }
            released!.addCompletion { _ in report.releasedAnimatorCompletionCalls += 1 }
            released!.startAnimation()
            mapView.advance(by: 0.5)
            released!.pauseAnimation()
            let zoomAtRelease = mapView.mapboxMap.cameraState.zoom
            let count = mapView.camera.cameraAnimators.count
            released = nil
            mapView.advance(by: 3)
            report.releasedAnimatorStopped = mapView.camera.cameraAnimators.count == count - 1
                && mapView.mapboxMap.cameraState.zoom == zoomAtRelease
            log("released paused animator: stopped at zoom \(format3(zoomAtRelease))")
        }

        // The guide's restricted bounds (a box around the US north-east), with the scale bar.
        let restricted = CoordinateBounds(southwest: LocationCoordinate2D(latitude: 38.5, longitude: -78),
                                          northeast: LocationCoordinate2D(latitude: 42.5, longitude: -70))
        try mapView.mapboxMap.setCameraBounds(with: CameraBoundsOptions(bounds: restricted, maxZoom: 10, minZoom: 5))
        mapView.mapboxMap.setCamera(to: CameraOptions(center: LocationCoordinate2D(latitude: 10, longitude: -20), zoom: 2, bearing: 0, pitch: 0))
        report.restrictedCamera = mapView.mapboxMap.cameraState
        report.restrictedBounds = mapView.mapboxMap.cameraBounds
        mapView.ornaments.options.scaleBar.visibility = .visible

        // Fit the camera to a shape (a triangle New York – Philadelphia – Scranton).
        let shape = [newYork, LocationCoordinate2D(latitude: 39.9526, longitude: -75.1652), LocationCoordinate2D(latitude: 41.4090, longitude: -75.6624)]
        let fitted = try mapView.mapboxMap.camera(for: .polygon([shape]), padding: EdgeInsets(top: 40, left: 40, bottom: 40, right: 40), bearing: 0, pitch: 0)
        mapView.mapboxMap.setCamera(to: fitted)
        report.fittedCamera = fitted
        report.fittedCorners = shape.compactMap { mapView.mapboxMap.point(for: $0) }
        var source = GeoJSONSource(id: "shape")
        source.data = .geometry(.polygon([shape]))
        try mapView.mapboxMap.addSource(source)
        var fill = FillLayer(id: "shape-fill", source: "shape")
        fill.fillColor = .constant(StyleColor(r8: 0x1E, g8: 0x88, b8: 0xE5))
        fill.fillOpacity = .constant(0.35)
        fill.fillOutlineColor = .constant(StyleColor(r8: 0x0D, g8: 0x47, b8: 0xA1))
        try mapView.mapboxMap.addLayer(fill, layerPosition: .below("city-dots-110m"))
        report.snapshot = mapView.snapshot()
        return report
    }

    /// Rounded to three decimals, for the log.
    static func format3(_ x: Double) -> String { "\((x * 1000).rounded() / 1000)" }
}
