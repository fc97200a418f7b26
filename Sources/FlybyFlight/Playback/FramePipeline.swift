import FlybyCore
import FlybyRender
import Foundation

/// Renders the frames of a ``PlaybackPlan`` on worker threads and hands them to one consumer in
/// frame order, so rendering overlaps encoding.
///
/// Each worker makes its own renderer (through the factory; the renderer draws the attribution),
/// takes the next frame index in order, draws the map, burns in the attribution, and parks the
/// result; the calling thread delivers finished frames strictly in order. At most `window` frames
/// are in flight, and their buffers are reused, so memory stays bounded. The pixels of a frame
/// depend only on the plan and its index (``FrameRendering/render(frame:of:size:into:)``: labels
/// fade, see ``FadeSequence``), never on which thread drew it, so any thread count gives the same
/// output as one thread.
public final class FramePipeline {
    /// Number of render threads (≥ 1).
    public let threads: Int
    /// How many frames may be rendered ahead of the one being delivered.
    public let window: Int
    private let makeRenderer: @Sendable () throws -> any FrameRendering
    private let encode: (@Sendable (UnsafeBufferPointer<UInt32>, inout [UInt8]) -> Void)?
    private let prefetch: (@Sendable (Int) -> Void)?

    /// - Parameters:
    ///   - threads: render threads; the calling thread delivers (encodes) meanwhile.
    ///   - encode: optional work done on the render thread after drawing, such as converting the
    ///     pixels to Y′CbCr for the encoder; its bytes come with the frame as ``Frame/encoded``.
    ///   - makeRenderer: called once on each render thread.
    ///   - window: frames rendered ahead of the one delivered (default `2 · threads + 2`; see
    ///     ``MemoryBudget`` for a window that fits a memory budget).
    ///   - prefetch: optional work for the frames ahead, on one more thread: called with each
    ///     frame index, in order, up to `window` frames past the next frame a render thread takes
    ///     (frames already taken are skipped). `flyby play` reads and decodes the tiles of those
    ///     frames there (``LoadedStyle/prefetchTiles(camera:width:height:)``), so a render thread
    ///     rarely waits for a tile. It must not change any frame's pixels.
    public init(threads: Int, window: Int? = nil, encode: (@Sendable (UnsafeBufferPointer<UInt32>, inout [UInt8]) -> Void)? = nil,
                prefetch: (@Sendable (Int) -> Void)? = nil,
                makeRenderer: @escaping @Sendable () throws -> any FrameRendering) {
        self.threads = max(1, threads)
        self.window = max(1, window ?? 2 * max(1, threads) + 2)
        self.encode = encode
        self.prefetch = prefetch
        self.makeRenderer = makeRenderer
    }

    /// One finished frame.
    public struct Frame: Sendable {
        /// The drawn pixels, attribution included.
        public var pixels: PixelBuffer
        /// What the `encode` function made of them (empty without one).
        public var encoded: [UInt8] = []
    }

    /// The number of render threads to use on this machine: one per active core.
    public static var defaultThreadCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Renders frames `range` of `plan` and calls `deliver(index, pixels)` for each, in order, on
    /// the calling thread. `isCancelled` is polled between frames; when it turns true the workers
    /// stop and ``PlaybackCancelled`` is thrown. An error from a renderer or from `deliver` stops
    /// everything and is rethrown.
    public func run(_ plan: PlaybackPlan, range: Range<Int>,
                    isCancelled: () -> Bool = { false },
                    deliver: (Int, Frame) throws -> Void) throws {
        guard !range.isEmpty else { return }
        let shared = Shared(plan: plan, range: range, window: window)
        let make = makeRenderer, encode = encode
        for _ in 0..<threads {
            let thread = Thread { FramePipeline.work(shared, make, encode) }
            thread.stackSize = 1 << 22
            thread.start()
        }
        if let prefetch {
            let ahead = window
            let thread = Thread { FramePipeline.prefetch(shared, prefetch, ahead: ahead) }
            thread.stackSize = 1 << 22
            thread.start()
        }
        defer { shared.stop() }
        for index in range {
            var buffer: Frame
            shared.lock.lock()
            while shared.results[index] == nil && shared.failure == nil {
                if isCancelled() { shared.lock.unlock(); throw PlaybackCancelled() }
                _ = shared.lock.wait(until: Date(timeIntervalSinceNow: 0.05))
            }
            if let failure = shared.failure { shared.lock.unlock(); throw failure }
            buffer = shared.results.removeValue(forKey: index)!
            shared.lock.unlock()
            if isCancelled() { throw PlaybackCancelled() }
            try deliver(index, buffer)
            shared.lock.lock()
            shared.free.append(buffer)
            shared.delivered = index + 1
            shared.lock.broadcast()
            shared.lock.unlock()
        }
    }

    /// A worker: take the next frame, render it, park it; until the range is done or stopped.
    private static func work(_ s: Shared, _ make: @Sendable () throws -> any FrameRendering,
                             _ encode: (@Sendable (UnsafeBufferPointer<UInt32>, inout [UInt8]) -> Void)?) {
        var renderer: any FrameRendering
        do {
            renderer = try make()
        } catch {
            s.fail(error)
            return
        }
        let size = (width: s.plan.width, height: s.plan.height)
        while true {
            s.lock.lock()
            while !s.stopped && s.next < s.range.upperBound && s.next >= s.delivered + s.window { s.lock.wait() }
            if s.stopped || s.next >= s.range.upperBound { s.lock.unlock(); return }
            let index = s.next
            s.next += 1
            var buffer = s.free.popLast() ?? Frame(pixels: PixelBuffer(width: size.width, height: size.height))
            s.lock.unlock()
            renderer.render(frame: index, of: s.plan, size: size, into: &buffer.pixels)
            if let error = renderer.inputError { s.fail(error); return }
            if let encode { buffer.pixels.pixels.withUnsafeBufferPointer { encode($0, &buffer.encoded) } }
            s.lock.lock()
            s.results[index] = buffer
            s.lock.broadcast()
            s.lock.unlock()
        }
    }

    /// The prefetcher: frame by frame, at most `ahead` frames past the next one to be taken.
    private static func prefetch(_ s: Shared, _ fetch: @Sendable (Int) -> Void, ahead: Int) {
        var index = s.range.lowerBound
        while true {
            s.lock.lock()
            while !s.stopped && index < s.range.upperBound && index >= s.next + ahead { s.lock.wait() }
            if s.stopped || index >= s.range.upperBound { s.lock.unlock(); return }
            index = max(index, s.next)  // frames a render thread has taken need no prefetch
            s.lock.unlock()
            if index < s.range.upperBound { fetch(index) }
            index += 1
        }
    }

    /// State shared by the workers and the deliverer, guarded by `lock`.
    private final class Shared: @unchecked Sendable {
        let plan: PlaybackPlan
        let range: Range<Int>
        let window: Int
        let lock = NSCondition()
        var next: Int
        var delivered: Int
        var results: [Int: Frame] = [:]
        var free: [Frame] = []
        var failure: (any Error)?
        var stopped = false

        init(plan: PlaybackPlan, range: Range<Int>, window: Int) {
            self.plan = plan; self.range = range; self.window = window
            next = range.lowerBound; delivered = range.lowerBound
        }

        func fail(_ error: any Error) {
            lock.lock()
            if failure == nil { failure = error }
            stopped = true
            lock.broadcast()
            lock.unlock()
        }

        func stop() {
            lock.lock()
            stopped = true
            lock.broadcast()
            lock.unlock()
        }
    }
}

/// Playback was interrupted (a signal: Ctrl-C, SIGTERM, SIGHUP).
public struct PlaybackCancelled: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "interrupted" }
}
