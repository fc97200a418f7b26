import FlybyTestSupport
import Foundation
import Testing

/// The built `flyby` binary run as a subprocess (issue 14): signals, special outputs, pipes as
/// inputs and memory limits. Needs `swift build` (or `--build-tests`) to have built it.
@Suite(.serialized) struct ProcessSafetyTests {
    /// `.build/debug/flyby` of this checkout.
    static let binary: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)  // Tests/FlybyCLITests/Play/ProcessSafetyTests.swift
        return parts.joined(separator: "/") + "/.build/debug/flyby"
    }()

    /// 60 s at 10 fps on 160×90 frames: long enough to be interrupted after its first frames.
    static let longFlight = #"""
    {"flyby": 1, "size": [160, 90], "fps": 10, "style": "world", "camera": {"center": [10, 50], "zoom": 3},
     "steps": [{"ease": {"to": {"center": [20, 40], "zoom": 4, "bearing": 30}, "duration": 60, "curve": "linear"}}]}
    """#

    static func tempFolder() throws -> String {
        let path = NSTemporaryDirectory() + "flyby-safety-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    static func text(_ path: String) -> String {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Runs `/bin/sh -c script` with `FLYBY` set to the binary; stdout and stderr go to files in
    /// `folder`. Returns the status and both texts.
    @discardableResult
    static func shell(_ script: String, in folder: String, environment extra: [String: String] = [:]) throws
        -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var env = ProcessInfo.processInfo.environment
        env["FLYBY"] = binary
        for (k, v) in extra { env[k] = v }
        process.environment = env
        let out = folder + "/.stdout", err = folder + "/.stderr"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        process.waitUntilExit()
        let result = (process.terminationStatus, text(out), text(err))
        try? FileManager.default.removeItem(atPath: out)
        try? FileManager.default.removeItem(atPath: err)
        return result
    }

    enum Output: String, CaseIterable, Sendable { case mp4, y4m, newFolder, existingFolder }

    /// Starts a render, sends `signal` once the first frame is reported, and checks the exit
    /// status, the message and that nothing this run made remains (also ffmpeg's stderr file,
    /// which goes to TMPDIR).
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP], Output.allCases)
    func signalMidRenderStopsAndLeavesNothingThisRunMade(signal: Int32, output: Output) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build flyby first")
        if output == .mp4, !FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") { return }
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let work = dir + "/work", scratch = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        try Data(Self.longFlight.utf8).write(to: URL(fileURLWithPath: dir + "/long.flight.json"))
        let out: String
        switch output {
        case .mp4: out = work + "/clip.mp4"
        case .y4m: out = work + "/clip.y4m"
        case .newFolder: out = work + "/frames"
        case .existingFolder:
            out = work
            try Data("keep".utf8).write(to: URL(fileURLWithPath: work + "/notes.txt"))
        }
        let before = Self.files(work)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["play", dir + "/long.flight.json", "--out", out, "--threads", "1", "--progress", "json"]
        var env = ProcessInfo.processInfo.environment
        env["TMPDIR"] = scratch
        process.environment = env
        let stderrPath = dir + "/stderr.txt"
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Wait (bounded) for the first progress line: at least one frame is done.
        var polls = 0
        while !Self.text(stderrPath).contains("\"done\"") && process.isRunning && polls < 6000 {
            usleep(10_000)
            polls += 1
        }
        try #require(process.isRunning, "flyby ended before it could be interrupted: \(Self.text(stderrPath))")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()

        let message = Self.text(stderrPath).split(separator: "\n").last.map(String.init) ?? ""
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + signal, "\(message)")
        #expect(message.hasPrefix("flyby: error: interrupted by SIG"), "\(message)")
        #expect(Self.files(work) == before, "left in the output folder")
        #expect(Self.files(scratch).isEmpty, "left in TMPDIR")
        if output == .existingFolder {
            #expect(message.contains("what was there before is kept"), "\(message)")
        } else {
            #expect(message.contains("was not written"), "\(message)")
        }
    }

    @Test func traceToAFullStandardOutputExitsTwoNamingIt() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build flyby first")
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(Self.longFlight.utf8).write(to: URL(fileURLWithPath: dir + "/f.flight.json"))
        let full = try Self.shell(#""$FLYBY" trace f.flight.json > /dev/full"#, in: dir)
        #expect(full.status == 2)
        #expect(full.stderr.hasPrefix("flyby: error: standard output:"), "\(full.stderr)")
        let explicit = try Self.shell(#""$FLYBY" trace f.flight.json --out /dev/full"#, in: dir)
        #expect(explicit.status == 2)
        #expect(explicit.stderr.contains("/dev/full"), "\(explicit.stderr)")
        // A closed pipe (EPIPE, SIGPIPE ignored) is a failed write too: the trace (~90 KB) is
        // more than the pipe holds, so a write fails once `true` has exited.
        let closed = try Self.shell(#"{ "$FLYBY" trace f.flight.json; echo $? > st; } | true; exit $(cat st)"#, in: dir)
        #expect(closed.status == 2, "\(closed.stderr)")
        #expect(closed.stderr.contains("standard output: write failed: Broken pipe"), "\(closed.stderr)")
    }

    @Test func devNullAndDashOutputsAreWrittenInPlace() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build flyby first")
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(Self.longFlight.utf8).write(to: URL(fileURLWithPath: dir + "/f.flight.json"))
        let null = try Self.shell(#""$FLYBY" trace f.flight.json --out /dev/null"#, in: dir)
        #expect(null.status == 0, "\(null.stderr)")
        var info = stat()
        #expect(lstat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        let plain = try Self.shell(#""$FLYBY" trace f.flight.json"#, in: dir)
        let dash = try Self.shell(#""$FLYBY" trace f.flight.json --out -"#, in: dir)
        #expect(dash.status == 0)
        #expect(!plain.stdout.isEmpty && dash.stdout == plain.stdout)
        #expect(Self.files(dir) == ["f.flight.json"])
    }

    @Test func flightsAreReadFromPipesFIFOsAndStandardInput() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build flyby first")
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(Self.longFlight.utf8).write(to: URL(fileURLWithPath: dir + "/f.flight.json"))
        let expected = try Self.shell(#""$FLYBY" trace f.flight.json"#, in: dir).stdout
        #expect(!expected.isEmpty)
        for script in [#"cat f.flight.json | "$FLYBY" trace -"#,
                       #""$FLYBY" trace /dev/stdin < f.flight.json"#,
                       #"cat f.flight.json | "$FLYBY" trace /dev/stdin"#,
                       #"mkfifo in.fifo && (cat f.flight.json > in.fifo &) && "$FLYBY" trace in.fifo; s=$?; rm -f in.fifo; exit $s"#] {
            let run = try Self.shell(script, in: dir)
            #expect(run.status == 0, "\(script): \(run.stderr)")
            #expect(run.stdout == expected, "\(script)")
        }
        let bad = try Self.shell(#"echo '{"flyby": 1}' | "$FLYBY" trace -"#, in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("flyby: error: standard input:"), "\(bad.stderr)")
    }

    @Test func aFileNameWithANewlineGivesAOneLineError() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build flyby first")
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try Self.shell(#""$FLYBY" trace "$(printf 'bad\nname.flight.json')""#, in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains(#"bad\nname.flight.json"#), "\(run.stderr)")
    }

    @Test func a250CharacterOutputNameIsWritten() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build flyby first")
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(Self.longFlight.utf8).write(to: URL(fileURLWithPath: dir + "/f.flight.json"))
        let name = String(repeating: "t", count: 238) + ".trace.jsonl"
        #expect(name.utf8.count == 250)
        let run = try Self.shell(#""$FLYBY" trace f.flight.json --out "# + name, in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.files(dir) == [name, "f.flight.json"].sorted())
    }

    /// `ulimit -v` in KiB; glibc's per-thread malloc arenas would otherwise reserve 64 MiB each.
    static func limited(_ kib: Int, _ command: String) -> String {
        "ulimit -v \(kib); exec \(command)"
    }

    @Test func hugePlaySettingsAreAClearErrorUnderAMemoryLimit() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build flyby first")
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(Self.longFlight.utf8).write(to: URL(fileURLWithPath: dir + "/f.flight.json"))
        let env = ["MALLOC_ARENA_MAX": "2"]
        let huge = try Self.shell(Self.limited(3_000_000, #""$FLYBY" play f.flight.json --out null --threads 16 --size 16384x16384 --frames 0:1"#),
                                  in: dir, environment: env)
        #expect(huge.status == 2, "\(huge.stderr)")
        #expect(huge.stderr.contains("memory budget"), "\(huge.stderr)")
        let small = try Self.shell(#""$FLYBY" play f.flight.json --out null --size 4096x4096 --memory 64 --frames 0:1"#, in: dir)
        #expect(small.status == 2)
        #expect(small.stderr.contains("over the memory budget of 64 MiB"), "\(small.stderr)")
        // Within the budget the window shrinks instead: 16 threads asked, 2048² frames, 200 MiB.
        let fits = try Self.shell(Self.limited(3_000_000, #""$FLYBY" play f.flight.json --out null --threads 16 --size 2048x2048 --memory 200 --frames 0:2"#),
                                  in: dir, environment: env)
        #expect(fits.status == 0, "\(fits.stderr)")
    }

    /// A 3 px line dashed [1e-6, 1e-6] (and absurd widths, radii and text sizes) renders within
    /// a 2 GiB address space.
    @Test func fineDashPatternAndHugeSizesRenderWithBoundedMemory() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build flyby first")
        let dir = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let style = #"""
        {"version": 8, "name": "fine", "center": [0, 0], "zoom": 2,
         "sources": {"lines": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
           {"type": "Feature", "properties": {"name": "A"}, "geometry": {"type": "LineString", "coordinates": [[-170, -60], [170, 60], [-170, 60]]}},
           {"type": "Feature", "properties": {"name": "B"}, "geometry": {"type": "Point", "coordinates": [10, 10]}}]}}},
         "layers": [
           {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
           {"id": "dash", "type": "line", "source": "lines", "paint": {"line-width": 3, "line-dasharray": [1e-6, 1e-6], "line-color": "#000000"}},
           {"id": "wide", "type": "line", "source": "lines", "paint": {"line-width": 1e9, "line-color": "#ff0000", "line-opacity": 0.1}},
           {"id": "dot", "type": "circle", "source": "lines", "paint": {"circle-radius": 1e9, "circle-opacity": 0.1}},
           {"id": "text", "type": "symbol", "source": "lines", "layout": {"text-field": ["get", "name"], "text-size": 1e7}}
         ]}
        """#
        try Data(style.utf8).write(to: URL(fileURLWithPath: dir + "/fine.json"))
        let run = try Self.shell(Self.limited(2_000_000, #""$FLYBY" snapshot --style fine.json --size 640x360 --out fine.png"#),
                                 in: dir, environment: ["MALLOC_ARENA_MAX": "2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.files(dir).contains("fine.png"))
    }
}
