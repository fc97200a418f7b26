import FlybyCore

/// `raster-fade-duration` through a sequence of frames: when each tile a raster layer draws
/// appeared, and when the tiles it no longer draws left.
///
/// The Style Specification says only "fade duration when a new tile is added" (milliseconds).
/// Flyby's model: a tile drawn in a frame that was not drawn in the frame before *appears*, and
/// is drawn mixed with the tiles that left the layer within the last `duration` seconds of
/// simulation time — the tiles it replaces: its parent when the camera zooms in across a level,
/// its children when it zooms out. Its weight rises linearly from 0 when it appears to 1
/// `duration` later. Where no tile that left lies under it (it came into view at the frame's
/// edge; the first frame of a sequence), it is drawn fully at once: Flyby reads its tiles from
/// local archives before the frame that needs them, so a tile never arrives late and there is
/// nothing to fade in from. This is how MapLibre GL JS looks with its tiles cached: a new raster
/// tile cross-fades with its loaded parent or children (`raster-fade-duration`, default 300 ms).
///
/// Like MapLibre (its tile manager, `src/tile/tile_manager.ts`, turns raster fading on only
/// when no terrain is set), tiles draped on 3D terrain do not fade.
///
/// The state depends only on the frames of the sequence (their times and the tiles they draw),
/// never on caches or threads; tables are only looked up, never walked in an order that reaches
/// the output.
struct TileFade: Sendable {
    /// Simulation time of the last frame, seconds.
    private(set) var time: Double
    /// The tiles drawn in the last frame and when each appeared (−∞: before the sequence began).
    private(set) var appeared: [TileID: Double]
    /// Tiles no longer drawn and when they left (the time of the first frame without them), kept
    /// for one fade.
    private(set) var left: [TileID: Double] = [:]

    /// The longest fade drawn, seconds: a longer `raster-fade-duration` is drawn as this (it
    /// bounds how long left tiles are remembered; the specification sets no maximum).
    static let longestDuration = 10.0

    /// The first frame of a sequence at time `t`: its tiles have always been there.
    init(time t: Double, drawing drawn: some Sequence<TileID>) {
        time = t
        appeared = Dictionary(uniqueKeysWithValues: drawn.map { ($0, -Double.infinity) })
    }

    /// Whether a frame at time `t` continues the sequence: not earlier than the last frame and at
    /// most ``SymbolHistory/maximumGap`` after it (a frame drawn again at the same time continues it).
    func continues(at t: Double) -> Bool { t >= time && t - time <= SymbolHistory.maximumGap }

    /// The frame at time `t` (which must continue the sequence) draws `drawn`; fades last
    /// `duration` seconds.
    ///
    /// A tile that returns within a fade of leaving (the camera zooms back across a level) takes
    /// up its fade where the tiles that replaced it left off: they rose from 0 when it left, so it
    /// returns at weight 1 − (t − left) / `duration`, as if it had appeared that much earlier,
    /// and the frame goes on from the one before instead of jumping to the replacement drawn fully.
    mutating func advance(to t: Double, drawing drawn: some Sequence<TileID>, duration: Double) {
        var next: [TileID: Double] = [:]
        for id in drawn {
            if let since = appeared[id] {
                next[id] = since
            } else if let gone = left[id], t - gone < duration {
                next[id] = t - duration + (t - gone)
            } else {
                next[id] = t
            }
        }
        for id in appeared.keys where next[id] == nil { left[id] = t }
        left = left.filter { next[$0.key] == nil && t - $0.value < duration }
        appeared = next
        time = t
    }

    /// The weight of tile `id`'s image over what it replaces at the last frame, in 1/256
    /// (``RasterSampling/lerp(_:_:_:)``): nil when it is drawn fully (appeared `duration` ago
    /// or more, or before the sequence).
    func weight(_ id: TileID, duration: Double) -> UInt32? {
        guard let since = appeared[id].map({ time - $0 }), since.isFinite, since < duration else { return nil }
        return UInt32(max(0, since / duration * 256).rounded(.down))
    }
}
