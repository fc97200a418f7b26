import FlybyCore
import FlybyExport
import FlybyFlight
import FlybyMedia
import FlybyTestSupport
import Foundation
import Testing

/// ``VideoExport`` called as a library, as a FlybyMaps host or the window would: a flight's
/// plan in, frames out, without the command line.
@Suite struct VideoExportTests {
    /// A 0.5 s ease at 10 fps (frames 0…5) on the world style.
    static let flight = #"""
    {"flyby": 1, "size": [64, 36], "fps": 10, "style": "world", "camera": {"center": [10, 50], "zoom": 3},
     "steps": [{"ease": {"to": {"center": [20, 40], "zoom": 4, "bearing": 30}, "duration": 0.5, "curve": "linear"}}]}
    """#

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "flyby-export-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func plan(in dir: String) throws -> PlaybackPlan {
        try Data(flight.utf8).write(to: URL(fileURLWithPath: dir + "/f.flight.json"))
        return try PlaybackPlan.load(dir + "/f.flight.json")
    }

    static func options(_ output: String) -> VideoExport.Options {
        var o = VideoExport.Options(output: output)
        o.threads = 2
        o.isCancelled = { false }
        return o
    }

    @Test func aPNGFolderGetsOneFilePerFrameAndProgressCountsThem() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try Self.plan(in: dir)
        var seen: [Int] = []
        var done: [Int] = []
        let summary = try VideoExport.run(plan, input: "f", options: Self.options(dir + "/frames")) { seen.append($0.frame); done.append($0.done) }
        #expect(summary == VideoExport.Summary(frames: 6, size: PixelSize(width: 64, height: 36), fps: 10))
        #expect(seen == [0] + Array(0..<6) && done == Array(0...6), "one start call, then one per frame")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/frames").sorted() == (0..<6).map { PNGFolderWriter.fileName(frameIndex: $0) })
    }

    @Test func aFrameRangeGivesTheSameBytesAsTheFullRunAndTheTraceKeepsThePoints() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try Self.plan(in: dir)
        _ = try VideoExport.run(plan, input: "f", options: Self.options(dir + "/all"))
        var part = Self.options(dir + "/part")
        part.frames = 2..<4
        part.pixelRatio = 1
        part.tracePath = dir + "/t.jsonl"
        let summary = try VideoExport.run(plan, input: "f", options: part)
        #expect(summary.frames == 2)
        for i in 2..<4 {
            let name = PNGFolderWriter.fileName(frameIndex: i)
            #expect(FileManager.default.contents(atPath: dir + "/part/" + name) == FileManager.default.contents(atPath: dir + "/all/" + name))
        }
        let trace = try TraceReader.read(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/t.jsonl"))), file: "t.jsonl")
        #expect(trace.frames.count == 6 && trace.size.width == 64)
    }

    @Test func aY4MStreamHoldsEveryFrameAsPlanes() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try Self.plan(in: dir)
        _ = try VideoExport.run(plan, input: "f", options: Self.options(dir + "/v.y4m"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/v.y4m"))
        let frameBytes = Y4MWriter.planeBytes(width: 64, height: 36, chroma: .c420jpeg)
        #expect(String(decoding: bytes.prefix(9), as: UTF8.self) == "YUV4MPEG2")
        #expect(bytes.count > 6 * frameBytes && bytes.count < 6 * (frameBytes + 64) + 128)
    }

    @Test func failuresSayWhatKindTheyAre() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try Self.plan(in: dir)
        #expect {
            try VideoExport.run(plan, input: "f", options: Self.options(dir + "/x.bmp"))
        } throws: { ($0 as? VideoExportError)?.kind == .failed && "\($0)".contains(".bmp") }
        var noFFmpeg = Self.options(dir + "/x.mp4")
        noFFmpeg.searchPath = dir  // an empty folder: no ffmpeg there
        #expect {
            try VideoExport.run(plan, input: "f", options: noFFmpeg)
        } throws: { ($0 as? VideoExportError)?.kind == .missingProgram }
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.mp4"))
        var huge = Self.options("null")
        huge.pixelRatio = 4
        var big = plan
        big.width = 5000
        #expect {
            try VideoExport.run(big, input: "f", options: huge)
        } throws: { "\($0)".contains("more than 16384 pixels a side") }
    }

    @Test func aCancelledExportLeavesNothing() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try Self.plan(in: dir)
        var options = Self.options(dir + "/frames")
        options.isCancelled = { true }
        #expect(throws: (any Error).self) { try VideoExport.run(plan, input: "f", options: options) }
        #expect(!FileManager.default.fileExists(atPath: dir + "/frames"))
    }
}
