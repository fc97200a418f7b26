import FlybyData

/// A parsed style: a subset of the Mapbox/MapLibre Style Specification v8 (docs/formats.md §4).
///
/// Layers keep the document's order (they are drawn in that order), and so do each layer's
/// properties. Anything unsupported — a property, a layer type, an expression operator, a root
/// field — is an error naming it, never silently skipped.
///
/// **Light presets.** A style may carry presets in `metadata["flyby:presets"]`:
/// `{"night": {"layers": {"water": {"paint": {"fill-color": "#0b2030"}}}, "sky": {…}}, …}`.
/// Each preset overrides paint or layout properties of named layers (and sky properties).
/// The style as written is the `day` preset. Every preset is validated when the style is parsed,
/// whichever one is selected.
public struct Style: Sendable {
    /// The style's `name` ("" when absent).
    public let name: String
    /// The file the style was read from (or the built-in name).
    public let file: String
    /// The style's default camera (root `center`, `zoom`, `bearing`, `pitch`).
    public internal(set) var camera: StyleCamera
    /// Sources in document order.
    public let sources: [StyleSource]
    /// Layers in drawing order.
    public let layers: [StyleLayer]
    /// The root `sky` (nil when absent).
    public let sky: StyleSky?
    /// The root `light` (the default light when the style has none); shades `fill-extrusion`.
    public let light: StyleLight
    /// The root `terrain` (nil: a flat map); see ``StyleTerrain``.
    public let terrain: StyleTerrain?
    /// The sprite sheet (`sprite`): the path without extension (`name` for `name.json` +
    /// `name.png`), resolved against the style file's folder, and where it is in the style.
    public let sprite: (path: String, location: InputError)?
    /// The preset this style was built with.
    public let preset: String
    /// The glyph PBF template (`glyphs`, with `{fontstack}` and `{range}`), a local path resolved
    /// against the style file's folder, or the URL as written when it is a network one (which
    /// Flyby does not read: labels then use the built-in font). See docs/text.md.
    public let glyphs: String?
    /// All preset names: `day` first, then the style's presets in document order.
    public let presetNames: [String]

    /// The name of the preset that is the style as written.
    public static let basePreset = "day"

    /// Parses a style document.
    /// - Parameters:
    ///   - bytes: the style JSON.
    ///   - file: its path (relative `data` paths resolve against its folder) or built-in name.
    ///   - preset: a light preset name; nil or `day` for the style as written.
    /// - Throws: ``InputError`` naming the file, line, column and path, e.g.
    ///   `layers[5] (id "roads-major").paint.line-widht: unknown property`.
    public static func parse(_ bytes: [UInt8], file: String, preset: String? = nil) throws(InputError) -> Style {
        let doc = try JSONDocument(file: file, bytes: bytes)
        return try Style(doc.cursor, file: file, preset: preset ?? basePreset)
    }

    /// Root keys of the specification that Flyby reads, and the descriptive keys Mapbox Studio
    /// writes (`id`, `owner`, `created`, `modified`, `draft`, `visibility`: document facts that
    /// change no pixel), and `transition` (the style's default property transition: Flyby applies
    /// a runtime style change at once, so it changes no frame either).
    static let rootKeys: Set<String> = ["version", "name", "metadata", "center", "zoom", "bearing", "pitch",
                                        "sources", "layers", "sky", "light", "terrain", "glyphs", "sprite",
                                        "id", "owner", "created", "modified", "draft", "visibility", "transition"]

    init(_ root: JSONCursor, file: String, preset: String) throws(InputError) {
        self.file = file
        try root.rejectUnknownKeys(Style.rootKeys)
        let version = try root.required("version")
        guard try version.double() == 8 else { throw version.error("unsupported style version \(try version.double()) (expected 8)") }
        name = try root.member("name")?.string() ?? ""
        if let sc = try root.member("sprite") {
            guard sc.isString else { throw sc.error("sprite must be one local path (name for name.json and name.png)") }
            let path = try sc.string()
            if path.hasPrefix("http://") || path.hasPrefix("https://") || path.hasPrefix("mapbox://") {
                throw sc.error("'\(path)': Flyby reads no network; give the sprite as a local path")
            }
            guard !path.isEmpty else { throw sc.error("empty sprite path") }
            sprite = (path.hasPrefix("/") ? path : Style.directory(of: file) + path, Style.location(sc))
        } else {
            sprite = nil
        }

        var camera = StyleCamera()
        if let c = try root.member("center") {
            let (lng, lat) = try c.pair()
            guard lat >= -90 && lat <= 90 else { throw c.error("latitude \(lat) is out of range -90…90") }
            guard lng >= -540 && lng <= 540 else { throw c.error("longitude \(lng) is out of range") }
            camera.center = (lng, lat)
        }
        camera.zoom = try root.member("zoom")?.double(in: 0...24, what: "zoom")
        camera.bearing = try root.member("bearing")?.double()
        camera.pitch = try root.member("pitch")?.double(in: 0...85, what: "pitch")
        self.camera = camera
        if let gc = try root.member("glyphs") {
            let template = try gc.string()
            let isURL = template.contains("://")
            glyphs = isURL || template.hasPrefix("/") ? template : Style.directory(of: file) + template
        } else {
            glyphs = nil
        }

        // Sources.
        var sources: [StyleSource] = []
        if let s = try root.member("sources") {
            for (id, c) in try s.members() { sources.append(try Style.parseSource(id, c, styleFile: file)) }
        }
        self.sources = sources

        // Presets (validated below against the layers).
        var presetNames = [Style.basePreset]
        var presetCursors: [(String, JSONCursor)] = []
        if let meta = try root.member("metadata"), meta.isObject, let presets = try meta.member("flyby:presets") {
            for (pname, pc) in try presets.members() {
                guard pname != Style.basePreset else { throw pc.error("preset '\(pname)' is the style as written; it cannot be overridden") }
                try pc.rejectUnknownKeys(["layers", "sky", "light"], what: "preset field")
                presetNames.append(pname)
                presetCursors.append((pname, pc))
            }
        }
        guard presetNames.contains(preset) else {
            throw InputError(file: file, message: "unknown light preset '\(preset)' (available: \(presetNames.joined(separator: ", ")))")
        }
        self.preset = preset
        self.presetNames = presetNames

        // Layers.
        var layers: [StyleLayer] = []
        var layerIndex: [String: Int] = [:]
        for (k, lc0) in try root.required("layers").elements().enumerated() {
            let idCursor = try lc0.required("id")
            let id = try idCursor.string()
            let lc = JSONCursor(node: lc0.node, path: "\(lc0.path) (id \"\(id)\")", document: lc0.document)
            if layerIndex[id] != nil { throw idCursor.error("duplicate layer id '\(id)'") }
            layerIndex[id] = k
            layers.append(try Style.parseLayer(id, lc, sources: sources))
        }

        var light = try root.member("light").map { (c: JSONCursor) throws(InputError) in try StyleLight.parse(c) } ?? StyleLight()
        terrain = try root.member("terrain").map { (c: JSONCursor) throws(InputError) in try StyleTerrain.parse(c, sources: sources) }

        // Sky.
        var sky: StyleSky?
        if let sc = try root.member("sky") {
            var s = StyleSky()
            try Style.parseProperties(sc, group: .sky, layerType: nil) { p, e in s.set(p, e) }
            sky = s
        }

        // Presets: validate all, apply the selected one.
        for (pname, pc) in presetCursors {
            let apply = pname == preset
            if let lcs = try pc.member("layers") {
                for (layerID, oc) in try lcs.members() {
                    guard let k = layerIndex[layerID] else { throw oc.error("preset '\(pname)' names no layer '\(layerID)'") }
                    try oc.rejectUnknownKeys(["paint", "layout"], what: "layer override field")
                    var layer = layers[k]
                    for group in [StyleProperty.Group.layout, .paint] {
                        guard let gc = try oc.member(group == .paint ? "paint" : "layout") else { continue }
                        try Style.parseProperties(gc, group: group, layerType: layer.type, allowVisibility: false) { p, e in layer.set(p, e) }
                    }
                    if apply { layers[k] = layer }
                }
            }
            if let lc = try pc.member("light") {
                let l = try StyleLight.parse(lc)
                if apply { light = l }
            }
            if let sc = try pc.member("sky") {
                var s = sky ?? StyleSky()
                try Style.parseProperties(sc, group: .sky, layerType: nil) { p, e in s.set(p, e) }
                if apply { sky = s }
            }
        }
        self.layers = layers
        self.sky = sky
        self.light = light
    }

    /// The layer with this id.
    public func layer(id: String) -> StyleLayer? { layers.first { $0.id == id } }

    /// The index in ``sources`` of the source with this id.
    public func sourceIndex(id: String) -> Int? { sources.firstIndex { $0.id == id } }

    // MARK: parsing helpers

    static func parseSource(_ id: String, _ c: JSONCursor, styleFile: String) throws(InputError) -> StyleSource {
        let typeCursor = try c.required("type")
        let type = try typeCursor.string()
        switch type {
        case "geojson": return try parseGeoJSONSource(id, c, styleFile: styleFile)
        case "vector": return try parseVectorSource(id, c, styleFile: styleFile)
        case "raster", "raster-dem": return try parseRasterSource(id, c, styleFile: styleFile, dem: type == "raster-dem")
        default: throw typeCursor.error("unsupported source type '\(type)' (supported: geojson, vector, raster, raster-dem)")
        }
    }

    static func location(_ c: JSONCursor) -> InputError {
        let (line, column) = lineAndColumn(of: c.node.offset, in: c.document.bytes)
        return InputError(file: c.document.file, line: line, column: column, path: c.path, message: "")
    }

    static func parseGeoJSONSource(_ id: String, _ c: JSONCursor, styleFile: String) throws(InputError) -> StyleSource {
        try c.rejectUnknownKeys(["type", "data", "promoteId", "generateId", "attribution", "maxzoom", "tolerance", "buffer",
                                 "lineMetrics"])
        let dc = try c.required("data")
        let location = location(dc)
        let data: StyleSource.Data
        if dc.isString {
            let s = try dc.string()
            if s.hasPrefix("builtin:") {
                data = .builtin(String(s.dropFirst("builtin:".count)))
            } else if s.hasPrefix("/") {
                data = .file(s)
            } else {
                guard !s.isEmpty else { throw dc.error("empty data path") }
                data = .file(Style.directory(of: styleFile) + s)
            }
        } else if dc.isObject {
            data = .inline(try GeoJSON.parse(dc))
        } else {
            throw dc.error("expected a GeoJSON object, a file path or builtin:NAME, found \(dc.node.typeDescription)")
        }
        let promoteId: String? = try c.member("promoteId")?.string()
        let generateId = try c.member("generateId")?.bool() ?? false
        var source = StyleSource(id: id, data: data, promoteId: promoteId, generateId: generateId,
                                 attribution: try c.member("attribution")?.string(), dataLocation: location)
        source.lineMetrics = try c.member("lineMetrics")?.bool() ?? false
        return source
    }

    /// A `vector` source (formats §4): `url` (`pmtiles://PATH`, `mbtiles://PATH`) or `tiles`
    /// (one template `PATH/{z}/{x}/{y}.pbf`), paths relative to the style; `minzoom`, `maxzoom`,
    /// `promoteId` (a property name, or an object of one per source layer), `attribution`. `bounds`
    /// and `volatile` are accepted and change no pixel: tiles outside the bounds are simply absent
    /// from the archive, and nothing is fetched, so there is nothing to keep or drop.
    static func parseVectorSource(_ id: String, _ c: JSONCursor, styleFile: String) throws(InputError) -> StyleSource {
        try c.rejectUnknownKeys(["type", "url", "tiles", "minzoom", "maxzoom", "promoteId", "attribution", "bounds",
                                 "scheme", "volatile"])
        let (path, where_) = try parseTileLocation(c, styleFile: styleFile, what: "vector")
        if let s = try c.member("scheme"), try s.string() != "xyz" {
            throw s.error("only the xyz scheme is supported for tile templates (MBTiles rows are flipped by the reader)")
        }
        let (minZoom, maxZoom) = try parseZoomRange(c)
        var promote: VectorTileSet.PromoteID?
        if let p = try c.member("promoteId") {
            if p.isString { promote = .all(try p.string()) } else if p.isObject {
                var m: [String: String] = [:]
                for (layer, v) in try p.members() { m[layer] = try v.string() }
                promote = .byLayer(m)
            } else {
                throw p.error("promoteId must be a property name or an object of one per source layer")
            }
        }
        let spec = VectorSourceSpec(path: path, minZoom: minZoom, maxZoom: maxZoom, promoteId: promote)
        return StyleSource(id: id, data: .vector(spec), promoteId: nil, generateId: false,
                           attribution: try c.member("attribution")?.string(), dataLocation: location(where_))
    }

    /// Where a tiled source's tiles are (formats §4): `url` (`pmtiles://PATH`, `mbtiles://PATH`)
    /// or `tiles` (one template `PATH/{z}/{x}/{y}.EXT`), resolved against the style's folder; and
    /// the cursor to name in errors about it. `what` is the source type, for messages.
    static func parseTileLocation(_ c: JSONCursor, styleFile: String, what: String) throws(InputError) -> (path: String, location: JSONCursor) {
        let dir = Style.directory(of: styleFile)
        func resolve(_ s: String) -> String { s.hasPrefix("/") ? s : dir + s }
        let path: String
        let where_: JSONCursor
        if let u = try c.member("url") {
            if try c.member("tiles") != nil { throw u.error("a \(what) source takes either 'url' or 'tiles', not both") }
            let url = try u.string()
            where_ = u
            if url.hasPrefix("http://") || url.hasPrefix("https://") {
                throw u.error("'\(url)': Flyby reads no network; give a local archive as pmtiles://PATH, mbtiles://PATH or a 'tiles' template")
            }
            if url.hasPrefix("pmtiles://") { path = resolve(String(url.dropFirst("pmtiles://".count))) }
            else if url.hasPrefix("mbtiles://") { path = resolve(String(url.dropFirst("mbtiles://".count))) }
            else if url.hasPrefix("file://") { path = resolve(String(url.dropFirst("file://".count))) }
            else if url.hasSuffix(".pmtiles") || url.hasSuffix(".mbtiles") { path = resolve(url) }
            else { throw u.error("unsupported url '\(url)' (supported: pmtiles://PATH, mbtiles://PATH)") }
        } else if let t = try c.member("tiles") {
            let items = try t.elements()
            guard items.count == 1 else { throw t.error("'tiles' takes exactly one local template such as \"tiles/{z}/{x}/{y}.pbf\"") }
            let template = try items[0].string()
            where_ = items[0]
            if template.hasPrefix("http://") || template.hasPrefix("https://") {
                throw items[0].error("'\(template)': Flyby reads no network; give a local folder template such as tiles/{z}/{x}/{y}.pbf")
            }
            let marker = "{z}/{x}/{y}."
            guard let dot = template.lastIndex(of: "."), template[..<dot].hasSuffix(marker.dropLast()),
                  !template[template.index(after: dot)...].isEmpty,
                  template[template.index(after: dot)...].allSatisfy({ $0.isLetter }) else {
                throw items[0].error("a tiles template must end in {z}/{x}/{y}.EXT (a folder of tiles), found '\(template)'")
            }
            let folder = String(template[..<dot].dropLast(marker.count - 1))
            path = resolve(folder.isEmpty ? "." : folder)
        } else {
            throw c.error("a \(what) source needs 'url' (pmtiles://PATH or mbtiles://PATH) or 'tiles'")
        }
        return (path, where_)
    }

    /// A tiled source's `minzoom` and `maxzoom` (nil when absent), 0…30, max ≥ min.
    static func parseZoomRange(_ c: JSONCursor) throws(InputError) -> (min: Int?, max: Int?) {
        let minZoom = try c.member("minzoom").map { (m) throws(InputError) in Int(try m.double(in: 0...30, what: "minzoom")) }
        let maxZoom = try c.member("maxzoom").map { (m) throws(InputError) in Int(try m.double(in: 0...30, what: "maxzoom")) }
        if let minZoom, let maxZoom, maxZoom < minZoom, let mc = try c.member("maxzoom") {
            throw mc.error("maxzoom must not be below minzoom")
        }
        return (minZoom, maxZoom)
    }

    /// A `raster` or `raster-dem` source (Style Specification, sources › raster / raster-dem):
    /// `url` or `tiles` as for vector sources, `tileSize` (256 or 512 points; default 512),
    /// `minzoom`, `maxzoom`, `attribution`; a `raster-dem` source also `encoding` (`mapbox`, the
    /// default, or `terrarium`). `bounds`, `scheme` (xyz) and `volatile` as for vector sources.
    static func parseRasterSource(_ id: String, _ c: JSONCursor, styleFile: String, dem: Bool) throws(InputError) -> StyleSource {
        var keys: Set<String> = ["type", "url", "tiles", "minzoom", "maxzoom", "tileSize", "attribution", "bounds", "scheme", "volatile"]
        if dem { keys.insert("encoding") }
        try c.rejectUnknownKeys(keys)
        let (path, where_) = try parseTileLocation(c, styleFile: styleFile, what: dem ? "raster-dem" : "raster")
        if let s = try c.member("scheme"), try s.string() != "xyz" {
            throw s.error("only the xyz scheme is supported for tile templates (MBTiles rows are flipped by the reader)")
        }
        let (minZoom, maxZoom) = try parseZoomRange(c)
        var tileSize = 512
        if let t = try c.member("tileSize") {
            let v = try t.double()
            guard v == 256 || v == 512 else { throw t.error("tileSize must be 256 or 512, found \(v)") }
            tileSize = Int(v)
        }
        var encoding: DEMEncoding?
        if dem {
            encoding = .mapbox
            if let e = try c.member("encoding") {
                let name = try e.string()
                guard let known = DEMEncoding(rawValue: name) else {
                    throw e.error("unknown encoding '\(name)' (supported: mapbox, terrarium)")
                }
                encoding = known
            }
        }
        let spec = RasterSourceSpec(path: path, minZoom: minZoom, maxZoom: maxZoom, tileSize: tileSize, encoding: encoding)
        return StyleSource(id: id, data: .raster(spec), promoteId: nil, generateId: false,
                           attribution: try c.member("attribution")?.string(), dataLocation: location(where_))
    }

    /// The folder of a path, with a trailing "/" ("" for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// A raster layer draws a `raster` source, a hillshade layer a `raster-dem` source, and the
    /// other layers neither (Style Specification, layers › source).
    static func checkSourceType(_ type: LayerType, _ source: StyleSource, _ c: JSONCursor) throws(InputError) {
        var kind = "geojson"
        if case .vector = source.data { kind = "vector" }
        if case .raster(let spec) = source.data { kind = spec.encoding == nil ? "raster" : "raster-dem" }
        let wanted: String? = type == .raster ? "raster" : type == .hillshade ? "raster-dem" : nil
        if let wanted, kind != wanted {
            throw c.error("a \(type.rawValue) layer draws a \(wanted) source; '\(source.id)' is a \(kind) source")
        }
        if wanted == nil && (kind == "raster" || kind == "raster-dem") {
            throw c.error("a \(type.rawValue) layer cannot draw the \(kind) source '\(source.id)' (raster sources are drawn by raster and hillshade layers)")
        }
    }

    static let layerKeys: Set<String> = ["id", "type", "source", "source-layer", "filter", "minzoom", "maxzoom", "layout", "paint", "metadata"]

    static func parseLayer(_ id: String, _ c: JSONCursor, sources: [StyleSource]) throws(InputError) -> StyleLayer {
        for (key, value) in try c.members() where !layerKeys.contains(key) {
            throw value.error("unknown layer field '\(key)' (known: \(layerKeys.sorted().joined(separator: ", ")))")
        }
        let tc = try c.required("type")
        let typeName = try tc.string()
        guard let type = LayerType(rawValue: typeName) else {
            throw tc.error("unknown layer type '\(typeName)' (supported: \(LayerType.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var source: String?
        var sourceIndex: Int?
        if type == .background {
            if let s = try c.member("source") { throw s.error("a background layer takes no source") }
            if let f = try c.member("filter") { throw f.error("a background layer takes no filter") }
        } else {
            let sc = try c.required("source")
            let s = try sc.string()
            guard let k = sources.firstIndex(where: { $0.id == s }) else {
                throw sc.error("unknown source '\(s)' (defined: \(sources.map(\.id).joined(separator: ", ")))")
            }
            source = s
            sourceIndex = k
            try checkSourceType(type, sources[k], sc)
        }
        var sourceLayer: String?
        if let sl = try c.member("source-layer") {
            guard let k = sourceIndex, case .vector = sources[k].data else {
                throw sl.error("'source-layer' applies to layers of vector sources only")
            }
            sourceLayer = try sl.string()
        } else if let k = sourceIndex, case .vector = sources[k].data {
            throw c.error("a layer of the vector source '\(sources[k].id)' needs 'source-layer' (the tile layer it draws)")
        }
        let filter = try c.member("filter").map { (f) throws(InputError) in try ExpressionCompiler.compileFilter(f) }
        let minZoom = try c.member("minzoom")?.double(in: 0...24, what: "minzoom") ?? 0
        let maxZoom = try c.member("maxzoom")?.double(in: 0...24, what: "maxzoom") ?? 24.000001
        if let mc = try c.member("maxzoom"), maxZoom <= minZoom { throw mc.error("maxzoom must be greater than minzoom") }
        var visible = true
        if let layout = try c.member("layout"), let v = try layout.member("visibility") {
            let s = try v.string()
            guard s == "visible" || s == "none" else { throw v.error("visibility must be \"visible\" or \"none\", found '\(s)'") }
            visible = s == "visible"
        }
        var layer = StyleLayer(id: id, type: type, source: source, sourceIndex: sourceIndex, sourceLayer: sourceLayer, filter: filter,
                               minZoom: minZoom, maxZoom: maxZoom, isVisible: visible)
        if let layout = try c.member("layout") {
            try parseProperties(layout, group: .layout, layerType: type, allowVisibility: true) { p, e in layer.set(p, e) }
        }
        if let paint = try c.member("paint") {
            try parseProperties(paint, group: .paint, layerType: type) { p, e in layer.set(p, e) }
            // Style Specification, `line-gradient`: "Can only be used with GeoJSON sources that
            // specify `"lineMetrics": true`" (MapLibre's style validator refuses it likewise).
            if let g = try paint.member("line-gradient"), let k = sourceIndex, !sources[k].lineMetrics {
                throw g.error("layer '\(id)' sets line-gradient, which needs a GeoJSON source with \"lineMetrics\": true ('\(sources[k].id)' has none)")
            }
        }
        return layer
    }

    /// Parses the members of a `paint`, `layout` or `sky` object in document order.
    static func parseProperties(_ c: JSONCursor, group: StyleProperty.Group, layerType: LayerType?, allowVisibility: Bool = false,
                                _ set: (StyleProperty, StyleExpression) -> Void) throws(InputError) {
        for (key, value) in try c.members() {
            if key == "visibility" && group == .layout {
                if allowVisibility { continue }
                throw value.error("visibility cannot be changed by a preset")
            }
            guard let p = StyleProperty(name: key), p.layerType == layerType, p.group == group else {
                throw value.error(unknownPropertyMessage(key, group: group, layerType: layerType))
            }
            set(p, try ExpressionCompiler.compileProperty(value, p))
        }
    }

    static func unknownPropertyMessage(_ key: String, group: StyleProperty.Group, layerType: LayerType?) -> String {
        let where_ = group == .sky ? "sky" : "\(group == .paint ? "paint" : "layout") of a \(layerType?.rawValue ?? "") layer"
        if let p = StyleProperty(name: key), p.layerType == layerType {
            return "unknown property: \(key) is a \(p.group == .paint ? "paint" : "layout") property, not a \(group == .paint ? "paint" : "layout") property"
        }
        let known = StyleProperty.names(for: layerType, group: group)
        if let near = known.min(by: { editDistance($0, key) < editDistance($1, key) }), editDistance(near, key) <= 3 {
            return "unknown property (did you mean \(near)?) in the \(where_)"
        }
        return "unknown property in the \(where_) (known: \(known.joined(separator: ", ")))"
    }

    /// Levenshtein distance, for "did you mean" hints.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.utf8), y = Array(b.utf8)
        var prev = Array(0...y.count)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            var cur = [i] + Array(repeating: 0, count: y.count)
            for j in 1...max(y.count, 1) where !y.isEmpty {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            prev = cur
        }
        return prev[y.count]
    }
}
