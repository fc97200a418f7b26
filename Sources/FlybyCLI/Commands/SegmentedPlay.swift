import FlybyCore
import FlybyData
import FlybyExport
import FlybyFlight
import FlybyMedia
import FlybyRender
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `flyby play FLIGHT --out DIR --segment-frames N [--shard I/K] [--frames A:B]` (docs/formats.md §1,
/// issue 20): argument parsing and progress lines over ``SegmentExport/run(_:input:options:progress:)``,
/// which renders the flight as MP4 segments plus `DIR/manifest.json`. See docs/scale-out.md.
struct SegmentedPlay {
    var plan: PlaybackPlan
    /// The flight or trace file.
    var input: String
    /// The output folder.
    var directory: String
    /// `--segment-frames N` (1…1,080,000, checked by the parser).
    var segmentFrames: Int
    var shard: String?
    /// `--frames A:B` when given (must lie on segment boundaries).
    var frames: Range<Int>?
    var crf: Int
    var preset: String
    var threads: Int
    /// `--tile-cache` in bytes.
    var tileCache: Int
    /// The most tiles each tiled source keeps (``TileCacheOption/tiles(_:width:height:)``).
    var tileCacheTiles: Int?
    var jsonProgress: Bool

    func run(_ out: CommandOutput) throws {
        var options = SegmentExport.Options(directory: directory, segmentFrames: segmentFrames)
        if let text = self.shard {
            do throws(FarmError) { options.shard = try Shard(parsing: text) } catch { throw CommandError(error.message) }
        }
        options.frames = frames
        options.crf = crf
        options.preset = preset
        options.threads = threads
        options.tileCacheBytes = tileCache
        options.tileCacheTiles = tileCacheTiles
        options.searchPath = out.environment["PATH"] ?? "/usr/bin:/bin"
        var progress: ShardProgress?
        do {
            _ = try SegmentExport.run(plan, input: input, options: options) { event in
                switch event {
                case .started(let total):
                    progress = ShardProgress(shard: options.shard, total: total, json: jsonProgress, out: out)
                case .segment(let file, let frames, let rendered):
                    progress?.segment(file, frames: frames, rendered: rendered)
                }
            }
        } catch {
            throw PlayCommand.commandError(error)
        }
        progress?.finish(directory: directory)
    }

    /// Per-shard progress: a JSON line per segment on request, and a summary line.
    struct ShardProgress {
        let shard: Shard
        let total: Int
        let json: Bool
        let out: CommandOutput
        let start = ProcessInfo.processInfo.systemUptime
        var done = 0, rendered = 0, skipped = 0

        init(shard: Shard, total: Int, json: Bool, out: CommandOutput) {
            self.shard = shard; self.total = total; self.json = json; self.out = out
        }

        mutating func segment(_ name: String, frames: Range<Int>, rendered isRendered: Bool) {
            done += frames.count
            if isRendered { rendered += 1 } else { skipped += 1 }
            if json {
                out.error(#"{"shard":"\#(shard)","segment":"\#(name)","frames":[\#(frames.lowerBound),\#(frames.upperBound)],"status":"\#(isRendered ? "rendered" : "skipped")","done":\#(done),"total":\#(total)}"#)
            }
        }

        mutating func finish(directory: String) {
            let t = (ProcessInfo.processInfo.systemUptime - start)
            let seconds = (t * 10).rounded() / 10
            if json {
                out.error(#"{"shard":"\#(shard)","rendered":\#(rendered),"skipped":\#(skipped),"done":\#(done),"total":\#(total),"seconds":\#(seconds),"finished":true}"#)
            }
            out.error("flyby play: shard \(shard): rendered \(rendered) segments, skipped \(skipped) already finished, \(done) frames to \(directory) in \(seconds) s")
        }
    }
}
