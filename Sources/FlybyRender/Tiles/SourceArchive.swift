import FlybyCore
import FlybyData
import FlybyTiles

/// A style source's tile archive, opened, with the zoom range and attribution the source uses
/// (the part ``VectorTileSet`` and ``RasterTileSet`` share).
///
/// The zoom range is the style's `minzoom`/`maxzoom` (Style Specification, sources), else the
/// archive's own (PMTiles header, MBTiles `metadata`), else 0 and `defaultMaxZoom`; `maxZoom` is
/// at least `minZoom` and at most ``TileID/maximumZoom``.
struct SourceArchive {
    let archive: any TileArchive
    let minZoom: Int
    let maxZoom: Int
    /// The archive metadata's `attribution`.
    let attribution: String?

    /// Opens the archive at `path` and reads its header and metadata.
    /// - Throws: ``InputError`` naming `path` when it cannot be opened or read.
    init(path: String, minZoom: Int?, maxZoom: Int?, defaultMaxZoom: Int) throws(InputError) {
        let info: TileArchiveInfo
        do throws(TileError) {
            archive = try TileArchives.open(path)
            info = try archive.info()
        } catch {
            throw InputError(file: path, message: error.message)
        }
        self.minZoom = max(0, minZoom ?? info.minZoom ?? 0)
        self.maxZoom = min(TileID.maximumZoom, max(self.minZoom, maxZoom ?? info.maxZoom ?? defaultMaxZoom))
        attribution = info.metadata?["attribution"]?.stringValue
    }
}
