import FlybyCore
import FlybyData
@testable import FlybyTiles
import Testing

/// `tiles decode` keeps the text of each distinct longitude and latitude (``CoordinateText``):
/// the bytes must be exactly those of formatting every vertex, inside the kept window, outside
/// it, and across layers of different extents.
@Suite struct CoordinateTextTests {
    /// `[lng,lat]` of `p` formatted directly from the projection.
    static func direct(_ p: TilePoint, _ projection: TileProjection) -> [UInt8] {
        let c = projection.coordinate(p)
        var out: [UInt8] = [0x5B]
        JSONWriter.appendNumber(c.longitude, to: &out)
        out.append(0x2C)
        JSONWriter.appendNumber(c.latitude, to: &out)
        out.append(0x5D)
        return out
    }

    @Test func keptTextIsTheTextOfEachNumberInsideAndOutsideTheWindow() {
        let tile = TileID(z: 14, x: 8801, y: 5371)
        for extent in [4096, 512, 70_000] {
            let projection = TileProjection(tile: tile, extent: extent)
            var text = CoordinateText(projection)
            let values: [Int32] = [0, 1, -1, 17, 4095, 4096, 4097, Int32(extent), -Int32(extent), -Int32(extent) - 1,
                                   2 * Int32(extent) - 1, 2 * Int32(extent), 123_456, -2_000_000, .max, .min]
            // Twice each, so the second time comes from the kept text.
            for _ in 0..<2 {
                for x in values {
                    for y in values.reversed() {
                        let p = TilePoint(x: x, y: y)
                        var out: [UInt8] = []
                        text.append(p, to: &out)
                        #expect(out == Self.direct(p, projection), "extent \(extent), \(x), \(y)")
                    }
                }
            }
        }
    }

    @Test func aFeatureCollectionOfLayersWithDifferentExtentsIsFormattedPerLayer() throws {
        let tile = TileID(z: 3, x: 4, y: 2)
        func layer(_ name: String, extent: Int) -> VectorTileLayer {
            let points = [TilePoint(x: 10, y: 20), TilePoint(x: 300, y: 20), TilePoint(x: -50, y: 5000)]
            return VectorTileLayer(name: name, version: 2, extent: extent, keys: [], values: [],
                                   features: [VectorTileFeature(id: nil, type: .lineString,
                                                                geometry: TileGeometry(points: points, partStarts: [0, 3]))])
        }
        let bytes = TileGeoJSON.featureCollection(VectorTile(layers: [layer("a", extent: 4096), layer("b", extent: 512)]), id: tile)
        let text = String(decoding: bytes, as: UTF8.self)
        for (extent, x, y) in [(4096, 300, 20), (512, 300, 20), (512, -50, 5000)] {
            let expected = String(decoding: Self.direct(TilePoint(x: Int32(x), y: Int32(y)), TileProjection(tile: tile, extent: extent)), as: UTF8.self)
            #expect(text.contains(expected), "\(expected) missing from \(text)")
        }
    }
}
