/// Where a view annotation sits relative to its anchor point on the map: `.bottom` puts the
/// annotation's bottom edge centre on the point (the annotation is above it), `.topLeft` puts its
/// top-left corner there (below and to the right), `.center` centres it. Mapbox's `ViewAnnotationAnchor`.
public enum ViewAnnotationAnchor: String, CaseIterable, Hashable, Sendable {
    case center, top, bottom, left, right, topLeft = "top-left", topRight = "top-right"
    case bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// The point of the annotation's frame that lies on the anchor point, as fractions of its
    /// width and height from the top-left corner (0…1, y down).
    var unitPosition: (x: Double, y: Double) {
        switch self {
        case .center: return (0.5, 0.5)
        case .top: return (0.5, 0)
        case .bottom: return (0.5, 1)
        case .left: return (0, 0.5)
        case .right: return (1, 0.5)
        case .topLeft: return (0, 0)
        case .topRight: return (1, 0)
        case .bottomLeft: return (0, 1)
        case .bottomRight: return (1, 1)
        }
    }
}

/// One anchor a view annotation may take, with an extra offset in screen points. As in Mapbox,
/// a positive `offsetX` moves the annotation right and a positive `offsetY` moves it **up**
/// (unlike screen y). Mapbox's `ViewAnnotationAnchorConfig`.
public struct ViewAnnotationAnchorConfig: Hashable, Sendable {
    public var anchor: ViewAnnotationAnchor
    /// Points to the right.
    public var offsetX: Double
    /// Points up.
    public var offsetY: Double

    public init(anchor: ViewAnnotationAnchor, offsetX: Double = 0, offsetY: Double = 0) {
        self.anchor = anchor; self.offsetX = offsetX; self.offsetY = offsetY
    }

    public static let center = ViewAnnotationAnchorConfig(anchor: .center)
}

/// What a view annotation is attached to. Mapbox's `AnnotatedFeature`.
public enum AnnotatedFeature: Hashable, Sendable {
    /// A geometry in degrees: a point, or a line (`lineString` / `multiLineString`), whose anchor
    /// is the middle of its longest visible stretch; other geometries use their first coordinate.
    case geometry(Geometry)
    /// A feature drawn by a style layer (its line or point), found by the host; `featureId` nil
    /// means the layer's first feature.
    case layerFeature(layerId: String, featureId: String? = nil)
}

/// How a view annotation is laid out. Mapbox's `ViewAnnotationOptions` (v11).
///
/// Every field is optional as in Mapbox: an absent field keeps the annotation's current value
/// when the options are applied with ``merged(over:)``.
public struct ViewAnnotationOptions: Hashable, Sendable {
    public var annotatedFeature: AnnotatedFeature?
    /// Size in screen points (the rendered callout's size when nil).
    public var width: Double?
    public var height: Double?
    /// Shown even where it overlaps view annotations placed before it (default false).
    public var allowOverlap: Bool?
    /// Hidden when false (default true).
    public var visible: Bool?
    /// Anchors tried in order, keeping the first that is on screen and does not overlap an
    /// annotation placed before it (default `[.center]`).
    public var variableAnchors: [ViewAnnotationAnchorConfig]?
    /// Selected annotations are placed (and drawn) before the others (default false).
    public var selected: Bool?
    /// Higher priorities are placed first (default 0); ties keep the order they were added in.
    public var priority: Int?

    public init(annotatedFeature: AnnotatedFeature? = nil, width: Double? = nil, height: Double? = nil,
                allowOverlap: Bool? = nil, visible: Bool? = nil, variableAnchors: [ViewAnnotationAnchorConfig]? = nil,
                selected: Bool? = nil, priority: Int? = nil) {
        self.annotatedFeature = annotatedFeature; self.width = width; self.height = height
        self.allowOverlap = allowOverlap; self.visible = visible; self.variableAnchors = variableAnchors
        self.selected = selected; self.priority = priority
    }

    /// A point annotation at a coordinate (the v10 `geometry: Point(coordinate)` form).
    public init(coordinate: LocationCoordinate2D, width: Double? = nil, height: Double? = nil, allowOverlap: Bool? = nil,
                variableAnchors: [ViewAnnotationAnchorConfig]? = nil) {
        self.init(annotatedFeature: .geometry(.point(coordinate)), width: width, height: height,
                  allowOverlap: allowOverlap, variableAnchors: variableAnchors)
    }

    /// These options over `base`: every field set here wins, the others come from `base`.
    public func merged(over base: ViewAnnotationOptions) -> ViewAnnotationOptions {
        ViewAnnotationOptions(annotatedFeature: annotatedFeature ?? base.annotatedFeature, width: width ?? base.width,
                              height: height ?? base.height, allowOverlap: allowOverlap ?? base.allowOverlap,
                              visible: visible ?? base.visible, variableAnchors: variableAnchors ?? base.variableAnchors,
                              selected: selected ?? base.selected, priority: priority ?? base.priority)
    }
}
