/// How the outside corner of two stroked segments is drawn (SVG `stroke-linejoin`).
public enum LineJoin: Hashable, Sendable {
    /// Offset edges extended until they meet, or ``bevel`` when the miter would exceed
    /// ``StrokeStyle/miterLimit``.
    case miter
    /// A circular arc of radius width/2 around the vertex.
    case round
    /// A straight cut between the two offset edges.
    case bevel
}

/// How the ends of an open stroke are drawn (SVG `stroke-linecap`).
public enum LineCap: Hashable, Sendable {
    /// Ends exactly at the end point.
    case butt
    /// A half disc of radius width/2 beyond the end point.
    case round
    /// Extends by width/2 beyond the end point.
    case square
}

/// The geometry of a stroke. Lengths are in pixels.
public struct StrokeStyle: Hashable, Sendable {
    /// Full line width (the outline lies width/2 on each side of the centre line). Widths below
    /// 1 px are drawn 1 px wide with the colour's alpha scaled by the width (see ``Painter``).
    public var width: Double
    public var join: LineJoin
    public var cap: LineCap
    /// Largest allowed ratio of miter length to line width, SVG's `stroke-miterlimit`
    /// (1/sin(θ/2) for an angle θ between the segments); beyond it a miter becomes a bevel.
    public var miterLimit: Double
    /// Alternating dash and gap lengths (SVG `stroke-dasharray`); empty draws a solid line. An odd
    /// count is repeated once; negative values or an all-zero pattern also draw solid.
    public var dashes: [Double]
    /// Distance into the dash pattern at which each contour starts (SVG `stroke-dashoffset`).
    public var dashOffset: Double
    /// Largest distance between a round join or cap and its flattened polygon, in pixels.
    public var tolerance: Double
    /// Round joins whose miter ratio 1/cos(φ/2) (φ: the turn) is below this are drawn as miter
    /// joins (Style Specification, `line-round-limit`: "used to automatically convert round joins
    /// to miter joins for shallow angles"). 0: always round.
    public var roundLimit: Double = 0

    public init(width: Double, join: LineJoin = .miter, cap: LineCap = .butt, miterLimit: Double = 4,
                dashes: [Double] = [], dashOffset: Double = 0, tolerance: Double = 0.1) {
        self.width = width; self.join = join; self.cap = cap; self.miterLimit = miterLimit
        self.dashes = dashes; self.dashOffset = dashOffset; self.tolerance = tolerance
    }
}
