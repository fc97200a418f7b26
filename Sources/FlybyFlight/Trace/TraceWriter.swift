import FlybyCore
import FlybyData

/// Writes traces (CONTRACTS.md §3): JSON Lines, a header, then one line per tick. Numbers use
/// Swift's shortest round-trip form, so the same flight gives the same bytes on every run.
public struct TraceWriter {
    /// The header line (with its newline).
    public static func header(fps: Double, size: ScreenSize, style: String) -> [UInt8] {
        var out: [UInt8] = []
        append(#"{"flyby":1,"kind":"trace","fps":"#, &out)
        JSONWriter.appendNumber(fps, to: &out)
        append(#","size":["#, &out)
        JSONWriter.appendNumber(size.width, to: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(size.height, to: &out)
        append(#"],"style":"#, &out)
        JSONWriter.appendString(style, to: &out)
        append("}\n", &out)
        return out
    }

    /// Appends one frame line (with its newline) to `out`.
    public static func appendFrame(_ r: FrameRecord, to out: inout [UInt8]) {
        append(#"{"frame":"#, &out)
        JSONWriter.appendInteger(Int64(r.frame), to: &out)
        append(#","t":"#, &out)
        JSONWriter.appendNumber(r.t, to: &out)
        append(#","center":["#, &out)
        JSONWriter.appendNumber(wrapLongitude(r.camera.center.longitude), to: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(r.camera.center.latitude, to: &out)
        append(#"],"zoom":"#, &out)
        JSONWriter.appendNumber(r.camera.zoom, to: &out)
        append(#","bearing":"#, &out)
        JSONWriter.appendNumber(wrapBearing(r.camera.bearing), to: &out)
        append(#","pitch":"#, &out)
        JSONWriter.appendNumber(r.camera.pitch, to: &out)
        append(#","padding":["#, &out)
        let p = r.camera.padding
        JSONWriter.appendNumber(p.top, to: &out); out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(p.left, to: &out); out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(p.bottom, to: &out); out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(p.right, to: &out)
        append(#"],"viewport":"#, &out)
        JSONWriter.appendString(r.viewport, to: &out)
        if let puck = r.puck {
            append(#","puck":["#, &out)
            for (i, v) in puck.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendNumber(v, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        append(#","events":["#, &out)
        for (i, e) in r.events.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(e, to: &out)
        }
        append("]}\n", &out)
    }

    @inline(__always)
    static func append(_ s: StaticString, _ out: inout [UInt8]) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
