import FlybyCore

/// `mapView.annotations` (Mapbox's `AnnotationOrchestrator`): makes annotation managers, whose
/// annotations are drawn above the style.
public final class AnnotationOrchestrator {
    unowned let mapView: MapView

    init(mapView: MapView) { self.mapView = mapView }

    /// Offers a tap to the managers, topmost first; true when one handled it.
    func handleTap(_ context: MapContentGestureContext) -> Bool { false }

    /// Offers a long press to the managers, topmost first; true when one handled it.
    func handleLongPress(_ context: MapContentGestureContext) -> Bool { false }

    /// Writes changed annotations into their generated sources before a frame is drawn.
    func syncToStyle() {}
}
