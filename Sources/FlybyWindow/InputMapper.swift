import FlybyCore

/// Modifier keys held during an input event.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1)
    public static let control = KeyModifiers(rawValue: 2)
    public static let alt = KeyModifiers(rawValue: 4)
}

/// A mouse button.
public enum MouseButton: Hashable, Sendable { case left, middle, right, other }

/// A key, as the window reports it (layout-independent names for the keys Flyby uses).
public enum Key: Hashable, Sendable {
    case left, right, up, down, escape, space
    /// A printable key, lower case (`"a"`, `"1"`, `"["`, `"+"`, `"-"`, `"="`).
    case character(Character)
}

/// One input event in window points (origin top-left, y down), free of SDL types so the mapping
/// can be tested with synthetic events.
public enum InputEvent: Hashable, Sendable {
    /// A button went down; `clicks` is 2 for the second press of a double click.
    case mouseDown(MouseButton, at: ScreenPoint, clicks: Int, modifiers: KeyModifiers)
    case mouseUp(MouseButton, at: ScreenPoint)
    case mouseMoved(to: ScreenPoint)
    /// The pointer left the window.
    case pointerLeft
    /// A wheel or trackpad scroll: `notches` positive away from the user (scroll up = zoom in).
    /// A mouse wheel reports whole notches; a trackpad reports fractions.
    case wheel(notches: Double, at: ScreenPoint?, modifiers: KeyModifiers)
    case keyDown(Key, modifiers: KeyModifiers, isRepeat: Bool)
    /// The drawable area changed size.
    case resized(ScreenSize)
    /// The window was asked to close.
    case quit
}

extension InputEvent {
    /// The event with its positions and sizes divided by `pixelRatio`: SDL reports window
    /// pixels, and the map's gestures, clicks and sizes are in points (`--pixel-ratio`).
    public func inPoints(pixelRatio k: Double) -> InputEvent {
        guard k != 1 else { return self }
        func p(_ q: ScreenPoint) -> ScreenPoint { ScreenPoint(x: q.x / k, y: q.y / k) }
        switch self {
        case let .mouseDown(b, at, clicks, m): return .mouseDown(b, at: p(at), clicks: clicks, modifiers: m)
        case let .mouseUp(b, at): return .mouseUp(b, at: p(at))
        case let .mouseMoved(to): return .mouseMoved(to: p(to))
        case let .wheel(n, at, m): return .wheel(notches: n, at: at.map(p), modifiers: m)
        case let .resized(s): return .resized(ScreenSize(width: s.width / k, height: s.height / k))
        case .pointerLeft, .keyDown, .quit: return self
        }
    }
}

/// How a scroll was produced (MapLibre `scroll_zoom.ts`): a wheel eases over 200 ms, a trackpad
/// applies at once.
public enum ScrollKind: Hashable, Sendable { case wheel, trackpad }

/// What the user asked for. The session turns camera actions into the engine's gesture and
/// animation calls; the window handles the rest (quit, screenshot, overlays).
public enum WindowAction: Hashable, Sendable {
    // Continuous gestures (left drag).
    case panBegan(ScreenPoint), panChanged(ScreenPoint), panEnded
    /// Right drag or ctrl+drag: `rotateDegrees` is the bearing change so far (0.8° per px right),
    /// `pitchDegrees` the pitch change so far (−0.5° per px down).
    case rotatePitchBegan, rotatePitchChanged(rotateDegrees: Double, pitchDegrees: Double), rotatePitchEnded
    /// A scroll in MapLibre delta units (positive zooms in), about a point.
    case scroll(delta: Double, kind: ScrollKind, at: ScreenPoint)
    /// A left click without a drag: the compass, else selects the feature under the point.
    case click(at: ScreenPoint)
    /// The pointer moved with no button held (hover highlighting); nil when it left the window.
    case hover(at: ScreenPoint?)
    /// A right click or a long left press: clear every feature state and the callout.
    case clearFeatures
    /// Double click: zoom in about the point, or out with shift.
    case doubleClick(at: ScreenPoint, zoomOut: Bool)
    // Keyboard camera moves (300 ms eases).
    case panBy(dx: Double, dy: Double), zoomBy(Double), rotateBy(Double), pitchBy(Double), northUp
    /// Fly to bookmark 1…9.
    case bookmark(Int)
    case followPuck, cycleTrack, overview, idle
    case togglePause, slower, faster
    case cycleLight, switchStyle
    case toggleRecording, screenshot, toggleHelp, toggleHUD, quit
    case resize(ScreenSize)
}

/// Turns window input into ``WindowAction``s: the whole key and mouse binding of `flyby window`
/// in one SDL-free type. Constants follow MapLibre GL JS (docs/research/maplibre-camera-algorithms.md §8).
public struct InputMapper: Sendable {
    /// Pixels a button must move before a press becomes a drag (MapLibre `clickTolerance`).
    public static let clickTolerance = 3.0
    /// Degrees of bearing per pixel of horizontal rotate-drag.
    public static let bearingPerPixel = 0.8
    /// Degrees of pitch per pixel of vertical rotate-drag (down lowers the pitch).
    public static let pitchPerPixel = -0.5
    /// Arrow-key pan distance in pixels.
    public static let panStep = 100.0
    /// MapLibre delta of one wheel notch (Chrome reports 100 px per notch).
    public static let wheelNotchDelta = 100.0
    /// Seconds a left button must stay down, not dragging, to be a long press.
    public static let longPressDuration = 0.5
    /// Pixels (distance from the press point) a long press may wander. A move of
    /// ``clickTolerance`` on either axis starts a drag first, which also ends the long press.
    public static let longPressTolerance = 4.0

    /// The help text: every binding, one per line (shown by `H`).
    public static let helpLines: [String] = [
        "left drag: pan (with inertia)      wheel / trackpad: zoom about the cursor",
        "right drag or ctrl+drag: rotate (horizontal) and pitch (vertical), with inertia",
        "click: select the feature (callout with its name)      right click or long press: clear",
        "double click: zoom in      shift+double click: zoom out",
        "arrows: pan      + / -: zoom      shift+arrows: rotate / pitch      N: north up",
        "1-9: fly to a bookmark      F: follow the puck      T: next track      O: overview      I: idle",
        "space: pause time      [ / ]: slower / faster      L: light preset      S: style",
        "R: start / stop recording      P: screenshot      D: HUD line      H: this help      Q / Esc: quit",
    ]

    private enum Drag {
        case none
        /// A button is down and has not moved past the click tolerance; `time` is when it went
        /// down (seconds, nil when the event came without a time).
        case pressed(MouseButton, ScreenPoint, rotate: Bool, time: Double?)
        case panning, rotating(ScreenPoint)
        /// A long press fired; the rest of the press (moves, release) does nothing.
        case longPressed
    }
    private var drag: Drag = .none
    /// The last pointer position (for wheel events that carry none).
    public private(set) var pointer = ScreenPoint(x: 0, y: 0)

    public init() {}

    /// The actions for one event, in order. Without a time no press becomes a long press.
    public mutating func map(_ event: InputEvent) -> [WindowAction] { map(event, time: nil) }

    /// The actions for one event that happened at `time` (seconds, any monotonic origin).
    public mutating func map(_ event: InputEvent, time: Double?) -> [WindowAction] {
        switch event {
        case .quit: return [.quit]
        case .resized(let s): return [.resize(s)]
        case .pointerLeft:
            if case .none = drag { return [.hover(at: nil)] }
            return []
        case let .mouseDown(button, p, clicks, mods):
            pointer = p
            if case .none = drag {} else { return [] }
            if button == .left && clicks >= 2 {
                return [.doubleClick(at: p, zoomOut: mods.contains(.shift))]
            }
            if button == .left || button == .right {
                drag = .pressed(button, p, rotate: button == .right || mods.contains(.control), time: time)
            }
            return []
        case let .mouseMoved(p):
            pointer = p
            switch drag {
            case .none: return [.hover(at: p)]
            case .longPressed: return []
            case let .pressed(_, start, rotate, _):
                guard abs(p.x - start.x) >= Self.clickTolerance || abs(p.y - start.y) >= Self.clickTolerance else { return [] }
                if rotate {
                    drag = .rotating(start)
                    return [.rotatePitchBegan, rotateChange(from: start, to: p)]
                }
                drag = .panning
                return [.panBegan(start), .panChanged(p)]
            case .panning: return [.panChanged(p)]
            case let .rotating(start): return [rotateChange(from: start, to: p)]
            }
        case let .mouseUp(button, p):
            pointer = p
            switch drag {
            case let .pressed(b, start, _, down) where b == button:
                drag = .none
                if b == .right { return [.clearFeatures] }
                // A release that comes before the window noticed the long press still is one.
                if let down, let time, time - down >= Self.longPressDuration - timeEpsilon, isWithinLongPressTolerance(p, of: start) {
                    return [.clearFeatures]
                }
                return b == .left ? [.click(at: start)] : []
            case .longPressed where button == .left:
                drag = .none
                return []
            case .panning where button == .left:
                drag = .none
                return [.panEnded]
            case .rotating:
                drag = .none
                return [.rotatePitchEnded]
            default: return []
            }
        case let .wheel(notches, at, mods):
            if let at { pointer = at }
            guard notches.isFinite, notches != 0 else { return [] }
            let isWheel = notches == notches.rounded()
            var delta = notches * Self.wheelNotchDelta
            if mods.contains(.shift) { delta /= 4 }
            return [.scroll(delta: delta, kind: isWheel ? .wheel : .trackpad, at: pointer)]
        case let .keyDown(key, mods, _):
            return keyActions(key, mods).map { [$0] } ?? []
        }
    }

    /// When the current press becomes a long press (seconds), if it can; the window wakes then
    /// and calls ``update(time:)``.
    public var longPressDeadline: Double? {
        if case let .pressed(.left, _, false, down?) = drag { return down + Self.longPressDuration }
        return nil
    }

    /// Time-driven actions: a left press held ``longPressDuration`` without becoming a drag is a
    /// long press, which clears the feature states (once; its release then does nothing).
    public mutating func update(time: Double) -> [WindowAction] {
        guard let deadline = longPressDeadline, time >= deadline - timeEpsilon,
              case let .pressed(_, start, _, _) = drag, isWithinLongPressTolerance(pointer, of: start) else { return [] }
        drag = .longPressed
        return [.clearFeatures]
    }

    private func isWithinLongPressTolerance(_ p: ScreenPoint, of start: ScreenPoint) -> Bool {
        let dx = p.x - start.x, dy = p.y - start.y
        return dx * dx + dy * dy <= Self.longPressTolerance * Self.longPressTolerance
    }

    private func rotateChange(from start: ScreenPoint, to p: ScreenPoint) -> WindowAction {
        .rotatePitchChanged(rotateDegrees: (p.x - start.x) * Self.bearingPerPixel, pitchDegrees: (p.y - start.y) * Self.pitchPerPixel)
    }

    private func keyActions(_ key: Key, _ mods: KeyModifiers) -> WindowAction? {
        let shift = mods.contains(.shift)
        switch key {
        case .escape: return .quit
        case .space: return .togglePause
        case .left: return shift ? .rotateBy(-15) : .panBy(dx: -Self.panStep, dy: 0)
        case .right: return shift ? .rotateBy(15) : .panBy(dx: Self.panStep, dy: 0)
        case .up: return shift ? .pitchBy(10) : .panBy(dx: 0, dy: -Self.panStep)
        case .down: return shift ? .pitchBy(-10) : .panBy(dx: 0, dy: Self.panStep)
        case .character(let c):
            switch c.lowercased().first ?? c {
            case "+", "=": return .zoomBy(1)
            case "-", "_": return .zoomBy(-1)
            case "n": return .northUp
            case "f": return .followPuck
            case "t": return .cycleTrack
            case "o": return .overview
            case "i": return .idle
            case "[": return .slower
            case "]": return .faster
            case "l": return .cycleLight
            case "s": return .switchStyle
            case "r": return .toggleRecording
            case "p": return .screenshot
            case "h": return .toggleHelp
            case "d": return .toggleHUD
            case "q": return .quit
            case let d where d.isASCII && d.isNumber && d != "0": return .bookmark(Int(String(d))!)
            default: return nil
            }
        }
    }
}
