/// A point on the screen in points, origin top-left, y down.
public struct ScreenPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = ScreenPoint(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }
    public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// A size in screen points.
public struct ScreenSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public var description: String { "\(width)x\(height)" }
}

/// Insets from the edges of the map view, in screen points.
///
/// As camera padding they move the principal point (the vanishing point, where the camera centre
/// is drawn) to the middle of the inset rectangle. The counterpart of `UIEdgeInsets`.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    /// The same inset on all four sides.
    public init(allEdges inset: Double) { self.init(top: inset, left: inset, bottom: inset, right: inset) }

    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

    public var isFinite: Bool { top.isFinite && left.isFinite && bottom.isFinite && right.isFinite }

    /// Per-side linear interpolation: `a + (b − a)·t`.
    @inlinable
    public static func lerp(_ a: EdgeInsets, _ b: EdgeInsets, _ t: Double) -> EdgeInsets {
        EdgeInsets(top: a.top + (b.top - a.top) * t, left: a.left + (b.left - a.left) * t,
                   bottom: a.bottom + (b.bottom - a.bottom) * t, right: a.right + (b.right - a.right) * t)
    }

    public static func + (a: EdgeInsets, b: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: a.top + b.top, left: a.left + b.left, bottom: a.bottom + b.bottom, right: a.right + b.right)
    }

    public var description: String { "[\(top), \(left), \(bottom), \(right)]" }
}

/// The UIKit name, for code ported from the Mapbox guides.
public typealias UIEdgeInsets = EdgeInsets
