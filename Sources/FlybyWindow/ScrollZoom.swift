import FlybyCore

#if canImport(Glibc)
import Glibc
#endif

/// MapLibre GL JS's scroll-zoom handler (`scroll_zoom.ts`, docs/research/maplibre-camera-algorithms.md §8)
/// as a pure state machine driven once per simulation tick.
///
/// Scroll deltas accumulate between ticks. Each tick with a pending delta turns it into a scale
/// `2 / (1 + e^(−|delta·rate|))` (inverted when zooming out) with rate 1/450 for wheel deltas
/// larger than one 4.000244 tick and 1/100 otherwise, applied to the previous target zoom while one
/// is live. A wheel eases from the current zoom to the target over 200 ms with a Bézier continuous
/// with the previous one; a trackpad jumps to the target. The target is forgotten 200 ms after
/// the zoom settles.
///
/// Differences from GL JS: the wheel/trackpad decision comes from the window system (whole
/// notches are a wheel), so there is no 40 ms wait to classify a lone event.
public struct ScrollZoom: Sendable {
    /// Zoom levels per unit of delta for wheel deltas (1/450) and trackpad deltas (1/100).
    public static let wheelZoomRate = 1.0 / 450
    public static let defaultZoomRate = 1.0 / 100
    /// One wheel tick in GL JS delta units.
    public static let wheelZoomDelta = 4.000244140625
    /// Largest scale change per frame.
    public static let maxScalePerFrame = 2.0
    /// Wheel ease duration, seconds.
    public static let wheelEaseDuration = 0.2

    private var delta = 0.0
    private var kind = ScrollKind.wheel
    /// The point the zoom keeps fixed.
    public private(set) var around = ScreenPoint(x: 0, y: 0)
    private var targetZoom: Double?
    private var startZoom: Double?
    private var easing: UnitBezier?
    private var previousEase: (start: Double, duration: Double, easing: UnitBezier)?
    private var lastWheelTime = -Double.infinity
    private var finishedAt: Double?
    /// True while a zoom is in progress (a tick will change the zoom).
    public private(set) var isActive = false

    public init() {}

    /// Records a scroll of `delta` (positive zooms in) about `point` at `time` seconds.
    public mutating func scroll(delta: Double, kind: ScrollKind, at point: ScreenPoint, time: Double) {
        guard delta.isFinite, delta != 0, point.isFinite else { return }
        if let f = finishedAt, time - f > Self.wheelEaseDuration { targetZoom = nil; previousEase = nil }
        finishedAt = nil
        self.kind = kind
        self.delta += delta
        around = point
        lastWheelTime = time
        isActive = true
    }

    /// The zoom for the tick at `time`, or nil when there is nothing to do.
    public mutating func update(currentZoom: Double, minZoom: Double, maxZoom: Double, time: Double) -> Double? {
        guard isActive else { return nil }
        if delta != 0 {
            let rate = kind == .wheel && abs(delta) > Self.wheelZoomDelta ? Self.wheelZoomRate : Self.defaultZoomRate
            var scale = Self.maxScalePerFrame / (1 + exp(-abs(delta * rate)))
            if delta < 0 { scale = 1 / scale }
            let from = targetZoom ?? currentZoom
            targetZoom = min(maxZoom, max(minZoom, from + log2(scale)))
            if kind == .wheel {
                startZoom = currentZoom
                easing = smoothOutEasing(duration: Self.wheelEaseDuration, now: time)
            }
            delta = 0
        }
        guard let target = targetZoom else { isActive = false; return nil }
        var zoom = target
        var finished = true
        if kind == .wheel, let start = startZoom, let easing {
            let t = min((time - lastWheelTime + 0.005) / Self.wheelEaseDuration, 1)
            zoom = start + (target - start) * easing.solve(max(0, t))
            finished = t >= 1
        }
        if finished {
            isActive = false
            finishedAt = time
        }
        return zoom
    }

    /// GL JS `_smoothOutEasing`: a Bézier whose start speed continues the previous ease.
    private mutating func smoothOutEasing(duration: Double, now: Double) -> UnitBezier {
        var easing = UnitBezier(0.25, 0.1, 0.25, 1)
        if let prev = previousEase {
            let t = min(max((now - prev.start) / prev.duration, 0), 1)
            let speed = prev.easing.solve(min(t + 0.01, 1)) - prev.easing.solve(t)
            let x = 0.27 / (speed * speed + 0.0001).squareRoot() * 0.01
            let y = max(0.27 * 0.27 - x * x, 0).squareRoot()
            easing = UnitBezier(min(x, 1), y, 0.25, 1)
        }
        previousEase = (now, duration, easing)
        return easing
    }
}
