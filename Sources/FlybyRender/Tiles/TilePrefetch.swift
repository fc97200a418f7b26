import FlybyCore
import FlybyData

extension LoadedStyle {
    /// Reads and decodes, into each tiled source's cache (``VectorTileSet``), the tiles that a
    /// frame of `width` × `height` pixels seen by `camera` draws: the same cover the renderer
    /// computes (``TileCover/tiles(for:minZoom:maxZoom:tileSize:roundZoom:)``), without drawing.
    ///
    /// A flight calls this for frames ahead on a worker thread (``TilePrefetcher``), so the
    /// render threads find their tiles decoded; a benchmark calls it to time decoding apart from
    /// drawing. It never changes a pixel: a tile's pieces depend only on its bytes.
    /// - Returns: the tiles looked up (cached or not), over every tiled source.
    /// - Throws: the first tile that cannot be read or decoded (``InputError`` naming the archive
    ///   and z/x/y); the tiles before it stay cached.
    @discardableResult
    public func prefetchTiles(camera: CameraState, width: Int, height: Int) throws(InputError) -> Int {
        guard tileSets.contains(where: { $0 != nil }) else { return 0 }
        let transform = MapTransform(size: ScreenSize(width: Double(width), height: Double(height)), state: camera)
        var count = 0
        var seen = Set<ObjectIdentifier>()
        for case let set? in tileSets where seen.insert(ObjectIdentifier(set)).inserted {
            let cover = Set(TileCover.tiles(for: transform, minZoom: set.minZoom, maxZoom: set.maxZoom).map { TileID(z: $0.z, x: $0.x, y: $0.y) })
            for t in cover.sorted() {
                _ = try set.tile(t)
                count += 1
            }
        }
        return count
    }
}
