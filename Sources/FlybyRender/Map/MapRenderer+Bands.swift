import Dispatch
import FlybyCore

extension MapRenderer {
    /// Draws the frame on ``threads`` threads, each band renderer drawing it into its own rows
    /// of `view` (``drawMap(_:_:)``, then ``drawSymbolsAndOverlays(_:_:puck:symbols:_:)``), while
    /// the symbols are placed at the same time.
    ///
    /// Why the pixels equal one thread's: every band renderer walks the same features in the same
    /// order and builds the same paths (projection, clipping, stroking and dashing never depend on
    /// the band); the path filler and the hairlines compute each row from the geometry alone (see
    /// ``PathFiller``), and a band only writes its own rows. So the split may be anything: after
    /// each frame the bands are moved so that each takes the same share of the last frame's work
    /// (``balancedBands(_:costs:height:)``; a pitched city frame costs far more per row near the
    /// camera than at the top). Symbol placement reads no pixels, so it runs alongside the maps.
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
            var rows = bandBounds[k]..<bandBounds[k + 1]
            if let region = textureRegion { rows = rows.clamped(to: region.rows) }
            bandRenderers[k].painter.setRows(rows)
            bandRenderers[k].textureRegion = textureRegion
            bandRenderers[k].layerRange = layerRange
            bandRenderers[k].mapPlaneLineWidths = mapPlaneLineWidths
            bandRenderers[k].showsOrnaments = showsOrnaments
            bandRenderers[k].showsScaleBar = showsScaleBar
            bandRenderers[k].showsCompass = showsCompass
            bandRenderers[k].attribution = attribution
            bandRenderers[k].puck3D = puck3D
            bandRenderers[k].tiles = tiles
            bandRenderers[k].rasters = rasters
            bandRenderers[k].drawsRasterLayers = drawsRasterLayers
            bandRenderers[k].drawsExtrusions = drawsExtrusions
            if bandRenderers[k].stateGeneration != stateGeneration {
                // Assigning bumps the band's generation (its memos forget); then match ours, so
                // the next frame does not assign again.
                bandRenderers[k].featureStates = featureStates
                bandRenderers[k].stateGeneration = stateGeneration
            }
        }
        // Iteration 0 places the symbols (on this renderer) while iterations 1…count draw the
        // bands' maps; a band waits for the placement only when it comes to draw the symbols.
        // Iterations are handed out in order, so the placement is always taken first and never
        // waits behind a waiting band.
        var bands: [MapRenderer] = []
        swap(&bands, &bandRenderers)   // out of `self`: placement and bands never share storage
        defer { swap(&bands, &bandRenderers) }
        var costs = [Double](repeating: 0, count: count + 1)   // the bands', then the placement's
        let placed = DispatchSemaphore(value: 0)
        withUnsafeMutablePointer(to: &self) { me in
            costs.withUnsafeMutableBufferPointer { costStorage in
                bands.withUnsafeMutableBufferPointer { bandStorage in
                    let shared = BandWork(renderer: me, bands: bandStorage.baseAddress.unsafelyUnwrapped,
                                          costs: costStorage.baseAddress.unsafelyUnwrapped)
                    DispatchQueue.concurrentPerform(iterations: count + 1) { k in
                        // Thread CPU time: what the work cost, whatever else the machine runs.
                        let start = RasterBench.threadCPUMilliseconds()
                        if k == 0 {
                            shared.renderer.pointee.placeSymbols(g)
                            shared.costs[count] = RasterBench.threadCPUMilliseconds() - start
                            for _ in 0..<count { placed.signal() }
                            return
                        }
                        if !shared.bands[k - 1].painter.rows.isEmpty { shared.bands[k - 1].drawMap(g, view) }
                        placed.wait()
                        // The glyph-PBF ranges the placement loaded (copy-on-write: shared, read only).
                        shared.bands[k - 1].text.stacks = shared.renderer.pointee.text.stacks
                        shared.bands[k - 1].drawSymbolsAndOverlays(camera, g, puck: puck, symbols: shared.renderer.pointee.symbolDraws,
                                                                   view)
                        shared.costs[k - 1] = RasterBench.threadCPUMilliseconds() - start
                    }
                }
            }
        }
        // The thread that placed the symbols goes on to the last band (iterations are taken in
        // order), so that band's share is smaller by the placement's cost.
        var bandCosts = Array(costs[0..<count])
        bandCosts[count - 1] += costs[count]
        bandBounds = MapRenderer.balancedBands(bandBounds, costs: bandCosts, height: height)
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

/// What the worker threads of ``MapRenderer/drawFrameInBands(_:_:puck:_:)`` share: the renderer
/// that places the symbols, the band renderers and the cost slots. Each thread writes only its
/// own band and slot; the bands read the renderer's placed symbols only after the placement has
/// signalled; everything outlives the wait.
private struct BandWork: @unchecked Sendable {
    let renderer: UnsafeMutablePointer<MapRenderer>
    let bands: UnsafeMutablePointer<MapRenderer>
    let costs: UnsafeMutablePointer<Double>
}
