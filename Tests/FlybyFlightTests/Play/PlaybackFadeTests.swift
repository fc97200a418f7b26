import FlybyCore
import FlybyData
@testable import FlybyFlight
import FlybyRender
import FlybyTestSupport
import Foundation
import Testing

/// Labels fade in `flyby play` and the farm (issue 18 item 4): frames of a playback are drawn as
/// one sequence, and each frame's pixels depend only on the plan and its index (``FadeSequence``),
/// so thread counts and frame ranges (the farm's segments) give the same frames. The style is
/// ``FadeFixture/collidingLabelsStyle``.
@Suite struct PlaybackFadeTests {
    /// 30 fps: frames 0…9 at zoom 5, then zoom 3.
    static func plan(style path: String, frames: Int = 40) -> PlaybackPlan {
        let records = (0..<frames).map { k in
            FrameRecord(frame: k, t: Double(k) / 30,
                        camera: CameraState(center: LocationCoordinate2D(latitude: 0, longitude: 1.75), zoom: k < 10 ? 5 : 3))
        }
        return PlaybackPlan(fps: 30, width: 400, height: 100, style: path, records: records, pucks: Array(repeating: nil, count: frames))
    }

    static func run(_ plan: PlaybackPlan, threads: Int, range: Range<Int>? = nil) throws -> [Int: [UInt32]] {
        var frames: [Int: [UInt32]] = [:]
        try FramePipeline(threads: threads) { try makeFrameRenderer(style: plan.style, size: (plan.width, plan.height)) }
            .run(plan, range: range ?? 0..<plan.frameCount) { i, frame in frames[i] = frame.pixels.pixels }
        return frames
    }

    /// How red the reddest pixel is (the label's opacity × coverage over white).
    static func redness(_ pixels: [UInt32]) -> Int {
        pixels.map { Int(($0 >> 16) & 0xFF) - Int(($0 >> 8) & 0xFF) }.max() ?? 0
    }

    @Test func aLabelThatLosesCollisionFadesOutOverNineFramesAt30fps() throws {
        try FadeFixture.withStyleFile { path in
            let frames = try Self.run(Self.plan(style: path), threads: 1)
            let red = (0..<40).map { Self.redness(frames[$0]!) }
            #expect(red[9] > 200, "placed before the zoom: \(red)")
            for k in 11..<19 { #expect(red[k] > 0 && red[k] < red[k - 1], "frame \(k) fades: \(red)") }
            #expect(red[19] == 0 && red[30] == 0, "gone 0.3 s after it lost: \(red)")
        }
    }

    @Test func framesAreTheSameForAnyThreadCountAndAnyRange() throws {
        try FadeFixture.withStyleFile { path in
            let plan = Self.plan(style: path)
            let one = try Self.run(plan, threads: 1)
            #expect(try Self.run(plan, threads: 2) == one, "2 threads")
            #expect(try Self.run(plan, threads: 3) == one, "3 threads")
            // A farm segment starting mid-fade replays the frames before it.
            let segment = try Self.run(plan, threads: 2, range: 13..<25)
            for k in 13..<25 { #expect(segment[k] == one[k], "frame \(k) of the segment") }
        }
    }

    @Test func theHistoryOfAFrameStartsAtAFixedGridBeforeItsChunk() {
        let fades = FadeSequence(fps: 30, fadeDuration: 0.3)
        #expect(fades.warmUp == 18)
        #expect(fades.start(of: 0) == 0 && fades.start(of: 255) == 0)
        #expect(fades.start(of: 256) == 238 && fades.start(of: 300) == 238 && fades.start(of: 512) == 494)
        #expect(FadeSequence(fps: 30, fadeDuration: 0).warmUp == 0)
    }
}
