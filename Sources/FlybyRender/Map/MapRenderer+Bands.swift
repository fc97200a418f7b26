import Dispatch
import FlybyCore

extension MapRenderer {
    /// The rows of band `index` of `count`: the frame's rows split as evenly as whole rows allow.
    static func bandRows(_ index: Int, of count: Int, height: Int) -> Range<Int> {
        (index * height / count)..<((index + 1) * height / count)
    }

    /// Draws the frame (``drawFrame(_:_:puck:symbols:_:)``: background, layers, sky, the placed
    /// symbols ``symbolDraws``, puck, ornaments) on ``threads`` threads, each band renderer
    /// drawing it into its own rows of `view`.
    ///
    /// Why the pixels equal one thread's: every band renderer walks the same features in the same
    /// order and builds the same paths (projection, clipping, stroking and dashing never depend on
    /// the band); the path filler and the hairlines compute each row from the geometry alone (see
    /// ``PathFiller``), and a band only writes its own rows. So the split may be anything: after
    /// each frame the bands are moved so that each takes the same share of the last frame's work
    /// (``balancedBands(_:costs:height:)``; a pitched city frame costs far more per row near the
    /// camera than at the top). Only symbol placement stays on the calling thread, before the
    /// bands start (it reads no pixels).
    mutating func drawFrameInBands(_ camera: CameraState, _ g: FrameGeometry, puck: PuckState?, _ view: PixelBufferView) {
        let count = threads
        if bandRenderers.count != count || bandBounds.count != count + 1 {
            bandBounds = (0...count).map { $0 * height / count }
            bandRenderers = (0..<count).map { k in
                var band = self
                band.bandRenderers = []
                band.threads = 1
                band.customLayers = []
                band.painter = Painter(width: width, height: height, rows: bandBounds[k]..<bandBounds[k + 1])
                return band
            }
        }
        for k in 0..<count {
            bandRenderers[k].painter.setRows(bandBounds[k]..<bandBounds[k + 1])
            bandRenderers[k].layerRange = layerRange
            bandRenderers[k].mapPlaneLineWidths = mapPlaneLineWidths
            bandRenderers[k].showsOrnaments = showsOrnaments
            bandRenderers[k].showsScaleBar = showsScaleBar
            bandRenderers[k].showsCompass = showsCompass
            bandRenderers[k].attribution = attribution
            if bandRenderers[k].stateGeneration != stateGeneration {
                // Assigning bumps the band's generation (its memos forget); then match ours, so
                // the next frame does not assign again.
                bandRenderers[k].featureStates = featureStates
                bandRenderers[k].stateGeneration = stateGeneration
            }
        }
        var costs = [Double](repeating: 0, count: count)
        costs.withUnsafeMutableBufferPointer { costStorage in
            bandRenderers.withUnsafeMutableBufferPointer { bands in
                let shared = BandPointer(base: bands.baseAddress.unsafelyUnwrapped, costs: costStorage.baseAddress.unsafelyUnwrapped,
                                         symbols: symbolDraws)
                DispatchQueue.concurrentPerform(iterations: count) { k in
                    // Thread CPU time: what the band cost, whatever else the machine runs.
                    let start = RasterBench.threadCPUMilliseconds()
                    shared.base[k].drawFrame(camera, g, puck: puck, symbols: shared.symbols, view)
                    shared.costs[k] = RasterBench.threadCPUMilliseconds() - start
                }
            }
        }
        bandBounds = MapRenderer.balancedBands(bandBounds, costs: costs, height: height)
    }

    /// Band boundaries (`count + 1` rows, from 0 to `height`) that share the work equally, given
    /// what each band of `bounds` cost: the cost is taken as spread evenly over each band's rows,
    /// and each boundary moves halfway towards where that cost estimate splits evenly (damped, so
    /// one noisy frame cannot swing the split). Every band keeps at least one row.
    static func balancedBands(_ bounds: [Int], costs: [Double], height: Int) -> [Int] {
        let count = costs.count
        let total = costs.reduce(0, +)
        guard count > 1, bounds.count == count + 1, total > 0, total.isFinite else { return bounds }
        var next = bounds
        var band = 0, before = 0.0   // cost of the bands above `band`
        for j in 1..<count {
            let goal = total * Double(j) / Double(count)
            while band < count - 1 && before + costs[band] < goal {
                before += costs[band]
                band += 1
            }
            let rows = Double(bounds[band + 1] - bounds[band])
            let share = costs[band] > 0 ? min(1, max(0, (goal - before) / costs[band])) : 0.5
            let target = Double(bounds[band]) + share * rows
            let moved = Int(((Double(bounds[j]) + target) / 2).rounded())
            next[j] = min(max(moved, next[j - 1] + 1), height - (count - j))
        }
        return next
    }
}

/// The band renderers' storage and their cost slots, handed to the worker threads: each thread
/// touches only its own elements, and both arrays outlive ``MapRenderer/drawFrameInBands(_:_:puck:_:)``'s wait.
private struct BandPointer: @unchecked Sendable {
    let base: UnsafeMutablePointer<MapRenderer>
    let costs: UnsafeMutablePointer<Double>
    /// The placed symbols, read by every band (a value: never written while the bands run).
    let symbols: [SymbolDraw]
}
