import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How many frames `flyby play` keeps in flight, from a memory budget (see
/// docs/files-and-signals.md).
///
/// A frame in flight costs its pixels (`width × height × 4` bytes) plus what the render thread
/// made of them for the encoder (`encodedBytes`, e.g. 1.5 bytes per pixel of 4:2:0 planes). Each
/// render thread also needs working memory (``perThreadBytes`` plus a quarter of a frame's pixels
/// for its scratch rows and paths, an estimate), and the process a fixed base (``baseBytes``). The
/// render-ahead window is the largest that fits, at most `2 · threads + 2`; threads beyond the
/// window would only wait, so they are not started. When not even one frame fits, the plan is an
/// error that says how much is needed — before anything is allocated.
public struct MemoryBudget: Sendable, Equatable {
    /// The budget in bytes.
    public var bytes: Int

    /// Memory the process needs besides frames and threads (runtime, loaded style, trace), bytes.
    public static let baseBytes = 96 << 20
    /// Working memory of one render thread besides its share of frame-sized scratch, bytes.
    public static let perThreadBytes = 16 << 20

    public init(bytes: Int) { self.bytes = bytes }

    /// `mebibytes` MiB.
    public init(mebibytes: Int) { bytes = mebibytes << 20 }

    /// A quarter of physical memory, and at most half of the address-space limit (`ulimit -v`,
    /// `RLIMIT_AS`) when one is set.
    public static var `default`: MemoryBudget {
        var budget = Int(clamping: ProcessInfo.processInfo.physicalMemory / 4)
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            budget = min(budget, Int(clamping: limit.rlim_cur / 2))
        }
        return MemoryBudget(bytes: budget)
    }

    /// Render threads and window for frames of `width × height` pixels.
    public struct Plan: Sendable, Equatable {
        /// Threads to start (≤ the threads asked for).
        public var threads: Int
        /// Frames that may be rendered ahead of the one being delivered (≥ 1).
        public var window: Int

        public init(threads: Int, window: Int) { self.threads = threads; self.window = window }
    }

    /// The plan for `threads` render threads, or an error when one frame does not fit.
    /// - Parameters:
    ///   - width: frame width in pixels.
    ///   - height: frame height in pixels.
    ///   - encodedBytes: bytes per frame made by the render thread for the encoder.
    /// - Throws: ``MemoryBudgetError``.
    public func plan(width: Int, height: Int, threads: Int, encodedBytes: Int = 0) throws(MemoryBudgetError) -> Plan {
        let pixels = width.multipliedReportingOverflow(by: height)
        let frame = pixels.partialValue.multipliedReportingOverflow(by: 4)
        guard !pixels.overflow, !frame.overflow else { throw MemoryBudgetError(needed: .max, budget: bytes) }
        let frameBytes = frame.partialValue + encodedBytes
        let threadBytes = MemoryBudget.perThreadBytes + frame.partialValue / 4
        let asked = max(1, threads)
        let maxWindow = 2 * asked + 2
        // One thread, one frame rendering and one being delivered: the least that can run.
        let least = MemoryBudget.baseBytes + threadBytes + 2 * frameBytes
        guard least <= bytes else { throw MemoryBudgetError(needed: least, budget: bytes) }
        var t = asked
        while t > 1 && MemoryBudget.baseBytes + t * threadBytes + (t + 1) * frameBytes > bytes { t -= 1 }
        let room = bytes - MemoryBudget.baseBytes - t * threadBytes
        let window = max(1, min(maxWindow, room / frameBytes - 1))
        return Plan(threads: min(t, window), window: window)
    }
}

/// Frames of this size do not fit in the memory budget.
public struct MemoryBudgetError: Error, CustomStringConvertible, Equatable {
    /// Bytes needed for the smallest plan (one thread, one frame ahead).
    public var needed: Int
    /// The budget, bytes.
    public var budget: Int

    public var description: String {
        let need = needed == .max ? "more than can be addressed" : "\(needed >> 20) MiB"
        return "rendering needs \(need) for one thread and one frame ahead, over the memory budget of \(budget >> 20) MiB "
            + "(set it with --memory MiB; the default is a quarter of physical memory, at most half of 'ulimit -v'); use a smaller --size"
    }
}
