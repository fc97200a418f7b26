import FlybyCore
import FlybyFlight
import Testing

/// The trace's `puck` field (docs/formats.md §3) as a ``TracePuck``: read into named fields and
/// written back as the same bytes.
@Suite struct TracePuckTests {
    static let header = #"{"flyby":1,"kind":"trace","fps":10,"size":[64,36],"style":"world"}"# + "\n"
    static func line(_ puck: String) -> String {
        #"{"frame":0,"t":0,"center":[24.94,60.17],"zoom":14,"bearing":0,"pitch":0,"padding":[0,0,0,0],"viewport":"followPuck","#
            + puck + #""events":[]}"# + "\n"
    }

    @Test(arguments: [#""puck":[24.9412,60.1702,87.5],"#, #""puck":[-179.5,-33.25],"#, ""])
    func aTraceLineIsWrittenBackByteForByte(_ puck: String) throws {
        let text = Self.header + Self.line(puck)
        let trace = try TraceReader.read(bytes: Array(text.utf8), file: "t.jsonl")
        var bytes = TraceWriter.header(fps: trace.fps, size: trace.size, style: trace.style)
        for r in trace.frames { TraceWriter.appendFrame(r, to: &bytes) }
        #expect(String(decoding: bytes, as: UTF8.self) == text)
    }

    @Test func thePuckHasNamedFields() throws {
        let trace = try TraceReader.read(bytes: Array((Self.header + Self.line(#""puck":[24.9412,60.1702,87.5],"#)).utf8), file: "t.jsonl")
        #expect(trace.frames[0].puck == TracePuck(longitude: 24.9412, latitude: 60.1702, bearing: 87.5))
        let shown = try #require(trace.frames[0].puck).puckState(at: 0)
        #expect(shown.coordinate.latitude == 60.1702 && shown.heading == 87.5 && shown.course == 87.5)
    }

    @Test(arguments: [#""puck":[1],"#, #""puck":[1,2,3,4],"#])
    func aPuckOfAnotherLengthIsAnErrorNamingTheLine(_ puck: String) {
        #expect {
            try TraceReader.read(bytes: Array((Self.header + Self.line(puck)).utf8), file: "t.jsonl")
        } throws: { "\($0)".contains("t.jsonl:2") && "\($0)".contains("puck") }
    }
}
