import FlybyCore

/// What symbol placement remembers from one frame of a sequence to the next: each symbol's fade
/// opacity and whether it was placed, and the variable anchor its text was placed at.
///
/// Fading (MapLibre's `fadeDuration`, 300 ms by default): a label or icon that becomes placed
/// fades in, and one that loses collision fades out (drawn, but blocking nothing), its opacity
/// moving by `Δt / fadeDuration` per frame towards the state it had at the previous frame, Δt
/// being the *simulation* time between the frames (so a video fades as the window does). A
/// symbol newly placed is drawn at opacity 0 in its first frame and fully after `fadeDuration`;
/// one that stops fitting is drawn fully in its last placed-looking frame and is gone
/// `fadeDuration` later. The first frame of a sequence has no history: every placed symbol is
/// drawn fully and every other one not at all, exactly as a snapshot.
///
/// Symbols are known by layer, part (text or icon), label text and their anchor point in unit
/// Mercator (rounded to 2⁻³² of the world), which stay the same from frame to frame whatever
/// tiles the frame holds. The tables are only looked up, never walked in an order that reaches
/// the output, so frames are deterministic.
struct SymbolHistory {
    /// Simulation time of the last frame placed, seconds.
    var time: Double
    /// Seconds since the previous frame (nil: the first frame of the sequence).
    var step: Double?
    /// `fadeDuration` in seconds (0: no fading, a symbol appears and goes at once).
    var duration: Double
    var previous: [SymbolKey: Entry] = [:]
    var current: [SymbolKey: Entry] = [:]

    struct Entry {
        /// Drawn opacity in 0…1 (a factor on `text-opacity` / `icon-opacity`).
        var opacity: Double
        /// Whether the symbol was placed (passed collision) in that frame.
        var placed: Bool
        /// The variable-anchor candidate its text was placed at (−1: none).
        var variant: Int
    }

    init(time: Double, duration: Double) {
        self.time = time
        self.duration = duration
    }

    /// Starts the frame at simulation time `t`: the last frame's table becomes the previous one.
    /// A time that does not follow the last frame (backwards, or more than `maximumGap` later)
    /// starts the sequence over.
    mutating func advance(to t: Double) {
        swap(&previous, &current)
        current.removeAll(keepingCapacity: true)
        if t > time && t - time <= SymbolHistory.maximumGap {
            step = t - time
        } else {
            step = nil
            previous.removeAll(keepingCapacity: true)
        }
        time = t
    }

    /// Frames further apart than this (seconds) are not one sequence.
    static let maximumGap = 1.0

    /// The opacity to draw symbol `key` at this frame, given whether it is placed now; records it.
    mutating func opacity(_ key: SymbolKey, placed: Bool, variant: Int = -1) -> Double {
        let o: Double
        if let step, duration > 0 {
            let old = previous[key] ?? Entry(opacity: 0, placed: false, variant: -1)
            let next = old.opacity + (old.placed ? step : -step) / duration
            // Snapped at the ends, so that rounding in the frame times cannot leave a faint last frame.
            o = next < 1e-9 ? 0 : next > 1 - 1e-9 ? 1 : next
        } else {
            o = placed ? 1 : 0
        }
        if placed || o > 0 { current[key] = Entry(opacity: o, placed: placed, variant: placed ? variant : -1) }
        return o
    }

    /// The variable-anchor candidate symbol `key`'s text was placed at in the previous frame (nil: none).
    func previousVariant(_ key: SymbolKey) -> Int? {
        guard let e = previous[key], e.placed, e.variant >= 0 else { return nil }
        return e.variant
    }
}

/// Which symbol a ``SymbolHistory`` entry is about (see there).
struct SymbolKey: Hashable {
    var layer: Int32
    /// 0: the text, 1: the icon.
    var part: UInt8
    var x: Int64, y: Int64
    var label: String

    init(layer: Int, icon: Bool, unit: (x: Double, y: Double), label: String) {
        self.layer = Int32(truncatingIfNeeded: layer)
        part = icon ? 1 : 0
        let scale = 4_294_967_296.0
        x = Int64((unit.x * scale).rounded()); y = Int64((unit.y * scale).rounded())
        self.label = icon ? "" : label
    }
}

extension MapRenderer {
    /// The order in which symbol layer `index` tries a label's variable anchors: the one it was
    /// placed at in the previous frame of a sequence first (so a label does not jump while its
    /// anchor still fits, as MapLibre keeps it), then the style's order.
    func variantOrder(_ index: Int, layout: SymbolLayout, unit: (x: Double, y: Double)) -> [Int] {
        let n = layout.variants.count
        guard let history = symbolHistory,
              let k = history.previousVariant(SymbolKey(layer: index, icon: false, unit: unit, label: layout.label)), k < n, k > 0
        else { return Array(0..<n) }
        return [k] + (0..<n).filter { $0 != k }
    }
}
