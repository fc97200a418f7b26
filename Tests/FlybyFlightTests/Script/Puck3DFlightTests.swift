import FlybyCore
import FlybyData
import FlybyFlight
import FlybyRender
import Foundation
import Testing

/// The optional `puck3D` of a flight's `location` and of a trace header (docs/formats.md §2, §3):
/// it reaches the playback plan, and a bad one is an error naming the file and the JSON path.
@Suite struct Puck3DFlightTests {
    static func flight(_ puck3D: String) -> String {
        """
        {"flyby": 1, "size": [320, 180], "fps": 10, "style": "city",
         "location": {"track": "helsinki-drive", "puck3D": \(puck3D)},
         "steps": [{"wait": 0.2}]}
        """
    }

    static func parse(_ text: String, file: String = "/tmp/p.flight.json") throws -> FlightScript {
        try FlightScriptParser.parse(bytes: Array(text.utf8), file: file)
    }

    @Test func aFlightsPuck3DReachesThePlaybackPlan() throws {
        let script = try Self.parse(Self.flight(#"{"model": "arrow", "modelScale": [2, 2, 2], "modelOpacity": 0.8, "modelScaleMode": "map"}"#))
        let puck = try #require(script.location?.puck3D)
        #expect(puck.model.triangles.count == 14)
        #expect(puck.modelScale == SIMD3(2, 2, 2) && puck.modelOpacity == 0.8 && puck.modelScaleMode == .map)
        #expect(puck.modelRotation == SIMD3(0, 0, 90), "Mapbox's default rotation")
        let plan = try PlaybackPlan.flight(script, startCamera: CameraState(center: .init(latitude: 60.17, longitude: 24.94), zoom: 15))
        #expect(plan.puck3D == puck)
        let plain = try Self.parse(Self.flight("null").replacingOccurrences(of: #", "puck3D": null"#, with: ""))
        #expect(plain.location?.puck3D == nil, "without puck3D the 2D puck is drawn")
    }

    @Test func aTraceHeaderMayChooseThe3DPuck() throws {
        let text = """
        {"flyby":1,"kind":"trace","fps":10,"size":[320,180],"style":"city","puck3D":{"model":"arrow","modelRotation":[0,0,0]}}
        {"frame":0,"t":0,"center":[24.94,60.17],"zoom":16,"bearing":0,"pitch":60,"padding":[0,0,0,0],"viewport":"idle","puck":[24.94,60.17,30],"events":[]}
        """
        let trace = try TraceReader.read(bytes: Array(text.utf8), file: "/tmp/t.trace.jsonl")
        #expect(trace.puck3D?.modelRotation == SIMD3(0, 0, 0))
        #expect(PlaybackPlan.trace(trace).puck3D == trace.puck3D)
    }

    @Test func aTraceOfAFlightCarriesItsPuck3DIntoTheHeader() throws {
        let script = try Self.parse(Self.flight(#"{"model": "arrow", "modelScale": [2, 3, 4], "modelOpacity": 0.5}"#))
        let bytes = try TraceWriter.trace(of: script)
        let header = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        #expect(header.hasSuffix(#","puck3D":{"model":"arrow","modelScale":[2,3,4],"modelRotation":[0,0,90],"modelOpacity":0.5,"modelScaleMode":"viewport"}}"#), "\(header)")
        let trace = try TraceReader.read(bytes: bytes, file: "/elsewhere/t.trace.jsonl")
        #expect(trace.puck3D == script.location?.puck3D, "the trace replays with the flight's model and fields")
        let plain = try Self.parse(Self.flight("null").replacingOccurrences(of: #", "puck3D": null"#, with: ""))
        let plainHeader = String(decoding: try TraceWriter.trace(of: plain).prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        #expect(!plainHeader.contains("puck3D"), "the 2D puck writes no puck3D")
    }

    @Test func aModelFileIsWrittenAsAnAbsolutePathSoATraceElsewhereFindsIt() throws {
        let folder = NSTemporaryDirectory() + "flyby-puck3d-file-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder + "/flights", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arrow = try #require(BuiltinData.path("models/arrow.glb"))
        try FileManager.default.copyItem(atPath: arrow, toPath: folder + "/flights/car.glb")
        let script = try Self.parse(Self.flight(#"{"model": "car.glb"}"#), file: folder + "/flights/p.flight.json")
        #expect(script.location?.puck3D?.modelName == folder + "/flights/car.glb")
        let trace = try TraceReader.read(bytes: try TraceWriter.trace(of: script), file: folder + "/t.trace.jsonl")
        #expect(trace.puck3D?.model == script.location?.puck3D?.model)
        #expect(trace.puck3D?.modelName == folder + "/flights/car.glb")
    }

    @Test(arguments: [
        (#"{"model": "car"}"#, "puck3D.model: unknown built-in model 'car' (known: arrow; a file name ends in .glb)"),
        (#"{"model": "missing.glb"}"#, "puck3D.model: no such file (while reading /tmp/missing.glb)"),
        (#"{"model": "arrow", "modelOpacity": 2}"#, "puck3D.modelOpacity: modelOpacity 2.0 is out of range 0.0…1.0"),
        (#"{"model": "arrow", "modelScale": [1, 1]}"#, "puck3D.modelScale: expected [x, y, z] (3 numbers), found 2 elements"),
        (#"{"model": "arrow", "modelScaleMode": "world"}"#, #"puck3D.modelScaleMode: modelScaleMode must be "viewport" or "map", not 'world'"#),
        (#"{"model": "arrow", "size": 3}"#, "puck3D.size: unknown puck3D field 'size'"),
    ])
    func badPuck3DFieldsAreErrorsNamingThePath(_ json: String, _ message: String) {
        do {
            _ = try Self.parse(Self.flight(json))
            Issue.record("no error for \(json)")
        } catch {
            #expect("\(error)".contains("location.\(message)"), "\(error)")
            #expect("\(error)".hasPrefix("/tmp/p.flight.json:"), "\(error)")
        }
    }

    @Test func aBadModelFileIsAnErrorNamingTheFlightAndTheModel() throws {
        let folder = NSTemporaryDirectory() + "flyby-puck3d-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("glTF not really".utf8).write(to: URL(fileURLWithPath: folder + "/bad.glb"))
        do {
            _ = try Self.parse(Self.flight(#"{"model": "bad.glb"}"#), file: folder + "/p.flight.json")
            Issue.record("no error")
        } catch {
            #expect("\(error)".contains("location.puck3D.model: binary glTF version"), "\(error)")
            #expect("\(error)".contains("while reading \(folder)/bad.glb"), "\(error)")
        }
    }
}
