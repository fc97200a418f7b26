import Foundation
import Testing
@testable import FlybyMedia

@Suite struct FileOutputTests {
    @Test func atomicWriteReplacesTheFileAndLeavesNoTemporary() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/a.bin"
        try AtomicFileWriter.write([1, 2, 3], to: path)
        try AtomicFileWriter.write([4, 5], to: path)
        #expect(FileManager.default.contents(atPath: path) == Data([4, 5]))
        #expect(folderContents(folder) == ["a.bin"])
    }

    @Test func discardedWriterLeavesNoFile() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try AtomicFileWriter(path: folder + "/b.bin")
        try writer.write([9, 9, 9])
        #expect(folderContents(folder).count == 1)  // the hidden temporary
        #expect(writer.temporaryPath.hasPrefix(folder + "/.b.bin.tmp-"))
        writer.discard()
        #expect(folderContents(folder).isEmpty)
    }

    @Test func missingFolderIsAnIOError() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
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
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/new/frames"
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

@Suite struct FrameOutputTests {
    @Test func outputKindFollowsTheExtension() throws {
        #expect(try FrameOutput("out/clip.mp4") == .mp4(path: "out/clip.mp4"))
        #expect(try FrameOutput("A.GIF") == .gif(path: "A.GIF"))
        #expect(try FrameOutput("x.y4m") == .y4m(path: "x.y4m"))
        #expect(try FrameOutput("-") == .y4m(path: "-"))
        #expect(try FrameOutput("clip.webm") == .video(path: "clip.webm", format: .webm))
        #expect(try FrameOutput("clip.MOV") == .video(path: "clip.MOV", format: .mov))
        #expect(try FrameOutput("clip.mkv") == .video(path: "clip.mkv", format: .mkv))
        #expect(try FrameOutput("frames") == .pngFolder(path: "frames"))
        #expect(try FrameOutput("frames.v2/") == .pngFolder(path: "frames.v2/"))
        #expect(try FrameOutput("null") == .null)
        // A device or FIFO without a known extension is a Y4M stream, never a folder.
        #expect(try FrameOutput("/dev/null") == .y4m(path: "/dev/null"))
    }

    @Test func unknownExtensionIsRefusedNamingTheSupportedOnes() throws {
        for name in ["clip.avi", "shot.jpg", "frame.png", "x.tiff"] {
            #expect {
                _ = try FrameOutput(name)
            } throws: { error in
                let text = "\(error)"
                return text.contains(name) && text.contains(".mp4") && text.contains(".webm") && text.contains("folder")
            }
        }
        // An existing folder is a PNG folder whatever its name.
        let folder = try makeTemporaryFolder() + ".frames"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try FrameOutput(folder) == .pngFolder(path: folder))
    }

    @Test func sinksForY4MPNGAndNull() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frame = [UInt32](repeating: 0xFF20_4060, count: 8 * 6)
        for out in [folder + "/a.y4m", folder + "/pngs", "null"] {
            let sink = try FrameOutput(out).makeSink(width: 8, height: 6, fps: 30)
            try sink.write(frame: frame, index: 3)
            try sink.finish()
        }
        #expect(folderContents(folder) == ["a.y4m", "pngs"])
        #expect(folderContents(folder + "/pngs") == ["frame-000003.png"])
        let image = try PNGDecoder.decode(contentsOfFile: folder + "/pngs/frame-000003.png")
        #expect(image.pixels == frame)
        #expect(throws: MediaError.self) { try PNGDecoder.decode(contentsOfFile: folder + "/a.y4m") }
    }

    @Test func mp4WithoutFFmpegIsFFmpegNotFound() {
        #expect(throws: MediaError.ffmpegNotFound(searchPath: "/nonexistent")) {
            _ = try FrameOutput("/tmp/never.mp4").makeSink(width: 8, height: 8, fps: 30,
                                                             ffmpeg: .init(searchPath: "/nonexistent"))
        }
    }

    @Test func preconditionsTrap() async {
        await #expect(processExitsWith: .failure) {
            _ = PNGFolderWriter.fileName(frameIndex: -1)
        }
        await #expect(processExitsWith: .failure) {
            var out: [UInt8] = []
            [UInt32](repeating: 0, count: 3).withUnsafeBufferPointer {
                Y4MWriter.convert($0, width: 2, height: 2, chroma: .c444, matrix: .bt601, into: &out)
            }
        }
    }
}
