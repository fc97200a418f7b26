import FlybyCore
import FlybyData
import FlybyFlight
import FlybyTestSupport
import Foundation
import Testing

/// Replays every flight in Traces/camera and Traces/viewport and compares its trace with the
/// golden beside it.
///
/// Recording is opt-in: `FLYBY_RECORD_GOLDENS=1 swift test --filter GoldenTraceTests` writes the
/// missing or different goldens and **fails**, so a recording run can never pass by accident.
/// Commit re-recorded goldens with the reason in the message.
@Suite struct GoldenTraceTests {
    static let folder = repositoryRoot() + "/Traces"
    static let groups = ["camera", "viewport"]

    /// Paths relative to Traces/, e.g. `camera/fly-long.flight.json`.
    static var flights: [String] {
        groups.flatMap { g in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + g)) ?? [])
                .filter { $0.hasSuffix(".flight.json") }.sorted().map { "\(g)/\($0)" }
        }
    }

    @Test func thereAreEnoughGoldenFlights() {
        #expect(Self.flights.filter { $0.hasPrefix("camera/") }.count >= 12)
        #expect(Self.flights.filter { $0.hasPrefix("viewport/") }.count >= 10)
    }

    @Test(arguments: flights)
    func flightMatchesItsGoldenTrace(_ name: String) throws {
        let flightPath = Self.folder + "/" + name
        let goldenPath = Self.folder + "/" + name.replacingOccurrences(of: ".flight.json", with: ".trace.jsonl")
        let actual = try Self.trace(flightPath)
        let recording = ProcessInfo.processInfo.environment["FLYBY_RECORD_GOLDENS"] == "1"
        guard let golden = FileManager.default.contents(atPath: goldenPath).map({ [UInt8]($0) }) else {
            if recording {
                try Data(actual).write(to: URL(fileURLWithPath: goldenPath))
                Issue.record("recorded new golden \(goldenPath); re-run without FLYBY_RECORD_GOLDENS")
            } else {
                Issue.record("missing golden \(goldenPath) (record with FLYBY_RECORD_GOLDENS=1)")
            }
            return
        }
        if golden == actual { return }
        let diff = try TraceDiff.compare(golden, fileA: goldenPath, actual, fileB: "actual", tolerance: 0)
        if recording {
            try Data(actual).write(to: URL(fileURLWithPath: goldenPath))
            Issue.record("re-recorded \(goldenPath) (first difference: \(diff.map(\.description) ?? "bytes")); re-run without FLYBY_RECORD_GOLDENS")
        } else {
            Issue.record("\(name) differs from its golden: \(diff.map(\.description) ?? "byte layout differs")")
        }
    }

    @Test func sameFlightTracedTwiceGivesIdenticalBytes() throws {
        for name in Self.flights {
            let path = Self.folder + "/" + name
            #expect(try Self.trace(path) == Self.trace(path), "\(name)")
        }
    }

    /// The trace of the flight at `path`, as `flyby trace` writes it (``TraceWriter/trace(of:)``).
    static func trace(_ path: String) throws -> [UInt8] {
        try TraceWriter.trace(of: try FlightScriptParser.parse(bytes: try FileInput.read(path), file: path))
    }
}
