import FlybyCore
import FlybyData

/// A decoded Mapbox Vector Tile (vector-tile-spec 2.1, §4): its layers in tile order and the
/// problems the decoder recovered from.
///
/// Coordinate spaces: every vertex is in **tile coordinates** — integers, x to the right (east),
/// y **down** (south), 0…`extent` across the tile (a buffer may reach outside, even negative). A
/// vertex (px, py) of tile z/x/y lies at unit Web Mercator ((x + px/extent) / 2^z,
/// (y + py/extent) / 2^z), y south as in `WebMercator`; ``TileProjection`` does that with one
/// multiply-add per axis, so a renderer can project without trigonometry.
public struct VectorTile: Sendable {
    public var layers: [VectorTileLayer]
    /// What the decoder skipped or repaired (spec 2.1 allows "recoverable" handling): a feature
    /// without a type or geometry, an odd tag list, a second layer of the same name, repeated
    /// vertices in a line. Empty for a valid tile.
    public var issues: [VectorTileIssue]

    public init(layers: [VectorTileLayer] = [], issues: [VectorTileIssue] = []) {
        self.layers = layers; self.issues = issues
    }

    /// The layer called `name` (layer names are unique in a valid tile, §4.1).
    public func layer(named name: String) -> VectorTileLayer? { layers.first { $0.name == name } }
}

/// One recovered problem: which layer (and feature index, in the layer's encoded order) and what.
public struct VectorTileIssue: Sendable, Equatable, CustomStringConvertible {
    public var layer: String
    public var feature: Int?
    public var message: String
    public var description: String {
        "layer '\(layer)'" + (feature.map { " feature \($0)" } ?? "") + ": " + message
    }
}

/// A layer (§4.1): a name, a version (1 or 2), an extent in tile units (default 4096) and the
/// key and value tables the features' tags index into.
public struct VectorTileLayer: Sendable {
    public var name: String
    public var version: Int
    /// Tile coordinates span 0…extent on both axes (§4.1, §4.3.1).
    public var extent: Int
    public var keys: [String]
    public var values: [VectorTileValue]
    public var features: [VectorTileFeature]

    public init(name: String, version: Int, extent: Int, keys: [String], values: [VectorTileValue], features: [VectorTileFeature]) {
        self.name = name; self.version = version; self.extent = extent
        self.keys = keys; self.values = values; self.features = features
    }

    /// The feature's properties in tag order (§4.4), as the GeoJSON/style value type.
    public func properties(of feature: VectorTileFeature) -> PropertyMap {
        var entries: [(key: String, value: PropertyValue)] = []
        entries.reserveCapacity(feature.tags.count / 2)
        var i = 0
        while i + 1 < feature.tags.count {
            entries.append((keys[Int(feature.tags[i])], values[Int(feature.tags[i + 1])].propertyValue))
            i += 2
        }
        return PropertyMap(entries)
    }
}

/// A property value (§4.1 "Value"): exactly one of the seven protobuf value types.
public enum VectorTileValue: Hashable, Sendable {
    case string(String)
    case float(Float)
    case double(Double)
    case int(Int64)
    case uint(UInt64)
    case sint(Int64)
    case bool(Bool)

    /// The value as a style/GeoJSON value. Integers become doubles (exact up to 2^53). A `float`
    /// becomes the double nearest to its shortest decimal form (3.1 as a float reads as 3.1, not
    /// 3.0999999046325684), which is what the encoder's author wrote.
    public var propertyValue: PropertyValue {
        switch self {
        case .string(let s): return .string(s)
        case .float(let f): return .number(f.isFinite ? (Double(f.description) ?? Double(f)) : Double(f))
        case .double(let d): return .number(d)
        case .int(let i), .sint(let i): return .number(Double(i))
        case .uint(let u): return .number(Double(u))
        case .bool(let b): return .bool(b)
        }
    }
}

/// The geometry type of a feature (§4.3.4, `GeomType`).
public enum VectorTileGeometryType: UInt8, Sendable {
    case unknown = 0
    case point = 1
    case lineString = 2
    case polygon = 3
}

/// One feature (§4.2): optional id, type, tags (pairs of indexes into the layer's keys and
/// values, checked in range) and the decoded geometry.
public struct VectorTileFeature: Sendable {
    public var id: UInt64?
    public var type: VectorTileGeometryType
    /// Key index, value index, key index, value index… (already checked against the layer tables).
    public var tags: [UInt32]
    public var geometry: TileGeometry
    /// The encoded geometry commands as stored (§4.3), only when the decoder was asked to keep
    /// them (`VectorTileDecoder.Options.keepsRawGeometry`); otherwise empty.
    public var rawGeometry: [UInt32]

    public init(id: UInt64? = nil, type: VectorTileGeometryType, tags: [UInt32] = [], geometry: TileGeometry, rawGeometry: [UInt32] = []) {
        self.id = id; self.type = type; self.tags = tags; self.geometry = geometry; self.rawGeometry = rawGeometry
    }
}

/// A vertex in tile coordinates (x right, y down, 0…extent inside the tile). Parameters are
/// accumulated with wrapping 32-bit arithmetic, as the spec's integer encoding implies.
public struct TilePoint: Hashable, Sendable {
    public var x: Int32
    public var y: Int32
    public init(x: Int32, y: Int32) { self.x = x; self.y = y }
}

/// A feature's vertices in tile coordinates, flat, with index tables — no nested arrays, so a
/// renderer can project it in one pass.
///
/// - Point features: every vertex is one point (a multi-point when there are several).
/// - LineString features: part i (a line) is `points[partStarts[i] ..< partStarts[i + 1]]`.
/// - Polygon features: parts are rings (not closed: the first vertex is not repeated); polygon j
///   is parts `polygonStarts[j] ..< polygonStarts[j + 1]`, its first ring the exterior, the rest
///   its holes (§4.3.4.4, classified by signed area).
/// Both tables end with a sentinel (`points.count`, the number of parts).
public struct TileGeometry: Sendable, Equatable {
    public var points: [TilePoint]
    public var partStarts: [Int32]
    public var polygonStarts: [Int32]

    public init(points: [TilePoint] = [], partStarts: [Int32] = [0], polygonStarts: [Int32] = [0]) {
        self.points = points; self.partStarts = partStarts; self.polygonStarts = polygonStarts
    }

    public var partCount: Int { partStarts.count - 1 }
    public var polygonCount: Int { polygonStarts.count - 1 }

    /// The vertices of part `i`.
    public func part(_ i: Int) -> ArraySlice<TilePoint> { points[Int(partStarts[i])..<Int(partStarts[i + 1])] }
}

/// Tile coordinates of one tile → unit Web Mercator (0…1, y south; `WebMercator`'s unit space)
/// and → longitude/latitude.
public struct TileProjection: Sendable {
    public let tile: TileID
    public let extent: Int
    /// Unit size of one tile unit (1 / (extent · 2^z)) and the tile's unit origin.
    public let scale: Double
    public let originX: Double
    public let originY: Double

    public init(tile: TileID, extent: Int) {
        self.tile = tile; self.extent = extent
        let n = Double(1 << tile.z)
        scale = 1 / (Double(extent) * n)
        originX = Double(tile.x) / n
        originY = Double(tile.y) / n
    }

    /// Unit Web Mercator of a tile-coordinate vertex.
    @inlinable
    public func unit(_ p: TilePoint) -> (x: Double, y: Double) {
        (originX + Double(p.x) * scale, originY + Double(p.y) * scale)
    }

    /// Longitude and latitude in degrees (spherical Mercator inverse; longitude not wrapped).
    public func coordinate(_ p: TilePoint) -> LocationCoordinate2D {
        let u = unit(p)
        return LocationCoordinate2D(latitude: WebMercator.latitude(unitY: u.y), longitude: WebMercator.longitude(unitX: u.x))
    }
}
