/// Every paint, layout and sky property Flyby supports (from the MapLibre Style Specification
/// v8, "Layers" and "Sky"). Anything not listed is an error in a style. Each case has one row in
/// ``StyleProperty/table`` below, which holds all of its facts; adding a property is a case here,
/// a row there, drawing code and a test (docs/style-properties.md, "Adding a property").
public enum StyleProperty: String, Sendable, CaseIterable {
    // background
    case backgroundColor = "background-color", backgroundOpacity = "background-opacity"
    case backgroundPattern = "background-pattern"
    // fill
    case fillAntialias = "fill-antialias", fillColor = "fill-color", fillOpacity = "fill-opacity"
    case fillOutlineColor = "fill-outline-color", fillSortKey = "fill-sort-key"
    case fillTranslate = "fill-translate", fillTranslateAnchor = "fill-translate-anchor", fillPattern = "fill-pattern"
    // fill-extrusion (3D buildings; drawn lit by the style's `light`)
    case fillExtrusionColor = "fill-extrusion-color", fillExtrusionOpacity = "fill-extrusion-opacity"
    case fillExtrusionHeight = "fill-extrusion-height", fillExtrusionBase = "fill-extrusion-base"
    case fillExtrusionTranslate = "fill-extrusion-translate", fillExtrusionTranslateAnchor = "fill-extrusion-translate-anchor"
    case fillExtrusionVerticalGradient = "fill-extrusion-vertical-gradient"
    // line
    case lineCap = "line-cap", lineJoin = "line-join", lineMiterLimit = "line-miter-limit"
    case lineRoundLimit = "line-round-limit", lineSortKey = "line-sort-key"
    case lineColor = "line-color", lineWidth = "line-width", lineOpacity = "line-opacity"
    case lineDasharray = "line-dasharray", lineGapWidth = "line-gap-width", lineOffset = "line-offset"
    case lineBlur = "line-blur", linePattern = "line-pattern", lineGradient = "line-gradient"
    case lineTranslate = "line-translate", lineTranslateAnchor = "line-translate-anchor"
    // circle
    case circleSortKey = "circle-sort-key"
    case circleRadius = "circle-radius", circleColor = "circle-color", circleOpacity = "circle-opacity"
    case circleBlur = "circle-blur"
    case circleStrokeWidth = "circle-stroke-width", circleStrokeColor = "circle-stroke-color"
    case circleStrokeOpacity = "circle-stroke-opacity"
    case circleTranslate = "circle-translate", circleTranslateAnchor = "circle-translate-anchor"
    case circlePitchScale = "circle-pitch-scale", circlePitchAlignment = "circle-pitch-alignment"
    // symbol layout
    case symbolPlacement = "symbol-placement", symbolSpacing = "symbol-spacing", symbolSortKey = "symbol-sort-key"
    case symbolAvoidEdges = "symbol-avoid-edges"
    case textField = "text-field", textFont = "text-font", textSize = "text-size"
    case textMaxWidth = "text-max-width", textLineHeight = "text-line-height", textLetterSpacing = "text-letter-spacing"
    case textJustify = "text-justify", textAnchor = "text-anchor", textOffset = "text-offset"
    case textRotate = "text-rotate", textPadding = "text-padding", textTransform = "text-transform"
    case textMaxAngle = "text-max-angle", textKeepUpright = "text-keep-upright"
    case textAllowOverlap = "text-allow-overlap", textIgnorePlacement = "text-ignore-placement"
    case textOptional = "text-optional"
    case textVariableAnchor = "text-variable-anchor", textRadialOffset = "text-radial-offset"
    case textVariableAnchorOffset = "text-variable-anchor-offset", iconKeepUpright = "icon-keep-upright"
    case iconImage = "icon-image", iconSize = "icon-size", iconRotate = "icon-rotate", iconAnchor = "icon-anchor"
    case iconOffset = "icon-offset", iconPadding = "icon-padding"
    case iconAllowOverlap = "icon-allow-overlap", iconIgnorePlacement = "icon-ignore-placement"
    case iconOptional = "icon-optional"
    case textRotationAlignment = "text-rotation-alignment", iconRotationAlignment = "icon-rotation-alignment"
    case textPitchAlignment = "text-pitch-alignment", iconPitchAlignment = "icon-pitch-alignment"
    // symbol paint
    case textColor = "text-color", textOpacity = "text-opacity", textHaloColor = "text-halo-color"
    case textHaloWidth = "text-halo-width", textHaloBlur = "text-halo-blur"
    case iconOpacity = "icon-opacity", iconColor = "icon-color"
    case textTranslate = "text-translate", textTranslateAnchor = "text-translate-anchor"
    case iconTranslate = "icon-translate", iconTranslateAnchor = "icon-translate-anchor"
    case iconHaloColor = "icon-halo-color", iconHaloWidth = "icon-halo-width", iconHaloBlur = "icon-halo-blur"
    case iconTextFit = "icon-text-fit", iconTextFitPadding = "icon-text-fit-padding"
    // sky (MapLibre's root `sky` object)
    case skyColor = "sky-color", horizonColor = "horizon-color", fogColor = "fog-color"
    case skyHorizonBlend = "sky-horizon-blend", horizonFogBlend = "horizon-fog-blend"
    case fogGroundBlend = "fog-ground-blend", atmosphereBlend = "atmosphere-blend"
    // raster (Style Specification, layers › raster)
    case rasterOpacity = "raster-opacity", rasterHueRotate = "raster-hue-rotate"
    case rasterBrightnessMin = "raster-brightness-min", rasterBrightnessMax = "raster-brightness-max"
    case rasterSaturation = "raster-saturation", rasterContrast = "raster-contrast"
    case rasterResampling = "raster-resampling", rasterFadeDuration = "raster-fade-duration"
    // hillshade (Style Specification, layers › hillshade)
    case hillshadeIlluminationDirection = "hillshade-illumination-direction"
    case hillshadeIlluminationAnchor = "hillshade-illumination-anchor"
    case hillshadeExaggeration = "hillshade-exaggeration", hillshadeShadowColor = "hillshade-shadow-color"
    case hillshadeHighlightColor = "hillshade-highlight-color", hillshadeAccentColor = "hillshade-accent-color"
}

/// All the facts about one style property, in one place. ``StyleProperty``'s `layerType`,
/// `group`, `valueType`, `defaultValue`, `range`, `units`, `isTransitionable`, `expression` and
/// `drawing` read this row; FlybyMaps' typed layers (`Layers+Generated.swift`) are generated from
/// the rows by `Tools/generate-layers`.
public struct StylePropertyRow: Sendable {
    public let property: StyleProperty
    /// The layer type whose `paint` or `layout` object holds the property (nil for sky).
    public let layerType: LayerType?
    public let group: StyleProperty.Group
    /// What the value is checked against when the style is parsed.
    public let valueType: PropertyValueType
    /// The value used when the style leaves the property out or an expression fails
    /// (the specification's `default`; `.null` where the default is "use another property").
    public let defaultValue: StyleValue
    /// The specification's `minimum`…`maximum` of a number property; evaluated values are
    /// clamped into it. Nil when the property is not a bounded number.
    public let range: ClosedRange<Double>?
    /// The unit and meaning of the value (doc text, from the specification's `units`, in
    /// Flyby's words: "points" where the specification says pixels, since Flyby scales them by
    /// the pixel ratio).
    public let units: String
    /// A single length in points (the specification's `units: "pixels"`) that
    /// ``Style/scaled(byPixelRatio:)`` multiplies by the device pixel ratio. The `*-translate`
    /// arrays are in points too but are scaled where they are read, so they are not marked.
    public let scalesWithPixelRatio: Bool
    /// The specification's `transition`: a change of the value may be animated. Recorded, not
    /// acted on yet: Flyby renders each frame from the style as it is (no style transitions).
    public let isTransitionable: Bool
    /// The specification's `property-type` and `expression.parameters` (see
    /// ``StyleProperty/ExpressionRule``).
    public let expression: StyleProperty.ExpressionRule
    /// Whether the renderer draws the property (see ``StyleProperty/Drawing``).
    public let drawing: StyleProperty.Drawing
}

extension StyleProperty {
    /// What a property's expressions may read: the Style Specification's `property-type`
    /// (v8, "Types › Expressions" and each property's `expression.parameters`).
    public enum ExpressionRule: Sendable, Equatable {
        /// `data-constant` or `cross-faded`: parameters `["zoom"]`.
        case zoom
        /// `data-driven` or `cross-faded-data-driven`: parameters `["zoom", "feature"]`.
        case dataDriven
        /// `color-ramp`: parameter `line-progress` only (`line-gradient`).
        case colorRamp

        /// The parser accepts `zoom` in the property's expressions.
        var parserAcceptsZoom: Bool { self != .colorRamp }
        /// The parser accepts feature data (`get`, `geometry-type`, feature state …). Flyby is
        /// more lenient than the specification here and accepts feature data on `zoom`
        /// (data-constant) properties too, as it always has: refusing it would stop styles that
        /// load today from loading. Only a colour ramp refuses it.
        var parserAcceptsFeatureData: Bool { self != .colorRamp }
    }

    /// The nine anchor keywords of `text-anchor` and `icon-anchor`.
    static let anchors = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]

    /// The row of every property, in `allCases` order (so `table[p.index]` is `p`'s row;
    /// `StylePropertyTableTests` checks each property has exactly one row).
    public static let table: [StylePropertyRow] = rows.sorted { $0.property.index < $1.property.index }

    private static let mapOrViewport = PropertyValueType.enumeration(["map", "viewport"])
    private static let offset2 = PropertyValueType.numberArray(count: 2)
    private static let zero2 = StyleValue.array([.number(0), .number(0)])
    private static let unit = 0.0...1.0
    private static let nonNegative = 0.0...Double.greatestFiniteMagnitude
    private static let translateUnits = "[x, y] in points, right and down"
    private static let translateAnchorUnits = "what `translate` is relative to: the map (rotates with it) or the viewport"

    private static func row(_ p: StyleProperty, _ layer: LayerType?, _ group: Group, _ type: PropertyValueType,
                            _ defaultValue: StyleValue, range: ClosedRange<Double>? = nil, _ expression: ExpressionRule,
                            transition: Bool, _ units: String, scaled: Bool = false, drawing: Drawing = .drawn) -> StylePropertyRow {
        StylePropertyRow(property: p, layerType: layer, group: group, valueType: type, defaultValue: defaultValue,
                         range: range, units: units, scalesWithPixelRatio: scaled, isTransitionable: transition,
                         expression: expression, drawing: drawing)
    }

    // The rows, one per property, from the Style Specification v8 entries of the same name
    // (`type`, `default`, `minimum`/`maximum`, `units`, `transition`, `property-type`).
    private static let rows: [StylePropertyRow] = [
        // background
        row(.backgroundColor, .background, .paint, .color, .color(.black), .zoom, transition: true, "colour"),
        row(.backgroundOpacity, .background, .paint, .number, .number(1), range: unit, .zoom, transition: true, "opacity, 0…1"),
        row(.backgroundPattern, .background, .paint, .image, .string(""), .zoom, transition: true, "image name in the sprite, tiled"),
        // fill
        row(.fillAntialias, .fill, .paint, .boolean, .bool(true), .zoom, transition: false, "whether the fill's edge is antialiased"),
        row(.fillColor, .fill, .paint, .color, .color(.black), .dataDriven, transition: true, "colour"),
        row(.fillOpacity, .fill, .paint, .number, .number(1), range: unit, .dataDriven, transition: true, "opacity, 0…1"),
        row(.fillOutlineColor, .fill, .paint, .color, .null, .dataDriven, transition: true, "colour of the outline; unset: fill-color"),
        row(.fillSortKey, .fill, .layout, .number, .number(0), .dataDriven, transition: false, "draw order within the layer, lower first"),
        row(.fillTranslate, .fill, .paint, offset2, zero2, .zoom, transition: true, translateUnits),
        row(.fillTranslateAnchor, .fill, .paint, mapOrViewport, .string("map"), .zoom, transition: false, translateAnchorUnits),
        row(.fillPattern, .fill, .paint, .image, .string(""), .dataDriven, transition: true, "image name in the sprite, tiled"),
        // fill-extrusion
        row(.fillExtrusionColor, .fillExtrusion, .paint, .color, .color(.black), .dataDriven, transition: true, "colour, lit by the style's light"),
        row(.fillExtrusionOpacity, .fillExtrusion, .paint, .number, .number(1), range: unit, .zoom, transition: true,
            "opacity of the layer as a whole, 0…1"),
        row(.fillExtrusionHeight, .fillExtrusion, .paint, .number, .number(0), range: nonNegative, .dataDriven, transition: true,
            "top of each building, metres above the ground"),
        row(.fillExtrusionBase, .fillExtrusion, .paint, .number, .number(0), range: nonNegative, .dataDriven, transition: true,
            "bottom of each building, metres above the ground"),
        row(.fillExtrusionTranslate, .fillExtrusion, .paint, offset2, zero2, .zoom, transition: true, translateUnits),
        row(.fillExtrusionTranslateAnchor, .fillExtrusion, .paint, mapOrViewport, .string("map"), .zoom, transition: false,
            translateAnchorUnits),
        row(.fillExtrusionVerticalGradient, .fillExtrusion, .paint, .boolean, .bool(true), .zoom, transition: false,
            "whether walls are shaded darker farther down"),
        // line
        row(.lineCap, .line, .layout, .enumeration(["butt", "round", "square"]), .string("butt"), .zoom, transition: false,
            "how open line ends are drawn"),
        row(.lineJoin, .line, .layout, .enumeration(["bevel", "round", "miter"]), .string("miter"), .dataDriven, transition: false,
            "how corners are drawn"),
        row(.lineMiterLimit, .line, .layout, .number, .number(2), range: nonNegative, .zoom, transition: false,
            "ratio of miter length to line width beyond which a miter becomes a bevel"),
        row(.lineRoundLimit, .line, .layout, .number, .number(1.05), range: nonNegative, .zoom, transition: false,
            "ratio below which a round join becomes a miter"),
        row(.lineSortKey, .line, .layout, .number, .number(0), .dataDriven, transition: false, "draw order within the layer, lower first"),
        row(.lineColor, .line, .paint, .color, .color(.black), .dataDriven, transition: true, "colour"),
        row(.lineWidth, .line, .paint, .number, .number(1), range: nonNegative, .dataDriven, transition: true, "points", scaled: true),
        row(.lineOpacity, .line, .paint, .number, .number(1), range: unit, .dataDriven, transition: true, "opacity, 0…1"),
        row(.lineDasharray, .line, .paint, .numberArray(count: nil), .null, .zoom, transition: true,
            "dash and gap lengths in line widths; unset: solid"),
        row(.lineGapWidth, .line, .paint, .number, .number(0), range: nonNegative, .dataDriven, transition: true,
            "points: draws two lines this far apart (a casing)", scaled: true),
        row(.lineOffset, .line, .paint, .number, .number(0), .dataDriven, transition: true,
            "points, to the right of the line's direction (negative: left)", scaled: true),
        row(.lineBlur, .line, .paint, .number, .number(0), range: nonNegative, .dataDriven, transition: true, "points of edge blur", scaled: true),
        row(.linePattern, .line, .paint, .image, .string(""), .dataDriven, transition: true, "image name in the sprite, repeated along the line"),
        row(.lineGradient, .line, .paint, .color, .null, .colorRamp, transition: false,
            "colour ramp over `line-progress` (0 at the start, 1 at the end); unset: line-color"),
        row(.lineTranslate, .line, .paint, offset2, zero2, .zoom, transition: true, translateUnits),
        row(.lineTranslateAnchor, .line, .paint, mapOrViewport, .string("map"), .zoom, transition: false, translateAnchorUnits),
        // circle
        row(.circleSortKey, .circle, .layout, .number, .number(0), .dataDriven, transition: false, "draw order within the layer, lower first"),
        row(.circleRadius, .circle, .paint, .number, .number(5), range: nonNegative, .dataDriven, transition: true, "points", scaled: true),
        row(.circleColor, .circle, .paint, .color, .color(.black), .dataDriven, transition: true, "colour"),
        row(.circleOpacity, .circle, .paint, .number, .number(1), range: unit, .dataDriven, transition: true, "opacity, 0…1"),
        row(.circleBlur, .circle, .paint, .number, .number(0), range: nonNegative, .dataDriven, transition: true,
            "fraction of the radius blurred (1: blurred to the centre)"),
        row(.circleStrokeWidth, .circle, .paint, .number, .number(0), range: nonNegative, .dataDriven, transition: true, "points", scaled: true),
        row(.circleStrokeColor, .circle, .paint, .color, .color(.black), .dataDriven, transition: true, "colour"),
        row(.circleStrokeOpacity, .circle, .paint, .number, .number(1), range: unit, .dataDriven, transition: true, "opacity, 0…1"),
        row(.circleTranslate, .circle, .paint, offset2, zero2, .zoom, transition: true, translateUnits),
        row(.circleTranslateAnchor, .circle, .paint, mapOrViewport, .string("map"), .zoom, transition: false, translateAnchorUnits),
        row(.circlePitchScale, .circle, .paint, mapOrViewport, .string("map"), .zoom, transition: false,
            "whether circles shrink with distance on a pitched map (map) or keep their size (viewport)"),
        row(.circlePitchAlignment, .circle, .paint, mapOrViewport, .string("viewport"), .zoom, transition: false,
            "whether circles lie on the pitched ground (map) or face the viewer (viewport)"),
        // symbol layout
        row(.symbolPlacement, .symbol, .layout, .enumeration(["point", "line", "line-center"]), .string("point"), .zoom, transition: false,
            "at the point, repeated along the line, or once at the line's centre"),
        row(.symbolSpacing, .symbol, .layout, .number, .number(250), range: 1...Double.greatestFiniteMagnitude, .zoom, transition: false,
            "points between repeated symbols along a line", scaled: true),
        row(.symbolSortKey, .symbol, .layout, .number, .number(0), .dataDriven, transition: false, "placement order, lower first"),
        row(.symbolAvoidEdges, .symbol, .layout, .boolean, .bool(false), .zoom, transition: false,
            "whether a symbol reaching outside its tile is left out"),
        row(.textField, .symbol, .layout, .formatted, .string(""), .dataDriven, transition: false, "the label text; `{name}` tokens read properties"),
        row(.textFont, .symbol, .layout, .stringArray, .array([.string("Open Sans Regular")]), .dataDriven, transition: false,
            "font names, first found first"),
        row(.textSize, .symbol, .layout, .number, .number(16), range: nonNegative, .dataDriven, transition: false, "points", scaled: true),
        row(.textMaxWidth, .symbol, .layout, .number, .number(10), range: nonNegative, .dataDriven, transition: false,
            "ems before a label wraps"),
        row(.textLineHeight, .symbol, .layout, .number, .number(1.2), .zoom, transition: false, "ems between wrapped lines"),
        row(.textLetterSpacing, .symbol, .layout, .number, .number(0), .dataDriven, transition: false, "ems added between letters"),
        row(.textJustify, .symbol, .layout, .enumeration(["auto", "left", "center", "right"]), .string("center"), .dataDriven,
            transition: false, "alignment of wrapped lines"),
        row(.textAnchor, .symbol, .layout, .enumeration(anchors), .string("center"), .dataDriven, transition: false,
            "the part of the label placed at the point"),
        row(.textOffset, .symbol, .layout, offset2, zero2, .dataDriven, transition: false, "[x, y] in ems, right and down"),
        row(.textRotate, .symbol, .layout, .number, .number(0), .dataDriven, transition: false, "degrees clockwise"),
        row(.textPadding, .symbol, .layout, .number, .number(2), range: nonNegative, .zoom, transition: false,
            "points around the label kept free of other symbols", scaled: true),
        row(.textTransform, .symbol, .layout, .enumeration(["none", "uppercase", "lowercase"]), .string("none"), .dataDriven,
            transition: false, "letter case"),
        row(.textMaxAngle, .symbol, .layout, .number, .number(45), range: nonNegative, .zoom, transition: false,
            "degrees: the largest bend between neighbouring glyphs of a line label"),
        row(.textKeepUpright, .symbol, .layout, .boolean, .bool(true), .zoom, transition: false,
            "whether line labels are flipped to stay readable"),
        row(.textAllowOverlap, .symbol, .layout, .boolean, .bool(false), .zoom, transition: false,
            "whether the label is drawn over earlier symbols"),
        row(.textIgnorePlacement, .symbol, .layout, .boolean, .bool(false), .zoom, transition: false,
            "whether later symbols may cover the label"),
        row(.textOptional, .symbol, .layout, .boolean, .bool(false), .zoom, transition: false,
            "whether the icon is drawn without its label when the label collides"),
        row(.textVariableAnchor, .symbol, .layout, .anchorArray, .null, .zoom, transition: false,
            "anchors tried in order, the first that fits kept; unset: text-anchor alone"),
        row(.textRadialOffset, .symbol, .layout, .number, .number(0), .dataDriven, transition: false,
            "ems from the point towards the chosen anchor's side"),
        row(.textVariableAnchorOffset, .symbol, .layout, .anchorOffsets, .null, .dataDriven, transition: false,
            "anchors tried in order, each with its [x, y] offset in ems; overrides text-variable-anchor"),
        row(.iconKeepUpright, .symbol, .layout, .boolean, .bool(false), .zoom, transition: false,
            "whether map-aligned icons along lines are flipped to stay upright"),
        row(.iconImage, .symbol, .layout, .image, .string(""), .dataDriven, transition: false, "image name in the sprite"),
        row(.iconSize, .symbol, .layout, .number, .number(1), range: nonNegative, .dataDriven, transition: false,
            "scale factor of the image"),
        row(.iconRotate, .symbol, .layout, .number, .number(0), .dataDriven, transition: false, "degrees clockwise"),
        row(.iconAnchor, .symbol, .layout, .enumeration(anchors), .string("center"), .dataDriven, transition: false,
            "the part of the icon placed at the point"),
        row(.iconOffset, .symbol, .layout, offset2, zero2, .dataDriven, transition: false,
            "[x, y] in image pixels × icon-size, right and down"),
        row(.iconPadding, .symbol, .layout, .number, .number(2), range: nonNegative, .zoom, transition: false,
            "points around the icon kept free of other symbols", scaled: true),
        row(.iconAllowOverlap, .symbol, .layout, .boolean, .bool(false), .zoom, transition: false,
            "whether the icon is drawn over earlier symbols"),
        row(.iconIgnorePlacement, .symbol, .layout, .boolean, .bool(false), .zoom, transition: false,
            "whether later symbols may cover the icon"),
        row(.iconOptional, .symbol, .layout, .boolean, .bool(false), .zoom, transition: false,
            "whether the label is drawn without its icon when the icon collides"),
        row(.textRotationAlignment, .symbol, .layout, .enumeration(["map", "viewport", "viewport-glyph", "auto"]), .string("auto"),
            .zoom, transition: false, "whether labels rotate with the map or stay level on screen"),
        row(.iconRotationAlignment, .symbol, .layout, .enumeration(["map", "viewport", "auto"]), .string("auto"), .zoom,
            transition: false, "whether icons rotate with the map or stay level on screen"),
        // Pitch alignment (Style Specification): `map` lays the glyphs / icon on the pitched
        // ground, `viewport` keeps them facing the viewer, `auto` follows the rotation alignment.
        row(.textPitchAlignment, .symbol, .layout, .enumeration(["map", "viewport", "auto"]), .string("auto"), .zoom,
            transition: false, "whether labels lie on the pitched ground or face the viewer"),
        row(.iconPitchAlignment, .symbol, .layout, .enumeration(["map", "viewport", "auto"]), .string("auto"), .zoom,
            transition: false, "whether icons lie on the pitched ground or face the viewer"),
        // symbol paint
        row(.textColor, .symbol, .paint, .color, .color(.black), .dataDriven, transition: true, "colour"),
        row(.textOpacity, .symbol, .paint, .number, .number(1), range: unit, .dataDriven, transition: true, "opacity, 0…1"),
        row(.textHaloColor, .symbol, .paint, .color, .color(.transparent), .dataDriven, transition: true, "colour"),
        row(.textHaloWidth, .symbol, .paint, .number, .number(0), range: nonNegative, .dataDriven, transition: true, "points", scaled: true),
        row(.textHaloBlur, .symbol, .paint, .number, .number(0), range: nonNegative, .dataDriven, transition: true, "points of halo fade", scaled: true),
        row(.iconOpacity, .symbol, .paint, .number, .number(1), range: unit, .dataDriven, transition: true, "opacity, 0…1"),
        row(.iconColor, .symbol, .paint, .color, .color(.black), .dataDriven, transition: true, "colour of SDF icons"),
        row(.textTranslate, .symbol, .paint, offset2, zero2, .zoom, transition: true, translateUnits),
        row(.textTranslateAnchor, .symbol, .paint, mapOrViewport, .string("map"), .zoom, transition: false, translateAnchorUnits),
        row(.iconTranslate, .symbol, .paint, offset2, zero2, .zoom, transition: true, translateUnits),
        row(.iconTranslateAnchor, .symbol, .paint, mapOrViewport, .string("map"), .zoom, transition: false, translateAnchorUnits),
        row(.iconHaloColor, .symbol, .paint, .color, .color(.transparent), .dataDriven, transition: true, "colour of an SDF icon's halo"),
        row(.iconHaloWidth, .symbol, .paint, .number, .number(0), range: nonNegative, .dataDriven, transition: true, "points", scaled: true),
        row(.iconHaloBlur, .symbol, .paint, .number, .number(0), range: nonNegative, .dataDriven, transition: true, "points of halo fade", scaled: true),
        row(.iconTextFit, .symbol, .layout, .enumeration(["none", "width", "height", "both"]), .string("none"), .zoom,
            transition: false, "whether the icon is stretched to its label"),
        row(.iconTextFitPadding, .symbol, .layout, .numberArray(count: 4), .array([.number(0), .number(0), .number(0), .number(0)]),
            .zoom, transition: false, "[top, right, bottom, left] points added around the label"),
        // sky
        row(.skyColor, nil, .sky, .color, .color(StyleColor(r8: 0x88, g8: 0xC6, b8: 0xFC)), .zoom, transition: true, "colour at the top"),
        row(.horizonColor, nil, .sky, .color, .color(.white), .zoom, transition: true, "colour at the horizon"),
        row(.fogColor, nil, .sky, .color, .color(.white), .zoom, transition: true, "colour of the fog below the horizon"),
        row(.skyHorizonBlend, nil, .sky, .number, .number(0.8), range: unit, .zoom, transition: true, "0…1 of the sky blended to the horizon colour"),
        row(.horizonFogBlend, nil, .sky, .number, .number(0.8), range: unit, .zoom, transition: true, "0…1 of the horizon blended to the fog"),
        row(.fogGroundBlend, nil, .sky, .number, .number(0.5), range: unit, .zoom, transition: true,
            "0…1 of the way from the map centre to the horizon where the fog over 3D terrain starts"),
        row(.atmosphereBlend, nil, .sky, .number, .number(0.8), range: unit, .zoom, transition: true, "0…1 of atmosphere around a globe",
            drawing: .notDrawn("the fog band has a fixed shape")),
        // raster
        row(.rasterOpacity, .raster, .paint, .number, .number(1), range: unit, .zoom, transition: true, "opacity, 0…1"),
        row(.rasterHueRotate, .raster, .paint, .number, .number(0), .zoom, transition: true, "degrees of hue rotation"),
        row(.rasterBrightnessMin, .raster, .paint, .number, .number(0), range: unit, .zoom, transition: true,
            "0…1: the brightness black is mapped to"),
        row(.rasterBrightnessMax, .raster, .paint, .number, .number(1), range: unit, .zoom, transition: true,
            "0…1: the brightness white is mapped to"),
        row(.rasterSaturation, .raster, .paint, .number, .number(0), range: -1...1, .zoom, transition: true, "-1…1 change of saturation"),
        row(.rasterContrast, .raster, .paint, .number, .number(0), range: -1...1, .zoom, transition: true, "-1…1 change of contrast"),
        row(.rasterResampling, .raster, .paint, .enumeration(["linear", "nearest"]), .string("linear"), .zoom, transition: false,
            "how tile pixels are sampled when magnified"),
        row(.rasterFadeDuration, .raster, .paint, .number, .number(300), range: nonNegative, .zoom, transition: false,
            "milliseconds a new tile fades in over the tiles it replaces"),
        // hillshade
        row(.hillshadeIlluminationDirection, .hillshade, .paint, .number, .number(335), range: 0...359, .zoom, transition: false,
            "degrees clockwise from north the light comes from"),
        row(.hillshadeIlluminationAnchor, .hillshade, .paint, mapOrViewport, .string("viewport"), .zoom, transition: false,
            "whether the light direction turns with the map or is fixed to the viewport"),
        row(.hillshadeExaggeration, .hillshade, .paint, .number, .number(0.5), range: unit, .zoom, transition: true,
            "0…1 strength of the shading"),
        row(.hillshadeShadowColor, .hillshade, .paint, .color, .color(.black), .zoom, transition: true, "colour of slopes facing away"),
        row(.hillshadeHighlightColor, .hillshade, .paint, .color, .color(.white), .zoom, transition: true, "colour of slopes facing the light"),
        row(.hillshadeAccentColor, .hillshade, .paint, .color, .color(.black), .zoom, transition: true, "colour of the steepest slopes"),
    ]
}
