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
    /// Where the text's box goes and how it collides (`text-anchor`, `text-offset` in ems × size, …).
    var text = Box()
    /// `text-rotate` in radians (clockwise on screen; added to the line's direction along lines).
    var textRotate = 0.0
    /// `icon-size` (a scale), `icon-rotate` in radians.
    var iconScale = 1.0
    var iconRotate = 0.0
    /// Where the icon's box goes and how it collides (`icon-anchor`, `icon-offset` in image pixels × scale, …).
    var icon = Box()
    /// `icon-text-fit` (`none`, `width`, `height`, `both`) and `icon-text-fit-padding` in frame
    /// pixels, `[top, right, bottom, left]`.
    var iconTextFit = "none"
    var iconTextFitPadding: [Double] = []
    /// A point label's `text-variable-anchor(-offset)` candidates in the order tried (empty:
    /// `text.anchor` and `text.offset` only; see ``SymbolAnchorOffsets``).
    var variants: [Variant] = []

    /// One candidate placement of the text: its anchor, its offset in pixels, and its block
    /// (laid out again when `text-justify: auto` justifies it towards this anchor).
    struct Variant {
        var anchor: String
        var offset: (x: Double, y: Double)
        var block: TextBlock
    }

    /// The properties the text and the icon each have: `*-anchor`, `*-offset` (in pixels here),
    /// `*-padding`, `*-allow-overlap`, `*-optional`.
    struct Box {
        var anchor = ""
        var offset: (x: Double, y: Double) = (0, 0)
        var padding = 0.0
        var allowOverlap = false
        var optional = false

        /// Reads the five properties of one part; `offset` is multiplied by `unit` (pixels per offset unit).
        init(_ layer: StyleLayer, zoom z: Double, feature ctx: FeatureContext, unit: Double,
             anchor: StyleProperty, offset: StyleProperty, padding: StyleProperty, allowOverlap: StyleProperty,
             optional: StyleProperty) {
            self.anchor = layer.string(anchor, zoom: z, feature: ctx)
            if let off = layer.numbers(offset, zoom: z, feature: ctx), off.count == 2 { self.offset = (off[0] * unit, off[1] * unit) }
            self.padding = layer.number(padding, zoom: z, feature: ctx)
            self.allowOverlap = layer.bool(allowOverlap, zoom: z, feature: ctx)
            self.optional = layer.bool(optional, zoom: z, feature: ctx)
        }

        init() {}
    }

    /// Most candidates tried per label (a style could list any number; each costs a collision test).
    static let variantLimit = 32

    /// Every property ``SymbolLayout`` reads, for the memo's invalidation.
    static let properties: [StyleProperty] = [
        .symbolPlacement, .textFont, .textField, .textTransform, .iconImage, .textSize, .textLetterSpacing,
        .textJustify, .textMaxWidth, .textLineHeight, .textAnchor, .textOffset, .textRotate, .textPadding, .textAllowOverlap, .textOptional,
        .iconSize, .iconRotate, .iconAnchor, .iconOffset, .iconPadding, .iconAllowOverlap, .iconOptional,
        .iconTextFit, .iconTextFitPadding, .textVariableAnchor, .textRadialOffset, .textVariableAnchorOffset,
    ]
}

extension MapRenderer {
    /// Feature `f`'s ``SymbolLayout`` in symbol layer `index` at zoom `z`, from the layer's memo
    /// when it is still valid (call ``prepareSymbolLayouts(_:_:_:zoom:)`` once per frame first).
    mutating func symbolLayout(_ index: Int, _ layer: StyleLayer, _ source: LoadedSource, feature f: Int, zoom z: Double,
                               alongLine: Bool, font: LabelFontID) -> SymbolLayout {
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
        var layout = SymbolLayout(label: label, iconName: iconName, textSize: size, pixelSize: TextRenderer.quantized(size))
        if !label.isEmpty {
            let spacing = Float(layer.number(.textLetterSpacing, zoom: z, feature: ctx) * size)
            let justify = layer.string(.textJustify, zoom: z, feature: ctx)
            let justification: TextJustification = {
                switch justify {
                case "left": return .left
                case "right": return .right
                default: return .center
                }
            }()
            let maxWidth = alongLine ? nil : Float(layer.number(.textMaxWidth, zoom: z, feature: ctx) * size)
            // `text-line-height` is in ems (Style Specification; default 1.2), of the drawn size.
            let lineHeight = Float(layer.number(.textLineHeight, zoom: z, feature: ctx)) * layout.pixelSize
            layout.block = text.cachedLayout(label, font: font, pixelSize: layout.pixelSize, maxWidth: maxWidth, lineHeight: lineHeight,
                                             letterSpacing: spacing, justification: justification)
            layout.textRotate = layer.number(.textRotate, zoom: z, feature: ctx) * Double.pi / 180
            layout.text = SymbolLayout.Box(layer, zoom: z, feature: ctx, unit: size, anchor: .textAnchor, offset: .textOffset,
                                           padding: .textPadding, allowOverlap: .textAllowOverlap, optional: .textOptional)
            // Variable anchors apply to point placement only (Style Specification: "requires
            // symbol-placement to be point").
            if !alongLine, let block = layout.block {
                for c in SymbolAnchorOffsets.candidates(layer, zoom: z, feature: ctx).prefix(SymbolLayout.variantLimit) {
                    var b = block
                    let j = SymbolAnchorOffsets.justification(c.anchor)
                    if justify == "auto" && j != justification {
                        b = text.cachedLayout(label, font: font, pixelSize: layout.pixelSize, maxWidth: maxWidth, lineHeight: lineHeight,
                                              letterSpacing: spacing, justification: j)
                    }
                    layout.variants.append(SymbolLayout.Variant(anchor: c.anchor, offset: (c.x * size, c.y * size), block: b))
                }
            }
        }
        if !iconName.isEmpty {
            let scale = layer.number(.iconSize, zoom: z, feature: ctx)
            layout.iconScale = scale
            layout.iconRotate = layer.number(.iconRotate, zoom: z, feature: ctx) * Double.pi / 180
            // icon-offset is in points × icon-size (Style Specification, `icon-offset`).
            layout.icon = SymbolLayout.Box(layer, zoom: z, feature: ctx, unit: scale * pixelRatio, anchor: .iconAnchor, offset: .iconOffset,
                                           padding: .iconPadding, allowOverlap: .iconAllowOverlap, optional: .iconOptional)
            layout.iconTextFit = layer.string(.iconTextFit, zoom: z, feature: ctx)
            if layout.iconTextFit != "none" {
                layout.iconTextFitPadding = (layer.numbers(.iconTextFitPadding, zoom: z, feature: ctx) ?? []).map { $0 * pixelRatio }
            }
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
