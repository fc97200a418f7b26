import FlybyCore
import FlybyData
#if canImport(Glibc)
import Glibc  // clock_gettime(CLOCK_THREAD_CPUTIME_ID) only: CPU time is immune to other processes
#endif

/// A repeatable rasterizer benchmark: the render-baselines map scene (every country filled, then
/// outlined 1 px) or random stars, timed frame by frame on the calling thread.
///
/// Meant for `flyby bench render` and for release-build measurements; see docs/research/render-baselines.md
/// for the reference numbers (Skia ≈ 4.6 ms, Blend2D ≈ 2.4 ms for world-110m at 1280×720).
public enum RasterBench {
    /// What one frame draws.
    public enum Mode: String, Sendable, CaseIterable {
        case fillAndOutline, fill, outline
    }

    /// Screen-space features to draw: one path per feature (its polygons' rings), 1280×720 by default.
    public struct Scene: Sendable {
        public var width: Int
        public var height: Int
        public var features: [Path]
        public var vertexCount: Int { features.reduce(0) { $0 + $1.points.count } }
    }

    /// The timing of a run, in milliseconds per frame: wall-clock time, and the calling thread's
    /// CPU time (which excludes time the thread spent preempted on a busy machine).
    public struct Result: Sendable, CustomStringConvertible {
        public var frames: Int
        public var median: Double
        public var minimum: Double
        public var p90: Double
        public var cpuMedian: Double
        public var cpuMinimum: Double
        public var description: String {
            func f(_ v: Double) -> String { String(Double((v * 1000).rounded()) / 1000) }
            return "wall median \(f(median)) ms (min \(f(minimum)), p90 \(f(p90))), "
                + "thread CPU median \(f(cpuMedian)) ms (min \(f(cpuMinimum))) over \(frames) frames"
        }
    }

    /// The calling thread's CPU time in milliseconds (0 where unavailable).
    public static func threadCPUMilliseconds() -> Double {
        #if canImport(Glibc)
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
        #else
        return 0
        #endif
    }

    /// The baseline palette: ColorBrewer Set3 (7 colours) by feature index, outline #404048,
    /// background #F2EFE9.
    public static let palette: [Color] = [0x8DD3C7, 0xFFFFB3, 0xBEBADA, 0xFB8072, 0x80B1D3, 0xFDB462, 0xB3DE69]
        .map { Color(rgb: $0) }
    public static let background = Color(rgb: 0xF2EFE9)
    public static let outline = Color(rgb: 0x404048)

    /// Countries from a GeoJSON FeatureCollection of (Multi)Polygons, projected equirectangularly:
    /// `512 · 2^zoom` pixels per 360° in both axes, (`centerLongitude`, `centerLatitude`) at the
    /// frame centre. Rings whose bounding box misses the frame are dropped (as the baselines did).
    /// `zoomScale` is `2^zoom` (1.5 → 2.828…), passed in to keep this file free of libm.
    public static func worldScene(geoJSON bytes: [UInt8], width: Int = 1280, height: Int = 720,
                                  centerLongitude: Double = 10, centerLatitude: Double = 30,
                                  zoomScale: Double = 2.8284271247461903) throws -> Scene {
        let document = try JSONDocument(file: "world", bytes: bytes)
        let pixelsPerDegree = WebMercator.tileSize * zoomScale / 360
        let cx = Double(width) / 2, cy = Double(height) / 2
        var features: [Path] = []
        for feature in document.root["features"]?.arrayValue ?? [] {
            guard let geometry = feature["geometry"], let type = geometry["type"]?.stringValue,
                  let coordinates = geometry["coordinates"]?.arrayValue else { continue }
            let polygons: [JSONNode] = type == "Polygon" ? [geometry["coordinates"]!] :
                type == "MultiPolygon" ? coordinates : []
            var path = Path()
            for polygon in polygons {
                for ring in polygon.arrayValue ?? [] {
                    var points: [ScreenPoint] = []
                    var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
                    for position in ring.arrayValue ?? [] {
                        guard let pair = position.arrayValue, pair.count >= 2,
                              let lng = pair[0].doubleValue, let lat = pair[1].doubleValue else { continue }
                        let p = ScreenPoint(x: cx + (lng - centerLongitude) * pixelsPerDegree,
                                            y: cy - (lat - centerLatitude) * pixelsPerDegree)
                        minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
                        points.append(p)
                    }
                    if maxX < 0 || minX > Double(width) || maxY < 0 || minY > Double(height) { continue }
                    path.addPolygon(points)
                }
            }
            if !path.isEmpty { features.append(path) }
        }
        return Scene(width: width, height: height, features: features)
    }

    /// `count` random self-overlapping stars (5–13 points, radius up to 120 px), seeded.
    public static func starScene(count: Int = 200, width: Int = 1280, height: Int = 720, seed: UInt64 = 1) -> Scene {
        var random = SplitMix64(seed: seed)
        func next() -> Double { random.unit() }
        var features: [Path] = []
        for _ in 0..<count {
            let tips = 5 + Int(next() * 9)
            let cx = next() * Double(width), cy = next() * Double(height), r = 10 + next() * 110
            // Vertices on a circle, connected every second one: a star polygon {tips/2}.
            var ring: [ScreenPoint] = []
            var angle = 0.0
            let step = 2 * 3.141592653589793 * 2 / Double(tips)
            for _ in 0..<tips {
                ring.append(ScreenPoint(x: cx + r * cosine(angle), y: cy + r * cosine(angle - 1.5707963267948966)))
                angle += step
            }
            var path = Path()
            path.addPolygon(ring)
            features.append(path)
        }
        return Scene(width: width, height: height, features: features)
    }

    /// cos(x) by range reduction to [−π, π] and a Taylor series (benchmark geometry only).
    static func cosine(_ x: Double) -> Double {
        let twoPi = 2 * 3.141592653589793
        var a = x - (x / twoPi).rounded() * twoPi
        a = a * a
        var term = 1.0, sum = 1.0
        for k in 1..<14 {
            term *= -a / Double((2 * k - 1) * (2 * k))
            sum += term
        }
        return sum
    }

    /// Draws one frame: clear to the background, then per feature in order a fill (even-odd)
    /// and/or a 1 px miter outline.
    public static func drawFrame(_ scene: Scene, mode: Mode, painter: inout Painter, buffer: inout PixelBuffer) {
        buffer.clear(to: background)
        let outlineStyle = StrokeStyle(width: 1, join: .miter)
        for (i, feature) in scene.features.enumerated() {
            if mode != .outline {
                painter.fill(feature, color: palette[i % palette.count], rule: .evenOdd, into: &buffer)
            }
            if mode != .fill {
                painter.stroke(feature, style: outlineStyle, color: outline, into: &buffer)
            }
        }
    }

    /// Renders `warmup` untimed frames, then `frames` timed ones, and returns their statistics.
    public static func run(_ scene: Scene, mode: Mode = .fillAndOutline, frames: Int = 50, warmup: Int = 5) -> Result {
        var painter = Painter(width: scene.width, height: scene.height)
        var buffer = PixelBuffer(width: scene.width, height: scene.height)
        for _ in 0..<warmup { drawFrame(scene, mode: mode, painter: &painter, buffer: &buffer) }
        let clock = ContinuousClock()
        var times: [Double] = [], cpuTimes: [Double] = []
        times.reserveCapacity(frames)
        cpuTimes.reserveCapacity(frames)
        for _ in 0..<max(1, frames) {
            let cpuStart = threadCPUMilliseconds()
            let start = clock.now
            drawFrame(scene, mode: mode, painter: &painter, buffer: &buffer)
            let elapsed = clock.now - start
            cpuTimes.append(threadCPUMilliseconds() - cpuStart)
            let c = elapsed.components
            times.append(Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15)
        }
        times.sort()
        cpuTimes.sort()
        return Result(frames: times.count, median: times[times.count / 2], minimum: times[0],
                      p90: times[min(times.count - 1, times.count * 9 / 10)],
                      cpuMedian: cpuTimes[cpuTimes.count / 2], cpuMinimum: cpuTimes[0])
    }
}
