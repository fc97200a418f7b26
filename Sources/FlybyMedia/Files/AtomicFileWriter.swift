#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one writer of every output Flyby makes (see docs/files-and-signals.md).
///
/// What it does depends on what `path` is, asked with `lstat`/`stat` before anything is opened:
/// - a new path, or an existing regular file (also through a symlink: the link is kept and its
///   target replaced): the bytes go to a hidden temporary file in the destination's folder
///   (`.NAME.tmp-XXXXXX`, made with `mkstemp`; NAME is shortened so the temporary name never
///   exceeds `NAME_MAX`), and ``commit()`` flushes it (`fsync`), renames it over the destination
///   (atomic within one file system, POSIX `rename`) and syncs the folder. Readers only ever see
///   no file or the complete file;
/// - anything else that exists — a character or block device, a FIFO, a socket, a symlink to one
///   of those — and `-` (standard output): written in place, never replaced and never removed
///   (a FIFO is opened normally, so the open waits for a reader);
/// - a folder: an error.
///
/// Every failed `write(2)` (`ENOSPC`, `EPIPE`, `EIO`, …) is a ``MediaError/io(operation:path:errno:)``
/// naming the output as the user gave it (`standard output` for `-`). ``discard()`` — or dropping
/// the writer without committing — removes the temporary file (in-place outputs are left alone).
/// Temporary files are listed in ``CleanupRegistry`` while they exist, so a signal removes them.
public final class AtomicFileWriter {
    /// How the destination is written.
    public enum Mode: Sendable, Equatable {
        /// Temporary file + rename.
        case replace
        /// Opened and written in place (devices, FIFOs, sockets, standard output).
        case inPlace
    }

    /// The final path as given (`-` for standard output).
    public let path: String
    /// How ``path`` is written.
    public let mode: Mode
    /// The temporary file being written (empty for in-place outputs).
    public let temporaryPath: String
    /// The name used in error messages: the path, or `standard output` for `-`.
    public var displayName: String { AtomicFileWriter.displayName(path) }
    /// Where the rename goes (the symlink's target for a link to a regular file).
    private let renameTarget: String
    private var fd: Int32
    private var done = false

    /// Opens the destination (see the type's notes).
    /// - Throws: ``MediaError/io(operation:path:errno:)`` when the folder does not exist or is not
    ///   writable, or the device cannot be opened; ``MediaError/invalidArgument(_:)`` for a folder.
    public init(path: String) throws(MediaError) {
        self.path = path
        switch try AtomicFileWriter.classify(path) {
        case .standardOutput:
            mode = .inPlace; temporaryPath = ""; renameTarget = path; fd = 1
        case .special:
            mode = .inPlace; temporaryPath = ""; renameTarget = path
            fd = try AtomicFileWriter.openInPlace(path)
        case .replace(let target):
            mode = .replace; renameTarget = target
            (temporaryPath, fd) = try AtomicFileWriter.makeTemporary(for: target)
        }
    }

    deinit {
        if !done { discard() }
    }

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(MediaError) {
        precondition(!done, "AtomicFileWriter used after commit() or discard()")
        try AtomicFileWriter.writeAll(fd, bytes, path: displayName)
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(MediaError) {
        var result: Result<Void, MediaError> = .success(())
        bytes.withUnsafeBytes { raw in result = Result { () throws(MediaError) in try write(raw) } }
        try result.get()
    }

    /// Completes the output. A replaced file is synced, closed and renamed to ``path`` (on failure
    /// the temporary file is removed and the destination is left as it was); an in-place output is
    /// closed (standard output stays open), and a failed close is an error too.
    public func commit() throws(MediaError) {
        precondition(!done, "AtomicFileWriter committed twice or after discard()")
        done = true
        if mode == .inPlace {
            if fd != 1, close(fd) != 0, errno != EINTR { throw .io(operation: "close", path: displayName, errno: errno) }
            return
        }
        defer { CleanupRegistry.shared.remove(path: temporaryPath) }
        if fsync(fd) != 0 {
            let e = errno
            close(fd); unlink(temporaryPath)
            throw .io(operation: "write", path: displayName, errno: e)
        }
        if close(fd) != 0 {
            let e = errno
            unlink(temporaryPath)
            throw .io(operation: "write", path: displayName, errno: e)
        }
        try AtomicFileWriter.rename(temporaryPath, to: renameTarget)
    }

    /// Closes and removes the temporary file; the destination is untouched. Safe to call twice.
    public func discard() {
        guard !done else { return }
        done = true
        if mode == .inPlace {
            if fd != 1 { close(fd) }
            return
        }
        close(fd)
        unlink(temporaryPath)
        CleanupRegistry.shared.remove(path: temporaryPath)
    }

    /// Writes `bytes` to `path` (see the type's notes).
    public static func write(_ bytes: [UInt8], to path: String) throws(MediaError) {
        let writer = try AtomicFileWriter(path: path)
        do {
            try writer.write(bytes)
            try writer.commit()
        } catch {
            writer.discard()
            throw error
        }
    }

    // MARK: - What the destination is

    /// How a destination is written.
    enum Destination: Equatable {
        /// `-`.
        case standardOutput
        /// An existing device, FIFO or socket (or a link to one): in place.
        case special
        /// A new path or a regular file: temporary + rename onto `target`.
        case replace(target: String)
    }

    /// Whether `path` would be written in place (`-`, a device, FIFO or socket, or a link to one).
    public static func writesInPlace(_ path: String) -> Bool {
        switch try? classify(path) {
        case .standardOutput?, .special?: return true
        default: return false
        }
    }

    /// `standard output` for `-`, else the path.
    public static func displayName(_ path: String) -> String { path == "-" ? "standard output" : path }

    /// The one-line message for a failed write of `path`: `cannot write 'PATH': OPERATION failed:
    /// REASON` (the `strerror` text) for an I/O error, else `cannot write 'PATH': ERROR`.
    public static func failureMessage(_ error: MediaError, writing path: String) -> String {
        let name = displayName(path)
        if case .io(let operation, _, let code) = error {
            return "cannot write '\(name)': \(operation) failed: \(String(cString: strerror(code)))"
        }
        return "cannot write '\(name)': \(error)"
    }

    /// What `path` is, from `lstat` (and `stat` through a symlink).
    static func classify(_ path: String) throws(MediaError) -> Destination {
        if path == "-" { return .standardOutput }
        guard !path.isEmpty else { throw .invalidArgument("the output path is empty") }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let e = errno
            if e == ENOENT { return .replace(target: path) }
            throw .io(operation: "open", path: path, errno: e)
        }
        var target = path
        if (info.st_mode & S_IFMT) == S_IFLNK {
            guard stat(path, &info) == 0 else {
                // A dangling link: replace the link itself, as a new path would be made.
                return .replace(target: path)
            }
            if (info.st_mode & S_IFMT) == S_IFREG, let resolved = realpath(path, nil) {
                target = String(cString: resolved)
                free(resolved)
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .replace(target: target)
        case S_IFDIR: throw .invalidArgument("output '\(path)' is a folder, not a file")
        default: return .special
        }
    }

    /// Opens a device, FIFO or socket for writing without truncating or creating anything.
    static func openInPlace(_ path: String) throws(MediaError) -> Int32 {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK { return try connectSocket(path) }
        while true {
            let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            throw .io(operation: "open", path: path, errno: errno)
        }
    }

    /// Connects to a Unix stream socket (`open` cannot open one).
    static func connectSocket(_ path: String) throws(MediaError) -> Int32 {
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .io(operation: "open socket", path: path, errno: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { close(fd); throw .io(operation: "open socket", path: path, errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { let e = errno; close(fd); throw .io(operation: "open socket", path: path, errno: e) }
        return fd
    }

    // MARK: - Helpers shared with the video writers

    /// The folder part of `path` (`.` when there is none).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    /// The longest file name allowed (POSIX `NAME_MAX` on Linux).
    static let nameMax = 255

    /// `.NAME.tmp-XXXXXX` for a file named `name`, NAME cut (on a character boundary) so the whole
    /// name fits in ``nameMax`` bytes.
    static func temporaryName(for name: String) -> String {
        let room = nameMax - ".".utf8.count - ".tmp-XXXXXX".utf8.count
        var kept = "", used = 0
        for scalar in name.unicodeScalars {
            let n = String(scalar).utf8.count
            if used + n > room { break }
            kept.unicodeScalars.append(scalar)
            used += n
        }
        return "." + kept + ".tmp-XXXXXX"
    }

    /// Creates the temporary file next to `path`; returns its path and an open descriptor. The
    /// path is listed in ``CleanupRegistry`` until the writer commits or discards it.
    static func makeTemporary(for path: String) throws(MediaError) -> (String, Int32) {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw .invalidArgument("output path '\(path)' names a folder, not a file") }
        var template = Array((directory(of: path) + "/" + temporaryName(for: name)).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fd >= 0 else { throw .io(operation: "create temporary file", path: path, errno: errno) }
        CleanupRegistry.shared.add(path: temporary)
        fchmod(fd, 0o644)
        return (temporary, fd)
    }

    /// Renames `temporary` to `path` and syncs the folder; removes `temporary` on failure.
    static func rename(_ temporary: String, to path: String) throws(MediaError) {
        #if canImport(Glibc)
        let result = Glibc.rename(temporary, path)
        #else
        let result = Darwin.rename(temporary, path)
        #endif
        if result != 0 {
            let e = errno
            unlink(temporary)
            throw .io(operation: "rename", path: path, errno: e)
        }
        // Make the rename itself durable; some file systems refuse fsync on folders, which is harmless.
        let dirFD = open(directory(of: path), O_RDONLY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }

    /// `write(2)` until every byte is written, retrying on `EINTR`. A write that makes no progress
    /// (returns 0) is `EIO`.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(MediaError) {
        guard var p = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = Glibc.write(fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(operation: "write", path: path, errno: errno)
            }
            if n == 0 { throw .io(operation: "write", path: path, errno: EIO) }
            p += n
            left -= n
        }
    }

    /// `mkdir -p`: creates `path` and any missing parents (mode 0755). Returns the folders it made,
    /// outermost first (so a cancelled run can remove exactly those).
    @discardableResult
    static func makeDirectories(_ path: String) throws(MediaError) -> [String] {
        var current = path.hasPrefix("/") ? "/" : ""
        var made: [String] = []
        for component in path.split(separator: "/") {
            current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + component
            if mkdir(current, 0o755) == 0 {
                made.append(current)
            } else if errno != EEXIST {
                throw .io(operation: "create folder", path: current, errno: errno)
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .io(operation: "create folder", path: path, errno: ENOTDIR)
        }
        return made
    }
}
