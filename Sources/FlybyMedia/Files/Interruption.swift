import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signal that interrupted this run (0 while none has): set by the signal handler, read by
/// the frame loops. A lock-free atomic store is async-signal-safe; nothing else happens in the
/// handler except a one-byte `write(2)` to wake the watchdog.
private let interruptingSignal = Atomic<Int32>(0)
/// The write end of the watchdog's pipe (-1 before ``Interruption/install()``).
private let wakeFD = Atomic<Int32>(-1)

/// SIGINT, SIGTERM and SIGHUP during a command (see docs/files-and-signals.md).
///
/// ``install()`` sets a handler that only records the signal (an atomic flag) and wakes a watchdog
/// thread. The work polls ``isPending`` between frames, stops, removes what it made (its sinks'
/// `cancel()`), and the command exits with ``exitCode`` (128 + the signal number: 130, 143, 129).
/// Work that does not poll (a long trace, a big style load) is stopped by the watchdog after
/// ``gracePeriod``: it stops the children and removes every path in ``CleanupRegistry``, prints
/// one line and exits with the same code. A second signal skips the grace period. `SIGPIPE` is
/// ignored, so a closed standard output or a dead ffmpeg is a write error (`EPIPE`), reported
/// like any other failed write.
public enum Interruption {
    /// Seconds the watchdog waits for the work to stop by itself.
    public static let gracePeriod = 3.0

    /// The signal received, or nil.
    public static var signal: Int32? {
        let s = interruptingSignal.load(ordering: .relaxed)
        return s == 0 ? nil : s
    }

    /// Whether a signal asked the run to stop.
    public static var isPending: Bool { interruptingSignal.load(ordering: .relaxed) != 0 }

    /// The exit status for the received signal (128 + number), or nil.
    public static var exitCode: Int32? { signal.map { 128 + $0 } }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, or `signal N`.
    public static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGPIPE: return "SIGPIPE"
        default: return "signal \(signal)"
        }
    }

    /// Installs the handlers and starts the watchdog. Call once, from the command-line tool only
    /// (tests that run commands in-process do not).
    public static func install() {
        // A parent may have left these blocked (the mask is inherited through exec): unblock them
        // before any thread starts, so every thread can take them.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblock, s) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        interruptingSignal.store(0, ordering: .relaxed)
        wakeFD.store(fds[1], ordering: .relaxed)
        let readFD = fds[0]
        let thread = Thread { watch(readFD) }
        thread.stackSize = 1 << 18
        thread.start()
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        for s in [SIGINT, SIGTERM, SIGHUP] {
            _ = Glibc.signal(s) { received in
                // Keep the first signal; every one wakes the watchdog.
                _ = interruptingSignal.compareExchange(expected: 0, desired: received, ordering: .relaxed)
                var byte: UInt8 = 1
                _ = Glibc.write(wakeFD.load(ordering: .relaxed), &byte, 1)
            }
        }
    }

    /// The watchdog: waits for a signal, gives the work ``gracePeriod`` to stop, then cleans up
    /// and exits.
    private static func watch(_ fd: Int32) {
        var byte: UInt8 = 0
        while read(fd, &byte, 1) != 1 {
            if errno != EINTR { return }
        }
        // Wait for the work, unless a second signal arrives first.
        var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = Glibc.poll(&poll, 1, Int32(gracePeriod * 1000))
        let signal = interruptingSignal.load(ordering: .relaxed)
        let removed = CleanupRegistry.shared.removeEverything()
        let what = removed == 0 ? "nothing was left behind" : "removed the \(removed) partial file(s) this run had made"
        let line = "flyby: error: interrupted by \(name(signal)); \(what)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { Glibc.write(2, $0.baseAddress, $0.count - 1) }
        _exit(128 + signal)
    }
}

/// The temporary files, frames, folders and child processes this run has made and not yet
/// finished, so that a signal can remove exactly those (and nothing that existed before).
public final class CleanupRegistry: Sendable {
    /// The process-wide registry.
    public static let shared = CleanupRegistry()

    private struct State {
        var paths: Set<String> = []
        var folders: [String] = []
        var children: Set<Int32> = []
    }
    private let state = Mutex(State())

    /// Adds a file to remove on interruption.
    public func add(path: String) { state.withLock { _ = $0.paths.insert(path) } }
    /// The file is finished (or removed): forget it.
    public func remove(path: String) { state.withLock { _ = $0.paths.remove(path) } }
    /// Forgets several files at once.
    public func remove(paths: some Sequence<String>) { state.withLock { s in for p in paths { s.paths.remove(p) } } }
    /// Adds a folder this run created, removed (when empty) after the files.
    public func add(folder: String) { state.withLock { $0.folders.append(folder) } }
    /// Forgets a folder.
    public func remove(folder: String) { state.withLock { s in s.folders.removeAll { $0 == folder } } }
    /// Adds a child process to stop on interruption.
    public func add(child: Int32) { state.withLock { _ = $0.children.insert(child) } }
    /// Forgets a child process.
    public func remove(child: Int32) { state.withLock { _ = $0.children.remove(child) } }

    /// Whether `path` is registered now. Tests ask about their own path: other threads of the
    /// same process register and remove theirs at any moment, so a count is not stable.
    public func contains(path: String) -> Bool { state.withLock { $0.paths.contains(path) } }

    /// Stops every child (SIGTERM, then waits for it), removes every file, then every folder
    /// (innermost first, only when empty). Returns the number of files removed.
    @discardableResult
    public func removeEverything() -> Int {
        let s = state.withLock { s -> State in let copy = s; s = State(); return copy }
        for pid in s.children {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        var removed = 0
        for p in s.paths where unlink(p) == 0 { removed += 1 }
        for folder in s.folders.reversed() { rmdir(folder) }
        return removed
    }
}
