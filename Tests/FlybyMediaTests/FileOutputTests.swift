import Foundation
import Testing
@testable import FlybyMedia

@Suite struct FileOutputTests {
    @Test func atomicWriteReplacesTheFileAndLeavesNoTemporary() throws {
        let folder = try makeTemporaryFolder()
        let path = folder + "/a.bin"
        try AtomicFileWriter.write([1, 2, 3], to: path)
        try AtomicFileWriter.write([4, 5], to: path)
        #expect(FileManager.default.contents(atPath: path) == Data([4, 5]))
        #expect(folderContents(folder) == ["a.bin"])
    }

    @Test func discardedWriterLeavesNoFile() throws {
        let folder = try makeTemporaryFolder()
        let writer = try AtomicFileWriter(path: folder + "/b.bin")
        try writer.write([9, 9, 9])
        #expect(folderContents(folder).count == 1)  // the hidden temporary
        #expect(writer.temporaryPath.hasPrefix(folder + "/.b.bin.tmp-"))
        writer.discard()
        #expect(folderContents(folder).isEmpty)
    }

    @Test func missingFolderIsAnIOError() throws {
        let folder = try makeTemporaryFolder()
        #expect {
            try AtomicFileWriter.write([1], to: folder + "/no/such/dir/c.bin")
        } throws: { error in
            guard case .io(_, _, let code) = error as? MediaError else { return false }
            return code == ENOENT
        }
    }

    @Test func pngFolderNamesFramesByAbsoluteIndex() throws {
        #expect(PNGFolderWriter.fileName(frameIndex: 0) == "frame-000000.png")
        #expect(PNGFolderWriter.fileName(frameIndex: 42) == "frame-000042.png")
        #expect(PNGFolderWriter.fileName(frameIndex: 1_234_567) == "frame-1234567.png")
        let folder = try makeTemporaryFolder() + "/new/frames"
        let writer = try PNGFolderWriter(directory: folder, width: 4, height: 3)
        let frame = [UInt32](repeating: 0xFF11_2233, count: 12)
        try writer.write(frame: frame, index: 120)
        try writer.write(frame: frame, index: 121)
        try writer.finish()
        #expect(folderContents(folder) == ["frame-000120.png", "frame-000121.png"])
        let png = try #require(FileManager.default.contents(atPath: folder + "/frame-000121.png"))
        #expect(try PNGDecoder.decode([UInt8](png)).pixels == frame)
    }
}
