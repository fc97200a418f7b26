import FlybyCore
import Testing

/// Test helpers shared by the test targets: tolerant comparisons (the seeded generator,
/// `SplitMix64`, lives in FlybyCore for the soak and benchmarks too) and
/// paths into the repository.

/// Expects |a − b| ≤ tolerance, reporting at the caller.
public func expectClose(_ a: Double, _ b: Double, _ tolerance: Double, _ what: @autoclosure () -> String = "",
                        sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(abs(a - b) <= tolerance, "\(what()) \(a) vs \(b) (tolerance \(tolerance))", sourceLocation: sourceLocation)
}

/// Expects two coordinates within `tolerance` degrees on both axes.
public func expectClose(_ a: LocationCoordinate2D, _ b: LocationCoordinate2D, _ tolerance: Double, _ what: @autoclosure () -> String = "",
                        sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(abs(a.latitude - b.latitude) <= tolerance && abs(a.longitude - b.longitude) <= tolerance,
            "\(what()) \(a) vs \(b) (tolerance \(tolerance))", sourceLocation: sourceLocation)
}

/// The repository root, found from this file's path (Tests/FlybyTestSupport/Support.swift).
public func repositoryRoot(filePath: String = #filePath) -> String {
    var parts = filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}

/// A simulation with a manual clock, for tests.
public func makeSimulation(width: Double = 1000, height: Double = 1000, center: LocationCoordinate2D = .init(latitude: 0, longitude: 0),
                           zoom: Double = 10, bearing: Double = 0, pitch: Double = 0, fps: Double = 60,
                           bounds: CameraBounds = .default) -> (MapSimulation, ManualClock) {
    let clock = ManualClock(fps: fps)
    let sim = MapSimulation(size: ScreenSize(width: width, height: height),
                            camera: CameraState(center: center, zoom: zoom, bearing: bearing, pitch: pitch), bounds: bounds, clock: clock)
    return (sim, clock)
}

/// A style with a white background and one red square (2° × 2°) around `lng`, `lat`, whose fill
/// turns blue when its feature-state `select` is true.
public func squareStyle(lng: Double, lat: Double, half: Double = 1, extra: String = "") -> String {
    """
    {"version": 8, "center": [\(lng), \(lat)], "zoom": 5,
     "sky": {"sky-color": "#0000ff", "horizon-color": "#0000ff"},
     "sources": {"sq": {"type": "geojson", "generateId": true, "data": {"type": "FeatureCollection", "features": [
       {"type": "Feature", "properties": {"name": "Square"}, "geometry": {"type": "Polygon", "coordinates": [[
         [\(lng - half), \(lat - half)], [\(lng + half), \(lat - half)], [\(lng + half), \(lat + half)],
         [\(lng - half), \(lat + half)], [\(lng - half), \(lat - half)]]]}}]}}},
     "layers": [
       {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
       {"id": "square", "type": "fill", "source": "sq",
        "paint": {"fill-color": ["case", ["==", ["feature-state", "select"], true], "#0000ff", "#ff0000"]}}\(extra)
     ]}
    """
}
