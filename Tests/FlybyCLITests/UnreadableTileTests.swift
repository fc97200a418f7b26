import FlybyCLI
import FlybyTestSupport
import Foundation
import Testing

/// A tile that cannot be decoded is bad input like any other (CONTRACTS.md §1): the command
/// that meets it while drawing exits 2 naming the archive and the tile's z/x/y, and writes no
/// frame that lacks it.
@Suite struct UnreadableTileTests {
    /// A folder archive `{z}/{x}/{y}.pbf` whose only tile, 0/0/0, is not a vector tile, and a
    /// style drawing it; returns the folder and the style's path.
    func corruptArchive() throws -> (dir: String, style: String) {
        let dir = NSTemporaryDirectory() + "flyby-unreadable-tile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/tiles/0/0", withIntermediateDirectories: true)
        // Field 3 (layers) with a length far past the end: a truncated protobuf.
        try Data([0x1A, 0xFF, 0x01, 0x08]).write(to: URL(fileURLWithPath: dir + "/tiles/0/0/0.pbf"))
        let style = """
        {"version": 8, "center": [0, 0], "zoom": 0,
         "sources": {"t": {"type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 0}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "land", "type": "fill", "source": "t", "source-layer": "land"}]}
        """
        try Data(style.utf8).write(to: URL(fileURLWithPath: dir + "/tiles.style.json"))
        return (dir, dir + "/tiles.style.json")
    }

    @Test func snapshotExitsTwoNamingTheTileAndWritesNothing() throws {
        let (dir, style) = try corruptArchive()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = CommandOutput(captures: true)
        let code = FlybyCommandLine.run(arguments: ["snapshot", "--out", dir + "/a.png", "--size", "64x64", "--style", style], output: out)
        #expect(code == 2)
        #expect(out.stderrText.hasPrefix("flyby: error:") && out.stderrText.contains("0/0/0"), "\(out.stderrText)")
        #expect(out.stderrText.contains(dir + "/tiles"), "names the archive: \(out.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/a.png"))
    }

    @Test func playExitsTwoNamingTheTileAndLeavesNoFrames() throws {
        let (dir, style) = try corruptArchive()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = #"{"flyby": 1, "size": [64, 64], "fps": 10, "style": "\#(style)", "steps": [{"wait": 0.5}]}"#
        try Data(flight.utf8).write(to: URL(fileURLWithPath: dir + "/f.flight.json"))
        let out = CommandOutput(captures: true)
        let code = FlybyCommandLine.run(arguments: ["play", dir + "/f.flight.json", "--out", dir + "/frames", "--threads", "2"], output: out)
        #expect(code == 2)
        #expect(out.stderrText.contains("flyby: error:") && out.stderrText.contains("0/0/0"), "\(out.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/frames"), "no half-written output")
    }
}

/// `--tile-cache` and the tile prefetch of `play` change how often tiles are decoded, never a pixel.
@Suite struct TileCacheOptionTests {
    @Test func playGivesTheSameFramesWithNoCacheOneThreadAndWithACacheAndTwo() throws {
        let dir = NSTemporaryDirectory() + "flyby-tile-cache-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flight = #"""
        {"flyby": 1, "size": [96, 64], "fps": 10, "style": "world-tiles", "camera": {"center": [10, 50], "zoom": 2.5},
         "steps": [{"fly": {"to": {"center": [24.9, 60.2], "zoom": 4, "pitch": 40}, "duration": 0.5}}]}
        """#
        try Data(flight.utf8).write(to: URL(fileURLWithPath: dir + "/f.flight.json"))
        var frames: [[String: Data]] = []
        for (i, extra) in [["--tile-cache", "0", "--threads", "1"], ["--tile-cache", "256", "--threads", "2"]].enumerated() {
            let out = CommandOutput(captures: true)
            let folder = dir + "/frames\(i)"
            #expect(FlybyCommandLine.run(arguments: ["play", dir + "/f.flight.json", "--out", folder] + extra, output: out) == 0, "\(out.stderrText)")
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                files[name] = FileManager.default.contents(atPath: folder + "/" + name)
            }
            frames.append(files)
        }
        #expect(frames[0].count == 6)
        #expect(frames[0] == frames[1])
    }

    @Test(arguments: ["-1", "65537", "lots"])
    func aBadCacheSizeExitsTwoNamingTheOption(_ value: String) {
        let out = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: ["snapshot", "--out", "/tmp/never-written.png", "--tile-cache", value], output: out) == 2)
        #expect(out.stderrText.contains("--tile-cache"), "\(out.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.png"))
    }
}
