import FlybyCore
import FlybyData
import FlybyFlight
import Testing

/// Flight scripts name curves through the core's one table (``AnimationCurve/named``).
@Suite struct CurveNameTests {
    func parse(_ json: String) throws -> AnimationCurve {
        try FlightScriptParser.curve(try JSONDocument(file: "curve.json", bytes: Array(json.utf8)).cursor)
    }

    @Test func everyNamedCurveParses() throws {
        for (name, curve) in AnimationCurve.named { #expect(try parse("\"\(name)\"") == curve, "\(name)") }
    }

    @Test func anUnknownNameListsEveryKnownName() {
        do {
            _ = try parse("\"bounce\"")
            Issue.record("bounce parsed")
        } catch {
            for (name, _) in AnimationCurve.named { #expect("\(error)".contains(name), "\(error)") }
        }
    }
}
