#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened read-only for positioned reads (POSIX `open`, `fstat`, `pread`), so an archive
/// of gigabytes is never read whole — or bytes in memory (fuzzing, tests). Every read is checked
/// against the size first.
final class ArchiveFile {
    let path: String
    let size: UInt64
    private let descriptor: Int32
    private let memory: [UInt8]?

    /// Bytes in memory named `name` (for errors).
    init(bytes: [UInt8], name: String) {
        path = name; size = UInt64(bytes.count); descriptor = -1; memory = bytes
    }

    init(path: String) throws(TileError) {
        self.path = path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw TileError(file: path, message: "cannot open (\(String(cString: strerror(errno))))") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            close(fd)
            throw TileError(file: path, message: "cannot read file status")
        }
        descriptor = fd
        memory = nil
        size = UInt64(max(0, st.st_size))
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// `length` bytes at `offset`; `what` names the part in the error when the range does not
    /// lie inside the file or the read fails.
    func read(offset: UInt64, length: UInt64, what: String) throws(TileError) -> [UInt8] {
        guard offset <= size, length <= size - offset else {
            throw TileError(file: path, message: "\(what) (\(length) bytes at offset \(offset)) runs past the end of the file (\(size) bytes)")
        }
        guard length > 0 else { return [] }
        if let memory { return Array(memory[Int(offset)..<Int(offset + length)]) }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        var done = 0
        var failed = false
        bytes.withUnsafeMutableBytes { buf in
            while done < buf.count {
                let n = pread(descriptor, buf.baseAddress! + done, buf.count - done, off_t(offset) + off_t(done))
                if n <= 0 { failed = true; return }
                done += n
            }
        }
        if failed { throw TileError(file: path, message: "cannot read \(what) at offset \(offset)") }
        return bytes
    }
}
