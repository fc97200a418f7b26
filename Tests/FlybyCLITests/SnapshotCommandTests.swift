import FlybyCLI
import FlybyMedia
import FlybyTestSupport
import Foundation
import Testing

@Suite struct SnapshotCommandTests {
    func temporaryFolder() throws -> String {
        let dir = NSTemporaryDirectory() + "flyby-snapshot-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A small style file (the built-in world style parses 50m data: slow in debug builds).
    func smallStyle(in dir: String) throws -> String {
        let path = dir + "/small.style.json"
        try Data(squareStyle(lng: 10, lat: 50).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func writesAPNGOfTheAskedSize() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let style = try smallStyle(in: dir)
        let out = CommandOutput(captures: true)
        let code = FlybyCommandLine.run(arguments: ["snapshot", "--out", dir + "/a.png", "--size", "96x64", "--style", style,
                                                    "--camera", #"{"center": [10, 50], "zoom": 3, "pitch": 40}"#], output: out)
        #expect(code == 0, "\(out.stderrText)")
        let bytes = try #require(FileManager.default.contents(atPath: dir + "/a.png"))
        let image = try PNGDecoder.decode([UInt8](bytes))
        #expect(image.width == 96 && image.height == 64)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["a.png", "small.style.json"], "no temporary file left")
    }

    @Test(arguments: [
        (["--style", "nosuchstyle"], "nosuchstyle"),
        (["--camera", #"{"zoom": "high"}"#], "--camera"),
        (["--camera", #"{"center": [10, 50"#], "--camera"),
        (["--size", "12xx"], "--size"),
        (["--threads", "0"], "--threads"),
        (["--threads", "many"], "--threads"),
        (["--pixel-ratio", "5"], "--pixel-ratio"),
        (["--pixel-ratio", "1.5"], "--pixel-ratio"),
        (["--language", "f i"], "language code"),
    ])
    func badInputExitsTwoNamingIt(_ extra: [String], _ named: String) throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = CommandOutput(captures: true)
        let style = try smallStyle(in: dir)
        let code = FlybyCommandLine.run(arguments: ["snapshot", "--out", dir + "/b.png", "--size", "32x32", "--style", style] + extra, output: out)
        #expect(code == 2)
        #expect(out.stderrText.hasPrefix("flyby: error:"), "\(out.stderrText)")
        #expect(out.stderrText.contains(named), "\(out.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/b.png"))
    }

    @Test func aPixelRatioTwoSnapshotHasTwiceThePixelsEachWay() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let style = try smallStyle(in: dir)
        let out = CommandOutput(captures: true)
        let code = FlybyCommandLine.run(arguments: ["snapshot", "--out", dir + "/r.png", "--size", "96x64", "--style", style,
                                                    "--pixel-ratio", "2", "--language", "fi",
                                                    "--camera", #"{"center": [10, 50], "zoom": 3}"#], output: out)
        #expect(code == 0, "\(out.stderrText)")
        let image = try PNGDecoder.decode([UInt8](try #require(FileManager.default.contents(atPath: dir + "/r.png"))))
        #expect(image.width == 192 && image.height == 128)
    }

    @Test func unwritableOutputExitsTwo() {
        let out = CommandOutput(captures: true)
        let code = FlybyCommandLine.run(arguments: ["snapshot", "--out", "/nonexistent-flyby-dir/c.png", "--size", "32x32"], output: out)
        #expect(code == 2)
        #expect(out.stderrText.hasPrefix("flyby: error:") && out.stderrText.contains("/nonexistent-flyby-dir/c.png"), "\(out.stderrText)")
    }

    @Test func benchRenderPrintsTheMedian() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = CommandOutput(captures: true)
        let code = FlybyCommandLine.run(arguments: ["bench", "render", "--size", "64x36", "--frames", "2", "--style", try smallStyle(in: dir)], output: out)
        #expect(code == 0, "\(out.stderrText)")
        #expect(out.stdoutText.contains("render.median_ms: "))
    }
}
