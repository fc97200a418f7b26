import FlybyData
import Foundation

/// A source of a loaded style: its features projected, indexed and simplified, and their ids.
public struct LoadedSource: Sendable {
    public let id: String
    /// Projected geometry, bounding boxes, the spatial index and simplification levels.
    public let data: ProjectedSource
    /// The id of each feature for feature-state: the `promoteId` property, else the GeoJSON
    /// `id`, else (with `generateId`) the feature's index; nil when it has none.
    public let featureIDs: [PropertyValue?]
    let indexByID: [PropertyValue: Int]

    /// A source over already projected data (a style's source, or one added at run time).
    public init(id: String, data: ProjectedSource, promoteId: String?, generateId: Bool) {
        self.id = id
        self.data = data
        var ids: [PropertyValue?] = []
        var byID: [PropertyValue: Int] = [:]
        for (k, f) in data.features.enumerated() {
            var fid: PropertyValue?
            if let promoteId, let v = f.properties[promoteId], !v.isNull { fid = v } else if let v = f.id { fid = v } else if generateId { fid = .number(Double(k)) }
            ids.append(fid)
            if let fid, byID[fid] == nil { byID[fid] = k }
        }
        featureIDs = ids
        indexByID = byID
    }

    /// The index of the (first) feature with this id.
    public func featureIndex(id: PropertyValue) -> Int? { indexByID[id] }

    /// What expressions read for feature `index`, with its state from `states`.
    public func context(feature index: Int, states: FeatureStateStore) -> FeatureContext {
        let state = featureIDs[index].map { states.state(source: id, feature: $0) } ?? PropertyMap()
        return FeatureContext(properties: data.features[index].properties, state: state, kind: data.kinds[index])
    }
}

/// Feature state set at run time (e.g. `select: true` on a clicked country), keyed by source id
/// and feature id, read by the `feature-state` expression.
public struct FeatureStateStore: Sendable {
    var states: [String: [PropertyValue: FeatureState]] = [:]

    public init() {}

    /// Sets `key` to `value` in the state of a feature (`.null` removes the key).
    public mutating func set(_ key: String, _ value: PropertyValue, source: String, feature: PropertyValue) {
        var state = states[source]?[feature] ?? PropertyMap()
        state.entries.removeAll { $0.key == key }
        if !value.isNull { state.entries.append((key, value)) }
        states[source, default: [:]][feature] = state.isEmpty ? nil : state
    }

    /// The state of a feature (empty when none was set).
    public func state(source: String, feature: PropertyValue) -> FeatureState {
        states[source]?[feature] ?? PropertyMap()
    }

    /// Removes every state of a source (or of all sources).
    public mutating func removeAll(source: String? = nil) {
        if let source { states[source] = nil } else { states.removeAll() }
    }

    /// True when no state is set at all (lets a renderer skip state lookups).
    public var isEmpty: Bool { states.values.allSatisfy { $0.isEmpty } }
}

/// A style with its sources loaded.
public struct LoadedStyle: Sendable {
    public let style: Style
    /// One per ``Style/sources`` entry, same order. A tiled source's entry holds no features: the
    /// renderer draws its ``tileSets`` entry, tile by tile.
    public let sources: [LoadedSource]
    /// The tile archive of each `vector` source (nil for the others), same order as ``sources``.
    public let tileSets: [VectorTileSet?]
    /// The tile archive of each `raster` and `raster-dem` source (nil for the others), same order.
    public let rasterSets: [RasterTileSet?]
    /// The style's sprite sheet, when it names one.
    public var sprite: SpriteSheet?
    /// The ground's height from the style's `terrain` (nil without one, or when its source has
    /// no tile set): what keeps the camera above the relief.
    public let terrainElevation: TerrainElevation?

    /// A parsed style with its loaded sources.
    /// - Precondition: one source per ``Style/sources`` entry, same order and ids, and no tile
    ///   sets or one entry per source.
    public init(style: Style, sources: [LoadedSource], tileSets: [VectorTileSet?] = [], rasterSets: [RasterTileSet?] = []) {
        precondition(sources.map(\.id) == style.sources.map(\.id), "LoadedStyle sources must match the style's sources")
        precondition(tileSets.isEmpty || tileSets.count == sources.count, "LoadedStyle tile sets must match the style's sources")
        self.style = style
        self.sources = sources
        self.tileSets = tileSets.isEmpty ? Array(repeating: nil, count: sources.count) : tileSets
        precondition(rasterSets.isEmpty || rasterSets.count == sources.count, "LoadedStyle raster sets must match the style's sources")
        self.rasterSets = rasterSets.isEmpty ? Array(repeating: nil, count: sources.count) : rasterSets
        if let t = style.terrain, let k = style.sourceIndex(id: t.source), let set = self.rasterSets[k] {
            terrainElevation = TerrainElevation(tiles: set, exaggeration: t.exaggeration)
        } else {
            terrainElevation = nil
        }
    }

    /// The source a layer draws (nil for `background`).
    public func source(for layer: StyleLayer) -> LoadedSource? { layer.sourceIndex.map { sources[$0] } }

    /// The style's default camera (for the viewport's `styleDefault` state).
    public var camera: StyleCamera { style.camera }
}

/// Resolves style names and loads styles with their data.
///
/// A style spec is `world` or `city` (the built-in styles, `Resources/styles/NAME.json`),
/// optionally followed by `:preset` (`world:night`), or a path to a style JSON file, optionally
/// followed by `:preset` when the whole text is not itself a file. Parsed sources are cached by
/// file, so presets of one style share their data.
public struct StyleLoader: Sendable {
    /// The built-in style names.
    public static let builtinStyles = ["world", "city", "standard", "osm-bright", "osm-bright-3d", "positron", "world-tiles",
                                       "world-toner", "whitney-topo", "jacksboro-hillshade", "jacksboro-terrain"]

    /// Where the built-in OpenMapTiles styles open: their style files keep OpenMapTiles' own root
    /// camera (the whole world), but the archive they ship with covers central Helsinki, so a
    /// snapshot or flight without a camera starts over it.
    static let builtinCameras: [String: StyleCamera] = [
        "osm-bright": StyleCamera(center: (24.9445, 60.1699), zoom: 14.5),
        "osm-bright-3d": StyleCamera(center: (24.9445, 60.1699), zoom: 15.5, bearing: -20, pitch: 60),
        "positron": StyleCamera(center: (24.9445, 60.1699), zoom: 14.5),
    ]

    var cache: [String: ProjectedSource] = [:]
    var tileSets: [String: VectorTileSet] = [:]
    var rasterSets: [String: RasterTileSet] = [:]
    /// The most bytes of decoded tiles each vector source keeps (`--tile-cache MiB`; 256 MiB).
    public var tileCacheBudget = 256 << 20
    /// The most tiles each tiled source keeps (nil: only ``tileCacheBudget`` bounds them); the
    /// command line sets it from the frame size (``viewportTileCount(width:height:tileSize:)``)
    /// when `--tile-cache` is not given.
    public var tileCacheTiles: Int?
    /// Which sprite sheet to read: 1 (`name.png`) or 2 (`name@2x.png`, when the sprite has one).
    public var spritePixelRatio = 1
    /// Where warnings go (one line each, no newline): standard error unless the host takes them.
    /// A style that sets a property the renderer does not draw is loaded and the property named
    /// here, once per property per loader (``StyleProperty/drawing``).
    public var warn: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
    /// The properties already warned about.
    var warnedProperties: Set<StyleProperty> = []

    /// A path named in a style, as a file path: paths under a built-in style
    /// (`builtin:styles/../tiles/x.pmtiles`) become the resource's real path.
    static func localPath(_ path: String) -> String {
        guard path.hasPrefix("builtin:") else { return path }
        var parts: [Substring] = []
        for part in path.dropFirst("builtin:".count).split(separator: "/") {
            if part == ".." { if !parts.isEmpty { parts.removeLast() } } else if part != "." { parts.append(part) }
        }
        let name = parts.joined(separator: "/")
        return BuiltinData.path(name) ?? BuiltinData.directoryPath(name) ?? path
    }

    public init() {}

    /// Splits a spec into the style file (or built-in name) and the preset.
    static func resolve(_ spec: String) throws(InputError) -> (file: String, builtin: Bool, preset: String?) {
        let parts = spec.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if builtinStyles.contains(parts[0]) {
            return ("styles/\(parts[0]).json", true, parts.count > 1 ? parts[1] : nil)
        }
        if FileInput.isFile(spec) { return (spec, false, nil) }
        if let colon = spec.lastIndex(of: ":") {
            let file = String(spec[..<colon])
            let preset = String(spec[spec.index(after: colon)...])
            if FileInput.isFile(file), !preset.isEmpty, !preset.contains("/") { return (file, false, preset) }
        }
        if !spec.contains("/") && !spec.hasSuffix(".json") {
            throw InputError(file: spec, message: "unknown style '\(spec)' (built-in styles: \(builtinStyles.joined(separator: ", ")); or give a path to a style JSON file)")
        }
        throw InputError(file: spec, message: "cannot read the style file (missing or not readable)")
    }

    /// Parses a style without loading its data (fast; for the default camera or validation).
    public static func parseStyle(_ spec: String) throws(InputError) -> Style {
        let d = try readDocument(spec)
        var style = try Style.parse(d.bytes, file: d.file, preset: d.preset)
        let base = String(spec.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0])
        if let camera = builtinCameras[base], !FileInput.isFile(spec) { style.camera = camera }
        return style
    }

    /// The JSON text of a style spec, the name to parse it under (`builtin:styles/NAME.json` or
    /// the path) and the preset the spec names, for hosts that edit the document before parsing.
    public static func readDocument(_ spec: String) throws(InputError) -> (bytes: [UInt8], file: String, preset: String?) {
        let (file, builtin, preset) = try resolve(spec)
        let bytes = builtin ? try BuiltinData.bytes(file) : try FileInput.read(file)
        return (bytes, builtin ? "builtin:\(file)" : file, preset)
    }

    /// Loads a style and all its sources.
    /// - Throws: ``InputError`` for a bad spec, a bad style, or a source file that cannot be read
    ///   or parsed (named with the style's location of `data`).
    public mutating func load(_ spec: String) throws(InputError) -> LoadedStyle {
        try load(style: try StyleLoader.parseStyle(spec))
    }

    /// Loads the sources of a parsed style.
    public mutating func load(style: Style) throws(InputError) -> LoadedStyle {
        for (property, warning) in style.undrawnProperties where warnedProperties.insert(property).inserted { warn(warning) }
        var loaded: [LoadedSource] = []
        var sets: [VectorTileSet?] = []
        var rasters: [RasterTileSet?] = []
        for s in style.sources {
            let data: ProjectedSource
            var set: VectorTileSet?
            var raster: RasterTileSet?
            switch s.data {
            case .raster(let spec):
                let key = "\(spec.path)|\(s.id)|\(spec.minZoom ?? -1)|\(spec.maxZoom ?? -1)|\(spec.tileSize)|\(spec.encoding?.rawValue ?? "")"
                let (budget, tiles) = (tileCacheBudget, tileCacheTiles)
                raster = try StyleLoader.tileSet(&rasterSets, key: key, source: s, path: spec.path) { () throws(InputError) in
                    try RasterTileSet(sourceID: s.id, path: StyleLoader.localPath(spec.path), spec: spec, cacheBudget: budget, cacheTiles: tiles)
                }
                data = ProjectedSource(FeatureCollection(features: [], name: s.id))
            case .vector(let spec):
                let key = "\(spec.path)|\(s.id)|\(spec.minZoom ?? -1)|\(spec.maxZoom ?? -1)|\(String(describing: spec.promoteId))"
                let (budget, tiles) = (tileCacheBudget, tileCacheTiles)
                set = try StyleLoader.tileSet(&tileSets, key: key, source: s, path: spec.path) { () throws(InputError) in
                    try VectorTileSet(sourceID: s.id, path: StyleLoader.localPath(spec.path), minZoom: spec.minZoom, maxZoom: spec.maxZoom,
                                      promoteId: spec.promoteId, cacheBudget: budget, cacheTiles: tiles)
                }
                data = ProjectedSource(FeatureCollection(features: [], name: s.id))
            case .inline(let fc):
                data = ProjectedSource(fc)
            case .builtin(let name):
                let key = "builtin:\(name)"
                if let hit = cache[key] { data = hit } else {
                    guard BuiltinData.path(name) != nil else {
                        var e = s.dataLocation
                        e.message = "no built-in data named '\(name)'"
                        throw e
                    }
                    data = ProjectedSource(try BuiltinData.geoJSON(name))
                    cache[key] = data
                }
            case .file(let path):
                if let hit = cache[path] { data = hit } else {
                    guard FileInput.isFile(path) else {
                        var e = s.dataLocation
                        e.message = "cannot read the GeoJSON file '\(path)'"
                        throw e
                    }
                    do {
                        data = ProjectedSource(try GeoJSON.load(path: path))
                    } catch {
                        throw s.dataLocation.referring(to: error)
                    }
                    cache[path] = data
                }
            }
            loaded.append(LoadedSource(id: s.id, data: data, promoteId: s.promoteId, generateId: s.generateId))
            sets.append(set)
            rasters.append(raster)
        }
        var result = LoadedStyle(style: style, sources: loaded, tileSets: sets, rasterSets: rasters)
        if let sprite = style.sprite {
            // The sprite is a path prefix: resolve its JSON file, then take the extension off.
            let json = StyleLoader.localPath(sprite.path + ".json")
            let path = json.hasSuffix(".json") ? String(json.dropLast(".json".count)) : sprite.path
            do throws(InputError) {
                // The @2x sheet when asked for and present, else the 1× sheet (drawn scaled up).
                let ratio = spritePixelRatio >= 2 && FileInput.isFile(path + "@2x.json") ? 2 : 1
                result.sprite = try SpriteSheet(path: path, pixelRatio: ratio)
            } catch {
                var e = sprite.location
                e.message = "cannot read the sprite: \(error) (while reading \(path))"
                throw e
            }
        }
        return result
    }

    /// About how many tiles a tiled source should keep for frames of `width × height` pixels,
    /// sized from the viewport as MapLibre GL JS sizes its tile cache (`SourceCache`
    /// `updateCacheSize`: the tiles across and down the view, each plus one, times five zoom
    /// levels, `MAX_TILE_CACHE_ZOOM_LEVELS`): `(⌈width / tileSize⌉ + 1) · (⌈height / tileSize⌉ + 1) · 5`.
    /// `tileSize` is in pixels (512 for vector tiles at pixel ratio 1). 1280×720: 60 tiles.
    public static func viewportTileCount(width: Int, height: Int, tileSize: Int = 512) -> Int {
        let across = (max(1, width) + tileSize - 1) / tileSize + 1
        let down = (max(1, height) + tileSize - 1) / tileSize + 1
        return across * down * 5
    }

    /// The tile set opened before under `key`, else the one `open` opens (then kept under `key`).
    /// An archive that cannot be opened is an error at the source's `url`/`tiles` in the style,
    /// naming `path` as the style writes it.
    private static func tileSet<TileSet>(_ opened: inout [String: TileSet], key: String, source: StyleSource, path: String,
                                         open: () throws(InputError) -> TileSet) throws(InputError) -> TileSet {
        if let hit = opened[key] { return hit }
        do throws(InputError) {
            let set = try open()
            opened[key] = set
            return set
        } catch {
            var e = source.dataLocation
            e.message = "cannot read the tile archive: \(error.message) (while reading \(path))"
            throw e
        }
    }
}
