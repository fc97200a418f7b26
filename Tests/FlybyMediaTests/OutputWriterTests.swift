import Foundation
import Testing
@testable import FlybyMedia

/// The one output writer never replaces or removes what is not a regular file (issue 14).
@Suite struct OutputWriterTests {
    /// The file type bits of `path` (`lstat`, so a link is a link).
    static func kind(_ path: String) -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        return info.st_mode & S_IFMT
    }

    @Test func devNullIsWrittenInPlaceAndStaysADevice() throws {
        #expect(Self.kind("/dev/null") == S_IFCHR)
        let writer = try AtomicFileWriter(path: "/dev/null")
        #expect(writer.mode == .inPlace)
        try writer.write([1, 2, 3])
        try writer.commit()
        try AtomicFileWriter.write(Array("trace\n".utf8), to: "/dev/null")
        #expect(Self.kind("/dev/null") == S_IFCHR)
    }

    @Test func symlinkToADeviceIsWrittenThroughAndKept() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = folder + "/out.jsonl"
        #expect(symlink("/dev/null", link) == 0)
        try AtomicFileWriter.write([7, 7], to: link)
        #expect(Self.kind(link) == S_IFLNK)
        #expect(Self.kind("/dev/null") == S_IFCHR)
        #expect(folderContents(folder) == ["out.jsonl"])
    }

    @Test func symlinkToARegularFileKeepsTheLinkAndReplacesItsTarget() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AtomicFileWriter.write([1], to: folder + "/real.bin")
        #expect(symlink(folder + "/real.bin", folder + "/link.bin") == 0)
        try AtomicFileWriter.write([2, 3], to: folder + "/link.bin")
        #expect(Self.kind(folder + "/link.bin") == S_IFLNK)
        #expect(FileManager.default.contents(atPath: folder + "/real.bin") == Data([2, 3]))
        #expect(folderContents(folder) == ["link.bin", "real.bin"])
    }

    @Test func fifoWithAReaderGetsTheBytesAndStaysAFifo() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let payload = [UInt8]((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        // The reader opens the FIFO on its own thread; the writer's open waits for it.
        let reader = Task.detached { () -> [UInt8] in
            guard let handle = FileHandle(forReadingAtPath: fifo) else { return [] }
            return [UInt8](handle.readDataToEndOfFile())
        }
        try AtomicFileWriter.write(payload, to: fifo)
        let received = await reader.value
        #expect(received == payload)
        #expect(Self.kind(fifo) == S_IFIFO)
        #expect(folderContents(folder) == ["pipe"])
    }

    @Test func devFullIsANoSpaceErrorNamingTheOutput() throws {
        #expect {
            try AtomicFileWriter.write([UInt8](repeating: 1, count: 10), to: "/dev/full")
        } throws: { error in
            guard case .io(_, let path, let code) = error as? MediaError else { return false }
            return path == "/dev/full" && code == ENOSPC && "\(error)".contains("/dev/full")
        }
        #expect(Self.kind("/dev/full") == S_IFCHR)
    }

    @Test func dashIsStandardOutputWrittenInPlace() throws {
        let writer = try AtomicFileWriter(path: "-")
        #expect(writer.mode == .inPlace)
        #expect(writer.displayName == "standard output")
        writer.discard()
        // Standard output stays open after the writer is gone.
        #expect(fcntl(1, F_GETFD) != -1)
    }

    @Test func aFolderIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: MediaError.self) { try AtomicFileWriter.write([1], to: folder) }
        #expect(Self.kind(folder) == S_IFDIR)
    }

    @Test func a250CharacterNameIsWrittenWithATemporaryNameWithinNameMax() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = String(repeating: "n", count: 240) + ".trace.jsonl"  // 252 bytes
        #expect(name.utf8.count >= 250)
        let writer = try AtomicFileWriter(path: folder + "/" + name)
        let temporaryName = String(writer.temporaryPath.split(separator: "/").last!)
        #expect(temporaryName.utf8.count <= 255)
        try writer.write([5])
        try writer.commit()
        #expect(folderContents(folder) == [name])
        // Multi-byte names are cut on a character boundary.
        let wide = String(repeating: "é", count: 127)  // 254 bytes
        try AtomicFileWriter.write([6], to: folder + "/" + wide)
        #expect(folderContents(folder).contains(wide))
        #expect(AtomicFileWriter.temporaryName(for: wide).utf8.count <= 255)
    }

    @Test func temporaryFilesAreRegisteredUntilCommitted() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try AtomicFileWriter(path: folder + "/r.bin")
        // Tests run in parallel and register their own files, so ask about this writer's path.
        #expect(CleanupRegistry.shared.contains(path: writer.temporaryPath))
        try writer.commit()
        #expect(!CleanupRegistry.shared.contains(path: writer.temporaryPath))
    }

    /// ENOSPC on a tiny tmpfs: needs permission to mount (root with CAP_SYS_ADMIN).
    @Test func fullFileSystemIsAnErrorAndLeavesNothing() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder]
        mount.standardError = FileHandle.nullDevice
        guard (try? mount.run()) != nil else { return }
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else {
            print("skipped: cannot mount a tmpfs here (\(mount.terminationStatus)); ENOSPC is covered by /dev/full")
            return
        }
        defer {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [folder]
            try? umount.run()
            umount.waitUntilExit()
        }
        #expect {
            try AtomicFileWriter.write([UInt8](repeating: 1, count: 1 << 20), to: folder + "/big.bin")
        } throws: { error in
            guard case .io(_, let path, let code) = error as? MediaError else { return false }
            return path == folder + "/big.bin" && code == ENOSPC
        }
        #expect(folderContents(folder).isEmpty)
    }

    @Test func cancelledPNGFolderRemovesOnlyWhatThisRunMade() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let frame = [UInt32](repeating: 0xFF10_2030, count: 4 * 3)
        // A folder that existed keeps its earlier files.
        try AtomicFileWriter.write([1], to: root + "/notes.txt")
        let existing = try PNGFolderWriter(directory: root, width: 4, height: 3)
        #expect(existing.folderExisted)
        try existing.write(frame: frame, index: 0)
        try existing.write(frame: frame, index: 1)
        existing.cancel()
        #expect(folderContents(root) == ["notes.txt"])
        // A folder this run made goes, with its new parents.
        let fresh = try PNGFolderWriter(directory: root + "/a/b", width: 4, height: 3)
        #expect(!fresh.folderExisted)
        try fresh.write(frame: frame, index: 5)
        fresh.cancel()
        #expect(folderContents(root) == ["notes.txt"])
    }
}

/// A Unix socket output is connected to, never replaced.
@Suite struct SocketOutputTests {
    @Test func aListeningSocketGetsTheBytesAndStaysASocket() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(listen(listener, 1) == 0)
        let reader = Task.detached { () -> [UInt8] in
            let conn = accept(listener, nil, nil)
            guard conn >= 0 else { return [] }
            defer { close(conn) }
            var got: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(conn, $0.baseAddress, $0.count) }
                if n <= 0 { return got }
                got += chunk[0..<n]
            }
        }
        try AtomicFileWriter.write(Array("hello socket".utf8), to: path)
        #expect(await reader.value == Array("hello socket".utf8))
        #expect(OutputWriterTests.kind(path) == S_IFSOCK)
    }
}
