import FlybyCLI
import Foundation
import Testing

/// A flight that is valid but probably wrong gets a warning, not an error (issue 15, item 8).
@Suite struct FlightWarningTests {
    func trace(_ flight: String) throws -> (code: Int32, stderr: String) {
        let path = NSTemporaryDirectory() + "flyby-warn-\(UUID().uuidString).flight.json"
        try Data(flight.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let out = CommandOutput(captures: true)
        let code = FlybyCommandLine.run(arguments: ["trace", path, "--out", "/dev/null"], output: out)
        return (code, out.stderrText)
    }

    @Test func aTimeOverTenMinutesIsAWarningNamingItsPathAndTheRunGoesOn() throws {
        let (code, stderr) = try trace(#"{"fps": 1, "steps": [{"wait": 1}, {"ease": {"to": {"zoom": 3}, "duration": 1500}}]}"#)
        #expect(code == 0)
        #expect(stderr.hasPrefix("flyby: warning:"), "\(stderr)")
        #expect(stderr.contains("steps[1].ease.duration") && stderr.contains("seconds, not milliseconds"), "\(stderr)")
        #expect(stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1, "one line: \(stderr)")
    }

    @Test func ordinaryTimesGiveNoWarning() throws {
        let (code, stderr) = try trace(#"{"fps": 1, "steps": [{"wait": 600}, {"ease": {"to": {"zoom": 3}, "duration": 2}}]}"#)
        #expect(code == 0)
        #expect(stderr.isEmpty, "\(stderr)")
    }
}
