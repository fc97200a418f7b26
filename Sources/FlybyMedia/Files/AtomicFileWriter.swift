#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers only ever see no file or the complete file.
///
/// The bytes go to a hidden temporary file in the destination's folder (`.NAME.tmp-XXXXXX`, made with
/// `mkstemp`, so concurrent writers never collide). ``commit()`` flushes it to disk (`fsync`),
/// renames it over the destination (atomic within one file system, POSIX `rename`) and syncs the
/// folder. ``discard()`` — or dropping the writer without committing — removes the temporary file.
public final class AtomicFileWriter {
    /// The final path.
    public let path: String
    /// The temporary file being written.
    public let temporaryPath: String
    private var fd: Int32
    private var done = false

    /// Creates the temporary file next to `path`.
    /// - Throws: ``MediaError/io(operation:path:errno:)`` when the folder does not exist or is not writable.
    public init(path: String) throws(MediaError) {
        self.path = path
        (temporaryPath, fd) = try AtomicFileWriter.makeTemporary(for: path)
    }

    deinit {
        if !done { discard() }
    }

    /// Appends `bytes` to the temporary file.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(MediaError) {
        precondition(!done, "AtomicFileWriter used after commit() or discard()")
        try AtomicFileWriter.writeAll(fd, bytes, path: temporaryPath)
    }

    /// Appends `bytes` to the temporary file.
    public func write(_ bytes: [UInt8]) throws(MediaError) {
        var result: Result<Void, MediaError> = .success(())
        bytes.withUnsafeBytes { raw in result = Result { () throws(MediaError) in try write(raw) } }
        try result.get()
    }

    /// Syncs and closes the temporary file and renames it to ``path``. On failure the temporary file
    /// is removed and the destination is left as it was.
    public func commit() throws(MediaError) {
        precondition(!done, "AtomicFileWriter committed twice or after discard()")
        done = true
        if fsync(fd) != 0 {
            let e = errno
            close(fd); unlink(temporaryPath)
            throw .io(operation: "fsync", path: temporaryPath, errno: e)
        }
        if close(fd) != 0 {
            let e = errno
            unlink(temporaryPath)
            throw .io(operation: "close", path: temporaryPath, errno: e)
        }
        try AtomicFileWriter.rename(temporaryPath, to: path)
    }

    /// Closes and removes the temporary file; the destination is untouched. Safe to call twice.
    public func discard() {
        guard !done else { return }
        done = true
        close(fd)
        unlink(temporaryPath)
    }

    /// Writes `bytes` to `path` atomically (temporary file, fsync, rename).
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

    // MARK: - Helpers shared with the video writers

    /// The folder part of `path` (`.` when there is none).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    /// Creates `.NAME.tmp-XXXXXX` next to `path`; returns its path and an open descriptor.
    static func makeTemporary(for path: String) throws(MediaError) -> (String, Int32) {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw .invalidArgument("output path '\(path)' names a folder, not a file") }
        var template = Array((directory(of: path) + "/." + name + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fd >= 0 else { throw .io(operation: "create temporary file", path: path, errno: errno) }
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
        let dirFD = open(directory(of: path), O_RDONLY)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }

    /// `write(2)` until every byte is written, retrying on `EINTR`.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(MediaError) {
        guard var p = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = Glibc.write(fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(operation: "write", path: path, errno: errno)
            }
            p += n
            left -= n
        }
    }

    /// `mkdir -p`: creates `path` and any missing parents (mode 0755).
    static func makeDirectories(_ path: String) throws(MediaError) {
        var current = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw .io(operation: "create folder", path: current, errno: errno)
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .io(operation: "create folder", path: path, errno: ENOTDIR)
        }
    }
}
