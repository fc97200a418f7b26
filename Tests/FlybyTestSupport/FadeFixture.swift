import Foundation

/// A style for label-fading tests (playback, the window): a label "Hi" (red) and, placed first, a
/// blocker "WWWWWWWW" (blue) 3.5° west of it on the equator: apart at zoom 5, colliding at zoom 3
/// (the blocker wins), over a white background.
public enum FadeFixture {
    public static let collidingLabelsStyle = """
    {"version": 8,
     "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"n": "WWWWWWWW"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
        {"type": "Feature", "properties": {"n": "Hi"}, "geometry": {"type": "Point", "coordinates": [3.5, 0]}}]}}},
     "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                {"id": "t", "type": "symbol", "source": "p", "layout": {"text-field": ["get", "n"]},
                 "paint": {"text-color": ["match", ["get", "n"], "Hi", "#ff0000", "#0000ff"]}}]}
    """

    /// Writes the style to a new temporary file, runs `body` with its path, then removes it.
    public static func withStyleFile<T>(_ body: (String) throws -> T) throws -> T {
        let path = NSTemporaryDirectory() + "flyby-fade-\(UUID().uuidString).json"
        try Data(collidingLabelsStyle.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }
}
