import FlybyCore
import FlybyData

/// One layer of a style, with its properties compiled.
///
/// Property access never fails: a property the style leaves out, or whose expression fails for
/// a feature, gives the property's default (``StyleProperty/defaultValue``), as in the Mapbox
/// specification; numbers are clamped into the property's range.
///
/// For speed, evaluate what ``isFeatureDependent(_:)`` says is not feature-dependent once per
/// frame (pass ``FeatureContext/empty``), and only the rest per feature.
public struct StyleLayer: Sendable {
    public let id: String
    public let type: LayerType
    /// The source id (nil for `background`).
    public let source: String?
    /// Index of the source in ``Style/sources`` (nil for `background`).
    public let sourceIndex: Int?
    /// The layer of a vector source's tiles that this layer draws (`source-layer`).
    public let sourceLayer: String?
    /// The filter, when the layer has one.
    public let filter: StyleExpression?
    /// The layer shows at zoom ≥ `minZoom` …
    public let minZoom: Double
    /// … and zoom < `maxZoom` (the specification's exclusive maximum).
    public let maxZoom: Double
    /// `layout.visibility` is `visible` (the default).
    public let isVisible: Bool
    /// The properties the style sets, in document order (layout first, then paint).
    public private(set) var declaredProperties: [StyleProperty]
    var bindings: [StyleExpression?]

    init(id: String, type: LayerType, source: String?, sourceIndex: Int?, sourceLayer: String? = nil, filter: StyleExpression?,
         minZoom: Double, maxZoom: Double, isVisible: Bool) {
        self.id = id; self.type = type; self.source = source; self.sourceIndex = sourceIndex; self.sourceLayer = sourceLayer
        self.filter = filter; self.minZoom = minZoom; self.maxZoom = maxZoom; self.isVisible = isVisible
        declaredProperties = []
        bindings = Array(repeating: nil, count: StyleProperty.allCases.count)
    }

    mutating func set(_ p: StyleProperty, _ e: StyleExpression) {
        if bindings[p.index] == nil { declaredProperties.append(p) }
        bindings[p.index] = e
    }

    /// Whether any of the properties reads the zoom or the feature state.
    public func inputs(of properties: [StyleProperty]) -> (zoom: Bool, featureState: Bool) {
        var zoom = false, state = false
        for p in properties {
            guard let e = bindings[p.index] else { continue }
            zoom = zoom || e.dependsOnZoom
            state = state || e.dependsOnFeatureState
        }
        return (zoom, state)
    }

    /// True when the layer is visible and `zoom` is in minzoom ..< maxzoom.
    public func isVisible(atZoom zoom: Double) -> Bool {
        isVisible && zoom >= minZoom && zoom < maxZoom
    }

    /// The compiled expression of a property the style sets, or nil.
    public func expression(_ p: StyleProperty) -> StyleExpression? { bindings[p.index] }

    /// True when the property's value may differ from feature to feature.
    public func isFeatureDependent(_ p: StyleProperty) -> Bool { bindings[p.index]?.dependsOnFeature ?? false }

    /// True when the property's value may change with zoom.
    public func isZoomDependent(_ p: StyleProperty) -> Bool { bindings[p.index]?.dependsOnZoom ?? false }

    /// True when the filter accepts the feature (a failing filter rejects it). A layer without a
    /// filter accepts everything.
    public func accepts(zoom: Double, feature: FeatureContext) -> Bool {
        guard let filter else { return true }
        return filter.evaluate(zoom: zoom, feature: feature) == .bool(true)
    }

    /// The value of a property at `zoom` for `feature`, its default when unset or failing.
    public func value(_ p: StyleProperty, zoom: Double, feature: FeatureContext = .empty) -> StyleValue {
        guard let e = bindings[p.index] else { return p.defaultValue }
        guard let v = e.evaluate(zoom: zoom, feature: feature) else { return p.defaultValue }
        return StyleLayer.validated(v, p)
    }

    static func validated(_ v: StyleValue, _ p: StyleProperty) -> StyleValue {
        switch (p.valueType, v) {
        case (.color, .color), (.boolean, .bool), (.string, .string), (.image, .string), (.formatted, .string):
            return v
        case (.number, .number(let d)):
            if let r = p.range { return .number(min(max(d, r.lowerBound), r.upperBound)) }
            return v
        case (.enumeration(let allowed), .string(let s)):
            return allowed.contains(s) ? v : p.defaultValue
        case (.numberArray(let count), .array(let items)):
            guard items.allSatisfy({ $0.doubleValue != nil }), count == nil || items.count == count else { return p.defaultValue }
            return v
        case (.stringArray, .array(let items)):
            return items.allSatisfy({ $0.stringValue != nil }) ? v : p.defaultValue
        case (.anchorArray, .array(let items)):
            return items.allSatisfy({ StyleProperty.anchors.contains($0.stringValue ?? "") }) ? v : p.defaultValue
        case (.anchorOffsets, .array(let items)):
            return SymbolAnchorOffsets.pairs(items) != nil ? v : p.defaultValue
        default:
            return p.defaultValue
        }
    }

    /// A colour property (with `null` → nil, e.g. an unset `fill-outline-color`).
    public func color(_ p: StyleProperty, zoom: Double, feature: FeatureContext = .empty) -> StyleColor? {
        value(p, zoom: zoom, feature: feature).colorValue
    }

    /// A number property (0 when the property is not a number property).
    public func number(_ p: StyleProperty, zoom: Double, feature: FeatureContext = .empty) -> Double {
        value(p, zoom: zoom, feature: feature).doubleValue ?? 0
    }

    /// A boolean property.
    public func bool(_ p: StyleProperty, zoom: Double, feature: FeatureContext = .empty) -> Bool {
        value(p, zoom: zoom, feature: feature).boolValue ?? false
    }

    /// A string, keyword or text property (text-field: the label text; empty when none).
    public func string(_ p: StyleProperty, zoom: Double, feature: FeatureContext = .empty) -> String {
        switch value(p, zoom: zoom, feature: feature) {
        case .string(let s): return s
        default: return ""
        }
    }

    /// An array-of-numbers property (`line-dasharray`, `text-offset`, `icon-offset`); nil when
    /// unset and without default (`line-dasharray`: solid).
    public func numbers(_ p: StyleProperty, zoom: Double, feature: FeatureContext = .empty) -> [Double]? {
        value(p, zoom: zoom, feature: feature).numbers
    }
}

/// The style's default camera (root `center`, `zoom`, `bearing`, `pitch`); absent fields are nil.
public struct StyleCamera: Sendable, Equatable {
    /// Longitude and latitude in degrees.
    public var center: (longitude: Double, latitude: Double)?
    /// Mapbox zoom level (0 = whole world in 512 px).
    public var zoom: Double?
    /// Degrees clockwise from north.
    public var bearing: Double?
    /// Degrees from looking straight down.
    public var pitch: Double?

    public init(center: (longitude: Double, latitude: Double)? = nil, zoom: Double? = nil, bearing: Double? = nil, pitch: Double? = nil) {
        self.center = center; self.zoom = zoom; self.bearing = bearing; self.pitch = pitch
    }

    public static func == (a: StyleCamera, b: StyleCamera) -> Bool {
        a.center?.longitude == b.center?.longitude && a.center?.latitude == b.center?.latitude
            && a.zoom == b.zoom && a.bearing == b.bearing && a.pitch == b.pitch
    }
}

/// The sky and fog colours of a style (MapLibre's root `sky` object), drawn above the horizon
/// when the camera is pitched.
public struct StyleSky: Sendable {
    var bindings: [StyleExpression?]
    public private(set) var declaredProperties: [StyleProperty] = []

    init() { bindings = Array(repeating: nil, count: StyleProperty.allCases.count) }

    mutating func set(_ p: StyleProperty, _ e: StyleExpression) {
        if bindings[p.index] == nil { declaredProperties.append(p) }
        bindings[p.index] = e
    }

    /// A sky property at `zoom` (`sky-color`, `horizon-color`, `fog-color`, the blends).
    public func value(_ p: StyleProperty, zoom: Double) -> StyleValue {
        guard let e = bindings[p.index], let v = e.evaluate(zoom: zoom) else { return p.defaultValue }
        return StyleLayer.validated(v, p)
    }

    public func color(_ p: StyleProperty, zoom: Double) -> StyleColor {
        value(p, zoom: zoom).colorValue ?? .black
    }

    public func number(_ p: StyleProperty, zoom: Double) -> Double {
        value(p, zoom: zoom).doubleValue ?? 0
    }
}

/// A `vector` source of a style (formats §4): where its tiles are and which zooms it holds.
public struct VectorSourceSpec: Sendable, Equatable {
    /// The archive: a `.pmtiles` or `.mbtiles` file, or a folder laid out `{z}/{x}/{y}.EXT`
    /// (resolved against the style file's folder).
    public var path: String
    /// The style's `minzoom` / `maxzoom` (nil: the archive's own).
    public var minZoom: Int?
    public var maxZoom: Int?
    /// The style's `promoteId`.
    public var promoteId: VectorTileSet.PromoteID?
}

/// How a `raster-dem` source's pixels hold elevations (Style Specification, sources › raster-dem
/// › encoding).
public enum DEMEncoding: String, Sendable, Equatable {
    /// Mapbox Terrain-RGB: `height = −10000 + (R · 256² + G · 256 + B) · 0.1` metres.
    case mapbox
    /// Terrarium (Mapzen / AWS Terrain Tiles): `height = R · 256 + G + B / 256 − 32768` metres.
    case terrarium

    /// The elevation in metres of a pixel's red, green and blue bytes (formulas as the
    /// specification's `encoding` entry gives them).
    @inline(__always)
    public func elevation(r: UInt32, g: UInt32, b: UInt32) -> Float {
        switch self {
        case .mapbox: return Float(Double(r * 65536 + g * 256 + b) * 0.1 - 10000)
        case .terrarium: return Float(Double(r) * 256 + Double(g) + Double(b) / 256 - 32768)
        }
    }
}

/// A `raster` or `raster-dem` source of a style: where its tiles are and how they are laid out.
public struct RasterSourceSpec: Sendable, Equatable {
    /// The archive (`.pmtiles`, `.mbtiles` or a `{z}/{x}/{y}.EXT` folder), resolved against the style.
    public var path: String
    /// The style's `minzoom` / `maxzoom` (nil: the archive's own).
    public var minZoom: Int?
    public var maxZoom: Int?
    /// `tileSize`: the points a tile covers on screen at its own zoom (256 or 512; default 512).
    public var tileSize: Int
    /// The elevation encoding of a `raster-dem` source; nil for a `raster` source.
    public var encoding: DEMEncoding?
}

/// A source of a style (`geojson`, `vector` tiles, `raster` or `raster-dem` tiles).
public struct StyleSource: Sendable {
    /// Where the GeoJSON comes from.
    public enum Data: Sendable {
        /// A file path (relative paths are already resolved against the style file's folder).
        case file(String)
        /// A built-in resource, written `builtin:world/ne_50m_admin0_countries.geojson`.
        case builtin(String)
        /// GeoJSON written inside the style.
        case inline(FeatureCollection)
        /// A `vector` source: Mapbox Vector Tiles from a tile archive.
        case vector(VectorSourceSpec)
        /// A `raster` or `raster-dem` source: image tiles from a tile archive.
        case raster(RasterSourceSpec)
    }

    public let id: String
    public let data: Data
    /// `promoteId`: the property whose value is the feature id (for feature-state).
    public let promoteId: String?
    /// `generateId`: use the feature's index as its id when it has none.
    public let generateId: Bool
    public let attribution: String?
    /// `lineMetrics` (GeoJSON sources): line layers may use `line-gradient` (`line-progress`).
    public internal(set) var lineMetrics = false
    /// Where `data` is in the style, for errors found while loading it.
    let dataLocation: InputError
}

extension StyleCamera {
    /// The style's root camera over a base camera (fields the style leaves out keep the base's).
    public func applied(to base: CameraState) -> CameraState {
        var c = base
        if let center { c.center = LocationCoordinate2D(latitude: center.latitude, longitude: center.longitude) }
        if let zoom { c.zoom = zoom }
        if let bearing { c.bearing = bearing }
        if let pitch { c.pitch = pitch }
        return c
    }
}
