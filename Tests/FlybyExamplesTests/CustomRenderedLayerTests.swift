import FlybyCore
import FlybyExamples
import FlybyMaps
import FlybyRender
import Testing

@Suite struct CustomRenderedLayerTests {
    @Test func customLayerSitsBetweenItsTwoStyleLayers() throws {
        let r = try CustomRenderedLayerExample.run()
        let k = try #require(r.layerIds.firstIndex(of: "heat"))
        #expect(r.layerIds[k - 1] == "waterway")
        #expect(r.layerIds[k + 1] == CustomRenderedLayerExample.upperLayer)
    }

    /// Inside the triangle: where only land use, water or the background is drawn, the custom
    /// pixels show (above the lower layers); where a building covers the point, the frame is as it
    /// was without the custom layer (under the upper layer).
    @Test func pixelsAppearAboveTheLowerLayersAndUnderTheBuildings() throws {
        let r = try CustomRenderedLayerExample.run()
        let map = r.mapView.mapboxMap
        let corners = CustomRenderedLayerExample.triangle.compactMap { map.point(for: $0) }
        #expect(corners.count == 3)
        var shown = 0, hidden = 0, uncoveredTotal = 0, buildingTotal = 0
        for y in stride(from: 0, to: 400, by: 4) {
            for x in stride(from: 0, to: 640, by: 4) {
                let p = ScreenPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                guard inside(p, corners) else { continue }
                let hits = map.queryRenderedFeatures(with: ScreenRect(center: p, size: ScreenSize(width: 8, height: 8)))
                let upper = Set(["buildings", "road-path", "road-casing", "road", "rail", "tram", "waterway"])
                let changed = r.snapshot.pixel(x: x, y: y) != r.baseline.pixel(x: x, y: y)
                if hits.allSatisfy({ !upper.contains($0.layerID) }) {
                    uncoveredTotal += 1
                    if changed { shown += 1 }
                } else if hits.first?.layerID == "buildings",
                          // The box query is exact, so a building that only meets the box edge is
                          // in `hits`: ask whether one building covers the point and the box's
                          // corners (away from its anti-aliased edge).
                          coveredByOneBuilding(p, map),
                          hits.count == 1 || hits.allSatisfy({ $0.layerID == "buildings" || $0.layerID == "landuse" || $0.layerID == "water" }) {
                    buildingTotal += 1
                    if !changed { hidden += 1 }
                }
            }
        }
        #expect(uncoveredTotal > 20)
        #expect(buildingTotal > 20)
        #expect(shown == uncoveredTotal)
        #expect(Double(hidden) >= 0.95 * Double(buildingTotal))
    }

    /// True when the same single building is drawn at `p` and at the corners of the 8 × 8 box around it.
    func coveredByOneBuilding(_ p: ScreenPoint, _ map: MapboxMap) -> Bool {
        let buildings = RenderedQueryOptions(layerIds: ["buildings"], filter: nil)
        let atCentre = map.queryRenderedFeatures(with: p, options: buildings)
        guard atCentre.count == 1 else { return false }
        return [(-4.0, -4.0), (4, -4), (-4, 4), (4, 4)].allSatisfy { dx, dy in
            map.queryRenderedFeatures(with: ScreenPoint(x: p.x + dx, y: p.y + dy), options: buildings).map(\.featureIndex) == [atCentre[0].featureIndex]
        }
    }

    func inside(_ p: ScreenPoint, _ t: [ScreenPoint]) -> Bool {
        func side(_ a: ScreenPoint, _ b: ScreenPoint) -> Double { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) }
        let s = [side(t[0], t[1]), side(t[1], t[2]), side(t[2], t[0])]
        return s.allSatisfy { $0 > 0 } || s.allSatisfy { $0 < 0 }
    }
}
