import FlybyCLI
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Helpers of the render-farm tests: small flights, the built `flyby`, subprocesses, ffprobe.
enum Farm {
    /// A style that draws fast even in debug builds: a background, one polygon and one line
    /// (inline GeoJSON), so frames change as the camera moves.
    static let style = #"""
    {"version": 8, "name": "farm-test", "center": [0, 20], "zoom": 1,
     "sources": {"shapes": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
       {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-20, 0], [20, 0], [20, 30], [-20, 30], [-20, 0]]]}},
       {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-60, -10], [0, 20], [60, 50]]}}]}}},
     "layers": [
       {"id": "bg", "type": "background", "paint": {"background-color": "#d3d8ee"}},
       {"id": "fill", "type": "fill", "source": "shapes", "paint": {"fill-color": "#8fbf7a"}},
       {"id": "line", "type": "line", "source": "shapes", "paint": {"line-color": "#394263", "line-width": 3}}]}
    """#

    /// A 320×180 flight at 10 fps with `seconds` · 10 + 1 frames; `zoom` varies the flight.
    static func flight(seconds: Double, zoom: Double = 4) -> String {
        #"{"flyby": 1, "size": [320, 180], "fps": 10, "style": "farm.style.json", "camera": {"center": [0, 20], "zoom": 1}, "#
            + #""steps": [{"ease": {"to": {"zoom": \#(zoom), "bearing": 40, "pitch": 30}, "duration": \#(seconds), "curve": "linear"}}]}"#
    }

    /// A fresh folder holding the style and a flight; returns (folder, flight path).
    static func setUp(seconds: Double, zoom: Double = 4, name: String = "tour") throws -> (String, String) {
        let dir = NSTemporaryDirectory() + "flyby-farm-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(style.utf8).write(to: URL(fileURLWithPath: dir + "/farm.style.json"))
        let flightPath = dir + "/\(name).flight.json"
        try Data(flight(seconds: seconds, zoom: zoom).utf8).write(to: URL(fileURLWithPath: flightPath))
        return (dir, flightPath)
    }

    /// The repository root (this file is Tests/FlybyCLITests/Farm/FarmSupport.swift).
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/")
    }()

    /// The `flyby` built with the tests (`FLYBY_BIN` overrides).
    static func binary() throws -> String {
        if let bin = ProcessInfo.processInfo.environment["FLYBY_BIN"] { return bin }
        let candidates = [root + "/.build/debug/flyby", root + "/.build/release/flyby"]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
                            "no built flyby in .build (run swift build)")
    }

    /// Runs `flyby args…` in-process.
    @discardableResult
    static func flyby(_ args: [String]) -> (status: Int32, out: CommandOutput) {
        let out = CommandOutput(captures: true)
        return (FlybyCommandLine.run(arguments: args, output: out), out)
    }

    /// Starts a program (searched on PATH when it has no slash); stdout and stderr go to files.
    static func start(_ program: String, _ args: [String], log: String) throws -> Process {
        let p = Process()
        if program.contains("/") {
            p.executableURL = URL(fileURLWithPath: program)
            p.arguments = args
        } else {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = [program] + args
        }
        FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        p.standardOutput = handle
        p.standardError = handle
        p.standardInput = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Runs a program to the end; returns its status and everything it printed.
    static func run(_ program: String, _ args: [String]) throws -> (status: Int32, output: String) {
        let log = NSTemporaryDirectory() + "flyby-farm-log-" + UUID().uuidString
        defer { unlink(log) }
        let p = try start(program, args, log: log)
        p.waitUntilExit()
        return (p.terminationStatus, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    /// `Tools/farm/parallel FLIGHT OUT --flyby BIN args…`.
    static func parallel(_ flight: String, _ out: String, _ args: [String]) throws -> (status: Int32, output: String) {
        try run(root + "/Tools/farm/parallel", [flight, out, "--flyby", try binary()] + args)
    }

    /// Frames (decoded and counted), frame rate and size of a video's first stream, from ffprobe.
    static func probe(_ path: String) throws -> (frames: Int, rate: String, width: Int, height: Int) {
        let r = try run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                    "-show_entries", "stream=nb_read_frames,r_frame_rate,width,height", "-of", "default=nw=1", path])
        var values: [String: String] = [:]
        for line in r.output.split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { values[kv[0]] = kv[1] }
        }
        return (Int(values["nb_read_frames"] ?? "") ?? -1, values["r_frame_rate"] ?? "", Int(values["width"] ?? "") ?? -1,
                Int(values["height"] ?? "") ?? -1)
    }

    /// The MD5 of every decoded frame (ffmpeg `-f framemd5`), in order.
    static func frameHashes(_ path: String) throws -> [String] {
        let r = try run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"])
        return r.output.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Sums `rendered N` / `skipped N` over the shards' summary lines.
    static func segmentCounts(_ output: String) -> (rendered: Int, skipped: Int) {
        var rendered = 0, skipped = 0
        for line in output.split(separator: "\n") where line.contains("flyby play: shard") {
            let words = line.split(separator: " ")
            for (i, w) in words.enumerated() where i > 0 {
                if w == "segments," { rendered += Int(words[i - 1]) ?? 0 }
                if w == "skipped", i + 1 < words.count { skipped += Int(words[i + 1]) ?? 0 }
            }
        }
        return (rendered, skipped)
    }

    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    static func bytes(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }
}
