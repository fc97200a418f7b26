import FlybyCore
import FlybyData
import FlybyFlight
import FlybyRender

/// `flyby plan FLIGHT --shards K [--segment-frames N]` (docs/formats.md §1, issue 20).
enum PlanCommand: FlybyCommand {
    static let name = "plan"
    static let summary = "print a render farm's shards as JSON lines, balanced by estimated cost"
    static let about = """
    Prints the shard list of a render farm, one JSON line per shard:
      {"shard":0,"frames":[0,480],"cost":612.5}
    Shards are contiguous frame ranges [A, B) of about equal estimated cost; with --segment-frames
    every boundary is a segment boundary, so a scheduler can run
      flyby play FLIGHT --out DIR --segment-frames N --frames A:B
    per line. 'cost' is in frame units: 1 is a frame with nothing on the map, and each 200
    features on screen add 1 (counted on 64 frames spread over the flight, interpolated between).
    The estimate is deterministic: the same flight always gives the same plan.
    """
    static let positionals = Positionals.exactly("FLIGHT_OR_TRACE", "takes one flight or trace file")
    static let options = [
        OptionSpec("shards", .int(1...Shard.maxCount), "K", help: "how many shards", required: true),
        OptionSpec.segmentFrames(help: "segment length in frames: every shard boundary falls on a segment boundary"),
        OptionSpec.size(help: "frame size in pixels", defaultText: "the flight's or trace's"),
        OptionSpec.fps(help: "frames per second"),
    ]

    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
        let k = parsed.int("shards")!
        let n = parsed.int("segment-frames") ?? 1
        let input = parsed.positional[0]
        let plan = try PlaybackPlan.load(input, fps: parsed.double("fps"), size: parsed.size("size"))
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
