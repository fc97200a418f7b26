import FlybyCore
import FlybyRender

/// What a custom layer's renderer gets each frame (the counterpart of Mapbox's
/// `CustomLayerRenderParameters`): the frame's projection.
public struct CustomLayerRenderParameters: Sendable {
    /// Screen ↔ map projection of this frame (pixels = points; origin top-left, y down).
    public let transform: MapTransform
    public var zoom: Double { transform.state.zoom }
    public var bearing: Double { transform.state.bearing }
    public var pitch: Double { transform.state.pitch }
    /// Frame size in pixels.
    public var width: Double { transform.size.width }
    public var height: Double { transform.size.height }

    /// The frame pixel of a coordinate, or nil beyond the horizon.
    public func point(for coordinate: LocationCoordinate2D) -> ScreenPoint? { transform.point(for: coordinate) }
}

/// Draws a custom layer (Mapbox's `CustomLayerHost`, without Metal: the frame is a CPU pixel
/// buffer and drawing goes through the renderer's ``Painter``).
public protocol CustomLayerHost: AnyObject {
    /// Draws into `frame`, between the style layers around the custom layer.
    func render(_ parameters: CustomLayerRenderParameters, _ frame: PixelBufferView, _ painter: inout Painter)
}

/// A layer drawn by Swift code between two style layers (Mapbox's `CustomLayer`):
/// ```swift
/// try mapView.mapboxMap.addLayer(CustomLayer(id: "heat", renderer: { parameters, frame, painter in
///     guard let p = parameters.point(for: helsinki) else { return }
///     painter.fillCircle(center: p, radius: 40, color: Color(rgb: 0xFF5722, alpha: 120), into: frame)
/// }), layerPosition: .below("roads"))
/// ```
/// Labels and icons are placed after every layer, so they stay above custom layers (as in Mapbox).
public struct CustomLayer {
    public let id: String
    public let renderer: any CustomLayerHost

    public init(id: String, renderer: any CustomLayerHost) {
        self.id = id
        self.renderer = renderer
    }

    /// A custom layer whose drawing is a closure.
    public init(id: String, renderer draw: @escaping (CustomLayerRenderParameters, PixelBufferView, inout Painter) -> Void) {
        self.init(id: id, renderer: ClosureLayerHost(draw))
    }
}

/// A ``CustomLayerHost`` over a closure.
final class ClosureLayerHost: CustomLayerHost {
    let draw: (CustomLayerRenderParameters, PixelBufferView, inout Painter) -> Void
    init(_ draw: @escaping (CustomLayerRenderParameters, PixelBufferView, inout Painter) -> Void) { self.draw = draw }
    func render(_ parameters: CustomLayerRenderParameters, _ frame: PixelBufferView, _ painter: inout Painter) {
        draw(parameters, frame, &painter)
    }
}
