import FlybyData
import FlybyFlight
import FlybyRender

/// `flyby plan FLIGHT --shards K [--segment-frames N]` (docs/formats.md §1, issue 20).
enum PlanCommand {
    static let help = """
    usage: flyby plan FLIGHT_OR_TRACE --shards K [--segment-frames N] [--size WxH] [--fps N]

    Prints the shard list of a render farm, one JSON line per shard:
      {"shard":0,"frames":[0,480],"cost":612.5}
    Shards are contiguous frame ranges [A, B) of about equal estimated cost; with --segment-frames
    every boundary is a segment boundary, so a scheduler can run
      flyby play FLIGHT --out DIR --segment-frames N --frames A:B
    per line. 'cost' is in frame units: 1 is a frame with nothing on the map, and each 200
    features on screen add 1 (counted on 64 frames spread over the flight, interpolated between).
    The estimate is deterministic: the same flight always gives the same plan.
    """

    static func run(_ args: [String], _ out: CommandOutput) throws {
        let o = try Options(args, command: "plan", valued: ["shards", "segment-frames", "size", "fps"])
        guard o.positional.count == 1 else { throw CommandError("'plan' takes one flight or trace file (see 'flyby help plan')") }
        guard let k = o.values["shards"].flatMap({ Int($0) }), (1...Shard.maxCount).contains(k) else {
            throw CommandError("'plan' needs --shards K with a whole number 1…\(Shard.maxCount) (see 'flyby help plan')")
        }
        let n = try o.values["segment-frames"].map { v -> Int in
            guard let n = Int(v), (1...1_080_000).contains(n) else { throw CommandError("--segment-frames must be a whole number 1…1080000, not '\(v)'") }
            return n
        } ?? 1
        let input = o.positional[0]
        let plan = try PlayCommand.makePlan(input: input, fps: try o.values["fps"].map { try PlayCommand.parseFPS($0, option: "--fps") },
                                            size: try o.values["size"].map { try PlayCommand.parseSize($0) })
        guard plan.frameCount > 0 else { throw CommandError("\(input): no frames to plan") }
        var loader = StyleLoader()
        let style: LoadedStyle? = plan.style == PlaceholderFrameRenderer.styleName ? nil : try loader.load(plan.style)
        let shards: [FarmPlanner.ShardPlan]
        do {
            shards = try FarmPlanner.balance(costs: try FarmPlanner.frameCosts(plan, style: style), shards: k, granularity: n)
        } catch let e as FarmError {
            throw CommandError("\(input): \(e.message)")
        }
        for s in shards {
            let cost = (s.cost * 10).rounded() / 10
            out.print(#"{"shard":\#(s.shard),"frames":[\#(s.frames.lowerBound),\#(s.frames.upperBound)],"cost":\#(cost)}"#)
        }
    }
}
