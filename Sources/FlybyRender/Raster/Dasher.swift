import FlybyCore

/// Cuts contours into dashes by arc length (SVG `stroke-dasharray` / `stroke-dashoffset`).
///
/// The pattern restarts at the start of every contour, `offset` pixels into it. A closed contour
/// is walked including its closing segment; when it both starts and ends inside a dash, the last
/// and first dashes are joined into one (no cap at the start point), as SVG renderers do. A
/// zero-length dash becomes a one-point contour, which the ``Stroker`` draws as a dot for round or
/// square caps.
public struct Dasher: Sendable {
    var pattern: [Double] = []
    var current: [ScreenPoint] = []
    var held: [ScreenPoint] = []

    public init() {}

    /// Whether `dashes` describes a usable pattern (not empty, no negative or non-finite entry,
    /// positive sum). Other patterns mean a solid line.
    public static func isValidPattern(_ dashes: [Double]) -> Bool {
        guard !dashes.isEmpty else { return false }
        var sum = 0.0
        for d in dashes {
            guard d >= 0, d.isFinite else { return false }
            sum += d
        }
        return sum > 0
    }

    /// Appends the dashes of every contour of `path` to `out` as open contours. With an invalid
    /// pattern (see ``isValidPattern(_:)``) the contours are appended unchanged.
    public mutating func dash(_ path: Path, pattern dashes: [Double], offset: Double, into out: inout Path) {
        guard Dasher.isValidPattern(dashes) else { out.append(path); return }
        pattern.removeAll(keepingCapacity: true)
        pattern.append(contentsOf: dashes)
        if dashes.count % 2 == 1 { pattern.append(contentsOf: dashes) }
        var total = 0.0
        for d in pattern { total += d }
        var phase = offset.isFinite ? offset.truncatingRemainder(dividingBy: total) : 0
        if phase < 0 { phase += total }
        // Where the pattern starts: element index and the length left in it.
        var startIndex = 0
        var startLeft = pattern[0]
        while phase > startLeft || (phase == startLeft && startLeft > 0) {
            phase -= startLeft
            startIndex = (startIndex + 1) % pattern.count
            startLeft = pattern[startIndex]
        }
        startLeft -= phase

        for contour in path.contours where contour.count > 0 {
            dashContour(path.points, contour, startIndex, startLeft, into: &out)
        }
    }

    private mutating func dashContour(_ points: [ScreenPoint], _ contour: Path.Contour, _ startIndex: Int,
                                      _ startLeft: Double, into out: inout Path) {
        var index = startIndex, left = startLeft
        var on = index % 2 == 0
        let closed = contour.isClosed
        current.removeAll(keepingCapacity: true)
        held.removeAll(keepingCapacity: true)
        var holding = closed && on   // the first dash may join the last one
        if on { current.append(points[contour.start]) }
        let segmentCount = closed ? contour.count : contour.count - 1
        for s in 0..<segmentCount {
            let a = points[contour.start + s]
            let b = points[contour.start + (s + 1) % contour.count]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0, length.isFinite else { continue }
            var done = 0.0
            while length - done >= left {
                done += left
                let t = done / length
                let p = ScreenPoint(x: a.x + dx * t, y: a.y + dy * t)
                if on {
                    current.append(p)
                    finishDash(&holding, into: &out)
                } else {
                    current.append(p)
                }
                on.toggle()
                index = (index + 1) % pattern.count
                left = pattern[index]
            }
            left -= length - done
            if on { current.append(b) }
        }
        if on && !current.isEmpty {
            if holding {
                // One dash covers the whole closed contour: it stays closed.
                out.appendContour(current, closed: true)
                return
            }
            if !held.isEmpty {
                current.append(contentsOf: held.dropFirst())
                held.removeAll(keepingCapacity: true)
            }
            out.appendContour(current, closed: false)
        }
        if !held.isEmpty { out.appendContour(held, closed: false) }
    }

    /// Ends the dash being built: keeps it aside if it may join the contour's last dash.
    private mutating func finishDash(_ holding: inout Bool, into out: inout Path) {
        if holding {
            held.append(contentsOf: current)
            holding = false
        } else {
            out.appendContour(current, closed: false)
        }
        current.removeAll(keepingCapacity: true)
    }
}
