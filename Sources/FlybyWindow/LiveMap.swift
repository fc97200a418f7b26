import FlybyCore
import FlybyData
import FlybyRender
import Foundation

/// The window's map: `MapRenderer` on the current style and light preset, rebuilt when the window
/// is resized or the style or preset changes (L and S keys). The window draws the scale bar,
/// compass and attribution itself, so the renderer's ornaments are off. The feature states live
/// here, not in the renderer, so they survive the rebuilds.
final class LiveMap {
    static let presets = ["day", "dawn", "dusk", "night"]
    var style: String
    var preset: String
    var loader = StyleLoader()
    var loaded: LoadedStyle
    var renderer: MapRenderer?
    /// Handed to the renderer only after a change: every hand-over invalidates the renderer's
    /// per-feature memos (``MapRenderer/featureStates``), so doing it each frame would redo them
    /// each frame.
    var featureStates = FeatureStateStore() { didSet { featureStatesChanged = true } }
    private var featureStatesChanged = true
    /// Threads rasterizing the map (``MapRenderer/threads``).
    var threads = 1
    /// Device pixels per point (``MapRenderer/pixelRatio``, 1…4).
    var pixelRatio = 1.0
    /// The puck as a 3D model (a flight's `location.puck3D`); nil: the 2D puck.
    var puck3D: Puck3D?
    private var lineLayers: Set<String> = []
    private var symbolLayers: Set<String> = []

    init(style spec: String, pixelRatio: Double = 1) throws {
        let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
        style = parts[0]
        preset = parts.count > 1 ? parts[1] : "day"
        self.pixelRatio = pixelRatio
        loader.spritePixelRatio = pixelRatio >= 2 ? 2 : 1
        loaded = try loader.load(LiveMap.spec(style, preset))
        indexLayers()
    }

    static func spec(_ style: String, _ preset: String) -> String { preset == "day" ? style : "\(style):\(preset)" }

    func reload() {
        // A failure keeps the previous style (the window's HUD names what is shown).
        if let l = try? loader.load(LiveMap.spec(style, preset)) { loaded = l; renderer = nil; indexLayers() }
    }

    private func indexLayers() {
        lineLayers = Set(loaded.style.layers.filter { $0.type == .line }.map(\.id))
        symbolLayers = Set(loaded.style.layers.filter { $0.type == .symbol }.map(\.id))
    }

    /// A renderer of the buffer's size with the current feature states.
    private func prepare(width: Int, height: Int) {
        if renderer == nil || renderer!.width != width || renderer!.height != height {
            renderer = try? MapRenderer(style: loaded, width: width, height: height, pixelRatio: pixelRatio)
            renderer?.showsOrnaments = false
            renderer?.attribution = ""
            renderer?.threads = threads
            renderer?.puck3D = puck3D
            featureStatesChanged = true
        }
        if featureStatesChanged {
            renderer?.featureStates = featureStates
            featureStatesChanged = false
        }
    }

    /// One frame; with `time` (the session's frame clock) a frame of the window's sequence, in
    /// which labels and icons fade (``MapRenderer/fadeDuration``); a rebuilt renderer (resize,
    /// style or preset change) starts a new sequence.
    func draw(camera: CameraState, puck: PuckState?, time: Double?, into buffer: inout PixelBuffer) {
        prepare(width: buffer.width, height: buffer.height)
        if let time { renderer?.render(camera: camera, puck: puck, time: time, into: &buffer) }
        else { renderer?.render(camera: camera, puck: puck, into: &buffer) }
        // An interactive window keeps going without the tile (play and snapshot exit 2 instead),
        // but says so once per renderer.
        if let error = renderer?.tileError, !warnedTileError {
            warnedTileError = true
            FileHandle.standardError.write(Data("flyby: warning: \(error.description); the map is drawn without that tile\n".utf8))
        }
    }
    private var warnedTileError = false

    /// The features drawn at `point` in a frame of the last drawn size, labels and icons left
    /// out: a click or hover on a country's name means the country under it.
    func query(at point: ScreenPoint, camera: CameraState) -> [QueriedFeature] {
        guard let r = renderer else { return [] }
        return r.queryFeatures(at: point, camera: camera).filter { !symbolLayers.contains($0.layerID) }
    }

    func apply(_ change: FeatureStateChange) {
        switch change {
        case .removeAll: featureStates.removeAll()
        case let .set(key, on, feature):
            featureStates.set(key, on ? .bool(true) : .null, source: feature.source, feature: feature.id)
        }
    }

    func isLine(_ layerID: String) -> Bool { lineLayers.contains(layerID) }
}

extension MapRendererHooks {
    /// The real map: `MapRenderer` drawing a built-in style (`world`, `city:night`) or a style
    /// file, with feature queries and feature state. S cycles the built-in styles and drops
    /// every feature state (the sources change).
    /// `threads` rasterize the style layers in row bands (same pixels for any count);
    /// `pixelRatio` (1…4) draws the map at that many device pixels per point (the window's
    /// `--pixel-ratio`: the camera and query points are in points, the buffer in pixels).
    /// - Throws: `InputError` when the style cannot be loaded.
    /// `puck3D` draws the puck as that model (a flight's `location.puck3D`).
    public static func mapRenderer(style: String, threads: Int = 1, pixelRatio: Int = 1, puck3D: Puck3D? = nil) throws -> MapRendererHooks {
        let map = try LiveMap(style: style, pixelRatio: Double(min(max(pixelRatio, 1), 4)))
        map.puck3D = puck3D
        map.threads = threads
        return MapRendererHooks(
            draw: { camera, puck, time, buffer in map.draw(camera: camera, puck: puck, time: time, into: &buffer) },
            cycleLightPreset: {
                map.preset = LiveMap.presets[((LiveMap.presets.firstIndex(of: map.preset) ?? -1) + 1) % LiveMap.presets.count]
                map.reload()
                return map.preset
            },
            switchStyle: {
                if StyleLoader.builtinStyles.contains(map.style) {
                    let all = StyleLoader.builtinStyles
                    map.style = all[((all.firstIndex(of: map.style) ?? -1) + 1) % all.count]
                    map.featureStates.removeAll()
                    map.reload()
                }
                return map.style
            },
            attribution: { MapRenderer.defaultAttribution },
            queryFeatures: { point, camera in map.query(at: point, camera: camera) },
            isLineLayer: { map.isLine($0) },
            applyFeatureState: { map.apply($0) })
    }
}
