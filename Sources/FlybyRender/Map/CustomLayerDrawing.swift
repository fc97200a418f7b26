import FlybyCore

/// Drawing done by the host between two style layers: the counterpart of Mapbox's custom (Metal)
/// layers. The renderer calls ``draw`` once per frame, just before it draws the style layer at
/// ``beforeLayerIndex`` (after every fill, line and circle layer when the index is the layer
/// count); labels and icons are placed after all layers, so they stay on top as in Mapbox.
///
/// The closure gets the frame's pixels, the frame's projection (screen pixels, origin top-left,
/// y down; ``MapTransform/point(for:)`` maps a coordinate to the frame) and the renderer's painter
/// (its scratch storage is reused, so drawing allocates nothing per frame).
public struct CustomLayerDrawing {
    /// The style layer this drawing goes below (0 …= layer count).
    public var beforeLayerIndex: Int
    /// Draws into the frame.
    public var draw: (_ frame: PixelBufferView, _ transform: MapTransform, _ painter: inout Painter) -> Void

    public init(beforeLayerIndex: Int, draw: @escaping (_ frame: PixelBufferView, _ transform: MapTransform, _ painter: inout Painter) -> Void) {
        self.beforeLayerIndex = beforeLayerIndex
        self.draw = draw
    }
}

extension MapRenderer {
    /// Runs the custom drawings that go just below style layer `index`.
    mutating func drawCustomLayers(before index: Int, _ g: FrameGeometry, _ view: PixelBufferView) {
        for c in customLayers where c.beforeLayerIndex == index {
            c.draw(view, g.transform, &painter)
        }
    }
}
