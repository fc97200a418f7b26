import Foundation
import FlybyRender
import Testing

/// Release-build timing of the world-110m scene. Opt-in:
/// `FLYBY_RASTER_BENCH=1 swift test -c release --filter RasterBenchmark`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FLYBY_RASTER_BENCH"] != nil))
struct RasterBenchmarkTests {
    static var worldFile: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/FlybyData/Resources/world/ne_110m_admin0_countries.geojson")
    }

    @Test func worldScene() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.worldFile))
        let scene = try RasterBench.worldScene(geoJSON: bytes)
        print("world-110m: \(scene.features.count) features, \(scene.vertexCount) vertices")
        let env = ProcessInfo.processInfo.environment
        let modes = env["FLYBY_RASTER_BENCH_MODE"].flatMap { RasterBench.Mode(rawValue: $0) }.map { [$0] }
            ?? RasterBench.Mode.allCases
        for round in 0..<(Int(env["FLYBY_RASTER_BENCH_ROUNDS"] ?? "") ?? 3) {
            for mode in modes {
                let frames = Int(env["FLYBY_RASTER_BENCH_FRAMES"] ?? "") ?? 60
                print("round \(round) \(mode.rawValue): \(RasterBench.run(scene, mode: mode, frames: frames, warmup: min(5, frames)))")
            }
        }
        if let bandCount = Int(env["FLYBY_RASTER_BENCH_BANDS"] ?? "") {
            // Sequential bands on one thread: the whole scene per band, to see what locality buys.
            var painters = (0..<bandCount).map { k in
                Painter(width: scene.width, height: scene.height,
                        rows: (k * scene.height / bandCount)..<((k + 1) * scene.height / bandCount))
            }
            var buffer = PixelBuffer(width: scene.width, height: scene.height)
            let clock = ContinuousClock()
            var times: [Duration] = []
            for _ in 0..<60 {
                let t0 = clock.now
                buffer.clear(to: RasterBench.background)
                buffer.withView { view in
                    for k in 0..<bandCount {
                        for (i, feature) in scene.features.enumerated() {
                            painters[k].fill(feature, color: RasterBench.palette[i % 7], rule: .evenOdd, into: view)
                            painters[k].stroke(feature, style: StrokeStyle(width: 1), color: RasterBench.outline, into: view)
                        }
                    }
                }
                times.append(clock.now - t0)
            }
            times.sort()
            print("\(bandCount) sequential bands fillAndOutline: median \(times[30]) min \(times[0])")
        }
        if env["FLYBY_RASTER_BENCH_MODE"] == nil {
            let stars = RasterBench.starScene()
            print("stars-200 fillAndOutline: \(RasterBench.run(stars, frames: 30))")
        }
        if let out = ProcessInfo.processInfo.environment["FLYBY_RASTER_BENCH_PPM"] {
            var painter = Painter(width: scene.width, height: scene.height)
            var buffer = PixelBuffer(width: scene.width, height: scene.height)
            RasterBench.drawFrame(scene, mode: .fillAndOutline, painter: &painter, buffer: &buffer)
            var ppm = Array("P6 \(scene.width) \(scene.height) 255\n".utf8)
            for p in buffer.pixels { ppm += [UInt8((p >> 16) & 255), UInt8((p >> 8) & 255), UInt8(p & 255)] }
            try Data(ppm).write(to: URL(fileURLWithPath: out))
        }
    }
}
