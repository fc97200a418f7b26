import CSDL2
import FlybyCore

/// A failed SDL call: the function's name and `SDL_GetError()`'s message.
public struct SDLError: Error, Sendable, CustomStringConvertible {
    public var function: String
    public var message: String
    public var description: String { "\(function) failed: \(message)" }
}

/// The thin wrapper over SDL2: one internal function per C call, failures turned into
/// ``SDLError``. Nothing else in Flyby touches `CSDL2`. Every call belongs on the main thread.
enum SDL {
    /// The last SDL error message. The corresponding SDL function is `SDL_GetError`.
    static func lastError() -> String { String(cString: SDL_GetError()) }

    /// Initialises the video subsystem (which also starts events). The corresponding SDL function is `SDL_Init`.
    static func initVideo() throws(SDLError) {
        if SDL_Init(SDL_INIT_VIDEO) != 0 { throw SDLError(function: "SDL_Init", message: lastError()) }
    }

    /// Shuts SDL down. The corresponding SDL function is `SDL_Quit`.
    static func quit() { SDL_Quit() }

    /// The name of the video driver in use (e.g. `x11`, `dummy`). The corresponding SDL function is `SDL_GetCurrentVideoDriver`.
    static func currentVideoDriver() -> String? { SDL_GetCurrentVideoDriver().map { String(cString: $0) } }

    /// The name of the hint that lets SDL back the window surface with a GPU texture.
    static let hintFramebufferAcceleration = SDL_HINT_FRAMEBUFFER_ACCELERATION

    /// Sets a configuration hint. The corresponding SDL function is `SDL_SetHint`.
    @discardableResult
    static func setHint(_ name: String, _ value: String) -> Bool { SDL_SetHint(name, value) == SDL_TRUE }

    /// Creates a resizable, shown window centred on the screen. The corresponding SDL function is `SDL_CreateWindow`.
    static func createWindow(title: String, width: Int, height: Int) throws(SDLError) -> OpaquePointer {
        let flags = SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_RESIZABLE.rawValue
        guard let w = SDL_CreateWindow(title, CSDL2_WINDOWPOS_CENTERED, CSDL2_WINDOWPOS_CENTERED, Int32(width), Int32(height), flags) else {
            throw SDLError(function: "SDL_CreateWindow", message: lastError())
        }
        return w
    }

    /// Destroys a window. The corresponding SDL function is `SDL_DestroyWindow`.
    static func destroyWindow(_ window: OpaquePointer) { SDL_DestroyWindow(window) }

    /// Sets the window title. The corresponding SDL function is `SDL_SetWindowTitle`.
    static func setWindowTitle(_ window: OpaquePointer, _ title: String) { SDL_SetWindowTitle(window, title) }

    /// The window's client size in screen coordinates. The corresponding SDL function is `SDL_GetWindowSize`.
    static func windowSize(_ window: OpaquePointer) -> (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(window, &w, &h)
        return (Int(w), Int(h))
    }

    /// The window's surface (valid until the window is resized). The corresponding SDL function is `SDL_GetWindowSurface`.
    static func windowSurface(_ window: OpaquePointer) throws(SDLError) -> UnsafeMutablePointer<SDL_Surface> {
        guard let s = SDL_GetWindowSurface(window) else { throw SDLError(function: "SDL_GetWindowSurface", message: lastError()) }
        return s
    }

    /// Copies the window surface to the screen. The corresponding SDL function is `SDL_UpdateWindowSurface`.
    static func updateWindowSurface(_ window: OpaquePointer) throws(SDLError) {
        if SDL_UpdateWindowSurface(window) != 0 { throw SDLError(function: "SDL_UpdateWindowSurface", message: lastError()) }
    }

    /// Locks a surface for direct pixel access. The corresponding SDL function is `SDL_LockSurface`.
    static func lockSurface(_ surface: UnsafeMutablePointer<SDL_Surface>) throws(SDLError) {
        if SDL_LockSurface(surface) != 0 { throw SDLError(function: "SDL_LockSurface", message: lastError()) }
    }

    /// Releases a surface lock. The corresponding SDL function is `SDL_UnlockSurface`.
    static func unlockSurface(_ surface: UnsafeMutablePointer<SDL_Surface>) { SDL_UnlockSurface(surface) }

    /// Waits up to `milliseconds` for an event (−1: forever); true when `event` was filled.
    /// The corresponding SDL function is `SDL_WaitEventTimeout`.
    static func waitEvent(_ event: inout SDL_Event, timeoutMilliseconds: Int32) -> Bool {
        SDL_WaitEventTimeout(&event, timeoutMilliseconds) == 1
    }

    /// Takes the next pending event, if any. The corresponding SDL function is `SDL_PollEvent`.
    static func pollEvent(_ event: inout SDL_Event) -> Bool { SDL_PollEvent(&event) == 1 }

    /// Adds an event to the queue (tests inject input this way). The corresponding SDL function is `SDL_PushEvent`.
    static func pushEvent(_ event: inout SDL_Event) throws(SDLError) {
        if SDL_PushEvent(&event) < 0 { throw SDLError(function: "SDL_PushEvent", message: lastError()) }
    }

    /// The modifier keys held now. The corresponding SDL function is `SDL_GetModState`.
    static func modState() -> UInt16 { UInt16(truncatingIfNeeded: SDL_GetModState().rawValue) }

    /// The id of a window (for window events). The corresponding SDL function is `SDL_GetWindowID`.
    static func windowID(_ window: OpaquePointer) -> UInt32 { SDL_GetWindowID(window) }
}

/// SDL events → ``InputEvent``s (no SDL type leaves this file and `MapWindow`).
enum SDLEventTranslator {
    static func modifiers(_ mod: UInt16) -> KeyModifiers {
        var m = KeyModifiers()
        if UInt32(mod) & KMOD_SHIFT.rawValue != 0 { m.insert(.shift) }
        if UInt32(mod) & KMOD_CTRL.rawValue != 0 { m.insert(.control) }
        if UInt32(mod) & KMOD_ALT.rawValue != 0 { m.insert(.alt) }
        return m
    }

    static func button(_ b: UInt8) -> MouseButton {
        switch Int32(b) {
        case SDL_BUTTON_LEFT: return .left
        case SDL_BUTTON_RIGHT: return .right
        case SDL_BUTTON_MIDDLE: return .middle
        default: return .other
        }
    }

    static func key(_ sym: SDL_Keycode) -> Key? {
        switch UInt32(bitPattern: sym) {
        case SDLK_LEFT.rawValue: return .left
        case SDLK_RIGHT.rawValue: return .right
        case SDLK_UP.rawValue: return .up
        case SDLK_DOWN.rawValue: return .down
        case SDLK_ESCAPE.rawValue: return .escape
        case SDLK_SPACE.rawValue: return .space
        case SDLK_KP_PLUS.rawValue: return .character("+")
        case SDLK_KP_MINUS.rawValue: return .character("-")
        default:
            guard sym > 32, sym < 127, let s = Unicode.Scalar(UInt32(sym)) else { return nil }
            return .character(Character(s))
        }
    }

    /// The input event for an SDL event, or nil for events Flyby ignores.
    static func translate(_ e: SDL_Event, modifiersNow: () -> KeyModifiers) -> InputEvent? {
        switch SDL_EventType(e.type) {
        case SDL_QUIT: return .quit
        case SDL_MOUSEMOTION:
            return .mouseMoved(to: ScreenPoint(x: Double(e.motion.x), y: Double(e.motion.y)))
        case SDL_MOUSEBUTTONDOWN:
            return .mouseDown(button(e.button.button), at: ScreenPoint(x: Double(e.button.x), y: Double(e.button.y)),
                              clicks: Int(e.button.clicks), modifiers: modifiersNow())
        case SDL_MOUSEBUTTONUP:
            return .mouseUp(button(e.button.button), at: ScreenPoint(x: Double(e.button.x), y: Double(e.button.y)))
        case SDL_MOUSEWHEEL:
            var y = Double(e.wheel.preciseY)
            if y == 0 { y = Double(e.wheel.y) }
            if e.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue { y = -y }
            return .wheel(notches: y, at: ScreenPoint(x: Double(e.wheel.mouseX), y: Double(e.wheel.mouseY)), modifiers: modifiersNow())
        case SDL_KEYDOWN:
            guard let k = key(e.key.keysym.sym) else { return nil }
            return .keyDown(k, modifiers: modifiers(e.key.keysym.mod), isRepeat: e.key.repeat != 0)
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(e.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED:
                return .resized(ScreenSize(width: Double(e.window.data1), height: Double(e.window.data2)))
            case SDL_WINDOWEVENT_CLOSE: return .quit
            case SDL_WINDOWEVENT_LEAVE: return .pointerLeft
            default: return nil
            }
        default: return nil
        }
    }
}
