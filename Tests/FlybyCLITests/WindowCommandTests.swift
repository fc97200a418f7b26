import FlybyCLI
import Testing

/// `flyby window`'s argument checks and help (moved from FlybyWindowTests, which no longer
/// depends on the command line).
@Suite struct WindowCommandTests {
    @Test(arguments: [
        (["window", "--size", "0x5"], "--size must be WxH"),
        (["window", "--size", "big"], "--size must be WxH"),
        (["window", "--size", "9000x100"], "--size must be WxH"),
        (["window", "--camera", #"{"zoom": "x"}"#], "zoom"),
        (["window", "--camera", "{"], "--camera"),
        (["window", "--duration", "-1"], "--duration"),
        (["window", "--script", "/nonexistent/flight.json"], "/nonexistent/flight.json"),
        (["window", "--record", "/nonexistent-folder/x.trace.jsonl"], "no such folder"),
        (["window", "--video", "/nonexistent-folder/x.mp4"], "no such folder"),
        (["window", "--video", "x.avi"], "--video"),
        (["window", "--fullscreen"], "unknown option"),
        (["window", "extra"], "unexpected argument"),
    ])
    func badInputIsAUsageError(args: [String], mentions: String) {
        let out = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: args, output: out) == 2)
        #expect(out.stderrText.hasPrefix("flyby: error:"))
        #expect(out.stderrText.contains(mentions), "\(out.stderrText)")
        #expect(out.stderrText.split(separator: "\n").count == 1)
    }

    @Test func helpListsTheOptionsAndKeys() {
        let out = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: ["help", "window"], output: out) == 0)
        for word in ["--script", "--record", "--video", "--stats", "double click", "Q / Esc"] { #expect(out.stdoutText.contains(word)) }
    }
}
