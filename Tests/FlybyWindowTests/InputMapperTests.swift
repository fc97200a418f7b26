import FlybyCore
import FlybyWindow
import Testing

private func p(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x, y: y) }

@Suite struct InputMapperTests {
    @Test func leftDragPansFromThePressPointAfterTheClickTolerance() {
        var m = InputMapper()
        #expect(m.map(.mouseDown(.left, at: p(100, 100), clicks: 1, modifiers: [])) == [])
        #expect(m.map(.mouseMoved(to: p(101, 101))) == [], "within the 3 px click tolerance")
        #expect(m.map(.mouseMoved(to: p(110, 100))) == [.panBegan(p(100, 100)), .panChanged(p(110, 100))])
        #expect(m.map(.mouseMoved(to: p(400, 100))) == [.panChanged(p(400, 100))])
        #expect(m.map(.mouseUp(.left, at: p(400, 100))) == [.panEnded])
        #expect(m.map(.mouseMoved(to: p(500, 100))) == [.hover(at: p(500, 100))], "no drag after release, only hovering")
    }

    @Test func clickWithoutMovementIsAClickNotAPan() {
        var m = InputMapper()
        _ = m.map(.mouseDown(.left, at: p(10, 10), clicks: 1, modifiers: []))
        #expect(m.map(.mouseMoved(to: p(11, 12))) == [])
        #expect(m.map(.mouseUp(.left, at: p(11, 12))) == [.click(at: p(10, 10))])
        _ = m.map(.mouseDown(.right, at: p(10, 10), clicks: 1, modifiers: []))
        #expect(m.map(.mouseUp(.right, at: p(10, 10))) == [.clearFeatures], "a right click clears the feature states")
    }

    @Test func pointerMotionWithoutAButtonHovers() {
        var m = InputMapper()
        #expect(m.map(.mouseMoved(to: p(40, 50))) == [.hover(at: p(40, 50))])
        _ = m.map(.mouseDown(.left, at: p(40, 50), clicks: 1, modifiers: []))
        #expect(m.map(.mouseMoved(to: p(41, 50))) == [], "a held button does not hover")
        #expect(m.map(.pointerLeft) == [], "nor does leaving the window in a drag")
        _ = m.map(.mouseUp(.left, at: p(41, 50)))
        #expect(m.map(.pointerLeft) == [.hover(at: nil)], "leaving the window ends the hover")
    }

    @Test func aLeftPressHeldHalfASecondIsALongPressThatClears() {
        var m = InputMapper()
        #expect(m.map(.mouseDown(.left, at: p(100, 100), clicks: 1, modifiers: []), time: 10) == [])
        #expect(m.longPressDeadline == 10.5)
        #expect(m.map(.mouseMoved(to: p(102, 101)), time: 10.2) == [], "within the click tolerance")
        #expect(m.update(time: 10.49) == [])
        #expect(m.update(time: 10.5) == [.clearFeatures])
        #expect(m.update(time: 10.6) == [], "once")
        #expect(m.map(.mouseMoved(to: p(150, 100)), time: 10.7) == [], "no pan after a long press")
        #expect(m.map(.mouseUp(.left, at: p(150, 100)), time: 10.8) == [], "and no click")
        #expect(m.map(.mouseMoved(to: p(160, 100)), time: 10.9) == [.hover(at: p(160, 100))])
    }

    @Test func aLongPressIsRecognisedAtTheReleaseWhenNoUpdateRanBetween() {
        var m = InputMapper()
        _ = m.map(.mouseDown(.left, at: p(100, 100), clicks: 1, modifiers: []), time: 0)
        #expect(m.map(.mouseUp(.left, at: p(101, 100)), time: 0.7) == [.clearFeatures])
        _ = m.map(.mouseDown(.left, at: p(100, 100), clicks: 1, modifiers: []), time: 1)
        #expect(m.map(.mouseUp(.left, at: p(100, 100)), time: 1.3) == [.click(at: p(100, 100))], "a short press is a click")
    }

    @Test func aDragIsNeitherAClickNorALongPress() {
        var m = InputMapper()
        _ = m.map(.mouseDown(.left, at: p(100, 100), clicks: 1, modifiers: []), time: 0)
        #expect(m.map(.mouseMoved(to: p(105, 100)), time: 0.1) == [.panBegan(p(100, 100)), .panChanged(p(105, 100))])
        #expect(m.longPressDeadline == nil)
        #expect(m.update(time: 1) == [])
        #expect(m.map(.mouseMoved(to: p(100, 100)), time: 1.1) == [.panChanged(p(100, 100))], "back at the start: still a drag")
        #expect(m.map(.mouseUp(.left, at: p(100, 100)), time: 1.2) == [.panEnded])
        // A ctrl+press rotates when dragged; held still it is not a long press.
        _ = m.map(.mouseDown(.left, at: p(100, 100), clicks: 1, modifiers: .control), time: 2)
        #expect(m.update(time: 3) == [])
    }

    @Test func aDoubleClickSelectsWithItsFirstClickAndZoomsWithItsSecond() {
        var m = InputMapper()
        _ = m.map(.mouseDown(.left, at: p(5, 6), clicks: 1, modifiers: []), time: 0)
        #expect(m.map(.mouseUp(.left, at: p(5, 6)), time: 0.05) == [.click(at: p(5, 6))])
        #expect(m.map(.mouseDown(.left, at: p(5, 6), clicks: 2, modifiers: []), time: 0.13) == [.doubleClick(at: p(5, 6), zoomOut: false)])
        #expect(m.update(time: 1) == [], "the second press is not a long press")
        #expect(m.map(.mouseUp(.left, at: p(5, 6)), time: 1.1) == [])
    }

    @Test func rightDragAndControlDragRotateAndPitch() {
        for (button, mods) in [(MouseButton.right, KeyModifiers()), (.left, KeyModifiers.control)] {
            var m = InputMapper()
            _ = m.map(.mouseDown(button, at: p(100, 100), clicks: 1, modifiers: mods))
            let a = m.map(.mouseMoved(to: p(150, 120)))
            #expect(a == [.rotatePitchBegan, .rotatePitchChanged(rotateDegrees: 40, pitchDegrees: -10)])
            #expect(m.map(.mouseMoved(to: p(90, 80))) == [.rotatePitchChanged(rotateDegrees: -8, pitchDegrees: 10)])
            #expect(m.map(.mouseUp(button, at: p(90, 80))) == [.rotatePitchEnded])
        }
    }

    @Test func doubleClickZoomsInAndShiftDoubleClickOut() {
        var m = InputMapper()
        #expect(m.map(.mouseDown(.left, at: p(5, 6), clicks: 2, modifiers: [])) == [.doubleClick(at: p(5, 6), zoomOut: false)])
        #expect(m.map(.mouseDown(.left, at: p(5, 6), clicks: 2, modifiers: .shift)) == [.doubleClick(at: p(5, 6), zoomOut: true)])
    }

    @Test func wheelNotchesAreWheelAndFractionsTrackpad() {
        var m = InputMapper()
        _ = m.map(.mouseMoved(to: p(300, 200)))
        #expect(m.map(.wheel(notches: 1, at: nil, modifiers: [])) == [.scroll(delta: 100, kind: .wheel, at: p(300, 200))])
        #expect(m.map(.wheel(notches: -2, at: p(1, 2), modifiers: [])) == [.scroll(delta: -200, kind: .wheel, at: p(1, 2))])
        #expect(m.map(.wheel(notches: 0.1, at: nil, modifiers: [])) == [.scroll(delta: 10, kind: .trackpad, at: p(1, 2))])
        #expect(m.map(.wheel(notches: 1, at: nil, modifiers: .shift)) == [.scroll(delta: 25, kind: .wheel, at: p(1, 2))])
        #expect(m.map(.wheel(notches: .nan, at: nil, modifiers: [])) == [])
    }

    @Test func keyBindings() {
        var m = InputMapper()
        func key(_ k: Key, _ mods: KeyModifiers = []) -> [WindowAction] { m.map(.keyDown(k, modifiers: mods, isRepeat: false)) }
        #expect(key(.left) == [.panBy(dx: -100, dy: 0)])
        #expect(key(.right) == [.panBy(dx: 100, dy: 0)])
        #expect(key(.up) == [.panBy(dx: 0, dy: -100)])
        #expect(key(.down) == [.panBy(dx: 0, dy: 100)])
        #expect(key(.left, .shift) == [.rotateBy(-15)])
        #expect(key(.right, .shift) == [.rotateBy(15)])
        #expect(key(.up, .shift) == [.pitchBy(10)])
        #expect(key(.down, .shift) == [.pitchBy(-10)])
        #expect(key(.character("+")) == [.zoomBy(1)])
        #expect(key(.character("="), .shift) == [.zoomBy(1)], "xdotool's 'plus' is shift+equal")
        #expect(key(.character("-")) == [.zoomBy(-1)])
        let letters: [(Character, WindowAction)] = [
            ("n", .northUp), ("f", .followPuck), ("t", .cycleTrack), ("o", .overview), ("i", .idle),
            ("[", .slower), ("]", .faster), ("l", .cycleLight), ("s", .switchStyle), ("r", .toggleRecording),
            ("p", .screenshot), ("h", .toggleHelp), ("d", .toggleHUD), ("q", .quit), ("Q", .quit),
        ]
        for (c, a) in letters { #expect(key(.character(c)) == [a], "key \(c)") }
        for n in 1...9 { #expect(key(.character(Character(String(n)))) == [.bookmark(n)]) }
        #expect(key(.character("0")) == [])
        #expect(key(.character("z")) == [])
        #expect(key(.space) == [.togglePause])
        #expect(key(.escape) == [.quit])
    }

    @Test func windowEvents() {
        var m = InputMapper()
        #expect(m.map(.quit) == [.quit])
        #expect(m.map(.resized(ScreenSize(width: 640, height: 480))) == [.resize(ScreenSize(width: 640, height: 480))])
    }
}

@Suite struct ScrollZoomTests {
    /// Runs ticks at 60 Hz until the zoom settles; returns the final zoom.
    func settle(_ s: inout ScrollZoom, zoom: Double, from t0: Double) -> Double {
        var z = zoom, t = t0
        for _ in 0..<120 {
            if let v = s.update(currentZoom: z, minZoom: 0, maxZoom: 22, time: t) { z = v }
            t += 1.0 / 60
        }
        return z
    }

    @Test func oneWheelNotchMatchesGLJS() {
        var s = ScrollZoom()
        s.scroll(delta: 100, kind: .wheel, at: ScreenPoint(x: 0, y: 0), time: 0)
        #expect(abs(settle(&s, zoom: 3, from: 0) - (3 + 0.151412)) < 1e-6)
        #expect(!s.isActive)
    }

    @Test func wheelEasesOver200MillisecondsMonotonically() {
        var s = ScrollZoom()
        s.scroll(delta: 120, kind: .wheel, at: ScreenPoint(x: 0, y: 0), time: 0)
        var z = 3.0, last = 3.0, steps = 0
        var t = 0.0
        while let v = s.update(currentZoom: z, minZoom: 0, maxZoom: 22, time: t) {
            #expect(v >= last - 1e-12)
            last = v; z = v; steps += 1; t += 1.0 / 60
            if steps > 100 { break }
        }
        #expect(abs(z - (3 + 0.179573)) < 1e-6)
        #expect(steps >= 11 && steps <= 14, "about 200 ms at 60 Hz, got \(steps)")
    }

    @Test func trackpadAppliesAtOnce() {
        var s = ScrollZoom()
        s.scroll(delta: 10, kind: .trackpad, at: ScreenPoint(x: 0, y: 0), time: 0)
        let z = s.update(currentZoom: 3, minZoom: 0, maxZoom: 22, time: 0)
        #expect(abs(z! - (3 + 0.070332)) < 1e-6)
        #expect(!s.isActive)
    }

    @Test func notchesInSuccessiveFramesAccumulateOnTheTarget() {
        var s = ScrollZoom()
        var z = 3.0
        for i in 0..<5 {
            let t = Double(i) / 60
            s.scroll(delta: 100, kind: .wheel, at: ScreenPoint(x: 0, y: 0), time: t)
            if let v = s.update(currentZoom: z, minZoom: 0, maxZoom: 22, time: t) { z = v }
        }
        #expect(abs(settle(&s, zoom: z, from: 5.0 / 60) - (3 + 5 * 0.151412)) < 1e-5)
    }

    @Test func zoomOutAndClamp() {
        var s = ScrollZoom()
        s.scroll(delta: -100, kind: .wheel, at: ScreenPoint(x: 0, y: 0), time: 0)
        #expect(abs(settle(&s, zoom: 3, from: 0) - (3 - 0.151412)) < 1e-6)
        var c = ScrollZoom()
        c.scroll(delta: 100, kind: .trackpad, at: ScreenPoint(x: 0, y: 0), time: 0)
        #expect(c.update(currentZoom: 21.9, minZoom: 0, maxZoom: 22, time: 0) == 22)
    }
}
