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

    @Test func aCentreWrittenAsLatitudeLongitudeIsAWarningNamingItsPath() throws {
        // Helsinki typed [60.17, 24.94] is a point in the Gulf of Oman; the other way round it is on land.
        let (code, stderr) = try trace(#"{"fps": 1, "camera": {"center": [60.17, 24.94], "zoom": 10}, "steps": [{"fly": {"to": {"center": [60.2, 25]}, "duration": 1}}]}"#)
        #expect(code == 0)
        let lines = stderr.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 2, "one line per centre: \(stderr)")
        #expect(lines.first?.hasPrefix("flyby: warning:") == true && lines.first?.contains("camera.center") == true, "\(stderr)")
        #expect(stderr.contains("[24.94, 60.17] is on land") && stderr.contains("[longitude, latitude]"), "\(stderr)")
        #expect(stderr.contains("steps[0].fly.to.center"), "\(stderr)")
    }

    @Test func centresOnLandOrWhoseSwapIsAtSeaGiveNoWarning() throws {
        for centre in ["[24.94, 60.17]", "[-74.0, 40.7]", "[-30, 40]", "[0, 0]"] {
            let (code, stderr) = try trace(#"{"fps": 1, "camera": {"center": \#(centre), "zoom": 3}, "steps": [{"wait": 1}]}"#)
            #expect(code == 0)
            #expect(stderr.isEmpty, "\(centre): \(stderr)")
        }
    }
}
