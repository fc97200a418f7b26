import FlybyCore
import FlybyData
@testable import FlybyRender
import FlybyTestSupport
@testable import FlybyWindow
import Foundation
import Testing

private let finland = FeatureRef(source: "countries-50m", id: .string("FIN"), name: "Finland")
private let sweden = FeatureRef(source: "countries-50m", id: .string("SWE"), name: "Sweden")
private let here = LocationCoordinate2D(latitude: 62, longitude: 26)

private func hit(_ layer: String, _ id: PropertyValue?, name: String? = nil) -> QueriedFeature {
    QueriedFeature(layerID: layer, sourceID: "countries-50m", featureIndex: 0, featureID: id,
                   properties: PropertyMap(name.map { [("name", PropertyValue.string($0))] } ?? []))
}

@Suite struct FeatureInteractionTests {
    @Test func aClickSelectsAndTheNextClickMovesTheSelection() {
        var f = FeatureInteraction()
        #expect(f.select(finland, at: here) == [.set(key: "select", on: true, finland)])
        #expect(f.selected == finland)
        #expect(f.callout == Callout(text: "Finland", anchor: here))
        #expect(f.select(sweden, at: here) == [.set(key: "select", on: false, finland), .set(key: "select", on: true, sweden)])
        #expect(f.select(sweden, at: LocationCoordinate2D(latitude: 60, longitude: 15)) == [], "the same feature again changes no state")
        #expect(f.callout?.anchor == LocationCoordinate2D(latitude: 60, longitude: 15), "but the callout moves to the new click")
    }

    @Test func aClickOnNothingDeselectsAndDropsTheCallout() {
        var f = FeatureInteraction()
        _ = f.select(finland, at: here)
        #expect(f.select(nil, at: here) == [.set(key: "select", on: false, finland)])
        #expect(f.selected == nil && f.callout == nil)
    }

    @Test func hoverMarksOneFeatureAtATime() {
        var f = FeatureInteraction()
        #expect(f.hover(finland) == [.set(key: "hover", on: true, finland)])
        #expect(f.hover(finland) == [], "moving within the feature changes nothing")
        #expect(f.hover(sweden) == [.set(key: "hover", on: false, finland), .set(key: "hover", on: true, sweden)])
        #expect(f.hover(nil) == [.set(key: "hover", on: false, sweden)])
    }

    @Test func clearDropsEveryStateAndTheCallout() {
        var f = FeatureInteraction()
        _ = f.select(finland, at: here)
        _ = f.hover(sweden)
        #expect(f.clear() == [.removeAll])
        #expect(f.selected == nil && f.hovered == nil && f.callout == nil)
        #expect(f.select(finland, at: here) == [.set(key: "select", on: true, finland)], "selectable again after a clear")
    }

    @Test func traceEventsNameTheStyleSourceAndId() {
        #expect(FeatureStateChange.set(key: "select", on: true, finland).event(style: "world") == "select world/countries-50m/FIN")
        #expect(FeatureStateChange.set(key: "select", on: false, finland).event(style: "world") == "deselect world/countries-50m/FIN")
        #expect(FeatureStateChange.set(key: "hover", on: true, finland).event(style: "world") == "hover world/countries-50m/FIN")
        #expect(FeatureStateChange.set(key: "hover", on: false, finland).event(style: "world") == "unhover world/countries-50m/FIN")
        let building = FeatureRef(source: "buildings", id: .number(123), name: "buildings 123")
        #expect(FeatureStateChange.set(key: "select", on: true, building).event(style: "city") == "select city/buildings/123")
        #expect(FeatureStateChange.removeAll.event(style: "city") == "clear feature states")
    }

    @Test func aClickPicksTheFeatureUnderThePointerOverABorderNearIt() {
        let hits = [hit("borders-50m", .string("SWE"), name: "Sweden"), hit("countries-50m", .string("FIN"), name: "Finland")]
        #expect(FeatureInteraction.pick(hits, isLine: { $0.hasPrefix("borders") }) == finland)
        #expect(FeatureInteraction.pick([hits[0]], isLine: { $0.hasPrefix("borders") }) == sweden, "a line alone still picks")
        #expect(FeatureInteraction.pick([hit("countries-50m", nil)], isLine: { _ in false }) == nil, "no feature-state id, nothing to select")
        #expect(FeatureInteraction.pick([hit("countries-50m", .number(7))], isLine: { _ in false })?.name == "countries-50m 7",
                "a feature without a name is named by its source and id")
    }
}

@Suite struct RotateInertiaTests {
    @Test func aTurnOf30DegreesIn100MillisecondsGlides13AndAHalfDegreesIn300Milliseconds() {
        // docs/research/maplibre-camera-algorithms.md §8: 30° in 100 ms → 90°/s, 300 ms, 13.5°.
        var r = RotateInertia()
        r.record(time: 1.0, bearing: 15, pitch: 0)
        r.record(time: 1.1, bearing: 15, pitch: 0)
        let g = r.release(time: 1.1)
        #expect(g != nil)
        expectClose(g?.bearing ?? 0, 13.5, 1e-9)
        expectClose(g?.duration ?? 0, 0.3, 1e-9)
        #expect(g?.pitch == 0)
    }

    @Test func aFastTurnIsCappedAndAReleaseAfterHoldingStillDoesNotGlide() {
        var r = RotateInertia()
        r.record(time: 0, bearing: -500, pitch: 10)
        r.record(time: 0.05, bearing: -500, pitch: 10)
        let g = r.release(time: 0.05)!
        expectClose(g.duration, 360 / 300, 1e-9, "bearing speed capped at 360°/s sets the longest duration")
        #expect(g.bearing == -179, "travel within ±179°")
        expectClose(g.pitch, 90 * 0.3 / 2, 1e-9, "pitch speed capped at 90°/s: 0.3 s, 13.5°")
        r.record(time: 0, bearing: 10, pitch: 0)
        r.record(time: 0.02, bearing: 10, pitch: 0)
        #expect(r.release(time: 0.2) == nil, "held still for 180 ms")
        r.record(time: 0, bearing: 10, pitch: 0)
        #expect(r.release(time: 0.01) == nil, "one sample is not a speed")
    }
}

@Suite struct FeatureHighlightTests {
    /// The built-in world style paints a selected country, a hovered one and a plain one
    /// differently (feature-state `select` and `hover`).
    @Test func theWorldStyleHighlightsSelectedAndHoveredCountries() throws {
        let hooks = try MapRendererHooks.mapRenderer(style: "world")
        let camera = CameraState(center: LocationCoordinate2D(latitude: 63.5, longitude: 27), zoom: 4)
        var frame = PixelBuffer(width: 200, height: 150)
        func colourAtCentre() -> UInt32 {
            hooks.draw(camera, nil, nil, &frame)
            return frame.pixels[75 * 200 + 100]
        }
        let plain = colourAtCentre()
        let hit = FeatureInteraction.pick(hooks.queryFeatures(ScreenPoint(x: 100, y: 75), camera), isLine: hooks.isLineLayer)
        let finland = try #require(hit)
        #expect(finland.id == .string("FIN") && finland.name == "Finland")
        hooks.applyFeatureState(.set(key: "hover", on: true, finland))
        let hovered = colourAtCentre()
        hooks.applyFeatureState(.set(key: "select", on: true, finland))
        let selected = colourAtCentre()
        hooks.applyFeatureState(.removeAll)
        #expect(plain != hovered && hovered != selected && plain != selected)
        #expect(colourAtCentre() == plain, "clearing restores the plain look")
    }

    /// The city style does the same for buildings (generated ids), in every light preset.
    @Test(arguments: ["city", "city:night"])
    func theCityStyleHighlightsSelectedAndHoveredBuildings(style: String) throws {
        let hooks = try MapRendererHooks.mapRenderer(style: style)
        let camera = CameraState(center: LocationCoordinate2D(latitude: 60.1699, longitude: 24.9384), zoom: 17)
        var frame = PixelBuffer(width: 200, height: 150)
        hooks.draw(camera, nil, nil, &frame)
        // The first grid point on a building.
        var found: (ScreenPoint, FeatureRef)?
        search: for y in stride(from: 15.0, to: 150, by: 10) {
            for x in stride(from: 15.0, to: 200, by: 10) {
                let q = ScreenPoint(x: x, y: y)
                if let f = FeatureInteraction.pick(hooks.queryFeatures(q, camera), isLine: hooks.isLineLayer) { found = (q, f); break search }
            }
        }
        let (point, building) = try #require(found)
        #expect(building.source == "buildings")
        func colour() -> UInt32 {
            hooks.draw(camera, nil, nil, &frame)
            return frame.pixels[Int(point.y) * 200 + Int(point.x)]
        }
        let plain = colour()
        hooks.applyFeatureState(.set(key: "hover", on: true, building))
        let hovered = colour()
        hooks.applyFeatureState(.set(key: "select", on: true, building))
        let selected = colour()
        #expect(plain != hovered && hovered != selected && plain != selected)
    }
}

@Suite struct CalloutTests {
    @Test func theCalloutSitsAboveItsTipOrBelowWhenThereIsNoRoomAndItsPointerTouchesTheTip() {
        let tip = ScreenPoint(x: 200, y: 150)
        let above = OverlayPainter.calloutOutline(x: 160, y: 110, width: 80, height: 30, tip: tip, above: true)
        #expect(above.contains(tip))
        #expect(above.filter { $0 != tip }.allSatisfy { $0.y <= 140 + 1e-9 }, "the box ends above the tip")
        let below = OverlayPainter.calloutOutline(x: 160, y: 160, width: 80, height: 30, tip: tip, above: false)
        #expect(below.contains(tip))
        #expect(below.filter { $0 != tip }.allSatisfy { $0.y >= 160 - 1e-9 }, "the box starts below the tip")
        let corner = OverlayPainter.calloutOutline(x: 2, y: 110, width: 80, height: 30, tip: ScreenPoint(x: 0, y: 150), above: true)
        let base = corner.filter { $0.y == 140 && $0.x < 20 }
        #expect(base.allSatisfy { $0.x >= 2 + 6 }, "the pointer's base stays off the rounded corner: \(base)")
    }
}

/// The window's map draws a flight's 3D puck (`location.puck3D`), not the 2D one.
@Suite struct WindowPuck3DTests {
    @Test func theWindowsMapDrawsTheFlightsModelPuck() throws {
        let here = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9445)
        let puck = PuckState(location: Location(coordinate: here, timestamp: 0, course: 45, horizontalAccuracy: 0))
        let camera = CameraState(center: here, zoom: 16, pitch: 50)
        let arrow = try GLTFModel.load(path: try #require(BuiltinData.path("models/arrow.glb")))
        func frame(_ hooks: MapRendererHooks) -> PixelBuffer {
            var b = PixelBuffer(width: 240, height: 160)
            hooks.draw(camera, puck, nil, &b)
            return b
        }
        let flat = frame(try .mapRenderer(style: "world"))
        let model = frame(try .mapRenderer(style: "world", puck3D: Puck3D(model: arrow)))
        let again = frame(try .mapRenderer(style: "world", puck3D: Puck3D(model: arrow)))
        #expect(model != flat, "the model puck is drawn instead of the 2D one")
        #expect(model == again)
    }
}

/// The window's frames are one sequence on the frame clock: a label that loses collision fades
/// out over `MapRenderer.fadeDuration` (0.3 s), as in `MapView` snapshots; a screenshot (time nil)
/// is drawn alone. The style is ``FadeFixture/collidingLabelsStyle``.
@Suite struct WindowLabelFadeTests {
    @Test func aLabelThatLosesCollisionFadesOutFrameByFrame() throws {
        try FadeFixture.withStyleFile { path in
            let apart = CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 1.75), zoom: 5)
            var colliding = apart
            colliding.zoom = 3
            var alone = PixelBuffer(width: 400, height: 100)
            try MapRendererHooks.mapRenderer(style: path).draw(colliding, nil, nil, &alone)
            let hooks = try MapRendererHooks.mapRenderer(style: path)
            var frame = PixelBuffer(width: 400, height: 100)
            hooks.draw(apart, nil, 0, &frame)
            var frames: [PixelBuffer] = []
            for k in 1...20 {
                hooks.draw(colliding, nil, Double(k) / 60, &frame)
                frames.append(frame)
            }
            #expect(frames[0].pixels != alone.pixels && frames[9].pixels != alone.pixels, "fading out")
            #expect(frames[19].pixels == alone.pixels, "gone after 0.3 s (18 frames at 60 fps)")
            hooks.draw(apart, nil, 1, &frame)
            hooks.draw(colliding, nil, nil, &frame)
            #expect(frame.pixels == alone.pixels, "a frame drawn alone does not fade")
        }
    }
}
