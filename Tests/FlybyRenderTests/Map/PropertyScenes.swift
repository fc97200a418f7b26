import FlybyCore
import FlybyRender

/// One render scene per newly drawn style property: the same shapes twice, on the left without
/// the property and on the right with it, so the golden frame is the side-by-side picture.
/// Used by ``RenderGoldenTests`` (scenario `props:NAME`).
enum PropertyScenes {
    /// The camera of every scene: the equator at zoom 8 (≈ 364 px per degree), north up; the
    /// pitch scenes look at it pitched 50°.
    static let camera = CameraState(center: .init(latitude: 0, longitude: 0), zoom: 8)
    static func camera(_ name: String) -> CameraState {
        name.hasPrefix("circle-pitch") ? CameraState(center: .init(latitude: 0.03, longitude: 0), zoom: 8, pitch: 50) : camera
    }

    /// Scene names, in the order of the golden file.
    static let names = ["line-offset", "line-gap-width", "line-blur", "line-round-limit", "line-translate",
                        "circle-blur", "circle-translate", "circle-pitch-scale", "circle-pitch-alignment",
                        "fill-pattern", "line-pattern", "background-pattern", "line-gradient", "text-halo-blur"]

    /// The pattern images of the pattern scenes, added by name (a sprite would do the same):
    /// `stripes` 8 × 8 diagonal stripes, `chevrons` 12 × 6 arrows pointing along the line.
    static func addImages(to renderer: inout MapRenderer) {
        var stripes = PixelBuffer(width: 8, height: 8)
        for y in 0..<8 {
            for x in 0..<8 {
                let c = (x + y) % 8 < 3 ? Color(red: 0x1f, green: 0x4e, blue: 0x9a) : Color(red: 0xd6, green: 0xe4, blue: 0xf5)
                stripes.pixels[y * 8 + x] = c.premultipliedARGB
            }
        }
        var chevrons = PixelBuffer(width: 12, height: 6)
        for y in 0..<6 {
            for x in 0..<12 {
                let d = abs(Double(y) + 0.5 - 3)  // 0.5 next to the centre line; the edge rows stay red
                let on = d < 2 && abs(Double(x) + 0.5 - 7 + 1.5 * d) < 1.2
                let c = on ? Color(red: 0xff, green: 0xff, blue: 0xff) : Color(red: 0xc0, green: 0x39, blue: 0x2b)
                chevrons.pixels[y * 12 + x] = c.premultipliedARGB
            }
        }
        renderer.addImage(name: "stripes", image: stripes)
        renderer.addImage(name: "chevrons", image: chevrons)
    }

    /// A zig-zag line with sharp and gentle turns and a square ring, left (`side` = `left`) and right.
    static let shapes: String = {
        var features: [String] = []
        for (side, dx) in [("left", -0.22), ("right", 0.22)] {
            let line = [(-0.17, 0.08), (-0.08, -0.06), (-0.02, 0.1), (0.06, 0.07), (0.15, 0.1), (0.1, -0.1)]
                .map { "[\($0.0 + dx), \($0.1)]" }.joined(separator: ", ")
            features.append("""
                {"type": "Feature", "properties": {"side": "\(side)"}, "geometry": {"type": "LineString", "coordinates": [\(line)]}}
                """)
            let ring = [(-0.15, -0.2), (-0.05, -0.2), (-0.05, -0.12), (-0.15, -0.12), (-0.15, -0.2)]
                .map { "[\($0.0 + dx), \($0.1)]" }.joined(separator: ", ")
            features.append("""
                {"type": "Feature", "properties": {"side": "\(side)"}, "geometry": {"type": "Polygon", "coordinates": [[\(ring)]]}}
                """)
            for (k, p) in [(-0.1, 0.15), (0.0, 0.0), (0.1, -0.15)].enumerated() {
                features.append("""
                    {"type": "Feature", "properties": {"side": "\(side)", "k": \(k)}, "geometry": {"type": "Point", "coordinates": [\(p.0 + dx), \(p.1)]}}
                    """)
            }
        }
        return features.joined(separator: ",\n")
    }()

    /// The style of scene `name`: the shapes drawn by `layer` (a layer's `type` and properties
    /// without `id`, `source` and `filter`) with `left` properties on the left, `right` on the right.
    static func style(_ name: String) -> String {
        if name == "background-pattern" { return backgroundPatternStyle }
        let (type, common, right): (String, String, String) = switch name {
        case "line-offset": ("line", ##""line-color": "#1f4e9a", "line-width": 4"##, ##", "line-offset": 8"##)
        case "line-gap-width": ("line", ##""line-color": "#1f4e9a", "line-width": 3"##, ##", "line-gap-width": 8"##)
        case "line-blur": ("line", ##""line-color": "#1f4e9a", "line-width": 14"##, ##", "line-blur": 6"##)
        case "line-round-limit": ("line", ##""line-color": "#1f4e9a", "line-width": 24"##, ##", "line-round-limit": 3"##)
        case "line-translate": ("line", ##""line-color": "#1f4e9a", "line-width": 4"##, ##", "line-translate": [10, 12]"##)
        case "circle-blur": ("circle", ##""circle-color": "#c0392b", "circle-radius": 18, "circle-stroke-width": 4, "circle-stroke-color": "#1f4e9a""##,
                             ##", "circle-blur": 1"##)
        case "circle-pitch-scale": ("circle", ##""circle-color": "#c0392b", "circle-radius": 12, "circle-pitch-scale": "viewport""##,
                                    ##", "circle-pitch-scale": "map""##)
        case "circle-pitch-alignment": ("circle", ##""circle-color": "#c0392b", "circle-radius": 12, "circle-stroke-width": 3"##,
                                        ##", "circle-pitch-alignment": "map""##)
        case "fill-pattern": ("fill", ##""fill-color": "#7fa7d9""##, ##", "fill-pattern": "stripes""##)
        case "line-pattern": ("line", ##""line-color": "#c0392b", "line-width": 12"##, ##", "line-pattern": "chevrons""##)
        case "line-gradient": ("line", ##""line-color": "#1f4e9a", "line-width": 10"##,
                               ##", "line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "#2c7bb6", 0.5, "#ffd23f", 1, "#d7191c"]"##)
        case "text-halo-blur": ("symbol", ##""text-color": "#1f2d3d", "text-halo-color": "#ff9f1c", "text-halo-width": 3"##,
                                ##", "text-halo-blur": 3"##)
        default: ("circle", ##""circle-color": "#c0392b", "circle-radius": 10"##, ##", "circle-translate": [14, -10]"##)
        }
        // line-join / line-round-limit are layout properties.
        let layout = type == "line" ? #""layout": {"line-join": "round"}, "#
            : type == "symbol" ? #""layout": {"text-field": "Flyby", "text-size": 18, "text-allow-overlap": true}, "# : ""
        let isRoundLimit = name == "line-round-limit"
        func layer(_ side: String, _ extra: String) -> String {
            let paint = common + (isRoundLimit ? "" : extra)
            var lay = layout
            if isRoundLimit && !extra.isEmpty { lay = #""layout": {"line-join": "round""# + extra + "}, " }
            return """
                {"id": "\(side)", "type": "\(type)", "source": "shapes", "filter": ["==", ["get", "side"], "\(side)"], \(lay)"paint": {\(paint)}}
                """
        }
        let metrics = name == "line-gradient" ? #""lineMetrics": true, "# : ""
        return """
            {"version": 8, "sources": {"shapes": {"type": "geojson", \(metrics)"data": {"type": "FeatureCollection", "features": [
            \(shapes)]}}},
             "layers": [
               {"id": "bg", "type": "background", "paint": {"background-color": "#f4f1ea"}},
               \(layer("left", "")),
               \(layer("right", right))
             ]}
            """
    }

    /// The `background-pattern` scene: the left half of the frame's shapes over a plain
    /// background layer, the pattern drawn by a second background layer at 60 % opacity.
    static let backgroundPatternStyle = """
        {"version": 8, "sources": {"shapes": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
        \(shapes)]}}},
         "layers": [
           {"id": "bg", "type": "background", "paint": {"background-color": "#f4f1ea"}},
           {"id": "pattern", "type": "background", "paint": {"background-pattern": "stripes", "background-opacity": 0.6}},
           {"id": "lines", "type": "line", "source": "shapes", "paint": {"line-color": "#1f2d3d", "line-width": 3}}
         ]}
        """
}
