import Foundation
import Synchronization

/// File reading for inputs (styles, GeoJSON, flights): failures become ``InputError``s that name
/// the path, so modules without Foundation can read files too.
public enum FileInput {
    /// Largest input file accepted by default (512 MiB): larger inputs (a 10 GB GeoJSON) are
    /// refused before anything is read, instead of exhausting memory.
    public static let defaultMaxBytes = 512 << 20

    /// The whole file. `-` is standard input; a pipe, FIFO, `/dev/stdin` or other non-regular
    /// file is read to its end, with the same size limit counted as it is read.
    /// - Throws: ``InputError`` naming `path` when the file is missing, unreadable, a directory,
    ///   or larger than `maxBytes`.
    public static func read(_ path: String, maxBytes: Int = defaultMaxBytes) throws(InputError) -> [UInt8] {
        if path == "-" { return try standardInput(maxBytes: maxBytes) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let e = errno
            throw InputError(file: path, message: e == ENOENT ? "no such file" : "cannot open: \(String(cString: strerror(e)))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw InputError(file: path, message: "is a directory, not a file")
        }
        if (info.st_mode & S_IFMT) == S_IFREG, Int64(info.st_size) > Int64(maxBytes) {
            throw InputError(file: path, message: "file is \(Int64(info.st_size) >> 20) MiB, larger than the limit of \(maxBytes >> 20) MiB")
        }
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            throw InputError(file: path, message: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        return try readAll(fd, name: path, maxBytes: maxBytes)
    }

    /// Standard input, read once: a second `-` in the same run gets the same bytes.
    private static func standardInput(maxBytes: Int) throws(InputError) -> [UInt8] {
        if let cached = stdinCache.withLock({ $0 }) { return cached }
        let bytes = try readAll(0, name: "-", maxBytes: maxBytes)
        stdinCache.withLock { $0 = bytes }
        return bytes
    }

    private static let stdinCache = Mutex<[UInt8]?>(nil)

    /// `read(2)` to end of file, failing once more than `maxBytes` have come.
    static func readAll(_ fd: Int32, name: String, maxBytes: Int) throws(InputError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: name, message: "cannot read the file: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= maxBytes else {
                throw InputError(file: name, message: "input is larger than the limit of \(maxBytes >> 20) MiB")
            }
            bytes += chunk[0..<n]
        }
    }

    /// True when `path` names an existing regular file (or a link to one).
    public static func isFile(_ path: String) -> Bool {
        if path == "-" { return true }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}

extension JSONDocument {
    /// Reads and parses a JSON file; errors name `path`.
    public init(contentsOfFile path: String, limits: JSONLimits = JSONLimits()) throws(InputError) {
        try self.init(file: path, bytes: try FileInput.read(path), limits: limits)
    }
}
