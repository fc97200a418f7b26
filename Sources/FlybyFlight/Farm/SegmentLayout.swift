/// How a flight's frames are cut into segments for a render farm (issue 20, docs/formats.md §1
/// `play … --segment-frames N [--shard I/K]`).
///
/// Segment i covers frames [i·N, min((i+1)·N, frames)); its file is `segment-NNNNNN.EXT` with
/// NNNNNN its first frame (six digits, zero-padded, more past 999999). Shard I of K owns the
/// segments i with i mod K = I (0-based), so every shard gets segments from the whole flight and
/// the shards' costs even out without a plan.
public struct SegmentLayout: Sendable, Equatable {
    /// Frames in the whole flight (> 0).
    public let frameCount: Int
    /// Frames per segment (> 0); the last segment may be shorter.
    public let segmentFrames: Int

    /// The most segments a flight may be cut into (bounds every per-segment allocation).
    public static let maxSegments = 1_000_000

    public init(frameCount: Int, segmentFrames: Int) throws(FarmError) {
        guard frameCount > 0 else { throw FarmError("the flight has no frames") }
        guard segmentFrames > 0 else { throw FarmError("--segment-frames must be at least 1") }
        guard (frameCount + segmentFrames - 1) / segmentFrames <= SegmentLayout.maxSegments else {
            throw FarmError("\(frameCount) frames in segments of \(segmentFrames) make more than \(SegmentLayout.maxSegments) segments; use longer segments")
        }
        self.frameCount = frameCount
        self.segmentFrames = segmentFrames
    }

    /// Number of segments.
    public var count: Int { (frameCount + segmentFrames - 1) / segmentFrames }

    /// Frames of segment `index` (0-based).
    public func frames(ofSegment index: Int) -> Range<Int> {
        precondition(index >= 0 && index < count, "segment index out of range")
        return (index * segmentFrames)..<min((index + 1) * segmentFrames, frameCount)
    }

    /// Every segment's frames, in order.
    public var allFrames: [Range<Int>] { (0..<count).map(frames(ofSegment:)) }

    /// The segments shard `shard` renders: i mod K = I, in order.
    public func segments(of shard: Shard) -> [Int] { Array(stride(from: shard.index, to: count, by: shard.count)) }

    /// The segments that start inside `range`, which must begin and end on segment boundaries
    /// (or end at the flight's end); used by `--frames A:B` together with `--segment-frames`.
    public func segments(in range: Range<Int>) throws(FarmError) -> [Int] {
        guard range.lowerBound % segmentFrames == 0, range.upperBound % segmentFrames == 0 || range.upperBound == frameCount else {
            throw FarmError("--frames \(range.lowerBound):\(range.upperBound) must start and end on segment boundaries (multiples of \(segmentFrames), or the end \(frameCount))")
        }
        return Array((range.lowerBound / segmentFrames)..<((range.upperBound + segmentFrames - 1) / segmentFrames))
    }

    /// `segment-000240.mp4` for a segment whose first frame is 240.
    public static func fileName(firstFrame: Int, extension ext: String = "mp4") -> String {
        precondition(firstFrame >= 0, "frame index must not be negative")
        let digits = String(firstFrame)
        return "segment-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + "." + ext
    }

    /// The file name of segment `index`.
    public func fileName(ofSegment index: Int, extension ext: String = "mp4") -> String {
        SegmentLayout.fileName(firstFrame: frames(ofSegment: index).lowerBound, extension: ext)
    }
}

/// `--shard I/K`: shard I (0-based) of K.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// The most shards (far more than any batch engine array).
    public static let maxCount = 1_000_000

    public init(index: Int, count: Int) throws(FarmError) {
        guard count >= 1, count <= Shard.maxCount, index >= 0, index < count else {
            throw FarmError("--shard must be I/K with whole numbers 0 ≤ I < K ≤ \(Shard.maxCount), not '\(index)/\(count)'")
        }
        self.index = index
        self.count = count
    }

    /// Parses `I/K`.
    public init(parsing text: String) throws(FarmError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let k = Int(parts[1]) else {
            throw FarmError("--shard must be I/K with whole numbers 0 ≤ I < K, like 0/4, not '\(text)'")
        }
        try self.init(index: i, count: k)
    }

    /// The whole flight as one shard.
    public static let all = try! Shard(index: 0, count: 1)

    public var description: String { "\(index)/\(count)" }
}

/// A render-farm failure: bad arguments, a manifest that does not match, a missing segment.
public struct FarmError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
