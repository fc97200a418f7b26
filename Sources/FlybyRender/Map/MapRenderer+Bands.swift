import Dispatch
import FlybyCore

extension MapRenderer {
    /// The rows of band `index` of `count`: the frame's rows split as evenly as whole rows allow.
    static func bandRows(_ index: Int, of count: Int, height: Int) -> Range<Int> {
        (index * height / count)..<((index + 1) * height / count)
    }

    /// Draws the style layers on ``threads`` threads, each band renderer drawing every layer into
    /// its own rows of `view`.
    ///
    /// Why the pixels equal one thread's: every band renderer walks the same features in the same
    /// order and builds the same paths (projection, clipping, stroking and dashing never depend on
    /// the band); the path filler and the hairlines compute each row from the geometry alone (see
    /// ``PathFiller``), and a band only writes its own rows. Placement of symbols, the sky, the
    /// puck and the ornaments stay on the calling thread, after the bands have finished.
    mutating func drawLayersInBands(_ g: FrameGeometry, _ view: PixelBufferView) {
        let count = threads
        if bandRenderers.count != count {
            bandRenderers = (0..<count).map { k in
                var band = self
                band.bandRenderers = []
                band.threads = 1
                band.customLayers = []
                band.painter = Painter(width: width, height: height, rows: MapRenderer.bandRows(k, of: count, height: height))
                return band
            }
        }
        for k in 0..<count {
            bandRenderers[k].layerRange = layerRange
            bandRenderers[k].mapPlaneLineWidths = mapPlaneLineWidths
            if bandRenderers[k].stateGeneration != stateGeneration {
                // Assigning bumps the band's generation (its memos forget); then match ours, so
                // the next frame does not assign again.
                bandRenderers[k].featureStates = featureStates
                bandRenderers[k].stateGeneration = stateGeneration
            }
        }
        bandRenderers.withUnsafeMutableBufferPointer { bands in
            let shared = BandPointer(base: bands.baseAddress.unsafelyUnwrapped)
            DispatchQueue.concurrentPerform(iterations: count) { k in
                shared.base[k].drawLayers(g, view)
            }
        }
    }
}

/// The band renderers' storage, handed to the worker threads: each thread touches only its own
/// element, and the array outlives ``MapRenderer/drawLayersInBands(_:_:)``'s wait.
private struct BandPointer: @unchecked Sendable {
    let base: UnsafeMutablePointer<MapRenderer>
}
