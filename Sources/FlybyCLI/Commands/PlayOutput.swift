import FlybyFlight
import FlybyMedia

/// The output side of `flyby play`: the output kind, the memory plan and what an interruption
/// leaves (kept apart from PlayCommand.swift; the policies live in FlybyMedia and FlybyFlight).
extension PlayCommand {
    /// `--out OUT` as a ``FrameOutput``; an unsupported extension is exit 2 naming the supported ones.
    static func frameOutput(_ out: String) throws -> FrameOutput {
        do { return try FrameOutput(out) } catch { throw CommandError(error.description) }
    }

    /// Threads and render-ahead window within `--memory MiB` (default ``MemoryBudget/default``).
    static func renderBudget(_ memory: String?, width: Int, height: Int, threads: Int, planar: Bool) throws -> MemoryBudget.Plan {
        var budget = MemoryBudget.default
        if let memory {
            guard let mib = Int(memory), (16...(1 << 24)).contains(mib) else {
                throw CommandError("--memory must be a whole number of MiB 16…16777216, not '\(memory)'")
            }
            budget = MemoryBudget(mebibytes: mib)
        }
        let encoded = planar ? Y4MWriter.planeBytes(width: width, height: height, chroma: .c420jpeg) : 0
        do {
            return try budget.plan(width: width, height: height, threads: threads, encodedBytes: encoded)
        } catch {
            throw CommandError("\(width)x\(height): \(error.description)")
        }
    }

    /// The error for a run stopped by a signal (exit 128 + signal), true about what is left once
    /// `sink` has been cancelled; nil when no signal came.
    static func interruptedError(output: String, sink: any FrameSink) -> CommandError? {
        guard let signal = Interruption.signal else { return nil }
        let left: String
        if let folder = sink as? PNGFolderWriter, folder.folderExisted {
            left = "the \(folder.createdFiles.count) frame(s) this run wrote to \(output) were removed; what was there before is kept"
        } else if sink is NullFrameSink {
            left = "nothing was written"
        } else if AtomicFileWriter.writesInPlace(output) {
            left = "\(AtomicFileWriter.displayName(output)) received the frames written before the signal (it is not a file Flyby can remove)"
        } else {
            left = "\(output) was not written"
        }
        return CommandError("interrupted by \(Interruption.name(signal)); \(left)", exitCode: 128 + signal)
    }
}
