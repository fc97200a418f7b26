import FlybyCore
@testable import FlybyRender
import Testing

/// The order features are drawn and placed in, and the per-frame reuse of R-tree hits.
@Suite struct FeatureOrderTests {
    /// Bucketing by a few distinct keys gives exactly the comparison sort (key, then feature).
    @Test(arguments: [1, 3, 16, 17, 32, 33, 40])
    func sortingByKeyMatchesTheComparisonSort(distinctKeys: Int) {
        var rng = SplitMix64(seed: UInt64(distinctKeys))
        var order: [(key: Double, feature: Int32)] = (0..<500).map { f in
            (key: Double(rng.next() % UInt64(distinctKeys)) * 0.5 - 3, feature: Int32(f))
        }
        let expected = order.sorted { $0.key != $1.key ? $0.key < $1.key : $0.feature < $1.feature }
        var scratch: [(key: Double, feature: Int32)] = []
        MapRenderer.sortByKey(&order, scratch: &scratch)
        #expect(order.map(\.feature) == expected.map(\.feature))
        #expect(order.map(\.key) == expected.map(\.key))
    }

    /// Line items grouped by paint (sort key, width, colour) by counting come out exactly as the
    /// comparison sort orders them (paint, then position), also past the counting limit.
    @Test(arguments: [1, 2, 7, 32, 33, 90])
    func groupingLinesByPaintMatchesTheComparisonSort(distinctPaints: Int) {
        var rng = SplitMix64(seed: UInt64(distinctPaints) &+ 99)
        let paints = (0..<distinctPaints).map { _ in
            (key: Double(rng.next() % 3), width: Double(rng.next() % 5) * 0.25 + 1, color: UInt32(truncatingIfNeeded: rng.next() % 4) &* 0x1111_1111)
        }
        var items = (0..<400).map { k in
            let p = paints[Int(rng.next() % UInt64(distinctPaints))]
            return LineItem(key: p.key, paint: LinePaint(color: .transparent, width: p.width), color: p.color, position: Int32(k), feature: Int32(k))
        }
        let expected = items.sorted { a, b in a.paintOrder != b.paintOrder ? a.paintOrder < b.paintOrder : a.position < b.position }
        var scratch: [LineItem] = []
        let counted = FewKeySort.sort(&items, scratch: &scratch, key: \.paintOrder)
        let distinct = Set(expected.map { "\($0.key) \($0.paint.width) \($0.color)" }).count
        #expect(counted == (distinct <= FewKeySort.keyLimit))
        if counted {
            #expect(items.map(\.position) == expected.map(\.position))
        } else {
            #expect(items.map(\.position) == Array(0..<400), "left untouched past the limit")
        }
    }

    /// A renderer that drew other cameras (its R-tree hits reused across layers within a frame)
    /// draws a camera exactly as a fresh renderer does.
    @Test func reusedHitsNeverLeakIntoTheNextFrame() throws {
        let helsinki = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9445)
        let a = CameraState(center: helsinki, zoom: 15.2, bearing: 20, pitch: 50)
        let b = CameraState(center: LocationCoordinate2D(latitude: 60.175, longitude: 24.93), zoom: 16)
        var used = try MapRenderer(style: sharedCityStyle, width: 320, height: 200)
        var frame = PixelBuffer(width: 320, height: 200)
        for camera in [a, b, b, a] { used.render(camera: camera, into: &frame) }
        var fresh = try MapRenderer(style: sharedCityStyle, width: 320, height: 200)
        var reference = PixelBuffer(width: 320, height: 200)
        fresh.render(camera: a, into: &reference)
        #expect(frame.pixels == reference.pixels)
        #expect(used.placedSymbolBoxes.map(\.text) == fresh.placedSymbolBoxes.map(\.text))
    }
}
