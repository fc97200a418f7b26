import FlybyCore
import FlybyData
import FlybyRender
import Testing

/// A minimal valid style around the given layers JSON.
private func style(layers: String, extra: String = "") -> String {
    """
    {"version": 8, "name": "t", \(extra)
     "sources": {"pts": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"kind": "a", "w": 2}, "geometry": {"type": "Point", "coordinates": [1, 2]}}]}}},
     "layers": \(layers)}
    """
}

struct StyleErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var json: String
    var path: String
    var message: String
    var testDescription: String { name }

    static let all: [StyleErrorCase] = [
        .init(name: "unknown layer type",
              json: style(layers: #"[{"id": "bg", "type": "background"}, {"id": "hills", "type": "heatmap", "source": "pts"}]"#),
              path: #"layers[1] (id "hills").type"#, message: "unknown layer type 'heatmap'"),
        .init(name: "unknown paint property",
              json: style(layers: #"[{"id": "bg", "type": "background"}, {"id": "roads-major", "type": "line", "source": "pts", "paint": {"line-widht": 2}}]"#),
              path: #"layers[1] (id "roads-major").paint.line-widht"#, message: "unknown property (did you mean line-width?)"),
        .init(name: "property of another layer type",
              json: style(layers: #"[{"id": "dots", "type": "circle", "source": "pts", "paint": {"fill-color": "red"}}]"#),
              path: #"layers[0] (id "dots").paint.fill-color"#, message: "unknown property"),
        .init(name: "layout property in paint",
              json: style(layers: #"[{"id": "l", "type": "line", "source": "pts", "paint": {"line-cap": "round"}}]"#),
              path: #"layers[0] (id "l").paint.line-cap"#, message: "line-cap is a layout property"),
        .init(name: "bad colour",
              json: style(layers: ##"[{"id": "water", "type": "fill", "source": "pts", "paint": {"fill-color": "#12345"}}]"##),
              path: #"layers[0] (id "water").paint.fill-color"#, message: "invalid colour '#12345'"),
        .init(name: "colour given a number",
              json: style(layers: #"[{"id": "water", "type": "fill", "source": "pts", "paint": {"fill-color": 3}}]"#),
              path: #"layers[0] (id "water").paint.fill-color"#, message: "expected a colour, found a number"),
        .init(name: "bad expression",
              json: style(layers: #"[{"id": "w", "type": "line", "source": "pts", "paint": {"line-width": ["interpolate", ["linear"], ["zoom"], 0, 1, 10, ["pow", 2, 3]]}}]"#),
              path: #"layers[0] (id "w").paint.line-width[6]"#, message: "Unknown expression \"pow\""),
        .init(name: "wrong arity",
              json: style(layers: #"[{"id": "c", "type": "circle", "source": "pts", "paint": {"circle-radius": ["get", "w", "x"]}}]"#),
              path: #"layers[0] (id "c").paint.circle-radius[2]"#, message: "Expected object but found string instead."),
        .init(name: "wrong arity in filter",
              json: style(layers: #"[{"id": "c", "type": "circle", "source": "pts", "filter": ["has"]}]"#),
              path: #"layers[0] (id "c").filter"#, message: "'has' takes one key"),
        .init(name: "unknown source",
              json: style(layers: #"[{"id": "c", "type": "circle", "source": "nope"}]"#),
              path: #"layers[0] (id "c").source"#, message: "unknown source 'nope'"),
        .init(name: "unknown layer field",
              json: style(layers: #"[{"id": "c", "type": "circle", "source": "pts", "paint2": {}}]"#),
              path: #"layers[0] (id "c").paint2"#, message: "unknown layer field 'paint2'"),
        .init(name: "duplicate id",
              json: style(layers: #"[{"id": "c", "type": "circle", "source": "pts"}, {"id": "c", "type": "circle", "source": "pts"}]"#),
              path: "layers[1].id", message: "duplicate layer id 'c'"),
        .init(name: "bad enum",
              json: style(layers: #"[{"id": "l", "type": "line", "source": "pts", "layout": {"line-join": "sharp"}}]"#),
              path: #"layers[0] (id "l").layout.line-join"#, message: "'sharp' is not a valid value of line-join"),
        .init(name: "unknown root field",
              json: style(layers: "[]", extra: #""projection": {},"#), path: "projection", message: "unknown field 'projection'"),
        .init(name: "terrain without a source",
              json: style(layers: "[]", extra: #""terrain": {},"#), path: "terrain", message: "missing required field 'source'"),
        .init(name: "bad version",
              json: #"{"version": 7, "sources": {}, "layers": []}"#, path: "version", message: "unsupported style version"),
        .init(name: "unsupported source type",
              json: #"{"version": 8, "sources": {"v": {"type": "video", "urls": ["x"]}}, "layers": []}"#, path: "sources.v.type", message: "unsupported source type 'video'"),
        .init(name: "vector source url that is not an archive",
              json: #"{"version": 8, "sources": {"v": {"type": "vector", "url": "x"}}, "layers": []}"#, path: "sources.v.url", message: "unsupported url 'x'"),
        .init(name: "bad sky colour",
              json: style(layers: "[]", extra: #""sky": {"sky-color": "bluish"},"#), path: "sky.sky-color", message: "invalid colour 'bluish'"),
        .init(name: "bad inline GeoJSON",
              json: #"{"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 100]}}}, "layers": []}"#,
              path: "sources.p.data.coordinates", message: "latitude 100.0 is out of range"),
        .init(name: "preset naming a missing layer",
              json: style(layers: #"[{"id": "bg", "type": "background"}]"#,
                          extra: #""metadata": {"flyby:presets": {"night": {"layers": {"land": {"paint": {"fill-color": "black"}}}}}},"#),
              path: "metadata.flyby:presets.night.layers.land", message: "preset 'night' names no layer 'land'"),
        .init(name: "preset with a bad colour",
              json: style(layers: #"[{"id": "bg", "type": "background"}]"#,
                          extra: ##""metadata": {"flyby:presets": {"night": {"layers": {"bg": {"paint": {"background-color": "#zz"}}}}}},"##),
              path: "metadata.flyby:presets.night.layers.bg.paint.background-color", message: "invalid colour '#zz'"),
    ]
}

@Suite struct StyleTests {
    @Test(arguments: StyleErrorCase.all)
    func errorNamesLayerAndProperty(_ c: StyleErrorCase) {
        do {
            _ = try Style.parse(Array(c.json.utf8), file: "test.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.file == "test.json")
            #expect(error.line != nil)
            #expect(error.path == c.path, "\(error)")
            #expect(error.description.contains(c.message), "\(error)")
        }
    }

    @Test func errorTextMatchesTheBriefsExample() {
        let json = style(layers: #"[{"id": "a", "type": "background"}, {"id": "b", "type": "background"}, {"id": "c", "type": "background"}, {"id": "d", "type": "background"}, {"id": "e", "type": "background"}, {"id": "roads-major", "type": "line", "source": "pts", "paint": {"line-widht": 2}}]"#)
        do {
            _ = try Style.parse(Array(json.utf8), file: "s.json")
        } catch {
            #expect(error.description.contains(#"layers[5] (id "roads-major").paint.line-widht: unknown property"#), "\(error)")
        }
    }

    @Test func layersKeepDocumentOrderAndEvaluate() throws {
        let json = style(layers: """
            [{"id": "bg", "type": "background", "paint": {"background-color": "hsl(200, 50%, 90%)"}},
             {"id": "dots", "type": "circle", "source": "pts", "minzoom": 2, "maxzoom": 10,
              "filter": ["==", ["get", "kind"], "a"],
              "paint": {"circle-radius": ["interpolate", ["linear"], ["zoom"], 2, ["get", "w"], 10, 10],
                        "circle-color": ["case", ["==", ["feature-state", "select"], true], "orange", "#336699"],
                        "circle-opacity": ["to-number", "3"]}},
             {"id": "hidden", "type": "symbol", "source": "pts", "layout": {"visibility": "none", "text-field": "{kind}", "text-font": ["Any"]}}]
            """, extra: #""center": [24.9, 60.2], "zoom": 5, "bearing": 10, "pitch": 30,"#)
        let s = try Style.parse(Array(json.utf8), file: "t.json")
        #expect(s.layers.map(\.id) == ["bg", "dots", "hidden"])
        #expect(s.camera == StyleCamera(center: (24.9, 60.2), zoom: 5, bearing: 10, pitch: 30))
        let dots = s.layers[1]
        #expect(dots.declaredProperties == [.circleRadius, .circleColor, .circleOpacity])
        #expect(dots.isVisible(atZoom: 2) && !dots.isVisible(atZoom: 10) && !dots.isVisible(atZoom: 1.9))
        #expect(!s.layers[2].isVisible(atZoom: 5))
        var loader = StyleLoader()
        let loaded = try loader.load(style: s)
        let src = try #require(loaded.source(for: dots))
        var states = FeatureStateStore()
        let plain = src.context(feature: 0, states: states)
        #expect(dots.accepts(zoom: 5, feature: plain))
        #expect(dots.number(.circleRadius, zoom: 6, feature: plain) == 6)
        #expect(dots.number(.circleOpacity, zoom: 6) == 1)  // clamped to 0…1
        #expect(dots.color(.circleColor, zoom: 6, feature: plain) == StyleColor(css: "#336699"))
        #expect(dots.isFeatureDependent(.circleColor) && !dots.isFeatureDependent(.circleOpacity))
        states.set("select", .bool(true), source: "pts", feature: .number(0))
        // Inline sources have no ids unless generateId or promoteId: state does not apply.
        #expect(src.featureIDs[0] == nil)
        #expect(s.layers[0].color(.backgroundColor, zoom: 0) == StyleColor(css: "hsl(200, 50%, 90%)"))
        #expect(dots.number(.circleStrokeWidth, zoom: 0) == 0)  // unset → default
        #expect(dots.string(.lineCap, zoom: 0) == "butt")
    }

    @Test func dataPathsResolveAgainstTheStyleFile() throws {
        let json = #"{"version": 8, "sources": {"a": {"type": "geojson", "data": "data/x.geojson"}}, "layers": []}"#
        let s = try Style.parse(Array(json.utf8), file: "/maps/styles/my.json")
        guard case .file(let path) = s.sources[0].data else { Issue.record("not a file"); return }
        #expect(path == "/maps/styles/data/x.geojson")
        var loader = StyleLoader()
        do {
            _ = try loader.load(style: s)
            Issue.record("expected an error")
        } catch {
            #expect(error.path == "sources.a.data" && error.file == "/maps/styles/my.json", "\(error)")
        }
    }
}

struct BuiltinStyleCase: Sendable, CustomTestStringConvertible {
    var spec: String
    var testDescription: String { spec }
    static let all: [BuiltinStyleCase] = ["world", "city"].flatMap { s in
        ["", ":day", ":dawn", ":dusk", ":night"].map { BuiltinStyleCase(spec: s + $0) }
    }
}

@Suite struct BuiltinStyleTests {
    @Test(arguments: BuiltinStyleCase.all)
    func builtinStyleParsesInEveryPreset(_ c: BuiltinStyleCase) throws {
        let s = try StyleLoader.parseStyle(c.spec)
        #expect(s.presetNames == ["day", "dawn", "dusk", "night"])
        #expect(s.layers.count > 8)
        #expect(s.sky != nil)
        for layer in s.layers {
            for z in stride(from: 0.0, through: 20, by: 2.5) {
                for p in layer.declaredProperties where !layer.isFeatureDependent(p) {
                    _ = layer.value(p, zoom: z)
                }
            }
        }
    }

    @Test func presetsChangeColours() throws {
        let day = try StyleLoader.parseStyle("world")
        let night = try StyleLoader.parseStyle("world:night")
        #expect(night.preset == "night")
        let d = try #require(day.layer(id: "ocean")?.color(.backgroundColor, zoom: 0))
        let n = try #require(night.layer(id: "ocean")?.color(.backgroundColor, zoom: 0))
        #expect(n.red + n.green + n.blue < d.red + d.green + d.blue)
        #expect(throws: InputError.self) { try StyleLoader.parseStyle("world:noon") }
        #expect(throws: InputError.self) { try StyleLoader.parseStyle("moon") }
    }

    @Test func worldLoadsWithDataAndHighlightsSelection() throws {
        var loader = StyleLoader()
        let world = try loader.load("world")
        #expect(world.sources.count == world.style.sources.count)
        let layer = try #require(world.style.layer(id: "countries-50m"))
        let src = try #require(world.source(for: layer))
        #expect(src.data.features.count == 241)
        let fin = try #require(src.featureIndex(id: .string("FIN")))
        var states = FeatureStateStore()
        let before = layer.color(.fillColor, zoom: 5, feature: src.context(feature: fin, states: states))
        states.set("select", .bool(true), source: src.id, feature: .string("FIN"))
        let after = layer.color(.fillColor, zoom: 5, feature: src.context(feature: fin, states: states))
        #expect(before != after)
        // Scale-dependent data: 110m below zoom 3.5, 50m above.
        #expect(world.style.layer(id: "countries-110m")?.isVisible(atZoom: 3) == true)
        #expect(world.style.layer(id: "countries-110m")?.isVisible(atZoom: 3.5) == false)
        #expect(layer.isVisible(atZoom: 3.5))
        // A second load of another preset reuses the parsed data.
        let night = try loader.load("world:night")
        #expect(night.sources.count == world.sources.count)
    }

    @Test func cityCameraIsHelsinki() throws {
        var loader = StyleLoader()
        let city = try loader.load("city")
        let cam = city.camera
        #expect(cam.center?.longitude == 24.9445 && cam.center?.latitude == 60.1699 && cam.zoom == 15)
        let roads = try #require(city.style.layer(id: "road"))
        let src = try #require(city.source(for: roads))
        var out: [Int32] = []
        let box = MercatorBox(minX: WebMercator.unitX(longitude: 24.94), minY: WebMercator.unitY(latitude: 60.172),
                              maxX: WebMercator.unitX(longitude: 24.95), maxY: WebMercator.unitY(latitude: 60.167))
        src.data.query(box, zoom: 15, into: &out)
        #expect(!out.isEmpty)
        let states = FeatureStateStore()
        var primaryWidth = 0.0, drawn = 0
        for f in out {
            let ctx = src.context(feature: Int(f), states: states)
            guard roads.accepts(zoom: 16, feature: ctx) else { continue }
            drawn += 1
            if ctx.properties["highway"] == .string("primary") { primaryWidth = roads.number(.lineWidth, zoom: 16, feature: ctx) }
        }
        #expect(drawn > 10)
        #expect(primaryWidth == 8)
    }
}

@Suite struct StylePropertyTests {
    /// `index` reads the enum's stored case number; it must equal the position in `allCases`,
    /// which the per-layer property tables are laid out by.
    @Test func indexIsThePositionInAllCases() {
        for (position, property) in StyleProperty.allCases.enumerated() {
            #expect(property.index == position, "\(property.rawValue)")
        }
    }
}
