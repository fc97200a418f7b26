import FlybyCore
import FlybyData
import FlybyRender

/// A trace read back from its JSON Lines (for `flyby play`, `flyby plot` and `flyby diff`).
public struct Trace: Sendable {
    public var fps: Double
    public var size: ScreenSize
    public var style: String
    public var frames: [FrameRecord]
    /// The header's optional `puck3D` (docs/formats.md §3): the puck drawn as a 3D model.
    public var puck3D: Puck3D? = nil
}

/// Reads trace files. Each line is parsed on its own, so errors name the file, the line and the
/// column, and the JSON path within the line.
public enum TraceReader {
    /// Splits a file into its non-empty lines, with 1-based line numbers.
    static func lines(_ bytes: [UInt8]) -> [(number: Int, bytes: ArraySlice<UInt8>)] {
        var out: [(Int, ArraySlice<UInt8>)] = []
        var start = 0, number = 1
        for i in 0...bytes.count {
            if i == bytes.count || bytes[i] == UInt8(ascii: "\n") {
                var end = i
                if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                if end > start { out.append((number, bytes[start..<end])) }
                start = i + 1
                number += 1
            }
        }
        return out
    }

    /// Parses one line; a syntax error names `file:line:column`.
    static func parseLine(_ line: (number: Int, bytes: ArraySlice<UInt8>), file: String) throws(InputError) -> JSONCursor {
        do throws(InputError) {
            let doc = try JSONDocument(file: file, bytes: Array(line.bytes))
            return doc.cursor
        } catch {
            throw InputError(file: file, line: line.number, column: error.column, path: error.path, message: error.message)
        }
    }

    /// True when the bytes look like a trace (first line is a header with `"kind":"trace"`).
    public static func isTrace(_ bytes: [UInt8]) -> Bool {
        guard let first = lines(bytes).first, let doc = try? JSONDocument(file: "", bytes: Array(first.bytes)) else { return false }
        return doc.root["kind"]?.stringValue == "trace"
    }

    /// Reads a whole trace.
    public static func read(bytes: [UInt8], file: String) throws(InputError) -> Trace {
        let all = lines(bytes)
        guard let first = all.first else { throw InputError(file: file, message: "empty trace file") }
        let header = try parseLine(first, file: file)
        func at(_ line: Int, _ e: InputError) -> InputError {
            var e = e; e.line = line; return e
        }
        var trace: Trace
        do throws(InputError) {
            guard try header.required("kind").string() == "trace" else { throw header.error("not a trace header (kind must be \"trace\")") }
            let fps = try header.required("fps").double()
            guard fps > 0 && fps <= 1000 else { throw header.error("fps must be in 0…1000") }
            let (w, h) = try header.required("size").pair()
            guard w >= 1, h >= 1, w <= 16384, h <= 16384, w == w.rounded(), h == h.rounded() else { throw header.error("size must be two whole numbers 1…16384") }
            trace = Trace(fps: fps, size: ScreenSize(width: w, height: h), style: try header.member("style")?.string() ?? "world", frames: [])
            trace.puck3D = try header.member("puck3D").map { v throws(InputError) in try Puck3DParser.parse(v, file: file) }
        } catch { throw at(first.number, error) }
        trace.frames.reserveCapacity(all.count - 1)
        for line in all.dropFirst() {
            let c = try parseLine(line, file: file)
            do throws(InputError) {
                let frame = try c.required("frame").int()
                guard frame == trace.frames.count else { throw c.error("frame \(frame) out of order (expected \(trace.frames.count))") }
                let (lng, lat) = try c.required("center").pair()
                guard abs(lat) <= 90, abs(lng) <= 540 else { throw c.error("center out of range") }
                let zoom = try c.required("zoom").double(in: -5...30, what: "zoom")
                let bearing = try c.required("bearing").double()
                let pitch = try c.required("pitch").double(in: 0...90, what: "pitch")
                var padding = EdgeInsets.zero
                if let p = try c.member("padding") { padding = try FlightScriptParser.padding(p) }
                let viewport = try c.member("viewport")?.string() ?? "idle"
                let t = try c.member("t")?.double() ?? Double(frame) / trace.fps
                var puck: TracePuck?
                if let p = try c.member("puck") { puck = try Self.puck(p) }
                var events: [String] = []
                if let e = try c.member("events") { events = try e.elements().map { (x: JSONCursor) throws(InputError) in try x.string() } }
                // The eye's altitude with terrain: metres, within the deepest trench and 10,000 km.
                let altitude = try c.member("altitude")?.double(in: -11_000...10_000_000, what: "altitude")
                trace.frames.append(FrameRecord(frame: frame, t: t,
                                                camera: CameraState(center: LocationCoordinate2D(latitude: lat, longitude: lng), padding: padding,
                                                                    zoom: zoom, bearing: bearing, pitch: pitch),
                                                viewport: viewport, puck: puck, events: events, altitude: altitude))
            } catch { throw at(line.number, error) }
        }
        return trace
    }

    /// The `puck` field: `[lng, lat]` or `[lng, lat, bearing]`, in degrees.
    static func puck(_ c: JSONCursor) throws(InputError) -> TracePuck {
        let values = try c.elements().map { (e: JSONCursor) throws(InputError) in try e.double() }
        guard values.count == 2 || values.count == 3 else {
            throw c.error("puck must be [lng, lat] or [lng, lat, bearing], found \(values.count) numbers")
        }
        return TracePuck(longitude: values[0], latitude: values[1], bearing: values.count == 3 ? values[2] : nil)
    }
}
