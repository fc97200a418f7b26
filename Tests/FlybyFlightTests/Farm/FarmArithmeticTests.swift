import FlybyData
import FlybyFlight
import Foundation
import Testing

/// Segment cuts, shards, plans, the manifest's text and its checksum (issue 20), without rendering.
@Suite struct FarmArithmeticTests {
    @Test func sha256MatchesTheFIPSExamples() {
        // FIPS 180-4 examples (csrc.nist.gov "SHA256.pdf"): "abc" and the 448-bit message.
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // Fed in uneven pieces, the digest is the same as in one piece.
        let message = [UInt8]((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var h = SHA256()
        h.update(Array(message[0..<3])); h.update(Array(message[3..<130])); h.update(Array(message[130...]))
        #expect(SHA256.hexString(h.finish()) == SHA256.hex(message))
    }

    @Test func segmentsCoverEveryFrameOnceAndOnlyTheLastIsShort() throws {
        let layout = try SegmentLayout(frameCount: 21, segmentFrames: 8)
        #expect(layout.count == 3)
        #expect(layout.allFrames == [0..<8, 8..<16, 16..<21])
        #expect(layout.fileName(ofSegment: 2) == "segment-000016.mp4")
        #expect(SegmentLayout.fileName(firstFrame: 1_234_567) == "segment-1234567.mp4")
        let exact = try SegmentLayout(frameCount: 24, segmentFrames: 8)
        #expect(exact.allFrames.last == 16..<24)
    }

    @Test func shardsTakeEveryKthSegmentAndTogetherTakeAllOnce() throws {
        let layout = try SegmentLayout(frameCount: 2000, segmentFrames: 240)
        let shards = try (0..<3).map { try layout.segments(of: Shard(index: $0, count: 3)) }
        #expect(shards[0] == [0, 3, 6])
        #expect(shards[1] == [1, 4, 7])
        #expect(shards[2] == [2, 5, 8])
        #expect(shards.flatMap { $0 }.sorted() == Array(0..<layout.count))
        // More shards than segments: the extra shards have nothing to do.
        #expect(try layout.segments(of: Shard(index: 11, count: 12)).isEmpty)
    }

    @Test func shardTextIsParsedAndBadShardsAreRefused() throws {
        #expect(try Shard(parsing: "2/4") == Shard(index: 2, count: 4))
        for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", ""] {
            #expect(throws: FarmError.self, "\(bad)") { try Shard(parsing: bad) }
        }
    }

    @Test func frameRangesMustLieOnSegmentBoundaries() throws {
        let layout = try SegmentLayout(frameCount: 21, segmentFrames: 8)
        #expect(try layout.segments(in: 8..<21) == [1, 2])
        #expect(try layout.segments(in: 0..<16) == [0, 1])
        #expect(throws: FarmError.self) { try layout.segments(in: 4..<16) }
        #expect(throws: FarmError.self) { try layout.segments(in: 0..<12) }
    }

    @Test func aPlanCutsContiguousShardsOfAboutEqualCostOnSegmentBoundaries() throws {
        // Frames 0…99 cost 1, frames 100…199 cost 3: the expensive half gets more shards.
        let costs = (0..<200).map { $0 < 100 ? 1.0 : 3.0 }
        let plan = try FarmPlanner.balance(costs: costs, shards: 4, granularity: 10)
        #expect(plan.map(\.shard) == [0, 1, 2, 3])
        #expect(plan.first?.frames.lowerBound == 0 && plan.last?.frames.upperBound == 200)
        for (a, b) in zip(plan, plan.dropFirst()) { #expect(a.frames.upperBound == b.frames.lowerBound) }
        for s in plan {
            #expect(s.frames.lowerBound % 10 == 0)
            #expect(abs(s.cost - 100) <= 30, "shard \(s.shard) costs \(s.cost)")
        }
        #expect(plan[0].frames.count > plan[3].frames.count)
        #expect(abs(plan.reduce(0) { $0 + $1.cost } - 400) < 1e-9)
    }

    @Test func aPlanNeverLeavesAShardEmpty() throws {
        let plan = try FarmPlanner.balance(costs: [100, 1, 1, 1], shards: 4)
        #expect(plan.map(\.frames) == [0..<1, 1..<2, 2..<3, 3..<4])
        #expect(throws: FarmError.self) { try FarmPlanner.balance(costs: [1, 1, 1], shards: 3, granularity: 2) }
    }

    static func header(flight: String = String(repeating: "a", count: 64)) -> FarmManifest.Header {
        FarmManifest.Header(flightFile: "f.flight.json", flightSHA256: flight, styleName: "world",
                            styleSHA256: String(repeating: "b", count: 64), width: 320, height: 180, fps: 10,
                            frameCount: 21, segmentFrames: 8, encoder: "libx264 crf=20")
    }

    @Test func aManifestReadsBackAsWrittenAndIsTheSameTextForTheSameContent() throws {
        var m = FarmManifest(header: Self.header())
        m.record(.init(file: "segment-000016.mp4", frames: 16..<21, sha256: String(repeating: "c", count: 64)))
        m.record(.init(file: "segment-000000.mp4", frames: 0..<8, sha256: String(repeating: "d", count: 64)))
        #expect(m.segments.map(\.frames.lowerBound) == [0, 16])
        #expect(m.finishedFrames == 13)
        let text = m.text()
        let back = try FarmManifest.parse(bytes: Array(text.utf8), file: "manifest.json")
        #expect(back == m)
        #expect(back.text() == text)
        #expect(text.contains(#""frames": [16, 21], "frameCount": 5"#))
    }

    @Test func aHandEditedManifestIsRefusedNamingTheChecksum() throws {
        var m = FarmManifest(header: Self.header())
        m.record(.init(file: "segment-000008.mp4", frames: 8..<16, sha256: String(repeating: "c", count: 64)))
        let edited = m.text().replacingOccurrences(of: String(repeating: "c", count: 64), with: String(repeating: "e", count: 64))
        #expect {
            try FarmManifest.parse(bytes: Array(edited.utf8), file: "manifest.json")
        } throws: { error in
            "\(error)".contains("manifest.json") && "\(error)".contains("edited by hand")
        }
    }

    @Test func aManifestEntryThatIsNotASegmentOfTheLayoutIsRefused() throws {
        var m = FarmManifest(header: Self.header())
        m.record(.init(file: "segment-000004.mp4", frames: 4..<12, sha256: String(repeating: "c", count: 64)))
        #expect {
            try FarmManifest.parse(bytes: Array(m.text().utf8), file: "manifest.json")
        } throws: { error in
            "\(error)".contains("segments[0].frames")
        }
    }

    @Test func twoStoresOnOneFolderKeepEachOthersEntries() throws {
        let dir = NSTemporaryDirectory() + "flyby-farm-store-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let h = Self.header()
        let a = ManifestStore(directory: dir), b = ManifestStore(directory: dir)
        _ = try a.open(h)
        _ = try b.open(h)
        try a.record(.init(file: "segment-000000.mp4", frames: 0..<8, sha256: String(repeating: "c", count: 64)), header: h)
        try b.record(.init(file: "segment-000008.mp4", frames: 8..<16, sha256: String(repeating: "d", count: 64)), header: h)
        #expect(try a.read()?.segments.map(\.file) == ["segment-000000.mp4", "segment-000008.mp4"])
        // Another flight in the same folder is refused.
        #expect(throws: FarmError.self) { try b.open(Self.header(flight: String(repeating: "f", count: 64))) }
    }

    @Test func concurrentRecordersLoseNoEntry() async throws {
        let dir = NSTemporaryDirectory() + "flyby-farm-race-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let h = FarmManifest.Header(flightFile: "f", flightSHA256: String(repeating: "a", count: 64), styleName: "s",
                                    styleSHA256: String(repeating: "b", count: 64), width: 8, height: 8, fps: 10,
                                    frameCount: 64, segmentFrames: 1, encoder: "x")
        let store = ManifestStore(directory: dir)
        _ = try store.open(h)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<4 {
                group.addTask {
                    for i in stride(from: t, to: 64, by: 4) {
                        try store.record(.init(file: SegmentLayout.fileName(firstFrame: i), frames: i..<(i + 1),
                                               sha256: String(repeating: "c", count: 64)), header: h)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.read()?.segments.count == 64)
    }
}
