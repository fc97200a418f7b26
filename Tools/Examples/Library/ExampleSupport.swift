#if canImport(Glibc)
import FlybyCore
import FlybyMaps
import FlybyMedia
import FlybyRender
import Glibc
#endif

/// What the example executables share: where to write the snapshot, and marker icons drawn in code.
public enum ExampleSupport {
    /// The snapshot path: `--out PATH` when given, else `out/examples/<name>.png` (folders made).
    /// - Throws: ``ExampleError`` for an unknown argument or a missing `--out` value.
    public static func outputPath(name: String, arguments: [String] = Array(CommandLine.arguments.dropFirst())) throws(ExampleError) -> String {
        var out: String?
        var k = 0
        while k < arguments.count {
            switch arguments[k] {
            case "--out":
                guard k + 1 < arguments.count else { throw ExampleError("--out needs a file name") }
                out = arguments[k + 1]
                k += 2
            default:
                throw ExampleError("unknown argument '\(arguments[k])' (usage: \(name) [--out FILE.png])")
            }
        }
        if let out { return out }
        mkdir("out", 0o755)
        mkdir("out/examples", 0o755)
        return "out/examples/\(name).png"
    }

    /// Writes the view's snapshot as a PNG and says where.
    public static func writeSnapshot(of mapView: MapView, to path: String) throws(MediaError) {
        try mapView.snapshot().writePNG(to: path)
        print("snapshot: \(path) (\(Int(mapView.bounds.width))×\(Int(mapView.bounds.height)))")
    }

    /// A map pin, `width × 1.4·width` pixels: a round head with a white dot and a point at the
    /// bottom centre (so `iconAnchor = .bottom` puts the point on the coordinate).
    public static func pinImage(color: Color, width: Int = 24) -> PixelBuffer {
        let w = Double(width), h = (w * 1.4).rounded()
        var image = PixelBuffer(width: width, height: Int(h))
        var painter = Painter(width: width, height: Int(h))
        let r = w / 2 - 1
        let head = ScreenPoint(x: w / 2, y: r + 1)
        var path = Path()
        path.addCircle(center: head, radius: r, tolerance: 0.1)
        path.move(to: ScreenPoint(x: head.x - r * 0.75, y: head.y + r * 0.66))
        path.line(to: ScreenPoint(x: w / 2, y: h))
        path.line(to: ScreenPoint(x: head.x + r * 0.75, y: head.y + r * 0.66))
        path.close()
        image.withView { view in
            painter.fill(path, color: color, into: view)
            painter.stroke(path, style: StrokeStyle(width: 1), color: Color(red: 0, green: 0, blue: 0, alpha: 90), into: view)
            painter.fillCircle(center: head, radius: r * 0.38, color: .white, into: view)
        }
        return image
    }

    /// An arrow pointing up (north at icon-rotate 0), `size × size` pixels.
    public static func arrowImage(color: Color, size: Int = 22) -> PixelBuffer {
        let s = Double(size)
        var image = PixelBuffer(width: size, height: size)
        var painter = Painter(width: size, height: size)
        var path = Path()
        path.move(to: ScreenPoint(x: s / 2, y: 1))
        path.line(to: ScreenPoint(x: s - 2, y: s - 2))
        path.line(to: ScreenPoint(x: s / 2, y: s * 0.7))
        path.line(to: ScreenPoint(x: 2, y: s - 2))
        path.close()
        image.withView { view in
            painter.stroke(path, style: StrokeStyle(width: 2.5, join: .round), color: .white, into: view)
            painter.fill(path, color: color, into: view)
        }
        return image
    }
}

/// A usage error of an example executable.
public struct ExampleError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension ExampleSupport {
    /// The body of an example executable: reads `--out`, runs `body` (which prints what happens and
    /// returns the frame to save), writes the PNG. Errors go to stderr: exit status 2 for bad
    /// usage, 1 for a failure while running.
    public static func main(name: String, _ body: () throws -> PixelBuffer) {
        let path: String
        do {
            path = try outputPath(name: name)
        } catch {
            printError("\(name): error: \(error)")
            exit(2)
        }
        do {
            try body().writePNG(to: path)
            print("snapshot: \(path)")
        } catch {
            printError("\(name): error: \(error)")
            exit(1)
        }
    }
}

/// Writes a line to stderr (file descriptor 2).
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
