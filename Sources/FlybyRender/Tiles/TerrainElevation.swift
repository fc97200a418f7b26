import FlybyCore
import FlybyData
import Synchronization

/// The ground's height under any coordinate, from a style's `terrain` (``StyleTerrain``): its
/// `raster-dem` source read at the source's deepest zoom, bilinear between the DEM's pixel
/// centres (across tile edges: each of the four pixels comes from its own tile), times
/// `exaggeration`. Metres above sea level.
///
/// Where the archive has no tile, or the four pixels are all "no data", there is no elevation
/// (nil, which the camera takes as sea level). A tile that cannot be read gives no elevation
/// either and is kept in ``firstError`` for the caller to report (the camera cannot throw in
/// the middle of a tick); `flyby trace` and `play` stop with it after the flight.
///
/// Thread-safe and deterministic: the tiles come from the source's shared ``RasterTileSet``,
/// whose caches never change a value.
public final class TerrainElevation: Sendable {
    public let tiles: RasterTileSet
    /// The zoom the DEM is read at (the source's `maxzoom`).
    public let zoom: Int
    public let exaggeration: Double
    private let error = Mutex<InputError?>(nil)

    public init(tiles: RasterTileSet, exaggeration: Double) {
        self.tiles = tiles
        self.zoom = tiles.maxZoom
        self.exaggeration = exaggeration
    }

    /// The first tile that could not be read while sampling (nil when none).
    public var firstError: InputError? { error.withLock { $0 } }

    /// The ground's height at `coordinate` in metres (exaggeration applied), nil where the DEM
    /// has no data.
    public func elevation(at coordinate: LocationCoordinate2D) -> Double? {
        var memo = TileMemo()
        return elevation(at: coordinate, memo: &memo)
    }

    /// The last DEM tile read, for a caller sampling many nearby points on one thread (the
    /// terrain mesh): the same heights, without asking the shared cache for every pixel.
    struct TileMemo {
        var id: TileID?
        var tile: ElevationTile?
        /// When ``tile`` is a tile of the DEM's size: its heights (valid while the memo holds
        /// it), and its first pixel's column and row in the world's DEM pixels.
        var heights: UnsafePointer<Float>?
        var originX = 0, originY = 0
    }

    /// ``elevation(at:)`` reading tiles through `memo`.
    func elevation(at coordinate: LocationCoordinate2D, memo: inout TileMemo) -> Double? {
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite else { return nil }
        let lat = min(max(coordinate.latitude, -WebMercator.maxLatitude), WebMercator.maxLatitude)
        var ux = WebMercator.unitX(longitude: coordinate.longitude)
        ux -= ux.rounded(.down)
        let uy = WebMercator.unitY(latitude: lat)
        guard let n = demSize(unitX: ux, unitY: uy) else { return nil }
        let side = (1 << zoom) * n                                      // DEM pixels around the world
        let px = ux * Double(side) - 0.5, py = uy * Double(side) - 0.5  // pixel centres at .5
        let x0 = px.rounded(.down), y0 = py.rounded(.down)
        let fx = px - x0, fy = py - y0
        var sum = 0.0, weight = 0.0
        // When the four pixels lie inside the memo's tile (most points of a mesh) they are read
        // directly: no wrap or clamp applies inside a tile, and the memo stays as it is.
        let lx = Int(x0) - memo.originX, ly = Int(y0) - memo.originY
        let inside = memo.heights.map { _ in lx >= 0 && ly >= 0 && lx + 1 < n && ly + 1 < n } ?? false
        for corner in 0..<4 {
            let dx = corner & 1, dy = corner >> 1   // (0, 0), (1, 0), (0, 1), (1, 1)
            let w = (dx == 0 ? 1 - fx : fx) * (dy == 0 ? 1 - fy : fy)
            guard w > 0 else { continue }
            let h: Double?
            if inside, let heights = memo.heights {
                let v = heights[(ly + dy) * n + lx + dx]
                h = v.isNaN ? nil : Double(v)
            } else {
                h = height(x: Int(x0) + dx, y: Int(y0) + dy, n: n, side: side, memo: &memo)
            }
            guard let h else { continue }
            sum += w * h
            weight += w
        }
        guard weight > 0 else { return nil }
        return sum / weight * exaggeration
    }

    /// The camera's terrain (`FlybyCore.Terrain`) over this DEM.
    public func terrain(clearance: Double = 50) -> Terrain {
        Terrain(clearance: clearance) { [self] c in elevation(at: c) }
    }

    /// The DEM tiles' pixel size: known once any tile of the source is decoded (every tile of a
    /// source has the same size), else learnt from the tile under (`unitX`, `unitY`).
    private func demSize(unitX: Double, unitY: Double) -> Int? {
        if let known = tiles.demPixelSize { return known }
        let count = Double(1 << zoom)
        let id = TileID(z: zoom, x: min(Int(unitX * count), (1 << zoom) - 1), y: min(max(Int(unitY * count), 0), (1 << zoom) - 1))
        do throws(InputError) {
            return try tiles.elevation(id)?.size
        } catch let e {
            error.withLock { if $0 == nil { $0 = e } }
            return nil
        }
    }

    /// The height of DEM pixel (`x`, `y`) of the world at ``zoom`` (x wraps, y clamps), nil for
    /// no data or no tile.
    private func height(x: Int, y: Int, n: Int, side: Int, memo: inout TileMemo) -> Double? {
        let x = ((x % side) + side) % side, y = min(max(y, 0), side - 1)
        let id = TileID(z: zoom, x: x / n, y: y / n)
        let tile: ElevationTile?
        if memo.id == id {
            tile = memo.tile
        } else {
            do throws(InputError) {
                tile = try tiles.elevation(id)
            } catch let e {
                error.withLock { if $0 == nil { $0 = e } }
                return nil
            }
            memo = TileMemo(id: id, tile: tile)
            if let tile, tile.size == n {
                memo.heights = tile.heights
                memo.originX = id.x * n; memo.originY = id.y * n
            }
        }
        guard let tile, tile.size == n else { return nil }
        let h = tile.heights[(y % n) * n + x % n]
        return h.isNaN ? nil : Double(h)
    }
}
