import FlybyCLI
import FlybyData
import Foundation
import Testing

/// An error in a file that another file names is reported at the naming field (issue 14):
/// `FLIGHT:LINE:COLUMN: JSON.PATH: message (while reading OTHERFILE)`.
@Suite struct ReferencedFileErrorTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "flyby-referenced-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ text: String, _ path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func traceError(_ flight: String) -> (Int32, String) {
        let out = CommandOutput(captures: true)
        let status = FlybyCommandLine.run(arguments: ["trace", flight], output: out)
        return (status, out.stderrText)
    }

    @Test func aBadStyleIsReportedAtTheFlightsStyleField() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(#"{"version": 8, "sources": {}, "layers": [{"id": "x", "type": "teapot"}]}"#, dir + "/bad.style.json")
        try Self.write("{\"steps\": [],\n \"style\": \"bad.style.json\"}", dir + "/f.flight.json")
        let (status, error) = Self.traceError(dir + "/f.flight.json")
        #expect(status == 2)
        #expect(error.hasPrefix("flyby: error: \(dir)/f.flight.json:2:11: style: layers[0]"), "\(error)")
        #expect(error.contains("(while reading \(dir)/bad.style.json:1:"), "\(error)")
        #expect(error.split(separator: "\n").count == 1)
    }

    @Test func aMissingTrackIsReportedAtTheFlightsTrackField() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write("{\"steps\": [],\n \"location\": {\"track\": \"nowhere.gpx\"}}", dir + "/f.flight.json")
        let (status, error) = Self.traceError(dir + "/f.flight.json")
        #expect(status == 2)
        #expect(error.hasPrefix("flyby: error: \(dir)/f.flight.json:2:24: location.track: "), "\(error)")
        #expect(error.contains("(while reading \(dir)/nowhere.gpx"), "\(error)")
    }

    @Test func aBadDataFileIsReportedAtTheStylesDataField() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Blob"}}]}"#, dir + "/d.geojson")
        try Self.write(#"{"version": 8, "sources": {"d": {"type": "geojson", "data": "d.geojson"}}, "layers": []}"#, dir + "/s.json")
        let out = CommandOutput(captures: true)
        let status = FlybyCommandLine.run(arguments: ["snapshot", "--style", dir + "/s.json", "--size", "8x8", "--out", dir + "/x.png"], output: out)
        #expect(status == 2)
        #expect(out.stderrText.contains("\(dir)/s.json:1:"), "\(out.stderrText)")
        #expect(out.stderrText.contains("(while reading \(dir)/d.geojson:1:"), "\(out.stderrText)")
    }

    @Test func namesAreEscapedSoAnErrorIsOneLine() {
        let e = InputError(file: "a\nb\u{7}.json", line: 1, column: 2, message: "bad\rthing")
        #expect(e.description == #"a\nb\u{7}.json:1:2: bad\rthing"#)
        #expect(InputError(file: "-", message: "x").description == "standard input: x")
    }
}
