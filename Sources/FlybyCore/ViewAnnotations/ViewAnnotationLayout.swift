/// Where a view annotation is attached on the screen, already projected.
public enum ViewAnnotationTarget: Hashable, Sendable {
    /// A screen point (nil when the coordinate is behind the camera).
    case point(ScreenPoint?)
    /// Screen polylines (a line feature, split where it passes behind the camera).
    case lines([[ScreenPoint]])
}

/// One annotation as the layout sees it.
public struct ViewAnnotationLayoutItem: Hashable, Sendable {
    public var id: Int
    public var target: ViewAnnotationTarget
    /// Screen points.
    public var size: ScreenSize
    public var allowOverlap: Bool
    public var visible: Bool
    public var anchors: [ViewAnnotationAnchorConfig]
    public var selected: Bool
    public var priority: Int

    public init(id: Int, target: ViewAnnotationTarget, size: ScreenSize, allowOverlap: Bool = false, visible: Bool = true,
                anchors: [ViewAnnotationAnchorConfig] = [.center], selected: Bool = false, priority: Int = 0) {
        self.id = id; self.target = target; self.size = size; self.allowOverlap = allowOverlap; self.visible = visible
        self.anchors = anchors.isEmpty ? [.center] : anchors; self.selected = selected; self.priority = priority
    }
}

/// Where the layout put one annotation.
public struct ViewAnnotationPlacement: Hashable, Sendable {
    public var id: Int
    /// The annotation's frame in screen points.
    public var frame: ScreenRect
    /// The anchor it took (one of its variable anchors).
    public var anchor: ViewAnnotationAnchorConfig
    /// The screen point it is attached to.
    public var anchorPoint: ScreenPoint
}

/// Lays out view annotations over a map frame: a pure function of the annotations and the
/// screen, so the same input always gives the same placements.
///
/// Order: selected annotations first, then higher ``ViewAnnotationLayoutItem/priority``, then
/// the order given (Mapbox places selected and higher-priority annotations first, so they win
/// collisions). For each annotation the variable anchors are tried in order:
/// 1. the first whose frame lies wholly on screen and overlaps no annotation placed before it;
/// 2. else the first that overlaps none and is at least partly on screen;
/// 3. else, only when `allowOverlap`, the first wholly on screen, or else the first anchor.
/// An annotation that finds nothing (or is invisible, or whose point is behind the camera or
/// whose frame misses the screen) is hidden. Annotations with `allowOverlap` still take up their
/// space: a later annotation without it avoids them. `obstacles` (the attribution, which must
/// stay visible) are avoided by every annotation, `allowOverlap` or not.
///
/// A line target is anchored at the middle (by screen length) of its longest stretch inside the
/// screen, so a callout on a route stays visible while the camera moves along it.
public enum ViewAnnotationLayout {
    public static func place(_ items: [ViewAnnotationLayoutItem], screen: ScreenSize, obstacles: [ScreenRect] = []) -> [ViewAnnotationPlacement] {
        let bounds = ScreenRect(x: 0, y: 0, width: screen.width, height: screen.height)
        let order = items.indices.sorted { a, b in
            let x = items[a], y = items[b]
            if x.selected != y.selected { return x.selected }
            if x.priority != y.priority { return x.priority > y.priority }
            return a < b
        }
        var placed: [ViewAnnotationPlacement] = []
        for k in order {
            let item = items[k]
            guard item.visible, let point = anchorPoint(of: item.target, in: bounds), point.isFinite else { continue }
            let candidates = item.anchors.map { config in (config, frame(size: item.size, at: point, config)) }
            func clear(_ r: ScreenRect) -> Bool { !obstacles.contains { $0.intersects(r) } }
            func free(_ r: ScreenRect) -> Bool { clear(r) && !placed.contains { $0.frame.intersects(r) } }
            var choice = candidates.first { bounds.contains($0.1) && free($0.1) }
                ?? candidates.first { bounds.intersects($0.1) && free($0.1) }
            if choice == nil && item.allowOverlap {
                choice = candidates.first { bounds.contains($0.1) && clear($0.1) } ?? candidates.first { bounds.intersects($0.1) && clear($0.1) }
            }
            guard let (config, rect) = choice else { continue }
            placed.append(ViewAnnotationPlacement(id: item.id, frame: rect, anchor: config, anchorPoint: point))
        }
        return placed
    }

    /// The frame of an annotation of `size` whose `config.anchor` point sits on `point`, moved by
    /// the config's offsets (positive `offsetY` is up).
    public static func frame(size: ScreenSize, at point: ScreenPoint, _ config: ViewAnnotationAnchorConfig) -> ScreenRect {
        let u = config.anchor.unitPosition
        return ScreenRect(x: point.x - u.x * size.width + config.offsetX,
                          y: point.y - u.y * size.height - config.offsetY,
                          width: size.width, height: size.height)
    }

    /// The screen point an annotation is attached to: the point itself, or the middle of the
    /// longest on-screen stretch of its lines (nil when no part is on screen).
    public static func anchorPoint(of target: ViewAnnotationTarget, in bounds: ScreenRect) -> ScreenPoint? {
        switch target {
        case .point(let p): return p
        case .lines(let lines):
            var best: [ScreenPoint] = [], bestLength = 0.0
            for line in lines {
                for run in visibleRuns(of: line, in: bounds) {
                    let l = length(run)
                    if l > bestLength { best = run; bestLength = l }
                }
            }
            return best.isEmpty ? nil : point(along: best, at: bestLength / 2)
        }
    }

    /// The parts of a polyline inside `bounds`, each segment clipped with Liang–Barsky
    /// (Liang & Barsky 1984, "A new concept and method for line clipping", ACM TOG 3(1)).
    public static func visibleRuns(of line: [ScreenPoint], in bounds: ScreenRect) -> [[ScreenPoint]] {
        var runs: [[ScreenPoint]] = [], current: [ScreenPoint] = []
        for (a, b) in zip(line, line.dropFirst()) {
            guard let (p, q) = clip(a, b, to: bounds) else {
                if !current.isEmpty { runs.append(current); current = [] }
                continue
            }
            if current.last != p {
                if !current.isEmpty { runs.append(current) }
                current = [p]
            }
            current.append(q)
            if q != b { runs.append(current); current = [] }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    static func clip(_ a: ScreenPoint, _ b: ScreenPoint, to r: ScreenRect) -> (ScreenPoint, ScreenPoint)? {
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.x - r.x), (dx, r.maxX - a.x), (-dy, a.y - r.y), (dy, r.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let t = q / p
                if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
                if t0 > t1 { return nil }
            }
        }
        func at(_ t: Double) -> ScreenPoint { t == 0 ? a : (t == 1 ? b : ScreenPoint(x: a.x + dx * t, y: a.y + dy * t)) }
        return (at(t0), at(t1))
    }

    static func length(_ run: [ScreenPoint]) -> Double {
        zip(run, run.dropFirst()).reduce(0) { $0 + distance($1.0, $1.1) }
    }

    static func point(along run: [ScreenPoint], at target: Double) -> ScreenPoint {
        var walked = 0.0
        for (a, b) in zip(run, run.dropFirst()) {
            let d = distance(a, b)
            if walked + d >= target, d > 0 {
                let t = (target - walked) / d
                return ScreenPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            }
            walked += d
        }
        return run[run.count - 1]
    }

    static func distance(_ a: ScreenPoint, _ b: ScreenPoint) -> Double { ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() }
}
