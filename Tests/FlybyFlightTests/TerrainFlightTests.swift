import FlybyCore
import FlybyData
import FlybyFlight
import FlybyRender
import FlybyTestSupport
import Foundation
import Testing

/// A flight over the Jacksboro ridge with the style's terrain (issue 19 item 4): the eye is never
/// below the ground plus the clearance, the camera rises over the ridge, and the trace carries
/// the eye's altitude.
@Suite struct TerrainFlightTests {
    static let flight = repositoryRoot() + "/Traces/camera/jacksboro-ridge.flight.json"

    @Test func theEyeIsNeverBelowTheTerrainAndTheTraceCarriesItsAltitude() throws {
        let script = try FlightScriptParser.parse(bytes: try FileInput.read(Self.flight), file: Self.flight)
        let dem = try #require(try StyleResolver.terrain(of: script), "jacksboro-terrain has a terrain")
        let runner = FlightRunner(script: script, startCamera: try StyleResolver.defaultCamera(of: script), terrain: dem)
        let terrain = try #require(runner.simulation.mapboxMap.terrain)
        var lowest = Double.infinity, lifted = 0, frames = 0
        try runner.run { r in
            frames += 1
            let eye = terrain.eye(of: r.camera, size: script.size)
            lowest = min(lowest, eye.altitude - terrain.height(at: eye.coordinate) - terrain.clearance)
            #expect(r.altitude == eye.altitude, "frame \(r.frame) records the eye's altitude")
            if r.t < 12 && r.camera.pitch < 72 - 1e-9 { lifted += 1 }
        }
        #expect(frames == 601)
        #expect(lowest > -1e-6, "the eye went \(-lowest) m below the clearance")
        #expect(lifted > 30, "the camera rose over the ridge in \(lifted) frames of the crossing")
        #expect(dem.firstError == nil)
    }

    @Test func aFlatStyleWritesNoAltitude() throws {
        let path = repositoryRoot() + "/Traces/camera/fly-short.flight.json"
        let script = try FlightScriptParser.parse(bytes: try FileInput.read(path), file: path)
        #expect(try StyleResolver.terrain(of: script) == nil)
        let trace = String(decoding: try TraceWriter.trace(of: script), as: UTF8.self)
        #expect(!trace.contains("altitude"))
    }

    @Test func aTraceWithAltitudeReadsBack() throws {
        let script = try FlightScriptParser.parse(bytes: try FileInput.read(Self.flight), file: Self.flight)
        let bytes = try TraceWriter.trace(of: script)
        let trace = try TraceReader.read(bytes: bytes, file: "ridge.trace.jsonl")
        #expect(trace.frames.count == 601 && trace.frames.allSatisfy { $0.altitude != nil })
    }

    @Test func aTracePlayedAtAnotherRateKeepsTheEyesAltitudeBetweenItsFrames() throws {
        let script = try FlightScriptParser.parse(bytes: try FileInput.read(Self.flight), file: Self.flight)
        let trace = try TraceReader.read(bytes: try TraceWriter.trace(of: script), file: "ridge.trace.jsonl")
        let recorded = trace.frames
        let plan = PlaybackPlan.trace(trace, fps: trace.fps * 2)
        #expect(plan.records.count == 2 * (recorded.count - 1) + 1)
        for (n, r) in plan.records.enumerated() {
            let altitude = try #require(r.altitude, "frame \(n) has an altitude")
            let a = recorded[n / 2].altitude!, b = recorded[min(n / 2 + 1, recorded.count - 1)].altitude!
            // Even frames are recorded frames; odd ones lie halfway between their neighbours.
            let expected = n % 2 == 0 ? a : (a + b) / 2
            #expect(abs(altitude - expected) < 1e-6, "frame \(n): \(altitude) m, expected \(expected) m")
        }
    }
}
