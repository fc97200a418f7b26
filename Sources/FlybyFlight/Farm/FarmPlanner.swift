import FlybyCore
import FlybyRender

/// `flyby plan FLIGHT --shards K [--segment-frames N]` (docs/formats.md §1, issue 20): contiguous
/// frame ranges, one per shard, of about equal estimated cost, for schedulers.
public enum FarmPlanner {
    /// One shard of a plan.
    public struct ShardPlan: Sendable, Equatable {
        public var shard: Int
        /// Frames [A, B).
        public var frames: Range<Int>
        /// Estimated cost, in frame units (1 = a frame with nothing on the map).
        public var cost: Double
    }

    /// Estimated render cost of every frame, deterministic (from the scene, not from timing).
    ///
    /// A frame's cost is 1 + (features on screen) / ``featuresPerFrameUnit``: the renderer's
    /// per-pixel work (clearing, the background, the attribution) is about the same in every
    /// frame, and the rest grows with the features it draws. The features are counted with
    /// ``MapRenderer/queryFeatures(in:camera:tolerance:)`` over the whole frame on `samples`
    /// frames spread evenly over the flight (the first and last included) and interpolated
    /// linearly in between.
    /// - Parameters:
    ///   - plan: the flight's frames.
    ///   - style: the loaded style, or nil for a style without features (every frame costs 1).
    ///   - samples: frames to measure (≥ 2).
    public static func frameCosts(_ plan: PlaybackPlan, style: LoadedStyle?, samples: Int = 64) throws -> [Double] {
        let n = plan.frameCount
        guard n > 0 else { return [] }
        guard let style else { return [Double](repeating: 1, count: n) }
        let renderer = try MapRenderer(style: style, width: plan.width, height: plan.height)
        let rect = ScreenRect(x: 0, y: 0, width: Double(plan.width), height: Double(plan.height))
        let count = min(n, max(2, samples))
        let at = (0..<count).map { count == 1 ? 0 : $0 * (n - 1) / (count - 1) }
        let measured = at.map { 1 + Double(renderer.queryFeatures(in: rect, camera: plan.records[$0].camera).count) / featuresPerFrameUnit }
        var costs = [Double](repeating: 0, count: n)
        for k in 0..<count {
            let a = at[k], b = k + 1 < count ? at[k + 1] : a
            for f in a...b {
                let t = b > a ? Double(f - a) / Double(b - a) : 0
                costs[f] = measured[k] + (k + 1 < count ? (measured[k + 1] - measured[k]) * t : 0)
            }
        }
        return costs
    }

    /// Features that cost about as much as one frame's fixed work (a rough figure from release
    /// timings of the built-in styles at 720p).
    public static let featuresPerFrameUnit = 200.0

    /// Cuts `costs` into `shards` contiguous ranges of about equal total cost, each boundary on a
    /// multiple of `granularity` (the segment length), every shard non-empty.
    /// - Throws: ``FarmError`` when there are fewer segments than shards.
    public static func balance(costs: [Double], shards: Int, granularity: Int = 1) throws(FarmError) -> [ShardPlan] {
        guard shards >= 1 else { throw FarmError("--shards must be at least 1") }
        let layout = try SegmentLayout(frameCount: costs.count, segmentFrames: max(1, granularity))
        guard layout.count >= shards else {
            throw FarmError("\(costs.count) frames make \(layout.count) segments of \(granularity), fewer than \(shards) shards")
        }
        // Cost up to the end of each unit (segment).
        var unitEnd: [Double] = []
        unitEnd.reserveCapacity(layout.count)
        var sum = 0.0
        for u in 0..<layout.count {
            for f in layout.frames(ofSegment: u) { sum += costs[f] }
            unitEnd.append(sum)
        }
        // Boundary j (1…K−1) after the c units whose summed cost is nearest to j·total/K, leaving
        // at least one unit for each shard before and after it.
        func prefix(_ c: Int) -> Double { c == 0 ? 0 : unitEnd[c - 1] }
        var cuts = [0]
        for j in 1..<shards {
            let target = sum * Double(j) / Double(shards)
            var c = cuts[cuts.count - 1] + 1
            let highest = layout.count - (shards - j)
            while c < highest && abs(prefix(c + 1) - target) < abs(prefix(c) - target) { c += 1 }
            cuts.append(c)
        }
        cuts.append(layout.count)
        return (0..<shards).map { j in
            let a = layout.frames(ofSegment: cuts[j]).lowerBound
            let b = layout.frames(ofSegment: cuts[j + 1] - 1).upperBound
            let cost = prefix(cuts[j + 1]) - prefix(cuts[j])
            return ShardPlan(shard: j, frames: a..<b, cost: cost)
        }
    }
}
