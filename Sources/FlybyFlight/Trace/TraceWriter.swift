import FlybyCore
import FlybyData
import FlybyRender

/// Writes traces (docs/formats.md §3): JSON Lines, a header, then one line per tick. Numbers use
/// Swift's shortest round-trip form, so the same flight gives the same bytes on every run.
public struct TraceWriter {
    /// The header line (with its newline). `puck3D`, when it has a ``Puck3D/modelName``, is
    /// written as the header's `puck3D` object with every field explicit (docs/formats.md §3), so
    /// `flyby play` of the trace draws the same model.
    public static func header(fps: Double, size: ScreenSize, style: String, puck3D: Puck3D? = nil) -> [UInt8] {
        var out: [UInt8] = []
        append(#"{"flyby":1,"kind":"trace","fps":"#, &out)
        JSONWriter.appendNumber(fps, to: &out)
        append(#","size":["#, &out)
        JSONWriter.appendNumber(size.width, to: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(size.height, to: &out)
        append(#"],"style":"#, &out)
        JSONWriter.appendString(style, to: &out)
        if let puck3D, let name = puck3D.modelName {
            append(#","puck3D":{"model":"#, &out)
            JSONWriter.appendString(name, to: &out)
            append(#","modelScale":"#, &out)
            appendVector(puck3D.modelScale, &out)
            append(#","modelRotation":"#, &out)
            appendVector(puck3D.modelRotation, &out)
            append(#","modelOpacity":"#, &out)
            JSONWriter.appendNumber(puck3D.modelOpacity, to: &out)
            append(#","modelScaleMode":"#, &out)
            JSONWriter.appendString(puck3D.modelScaleMode.rawValue, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        append("}\n", &out)
        return out
    }

    /// `[x,y,z]`.
    private static func appendVector(_ v: SIMD3<Double>, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        JSONWriter.appendNumber(v.x, to: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(v.y, to: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(v.z, to: &out)
        out.append(UInt8(ascii: "]"))
    }

    /// Appends one frame line (with its newline) to `out`. The line is built in stack memory and
    /// appended once (a trace is written at more than a million lines per second).
    public static func appendFrame(_ r: FrameRecord, to out: inout [UInt8]) {
        var size = 512 + JSONLineWriter.maxLength(ofString: r.viewport) + 34 * 3
        for e in r.events { size += JSONLineWriter.maxLength(ofString: e) + 1 }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { buffer in
            var w = JSONLineWriter(buffer)
            w.ascii(#"{"frame":"#)
            w.integer(Int64(r.frame))
            w.ascii(#","t":"#)
            w.number(r.t)
            w.ascii(#","center":["#)
            w.number(wrapLongitude(r.camera.center.longitude))
            w.byte(UInt8(ascii: ","))
            w.number(r.camera.center.latitude)
            w.ascii(#"],"zoom":"#)
            w.number(r.camera.zoom)
            w.ascii(#","bearing":"#)
            w.number(wrapBearing(r.camera.bearing))
            w.ascii(#","pitch":"#)
            w.number(r.camera.pitch)
            if let altitude = r.altitude {
                w.ascii(#","altitude":"#)
                w.number(altitude)
            }
            w.ascii(#","padding":["#)
            let p = r.camera.padding
            w.number(p.top); w.byte(UInt8(ascii: ","))
            w.number(p.left); w.byte(UInt8(ascii: ","))
            w.number(p.bottom); w.byte(UInt8(ascii: ","))
            w.number(p.right)
            w.ascii(#"],"viewport":"#)
            w.string(r.viewport)
            if let puck = r.puck {
                w.ascii(#","puck":["#)
                w.number(puck.longitude)
                w.byte(UInt8(ascii: ","))
                w.number(puck.latitude)
                if let bearing = puck.bearing {
                    w.byte(UInt8(ascii: ","))
                    w.number(bearing)
                }
                w.byte(UInt8(ascii: "]"))
            }
            w.ascii(#","events":["#)
            for (i, e) in r.events.enumerated() {
                if i > 0 { w.byte(UInt8(ascii: ",")) }
                w.string(e)
            }
            w.ascii("]}\n")
            out.append(contentsOf: w.bytes)
        }
    }

    @inline(__always)
    static func append(_ s: StaticString, _ out: inout [UInt8]) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
