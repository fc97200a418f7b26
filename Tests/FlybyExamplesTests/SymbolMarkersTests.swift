import FlybyCore
import FlybyExamples
import FlybyMaps
import FlybyRender
import Testing

@Suite struct SymbolMarkersTests {
    @Test func overlappingIconIsHiddenWhenOverlapIsNotAllowed() throws {
        let r = try SymbolMarkersExample.run()
        #expect(r.placedIcons.count == SymbolMarkersExample.markers.count - 1)
        for (k, a) in r.placedIcons.enumerated() {
            for b in r.placedIcons[(k + 1)...] { #expect(!a.overlaps(b)) }
        }
    }

    @Test func iconsSitWithTheirBottomOnThePointMovedByTheOffset() throws {
        let r = try SymbolMarkersExample.run()
        let station = try #require(r.markerPoints["station"])
        let box = try #require(r.placedIcons.first { $0.minX < station.x && station.x < $0.maxX && $0.minY < station.y })
        // Icon padding is 2 points on each side; the offset moves the icon 2 points up.
        let padding = 2.0
        #expect(abs((box.maxY - padding) - (station.y + SymbolMarkersExample.iconOffset[1])) < 0.01)
        #expect(box.maxY - box.minY - 2 * padding > 30)  // the pin, not the 24-px arrow
    }

    @Test func matchExpressionsChooseTheImageAndTheRotation() throws {
        let r = try SymbolMarkersExample.run()
        let market = try #require(r.markerPoints["market"])
        let box = try #require(r.placedIcons.first { $0.minX < market.x && market.x < $0.maxX && $0.maxY > market.y - 40 && $0.minY < market.y })
        // A 24-px arrow turned 45° has a square bounding box of 24·√2 ≈ 33.9 px (plus padding).
        let w = box.maxX - box.minX - 4, h = box.maxY - box.minY - 4
        #expect(abs(w - 24 * 2.0.squareRoot()) < 0.5)
        #expect(abs(w - h) < 0.01)
        // The pixels there are the arrow's orange.
        var orange = 0
        for y in Int(box.minY)..<Int(box.maxY) {
            for x in Int(box.minX)..<Int(box.maxX) {
                let c = r.snapshot.color(x: x, y: y)
                if c.red > 200 && c.green > 50 && c.green < 110 && c.blue < 60 { orange += 1 }
            }
        }
        #expect(orange > 50)
    }
}
