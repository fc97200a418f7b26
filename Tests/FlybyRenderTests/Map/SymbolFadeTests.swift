import FlybyCore
import FlybyData
@testable import FlybyRender
import Testing

/// Labels fading in and out over `fadeDuration` of simulation time in a frame sequence
/// (``MapRenderer/render(camera:puck:time:into:)``, ``SymbolHistory``).
@Suite struct SymbolFadeTests {
    /// Frames 0…4 at zoom 5 (the red label and the blue blocker apart), then zoom 3 (they
    /// collide; the blocker wins), at `fps`.
    static func flight(fps: Double, threads: Int = 1, frames: Int) throws -> [PixelBuffer] {
        var r = try VariableAnchorTests.renderer(VariableAnchorTests.style(layout: #""text-anchor": "center""#), width: 400)
        r.threads = threads
        var out: [PixelBuffer] = []
        for k in 0..<frames {
            var frame = PixelBuffer(width: 400, height: 100)
            let camera = CameraState(center: .init(latitude: 0, longitude: 1.75), zoom: k < 5 ? 5 : 3)
            r.render(camera: camera, time: Double(k) / fps, into: &frame)
            out.append(frame)
        }
        return out
    }

    /// How red the reddest pixel is (red − green: the red label's opacity × coverage over white).
    static func redness(_ frame: PixelBuffer) -> Int {
        var best = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let c = frame.color(x: x, y: y)
                best = max(best, Int(c.red) - Int(c.green))
            }
        }
        return best
    }

    @Test(arguments: [(30.0, 9), (60.0, 18)])
    func aLabelThatLosesCollisionFadesOutOverThreeHundredMilliseconds(fps: Double, fadeFrames: Int) throws {
        let frames = try Self.flight(fps: fps, frames: 5 + fadeFrames + 2)
        let red = frames.map(Self.redness)
        #expect(red[4] > 200, "placed before the zoom: \(red)")
        // Frame 5 loses collision and is drawn fully; then the opacity falls by 1/fadeFrames a frame.
        #expect(abs(red[5] - red[4]) <= 2, "\(red)")
        for k in 6..<(5 + fadeFrames) { #expect(red[k] > 0 && red[k] < red[k - 1], "frame \(k): \(red)") }
        #expect(red[5 + fadeFrames] == 0, "gone after \(fadeFrames) frames: \(red)")
        #expect(red[5 + fadeFrames + 1] == 0)
        // Halfway through, about half the opacity.
        let half = Double(red[5 + fadeFrames / 2]) / Double(red[5])
        #expect(abs(half - 0.5) < 0.1, "\(red)")
    }

    @Test func aSnapshotNeverFades() throws {
        var r = try VariableAnchorTests.renderer(VariableAnchorTests.style(layout: #""text-anchor": "center""#), width: 400)
        var frame = PixelBuffer(width: 400, height: 100)
        r.render(camera: CameraState(center: .init(latitude: 0, longitude: 1.75), zoom: 5), time: 0, into: &frame)
        r.render(camera: CameraState(center: .init(latitude: 0, longitude: 1.75), zoom: 3), into: &frame)
        #expect(Self.redness(frame) == 0, "the label lost collision and a snapshot has no history")
    }

    @Test func aLabelThatBecomesFreeFadesIn() throws {
        var r = try VariableAnchorTests.renderer(VariableAnchorTests.style(layout: #""text-anchor": "center""#), width: 400)
        var red: [Int] = []
        for k in 0..<14 {
            var frame = PixelBuffer(width: 400, height: 100)
            r.render(camera: CameraState(center: .init(latitude: 0, longitude: 1.75), zoom: k < 3 ? 3 : 5), time: Double(k) / 30,
                     into: &frame)
            red.append(Self.redness(frame))
        }
        #expect(red[2] == 0 && red[3] == 0, "placed at frame 3, drawn at opacity 0: \(red)")
        for k in 4...11 { #expect(red[k] > red[k - 1], "frame \(k): \(red)") }
        #expect(red[12] == red[13] && red[12] > 200, "\(red)")
    }

    @Test func fadingFramesAreTheSameInEveryRunAndForEveryThreadCount() throws {
        let one = try Self.flight(fps: 30, frames: 16)
        let again = try Self.flight(fps: 30, frames: 16)
        let banded = try Self.flight(fps: 30, threads: 2, frames: 16)
        #expect(one == again)
        #expect(one == banded)
    }
}

extension SymbolFadeTests {
    /// A time that goes backwards starts the sequence over: that frame is drawn as a snapshot.
    @Test func aTimeGoingBackwardsStartsTheSequenceOver() throws {
        var r = try VariableAnchorTests.renderer(VariableAnchorTests.style(layout: #""text-anchor": "center""#), width: 400)
        var frame = PixelBuffer(width: 400, height: 100)
        let apart = CameraState(center: .init(latitude: 0, longitude: 1.75), zoom: 5)
        let close = CameraState(center: .init(latitude: 0, longitude: 1.75), zoom: 3)
        r.render(camera: apart, time: 1, into: &frame)
        r.render(camera: close, time: 1 + 1.0 / 30, into: &frame)
        #expect(Self.redness(frame) > 200, "fading out, still fully drawn")
        r.render(camera: close, time: 0.5, into: &frame)
        #expect(Self.redness(frame) == 0, "a new sequence: the label lost collision and is not drawn")
    }

    @Test func aFadeDurationThatIsNotANumberMeansNoFading() throws {
        var r = try VariableAnchorTests.renderer(VariableAnchorTests.style(layout: #""text-anchor": "center""#), width: 400)
        r.fadeDuration = .nan
        #expect(r.fadeDuration == 0)
        var frame = PixelBuffer(width: 400, height: 100)
        r.render(camera: CameraState(center: .init(latitude: 0, longitude: 1.75), zoom: 5), time: 0, into: &frame)
        r.render(camera: CameraState(center: .init(latitude: 0, longitude: 1.75), zoom: 3), time: 1.0 / 30, into: &frame)
        #expect(Self.redness(frame) == 0)
    }
}
