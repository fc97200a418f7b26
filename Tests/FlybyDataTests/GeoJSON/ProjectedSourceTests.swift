import FlybyCore
import FlybyData
import FlybyTestSupport
import Foundation
import Testing

@Suite struct ProjectedSourceTests {
    @Test func mercatorProjection() {
        #expect(WebMercator.unitX(longitude: -180) == 0)
        #expect(WebMercator.unitX(longitude: 0) == 0.5)
        #expect(abs(WebMercator.unitY(latitude: 0) - 0.5) < 1e-15)
        #expect(abs(WebMercator.unitY(latitude: 85.051129)) < 1e-8)
        #expect(WebMercator.unitY(latitude: 90) == WebMercator.unitY(latitude: 85.051129))
        #expect(abs(WebMercator.unitY(latitude: -85.051129) - 1) < 1e-8)
    }

    @Test func indexQueryMatchesBruteForce() throws {
        let source = ProjectedSource(try BuiltinData.geoJSON("world/ne_50m_admin0_countries.geojson"))
        var rng = SplitMix64(seed: 42)
        var out: [Int32] = []
        for _ in 0..<300 {
            let x = rng.unit() * 1.2 - 0.1, y = rng.unit()
            let w = rng.unit() * 0.3, h = rng.unit() * 0.3
            let box = MercatorBox(minX: x, minY: y, maxX: x + w, maxY: y + h)
            out.removeAll(keepingCapacity: true)
            source.query(box, into: &out)
            let expected = source.bounds.indices.filter { source.bounds[$0].intersects(box) }.map(Int32.init)
            #expect(out == expected)
        }
        out.removeAll()
        source.query(MercatorBox(minX: 0, minY: 0, maxX: 1, maxY: 1), into: &out)
        #expect(out.count == 241)
        #expect(out == Array(0..<241), "many hits are ordered through a bitmap")
        // Hits are appended after what `out` already holds, which stays as it was.
        out = [7, 3]
        source.query(MercatorBox(minX: 0, minY: 0, maxX: 1, maxY: 1), into: &out)
        #expect(out == [7, 3] + Array(0..<241))
    }

    @Test func simplificationReducesVerticesAndKeepsRingsFillable() throws {
        let source = ProjectedSource(try BuiltinData.geoJSON("world/ne_50m_admin0_countries.geojson"))
        let full = source.levels[source.levels.count - 1]
        let world = source.level(forZoom: 0)
        #expect(source.levels.count > 2)
        #expect(world.pointCount * 10 < full.pointCount, "\(world.pointCount) of \(full.pointCount)")
        var previous = 0
        for level in source.levels {
            #expect(level.pointCount > previous)
            previous = level.pointCount
            for r in 0..<level.ringCount where level.ringFlags[r] & RingFlags.polygon != 0 {
                #expect(level.points(ofRing: r).count >= 3)
            }
            for f in 0..<source.features.count {
                // Countries with a ring wider than a pixel at zoom 0 keep a ring at every level.
                var widest = 0.0
                for r in full.rings(ofFeature: f) {
                    var b = MercatorBox.empty
                    for k in full.points(ofRing: r) { b.include(x: full.xy[2 * k], y: full.xy[2 * k + 1]) }
                    widest = max(widest, b.maxX - b.minX, b.maxY - b.minY)
                }
                if widest > 1.0 / 512 { #expect(level.rings(ofFeature: f).count > 0) }
            }
        }
        // Every simplified vertex is a vertex of the full geometry, within the level's tolerance
        // of the full ring (checked on Finland's border with Russia: shared vertices stay shared).
        let fin = try #require(source.features.firstIndex { $0.properties["iso_a3"] == .string("FIN") })
        let rus = try #require(source.features.firstIndex { $0.properties["iso_a3"] == .string("RUS") })
        for level in source.levels.dropLast() {
            let a = Set(vertices(level, fin)), b = Set(vertices(level, rus))
            let fullShared = Set(vertices(full, fin)).intersection(Set(vertices(full, rus)))
            // Shared border vertices kept on one side are kept on the other.
            let keptA = a.intersection(fullShared), keptB = b.intersection(fullShared)
            #expect(keptA == keptB, "level \(level.zoom): \(keptA.symmetricDifference(keptB).count) differ")
        }
    }

    @Test func queryAtZoomDropsVanishedFeatures() throws {
        let source = ProjectedSource(try BuiltinData.geoJSON("world/ne_50m_lakes.geojson"))
        var atZero: [Int32] = [], atTen: [Int32] = []
        let all = MercatorBox(minX: 0, minY: 0, maxX: 1, maxY: 1)
        source.query(all, zoom: 0, into: &atZero)
        source.query(all, zoom: 10, into: &atTen)
        #expect(atTen.count == 405)
        #expect(atZero.count < atTen.count)
    }

    @Test func loadTimeOf50mCountries() throws {
        // Timing figure for the report (release build: swift test -c release --filter loadTime).
        let path = try #require(BuiltinData.path("world/ne_50m_admin0_countries.geojson"))
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        var parse: [Double] = [], project: [Double] = []
        for _ in 0..<7 {
            let t0 = ContinuousClock.now
            let fc = try GeoJSON.parse(bytes, file: path)
            let t1 = ContinuousClock.now
            let s = ProjectedSource(fc)
            let t2 = ContinuousClock.now
            #expect(s.features.count == 241)
            parse.append((t1 - t0) / .milliseconds(1))
            project.append((t2 - t1) / .milliseconds(1))
        }
        parse.sort(); project.sort()
        print("geojson.ne_50m_countries.parse_median_ms: \(parse[3])")
        print("geojson.ne_50m_countries.project_index_simplify_median_ms: \(project[3])")
        let s = ProjectedSource(try GeoJSON.parse(bytes, file: path))
        print("geojson.ne_50m_countries.level_points: " + s.levels.map { "z\($0.zoom)=\($0.pointCount)" }.joined(separator: " "))
    }

    private func vertices(_ level: GeometryLevel, _ f: Int) -> [SIMD2<Double>] {
        var out: [SIMD2<Double>] = []
        for r in level.rings(ofFeature: f) {
            for k in level.points(ofRing: r) { out.append(SIMD2(level.xy[2 * k], level.xy[2 * k + 1])) }
        }
        return out
    }
}


