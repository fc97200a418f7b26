import FlybyCore
import FlybyData
import Testing

/// Puck lag on the built-in tracks, Mapbox default vs predictive. Prints the table that goes in
/// the README: `swift test --filter LocationLagTests` (add `-c release` for speed).
@Suite struct LocationLagTests {
    static let tracks = BuiltInTrack.allCases

    @Test func lagTable() throws {
        var lines = [
            "| track | mode | mean (m) | p95 (m) | max (m) | max step/frame (m) | median step/frame (m) |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for builtIn in Self.tracks {
            let track = try builtIn.load()
            let base = PuckLag.measure(track: track, mode: .mapboxDefault, fps: 60)
            let pred = PuckLag.measure(track: track, mode: .predictive(), fps: 60)
            for (name, s) in [("Mapbox default", base), ("predictive", pred)] {
                func f(_ x: Double) -> String { "\((x * 100).rounded() / 100)" }
                lines.append(
                    "| \(builtIn.rawValue) | \(name) | \(f(s.mean)) | \(f(s.p95)) | \(f(s.max)) | \(f(s.maxStep)) | \(f(s.medianStep)) |")
            }
            // Sane bounds: the default mode trails by about a fix interval; prediction must not
            // make any trace worse and must cut the smooth 1 Hz drive's lag substantially.
            #expect(base.mean > 0 && base.p95 >= base.mean)
            #expect(pred.mean <= base.mean * 1.0, "\(builtIn): predictive mean \(pred.mean) vs default \(base.mean)")
            #expect(pred.p95 <= base.p95 * 1.05, "\(builtIn): predictive p95 \(pred.p95) vs default \(base.p95)")
            if builtIn == .helsinkiDrive {
                #expect(pred.mean < base.mean * 0.5)
                #expect(pred.p95 < base.p95 * 0.5)
                // No jumps while following the smooth drive: no frame moves the puck more than
                // 3 × its typical per-frame step, in either mode.
                #expect(base.maxStep <= 3 * base.medianStep)
                #expect(pred.maxStep <= 3 * pred.medianStep)
            }
        }
        print(lines.joined(separator: "\n"))
    }
}
