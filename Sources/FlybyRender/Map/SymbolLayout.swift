import FlybyCore
import FlybyData

/// The layout properties of one feature of a symbol layer at one zoom, everything placement reads
/// before it knows whether the symbol fits: evaluated once per feature and zoom and kept in the
/// layer's memo (``LayerMemo/symbolLayout``), because hundreds of candidates are tried every frame
/// while only a few dozen are placed. Lengths in pixels unless noted.
struct SymbolLayout {
    /// The label text after `text-transform` ("" for none).
    var label: String
    /// `icon-image` ("" for none); the image itself is looked up each frame (images come and go).
    var iconName: String
    /// `text-size`, and the size the glyphs are drawn at (``TextRenderer/quantized(_:)``).
    var textSize: Double
    var pixelSize: Float
    /// The laid-out label (nil for an empty label).
    var block: TextBlock?
    var textAnchor: String
    /// `text-offset` in pixels (ems × size), (0, 0) when unset.
    var textOffset: (x: Double, y: Double)
    var textPadding: Double
    var textAllowOverlap: Bool
    var textOptional: Bool
    /// `icon-size` (a scale), `icon-rotate` in radians.
    var iconScale: Double
    var iconRotate: Double
    var iconAnchor: String
    /// `icon-offset` in pixels (image pixels × scale), (0, 0) when unset.
    var iconOffset: (x: Double, y: Double)
    var iconPadding: Double
    var iconAllowOverlap: Bool
    var iconOptional: Bool

    /// Every property ``SymbolLayout`` reads, for the memo's invalidation.
    static let properties: [StyleProperty] = [
        .symbolPlacement, .textFont, .textField, .textTransform, .iconImage, .textSize, .textLetterSpacing,
        .textJustify, .textMaxWidth, .textAnchor, .textOffset, .textPadding, .textAllowOverlap, .textOptional,
        .iconSize, .iconRotate, .iconAnchor, .iconOffset, .iconPadding, .iconAllowOverlap, .iconOptional,
    ]
}

extension MapRenderer {
    /// Feature `f`'s ``SymbolLayout`` in symbol layer `index` at zoom `z`, from the layer's memo
    /// when it is still valid (call ``prepareSymbolLayouts(_:_:_:zoom:)`` once per frame first).
    mutating func symbolLayout(_ index: Int, _ layer: StyleLayer, _ source: LoadedSource, feature f: Int, zoom z: Double,
                               alongLine: Bool, bold: Bool) -> SymbolLayout {
        if let known = memos[index].symbolLayout[f] { return known }
        let ctx = source.context(feature: f, states: featureStates)
        var label = layer.string(.textField, zoom: z, feature: ctx)
        switch layer.string(.textTransform, zoom: z, feature: ctx) {
        case "uppercase": label = label.uppercased()
        case "lowercase": label = label.lowercased()
        default: break
        }
        let iconName = layer.string(.iconImage, zoom: z, feature: ctx)
        let size = layer.number(.textSize, zoom: z, feature: ctx)
        var layout = SymbolLayout(label: label, iconName: iconName, textSize: size, pixelSize: TextRenderer.quantized(size),
                                  block: nil, textAnchor: "", textOffset: (0, 0), textPadding: 0, textAllowOverlap: false,
                                  textOptional: false, iconScale: 1, iconRotate: 0, iconAnchor: "", iconOffset: (0, 0),
                                  iconPadding: 0, iconAllowOverlap: false, iconOptional: false)
        if !label.isEmpty {
            let spacing = Float(layer.number(.textLetterSpacing, zoom: z, feature: ctx) * size)
            let justification: TextJustification = {
                switch layer.string(.textJustify, zoom: z, feature: ctx) {
                case "left": return .left
                case "right": return .right
                default: return .center
                }
            }()
            let maxWidth = alongLine ? nil : Float(layer.number(.textMaxWidth, zoom: z, feature: ctx) * size)
            layout.block = text.cachedLayout(label, bold: bold, pixelSize: layout.pixelSize, maxWidth: maxWidth,
                                             letterSpacing: spacing, justification: justification)
            layout.textAnchor = layer.string(.textAnchor, zoom: z, feature: ctx)
            if let off = layer.numbers(.textOffset, zoom: z, feature: ctx), off.count == 2 {
                layout.textOffset = (off[0] * size, off[1] * size)
            }
            layout.textPadding = layer.number(.textPadding, zoom: z, feature: ctx)
            layout.textAllowOverlap = layer.bool(.textAllowOverlap, zoom: z, feature: ctx)
            layout.textOptional = layer.bool(.textOptional, zoom: z, feature: ctx)
        }
        if !iconName.isEmpty {
            let scale = layer.number(.iconSize, zoom: z, feature: ctx)
            layout.iconScale = scale
            layout.iconRotate = layer.number(.iconRotate, zoom: z, feature: ctx) * Double.pi / 180
            layout.iconAnchor = layer.string(.iconAnchor, zoom: z, feature: ctx)
            if let off = layer.numbers(.iconOffset, zoom: z, feature: ctx), off.count == 2 {
                layout.iconOffset = (off[0] * scale, off[1] * scale)
            }
            layout.iconPadding = layer.number(.iconPadding, zoom: z, feature: ctx)
            layout.iconAllowOverlap = layer.bool(.iconAllowOverlap, zoom: z, feature: ctx)
            layout.iconOptional = layer.bool(.iconOptional, zoom: z, feature: ctx)
        }
        memos[index].symbolLayout[f] = layout
        return layout
    }

    /// Makes symbol layer `index`'s layout memo valid for this frame (see ``FeatureMemo``).
    mutating func prepareSymbolLayouts(_ index: Int, _ layer: StyleLayer, _ source: LoadedSource, zoom z: Double) {
        let reads = layer.inputs(of: SymbolLayout.properties)
        memos[index].symbolLayout.prepare(count: source.data.features.count, zoom: z, readsZoom: reads.zoom,
                                          generation: stateGeneration, readsState: reads.featureState)
    }
}
