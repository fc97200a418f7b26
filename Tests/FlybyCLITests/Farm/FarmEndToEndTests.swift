import FlybyCLI
import FlybyFlight
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The render farm end to end (issue 20): segments through Tools/farm/parallel (GNU parallel, local
/// job slots), `flyby join`, resume after SIGTERM, and join's refusals. 320×180 flights at 10 fps.
@Suite(.serialized) struct FarmEndToEndTests {
    @Test func fourSegmentsJoinedMatchOneRunInFramesRateAndSizeAndDecodeAsTheSegmentsDo() throws {
        let (dir, flight) = try Farm.setUp(seconds: 4)  // 41 frames
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let one = Farm.flyby(["play", flight, "--out", dir + "/one.mp4"])
        try #require(one.status == 0, "\(one.out.stderrText)")
        let farm = try Farm.parallel(flight, dir + "/farm", ["--jobs", "2", "--shards", "4", "--segment-frames", "11"])
        try #require(farm.status == 0, "\(farm.output)")
        let segments = Farm.files(dir + "/farm").filter { $0.hasSuffix(".mp4") }
        #expect(segments == ["segment-000000.mp4", "segment-000011.mp4", "segment-000022.mp4", "segment-000033.mp4"])
        // Every shard reported its progress as JSON lines.
        for shard in 0..<4 { #expect(farm.output.contains(#""shard":"\#(shard)/4","rendered":1"#), "shard \(shard)") }

        let join = Farm.flyby(["join", dir + "/farm/manifest.json", "--out", dir + "/joined.mp4"])
        try #require(join.status == 0, "\(join.out.stderrText)")
        let a = try Farm.probe(dir + "/one.mp4"), b = try Farm.probe(dir + "/joined.mp4")
        #expect(a.frames == 41)
        #expect(b.frames == a.frames)
        #expect(b.rate == a.rate && b.rate == "10/1")
        #expect(b.width == a.width && b.height == a.height && b.width == 320 && b.height == 180)

        let joined = try Farm.frameHashes(dir + "/joined.mp4")
        let concatenated = try segments.flatMap { try Farm.frameHashes(dir + "/farm/" + $0) }
        #expect(joined.count == 41)
        #expect(joined == concatenated)
        #expect(Set(joined).count > 30, "the frames differ from one another, so the comparison means something")

        let status = Farm.flyby(["farm-status", dir + "/farm/manifest.json"])
        #expect(status.status == 0)
        #expect(status.out.stdoutText.contains(#""frames":41,"framesDone":41,"segments":4,"segmentsDone":4,"complete":true"#))
    }

    @Test func pngAndY4MFarmOutputsAreByteIdenticalToOneRun() throws {
        let (dir, flight) = try Farm.setUp(seconds: 3)  // 31 frames
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(Farm.flyby(["play", flight, "--out", dir + "/one"]).status == 0)
        #expect(Farm.flyby(["play", flight, "--out", dir + "/one.y4m"]).status == 0)
        let png = try Farm.parallel(flight, dir + "/png", ["--jobs", "2", "--shards", "4", "--segment-frames", "8", "--format", "png"])
        try #require(png.status == 0, "\(png.output)")
        let names = Farm.files(dir + "/one")
        #expect(names.count == 31)
        #expect(Farm.files(dir + "/png") == names)
        for n in names { #expect(Farm.bytes(dir + "/png/" + n) == Farm.bytes(dir + "/one/" + n), "\(n)") }

        let y4m = try Farm.parallel(flight, dir + "/y4m", ["--jobs", "2", "--shards", "4", "--segment-frames", "8", "--format", "y4m"])
        try #require(y4m.status == 0, "\(y4m.output)")
        let parts = Farm.files(dir + "/y4m")
        #expect(parts == ["part-000000.y4m", "part-000008.y4m", "part-000016.y4m", "part-000024.y4m"])
        // One header, then every part's frames in order, is the single run's file byte for byte.
        let single = Farm.bytes(dir + "/one.y4m")
        let headerEnd = try #require(single.firstIndex(of: 0x0A))
        var joined = Array(single[...headerEnd])
        for p in parts {
            let b = Farm.bytes(dir + "/y4m/" + p)
            let end = try #require(b.firstIndex(of: 0x0A))
            #expect(Array(b[...end]) == joined[...headerEnd].map { $0 }, "\(p) header")
            joined += b[(end + 1)...]
        }
        #expect(joined == single)
    }

    @Test func aFarmKilledHalfwayRerendersOnlyTheUnfinishedSegmentsAndEqualsAnUninterruptedRun() throws {
        let (dir, flight) = try Farm.setUp(seconds: 4.7)  // 48 frames: 12 segments of 4
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let args = [flight, dir + "/farm", "--flyby", try Farm.binary(), "--jobs", "2", "--shards", "4", "--segment-frames", "4"]
        let run = try Farm.start(Farm.root + "/Tools/farm/parallel", args, log: dir + "/first.log")
        let store = ManifestStore(directory: dir + "/farm")
        // Wait (without a time limit: the run ends by itself) for a few finished segments, then SIGTERM.
        while run.isRunning && ((try? store.read())?.segments.count ?? 0) < 3 { usleep(20_000) }
        run.terminate()
        run.waitUntilExit()
        let finished = try #require(try store.read()).segments.count
        try #require(finished < 12, "the run ended before it was interrupted: \((try? String(contentsOfFile: dir + "/first.log", encoding: .utf8)) ?? "")")
        #expect(run.terminationStatus == 143)

        let rerun = try Farm.parallel(flight, dir + "/farm", ["--jobs", "2", "--shards", "4", "--segment-frames", "4"])
        try #require(rerun.status == 0, "\(rerun.output)")
        let counts = Farm.segmentCounts(rerun.output)
        #expect(counts.rendered == 12 - finished)
        #expect(counts.skipped == finished)
        #expect(Farm.flyby(["join", dir + "/farm/manifest.json", "--out", dir + "/resumed.mp4"]).status == 0)

        let straight = Farm.flyby(["play", flight, "--out", dir + "/straight", "--segment-frames", "4"])
        try #require(straight.status == 0, "\(straight.out.stderrText)")
        #expect(Farm.flyby(["join", dir + "/straight/manifest.json", "--out", dir + "/straight.mp4"]).status == 0)
        let resumed = try Farm.frameHashes(dir + "/resumed.mp4")
        #expect(resumed.count == 48)
        #expect(resumed == (try Farm.frameHashes(dir + "/straight.mp4")))
    }

    /// A finished 4-segment render of a 31-frame flight, and the same frames of another flight.
    static func twoRenders() throws -> (dir: String, render: String, other: String) {
        let (dir, flight) = try Farm.setUp(seconds: 3)
        let otherFlight = dir + "/other.flight.json"
        try Data(Farm.flight(seconds: 3, zoom: 3).utf8).write(to: URL(fileURLWithPath: otherFlight))
        for (f, out) in [(flight, "/render"), (otherFlight, "/other")] {
            let r = Farm.flyby(["play", f, "--out", dir + out, "--segment-frames", "8"])
            try #require(r.status == 0, "\(r.out.stderrText)")
        }
        return (dir, dir + "/render", dir + "/other")
    }

    /// Copies a render, breaks the copy with `damage`, and joins it: exit 2, a message, no output.
    static func expectRefusal(_ render: String, in dir: String, _ name: String, message: [String],
                              damage: (String) throws -> Void) throws {
        let copy = dir + "/" + name
        try FileManager.default.copyItem(atPath: render, toPath: copy)
        try damage(copy)
        let out = dir + "/" + name + ".mp4"
        let r = Farm.flyby(["join", copy + "/manifest.json", "--out", out])
        #expect(r.status == 2, "\(name)")
        let line = r.out.stderrText
        #expect(line.hasPrefix("flyby: error: ") && line.split(separator: "\n").count == 1, "\(name): \(line)")
        for m in message { #expect(line.contains(m), "\(name): \(line)") }
        #expect(!FileManager.default.fileExists(atPath: out), "\(name): nothing is written")
        #expect(Farm.files(dir).allSatisfy { !$0.hasPrefix(".\(name).mp4.tmp") }, "\(name): no temporary file is left")
    }

    @Test func joinRefusesAMissingForeignTruncatedOrUnfinishedSegmentAndAHandEditedManifest() throws {
        let (dir, render, other) = try Self.twoRenders()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(Farm.flyby(["join", render + "/manifest.json", "--out", dir + "/good.mp4"]).status == 0)
        let verified = Farm.flyby(["join", render + "/manifest.json", "--out", dir + "/verified.mp4", "--verify-video"])
        #expect(verified.status == 0, "\(verified.out.stderrText)")

        try Self.expectRefusal(render, in: dir, "missing", message: ["segment-000008.mp4", "missing", "was not written"]) {
            try FileManager.default.removeItem(atPath: $0 + "/segment-000008.mp4")
        }
        try Self.expectRefusal(render, in: dir, "foreign", message: ["segment-000016.mp4 is from another flight"]) {
            try FileManager.default.removeItem(atPath: $0 + "/segment-000016.mp4")
            try FileManager.default.copyItem(atPath: other + "/segment-000016.mp4", toPath: $0 + "/segment-000016.mp4")
        }
        try Self.expectRefusal(render, in: dir, "truncated", message: ["segment-000024.mp4", "SHA-256"]) {
            let path = $0 + "/segment-000024.mp4"
            let b = Farm.bytes(path)
            try Data(b.prefix(b.count / 2)).write(to: URL(fileURLWithPath: path))
        }
        try Self.expectRefusal(render, in: dir, "edited", message: ["manifest.json", "checksum", "edited by hand"]) {
            let path = $0 + "/manifest.json"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try Data(text.replacingOccurrences(of: #""fps": 10"#, with: #""fps": 12"#).utf8).write(to: URL(fileURLWithPath: path))
        }
        try Self.expectRefusal(render, in: dir, "unfinished", message: ["segment-000008.mp4", "not finished"]) { copy in
            // A render of which only shard 0 of 2 has run.
            try FileManager.default.removeItem(atPath: copy)
            let flight = try #require(Farm.files(dir).first { $0.hasPrefix("tour") })
            let r = Farm.flyby(["play", dir + "/" + flight, "--out", copy, "--segment-frames", "8", "--shard", "0/2"])
            try #require(r.status == 0, "\(r.out.stderrText)")
        }
    }

    @Test func farmStatusCountsTheFinishedFramesAndSegmentsOfAPartialRender() throws {
        let (dir, flight) = try Farm.setUp(seconds: 3)  // 31 frames, 4 segments of 8
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = Farm.flyby(["play", flight, "--out", dir + "/r", "--segment-frames", "8", "--shard", "1/2", "--progress", "json"])
        try #require(r.status == 0, "\(r.out.stderrText)")
        #expect(r.out.stderrText.contains(#"{"shard":"1/2","segment":"segment-000008.mp4","frames":[8,16],"status":"rendered","done":8,"total":15}"#))
        let s = Farm.flyby(["farm-status", dir + "/r"])
        #expect(s.status == 1)
        #expect(s.out.stdoutText.hasPrefix(#"{"frames":31,"framesDone":15,"segments":4,"segmentsDone":2,"complete":false,"#))
        #expect(s.out.stdoutText.contains("segment-000000.mp4 (frames 0:8) is not finished"))
    }

    @Test func planPrintsContiguousShardsOnSegmentBoundariesTheSameEveryTime() throws {
        let (dir, flight) = try Farm.setUp(seconds: 3)  // 31 frames
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = Farm.flyby(["plan", flight, "--shards", "3", "--segment-frames", "4"])
        try #require(a.status == 0, "\(a.out.stderrText)")
        #expect(Farm.flyby(["plan", flight, "--shards", "3", "--segment-frames", "4"]).out.stdoutText == a.out.stdoutText)
        let lines = a.out.stdoutText.split(separator: "\n")
        #expect(lines.count == 3)
        var next = 0
        for (i, line) in lines.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["shard"] as? Int == i)
            let frames = try #require(object["frames"] as? [Int])
            #expect(frames.count == 2 && frames[0] == next && frames[1] > frames[0])
            #expect(frames[0] % 4 == 0)
            #expect((object["cost"] as? Double ?? 0) >= Double(frames[1] - frames[0]), "each frame costs at least 1")
            next = frames[1]
        }
        #expect(next == 31)
        #expect(Farm.flyby(["plan", flight, "--shards", "9", "--segment-frames", "4"]).status == 2, "more shards than segments")
    }

    @Test func badSegmentOptionsAreRefusedWithExit2AndWriteNothing() throws {
        let (dir, flight) = try Farm.setUp(seconds: 1)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [([String], String)] = [
            (["--out", dir + "/x.mp4", "--segment-frames", "4"], "must name a folder"),
            (["--out", dir + "/s", "--shard", "0/2"], "--shard needs --segment-frames"),
            (["--out", dir + "/s", "--segment-frames", "0"], "--segment-frames must be"),
            (["--out", dir + "/s", "--segment-frames", "4", "--shard", "2/2"], "--shard must be"),
            (["--out", dir + "/s", "--segment-frames", "4", "--frames", "2:8"], "segment boundaries"),
            (["--out", dir + "/s", "--segment-frames", "4", "--trace", dir + "/t.jsonl"], "--trace cannot"),
        ]
        for (args, message) in cases {
            let r = Farm.flyby(["play", flight] + args)
            #expect(r.status == 2, "\(args)")
            #expect(r.out.stderrText.hasPrefix("flyby: error: ") && r.out.stderrText.contains(message), "\(args): \(r.out.stderrText)")
        }
        #expect(Farm.files(dir) == ["farm.style.json", "tour.flight.json"])
    }
}
