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

    /// The shortest pattern period (pixels) cut into dashes; a finer pattern is drawn solid at
    /// its average coverage (see ``subpixelCoverage(_:)``).
    public static let minimumPeriod = 1.0

    /// For a valid pattern whose period (sum of its lengths, pixels; an odd pattern counts twice)
    /// is under ``minimumPeriod``: the fraction of its length that is "on", which is what such a
    /// pattern covers on average across each pixel. Drawing it as a solid line of that opacity
    /// looks the same and needs no dashes, where cutting it would make a dash every few
    /// millionths of a pixel ([1e-6, 1e-6] on a 3 px line: billions of contours). nil otherwise.
    public static func subpixelCoverage(_ dashes: [Double]) -> Double? {
        guard isValidPattern(dashes) else { return nil }
        let lengths = dashes.count % 2 == 1 ? dashes + dashes : dashes
        var total = 0.0, on = 0.0
        for (k, d) in lengths.enumerated() {
            total += d
            if k % 2 == 0 { on += d }
        }
        guard total < minimumPeriod else { return nil }
        return on / total
    }

    /// Appends the dashes of every contour of `path` to `out` as open contours. With an invalid
    /// pattern (see ``isValidPattern(_:)``) the contours are appended unchanged.
    /// - Parameter visible: when given, dashes are emitted only where segments pass through this
    ///   rectangle (pixels); elsewhere the pattern is advanced arithmetically. A line billions of
    ///   pixels long at zoom 22 then costs its visible length, not billions of dashes. Pass the
    ///   painter's box grown by the stroke's reach so caps and joins at the edge stay the same.
    public mutating func dash(_ path: Path, pattern dashes: [Double], offset: Double,
                              visible: (minX: Double, minY: Double, maxX: Double, maxY: Double)? = nil, into out: inout Path) {
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

        patternTotal = total
        self.visible = visible
        for contour in path.contours where contour.count > 0 {
            dashContour(path.points, contour, startIndex, startLeft, into: &out)
        }
    }

    var patternTotal = 0.0
    var visible: (minX: Double, minY: Double, maxX: Double, maxY: Double)?

    /// The parameter interval of segment a→b inside `visible` (Liang–Barsky clipping), or nil.
    func visibleInterval(_ a: ScreenPoint, _ b: ScreenPoint) -> (Double, Double)? {
        guard let v = visible else { return (0, 1) }
        var t0 = 0.0, t1 = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        for (p, q) in [(-dx, a.x - v.minX), (dx, v.maxX - a.x), (-dy, a.y - v.minY), (dy, v.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 { if r > t1 { return nil }; t0 = max(t0, r) } else { if r < t0 { return nil }; t1 = min(t1, r) }
            }
        }
        return (t0, t1)
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
            guard let (t0, t1) = visibleInterval(a, b) else {
                skip(length, to: b, &index, &left, &on, &holding, into: &out)
                continue
            }
            let p0 = ScreenPoint(x: a.x + dx * t0, y: a.y + dy * t0), p1 = ScreenPoint(x: a.x + dx * t1, y: a.y + dy * t1)
            if t0 > 0 { skip(length * t0, to: p0, &index, &left, &on, &holding, into: &out) }
            walk(from: p0, to: p1, length * (t1 - t0), &index, &left, &on, &holding, into: &out)
            if t1 < 1 { skip(length * (1 - t1), to: b, &index, &left, &on, &holding, into: &out) }
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

    /// Walks the pattern along a→b (length `length`), emitting dash points.
    private mutating func walk(from a: ScreenPoint, to b: ScreenPoint, _ length: Double, _ index: inout Int, _ left: inout Double,
                               _ on: inout Bool, _ holding: inout Bool, into out: inout Path) {
        guard length > 0 else { return }
        let dx = b.x - a.x, dy = b.y - a.y
        var done = 0.0
        while length - done >= left {
            done += left
            let t = done / length
            let p = ScreenPoint(x: a.x + dx * t, y: a.y + dy * t)
            current.append(p)
            if on { finishDash(&holding, into: &out) }
            on.toggle()
            index = (index + 1) % pattern.count
            left = pattern[index]
        }
        left -= length - done
        if on { current.append(b) }
    }

    /// Advances the pattern by `length` without emitting (an invisible stretch ending at `b`):
    /// a dash in progress ends where the stretch starts, and one in progress at its end restarts at `b`.
    private mutating func skip(_ length: Double, to b: ScreenPoint, _ index: inout Int, _ left: inout Double,
                               _ on: inout Bool, _ holding: inout Bool, into out: inout Path) {
        guard length > 0 else { return }
        // The dash in progress ends where the invisible stretch starts (its cap lies outside the
        // visible box, which includes the stroke's reach).
        if on && current.count > 1 { finishDash(&holding, into: &out) }
        holding = false
        current.removeAll(keepingCapacity: true)
        if length < left {
            left -= length
            if on { current.append(b) }
            return
        }
        var remaining = length - left
        index = (index + 1) % pattern.count
        if patternTotal > 0 && remaining > patternTotal {
            remaining = remaining.truncatingRemainder(dividingBy: patternTotal)
        }
        while remaining >= pattern[index] {
            remaining -= pattern[index]
            index = (index + 1) % pattern.count
        }
        left = pattern[index] - remaining
        on = index % 2 == 0
        current.removeAll(keepingCapacity: true)
        if on { current.append(b) }
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
