import FlybyCLI
import FlybyData
import FlybyTestSupport
import Foundation
import Testing

/// Bad flight scripts and command lines: exit 2, one `flyby: error:` line naming the file, the
/// line and column, and the JSON path.
@Suite struct BadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        /// Text the error line must contain.
        var expect: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "malformed JSON", json: #"{"steps": [}"#, expect: [":1:12:", "expected a value"]),
        Case(name: "truncated JSON", json: "{\"steps\": [{\"fly\": {\"to\": {\"zoom\": 3}", expect: [":1:", "unexpected end of input"]),
        Case(name: "trailing garbage", json: #"{"steps": []} x"#, expect: ["unexpected text after"]),
        Case(name: "unknown step", json: #"{"steps": [{"wait": 1}, {"teleport": {}}]}"#, expect: ["steps[1]", "unknown step 'teleport'"]),
        Case(name: "unknown top-level field", json: #"{"stepz": [], "steps": []}"#, expect: ["stepz", "unknown field"]),
        Case(name: "unknown camera field", json: #"{"steps": [{"set": {"zom": 3}}]}"#, expect: ["steps[0].set.zom", "unknown camera field"]),
        Case(name: "unknown step field", json: #"{"steps": [{"ease": {"to": {}, "durration": 1}}]}"#, expect: ["steps[0].ease.durration"]),
        Case(name: "wrong type", json: "{\"steps\": [{\"fly\": {\"to\": {\"zoom\": \"abc\"}}}]}", expect: ["steps[0].fly.to.zoom", "expected a number, found a string"]),
        Case(name: "wrong type for steps", json: #"{"steps": {}}"#, expect: ["steps", "expected an array"]),
        Case(name: "missing steps", json: #"{"flyby": 1}"#, expect: ["missing required field 'steps'"]),
        Case(name: "non-finite number", json: #"{"steps": [{"set": {"zoom": 1e999}}]}"#, expect: ["too large"]),
        Case(name: "NaN literal", json: #"{"steps": [{"set": {"zoom": NaN}}]}"#, expect: ["unexpected character 'N'"]),
        Case(name: "negative duration", json: #"{"steps": [{"ease": {"to": {"zoom": 3}, "duration": -1}}]}"#, expect: ["steps[0].ease.duration", "must not be negative"]),
        Case(name: "negative wait", json: #"{"steps": [{"wait": -0.5}]}"#, expect: ["steps[0].wait"]),
        Case(name: "zero size", json: #"{"size": [0, 720], "steps": []}"#, expect: ["size[0]", "width must be"]),
        Case(name: "size with one number", json: #"{"size": [640], "steps": []}"#, expect: ["size", "[width, height]"]),
        Case(name: "zero fps", json: #"{"fps": 0, "steps": []}"#, expect: ["fps"]),
        Case(name: "latitude out of range", json: #"{"camera": {"center": [0, 95]}, "steps": []}"#, expect: ["camera.center[1]", "latitude"]),
        Case(name: "bad curve name", json: #"{"steps": [{"ease": {"to": {}, "curve": "bouncy"}}]}"#, expect: ["steps[0].ease.curve", "unknown curve"]),
        Case(name: "bad bezier", json: #"{"steps": [{"ease": {"to": {}, "curve": [0, 0, 1]}}]}"#, expect: ["steps[0].ease.curve"]),
        Case(name: "bad bounds", json: #"{"bounds": {"minZoom": 5, "maxZoom": 2}, "steps": []}"#, expect: ["bounds", "min ≤ max"]),
        Case(name: "at outside parallel", json: #"{"steps": [{"at": 1, "do": {"wait": 1}}]}"#, expect: ["only allowed inside"]),
        Case(name: "two keys in a step", json: #"{"steps": [{"wait": 1, "set": {}}]}"#, expect: ["exactly one key"]),
        Case(name: "unknown viewport state", json: #"{"steps": [{"viewport": {"state": "hover"}}]}"#, expect: ["steps[0].viewport.state", "unknown viewport state"]),
        Case(name: "unknown transition", json: #"{"steps": [{"viewport": {"state": "idle", "transition": "warp"}}]}"#, expect: ["steps[0].viewport.transition", "unknown transition"]),
        Case(name: "bad follow bearing", json: #"{"steps": [{"viewport": {"state": {"followPuck": {"bearing": "north"}}}}]}"#, expect: ["steps[0].viewport.state.followPuck.bearing"]),
        Case(name: "unknown gesture", json: #"{"steps": [{"gesture": {"swipe": {}}}]}"#, expect: ["steps[0].gesture", "unknown gesture 'swipe'"]),
        Case(name: "gesture without duration", json: #"{"steps": [{"gesture": {"pan": {"from": [0, 0], "to": [1, 1]}}}]}"#, expect: ["steps[0].gesture.pan", "missing required field 'duration'"]),
        Case(name: "zero replay speed", json: #"{"location": {"track": "helsinki-drive", "speed": 0}, "steps": []}"#, expect: ["location.speed"]),
        Case(name: "unknown puck mode", json: #"{"location": {"track": "helsinki-drive", "mode": "psychic"}, "steps": []}"#, expect: ["location.mode"]),
        Case(name: "top level is not an object", json: "[1, 2]", expect: ["must be a JSON object"]),
        Case(name: "wrong version", json: #"{"flyby": 2, "steps": []}"#, expect: ["flyby", "version"]),
    ]

    static func write(_ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flyby-bad-input-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("bad.flight.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: cases)
    func badFlightExitsTwoNamingWhere(_ c: Case) throws {
        let path = try Self.write(c.json)
        let out = CommandOutput(captures: true)
        let status = FlybyCommandLine.run(arguments: ["trace", path], output: out)
        #expect(status == 2)
        let line = out.stderrText.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.hasPrefix("flyby: error: \(path)"), "\(line)")
        for e in c.expect { #expect(line.contains(e), "'\(e)' not in: \(line)") }
        #expect(out.stdoutBytes.isEmpty, "no trace is printed for bad input")
    }

    @Test func missingTrackFileNamesTheTrack() throws {
        let path = try Self.write(#"{"location": {"track": "no-such-track.gpx"}, "steps": []}"#)
        let out = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: ["trace", path], output: out) == 2)
        #expect(out.stderrText.hasPrefix("flyby: error: ") && out.stderrText.contains("no-such-track.gpx"))
    }

    @Test(arguments: [
        ("one point", #"{"type": "Feature", "properties": {"t": [0]}, "geometry": {"type": "LineString", "coordinates": [[24.9, 60.1]]}}"#),
        ("unsorted", #"{"type": "Feature", "properties": {"t": [0, 5, 3]}, "geometry": {"type": "LineString", "coordinates": [[24.9, 60.1], [24.91, 60.1], [24.92, 60.1]]}}"#),
        ("malformed", #"{"type": "Feature", "properties": {"t": [0, 1]}, "geometry": {"type": "LineString", "coordinates": [[24.9, 60.1], [24.91]]}}"#),
        ("empty GPX", "<gpx version=\"1.1\"><trk><trkseg></trkseg></trk></gpx>"),
    ])
    func badTrackExitsTwoNamingTheTrackFile(_ name: String, _ content: String) throws {
        let flight = try Self.write(#"{"location": {"track": "track.data"}, "steps": []}"#)
        let folder = (flight as NSString).deletingLastPathComponent
        let ext = content.hasPrefix("<") ? "gpx" : "geojson"
        try Data(content.utf8).write(to: URL(fileURLWithPath: folder + "/track.\(ext)"))
        let text = try String(contentsOfFile: flight, encoding: .utf8).replacingOccurrences(of: "track.data", with: "track.\(ext)")
        try Data(text.utf8).write(to: URL(fileURLWithPath: flight))
        let out = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: ["trace", flight], output: out) == 2, "\(name)")
        // Reported at the flight's field, naming the track file (issue 14).
        #expect(out.stderrText.hasPrefix("flyby: error: \(flight):1:24: location.track: "), "\(out.stderrText)")
        #expect(out.stderrText.contains("(while reading \(folder)/track.\(ext)"), "\(out.stderrText)")
    }

    @Test func limitsRefuseHugeInputsWithAClearError() throws {
        // A flight of a million steps.
        let steps = String(repeating: #"{"wait": 0},"#, count: 1_000_000) + #"{"wait": 0}"#
        let many = try Self.write(#"{"steps": ["# + steps + "]}")
        let a = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: ["trace", many], output: a) == 2)
        #expect(a.stderrText.contains("steps: 1000001 steps is more than the limit of 100000"))
        // A file larger than the input limit (sparse, so the test stays fast).
        let huge = (try Self.write("") as NSString).deletingLastPathComponent + "/huge.geojson"
        FileManager.default.createFile(atPath: huge, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: UInt64(FileInput.defaultMaxBytes) + 1)
        try handle.close()
        defer { try? FileManager.default.removeItem(atPath: huge) }
        let flight = try Self.write(#"{"location": {"track": "HUGE"}, "steps": []}"#.replacingOccurrences(of: "HUGE", with: huge))
        let b = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: ["trace", flight], output: b) == 2)
        #expect(b.stderrText.contains("larger than the limit"))
    }

    @Test func missingFileIsAnInputError() {
        let out = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: ["trace", "/no/such/flight.json"], output: out) == 2)
        #expect(out.stderrText.contains("/no/such/flight.json: no such file"))
    }

    @Test func badOutputLeavesNoFileBehind() throws {
        let flight = try Self.write(#"{"steps": [{"wait": 0.1}]}"#)
        let out = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: ["trace", flight, "--out", "/no/such/dir/t.jsonl"], output: out) == 2)
        #expect(out.stderrText.hasPrefix("flyby: error: cannot write '/no/such/dir/t.jsonl'"))
    }

    @Test(arguments: [(["teleport"], "unknown command 'teleport'"), (["--frobnicate"], "unknown option '--frobnicate'"),
                      (["trace", "a.json", "--fast"], "unknown option '--fast'"), (["trace"], "takes one flight file"),
                      (["diff", "a"], "takes two trace files"), (["trace", "x", "--out"], "needs a value"),
                      (["diff", "a", "b", "--tolerance", "-1"], "--tolerance")])
    func usageErrorsExitTwoAndPointToHelp(_ args: [String], _ message: String) {
        let out = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: args, output: out) == 2)
        #expect(out.stderrText.hasPrefix("flyby: error:"))
        #expect(out.stderrText.contains(message), "\(out.stderrText)")
    }

    /// `flyby <command> --help` (or `-h`, anywhere after the command) prints that command's help
    /// and exits 0, for every command, whatever else is on the line.
    @Test(arguments: ["window", "trace", "play", "snapshot", "diff", "plot", "bench", "soak", "help"])
    func everyCommandAnswersHelp(_ command: String) {
        let withOthers = command == "help" ? [] : [[command, "render", "--frames", "x", "--help"]]
        for args in [[command, "--help"], [command, "-h"]] + withOthers {
            let out = CommandOutput(captures: true)
            #expect(FlybyCommandLine.run(arguments: args, output: out) == 0, "\(args): \(out.stderrText)")
            #expect(out.stdoutText.contains("usage:"), "\(args)")
        }
    }

    @Test func helpAndVersionAnswer() {
        for args in [["--help"], ["help"], ["help", "trace"], ["help", "diff"], ["help", "bench"], ["--version"]] {
            let out = CommandOutput(captures: true)
            #expect(FlybyCommandLine.run(arguments: args, output: out) == 0)
            #expect(!out.stdoutText.isEmpty)
        }
    }
}

@Suite struct DiffCommandTests {
    @Test func diffNamesTheFirstDifferingFrameAndField() throws {
        let a = #"{"flyby":1,"kind":"trace","fps":30,"size":[10,10],"style":"world"}"# + "\n"
            + #"{"frame":0,"t":0,"center":[1,2],"zoom":3,"bearing":0,"pitch":0,"padding":[0,0,0,0],"viewport":"idle","events":[]}"# + "\n"
        let b = a.replacingOccurrences(of: #""zoom":3"#, with: #""zoom":3.5"#)
        let pa = try BadInputTests.write(a), pb = try BadInputTests.write(b)
        let same = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: ["diff", pa, pa], output: same) == 0)
        let out = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: ["diff", pa, pb], output: out) == 1)
        #expect(out.stdoutText.contains("frame 0: zoom: 3.0 vs 3.5"))
        #expect(out.stderrText.isEmpty, "the mismatch is printed once: \(out.stderrText)")
        let loose = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: ["diff", pa, pb, "--tolerance", "0.6"], output: loose) == 0)
    }
}
