#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one source of time for a simulation. Everything in the core reads time from here, once
/// per tick, so a flight gives the same trace on every run.
public protocol FrameClock: AnyObject {
    /// Seconds since the clock started, as of the current tick.
    var now: Double { get }
    /// Moves to the next tick and returns its time.
    @discardableResult func advance() -> Double
}

/// A clock that advances in fixed steps: tick i is at exactly i / fps seconds (computed from the
/// integer tick, so there is no accumulated rounding drift).
public final class ManualClock: FrameClock {
    public let fps: Double
    public private(set) var frame: Int = 0

    /// - Precondition: `fps` is finite and > 0.
    public init(fps: Double) {
        precondition(fps.isFinite && fps > 0, "fps must be a positive number")
        self.fps = fps
    }

    public var now: Double { Double(frame) / fps }

    @discardableResult
    public func advance() -> Double { frame += 1; return now }

    /// Advances whole ticks until `now >= time`.
    public func advance(to time: Double) {
        while now < time - 1e-12 { frame += 1 }
    }
}

/// A clock that follows the monotonic system clock (for the interactive window). The time of a
/// tick is sampled once in `advance()`, so all of a tick's work sees the same instant.
public final class WallClock: FrameClock {
    private let start: Double
    public private(set) var now: Double = 0
    /// When true, time stands still (`advance()` keeps `now`), for pausing the simulation.
    public var isPaused = false
    /// Scale of simulated time relative to real time (1 = real time).
    public var rate: Double = 1
    private var lastReal: Double

    public init() {
        start = WallClock.monotonicSeconds()
        lastReal = start
    }

    @discardableResult
    public func advance() -> Double {
        let real = WallClock.monotonicSeconds()
        if !isPaused { now += (real - lastReal) * rate }
        lastReal = real
        return now
    }

    /// CLOCK_MONOTONIC in seconds.
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
