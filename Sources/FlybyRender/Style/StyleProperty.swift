/// The layer types Flyby draws.
public enum LayerType: String, Sendable, CaseIterable {
    case background, fill, line, circle, symbol
    case fillExtrusion = "fill-extrusion"
    /// Raster images from a `raster` source; relief shading from a `raster-dem` source (issue 19).
    case raster, hillshade
}

/// The value type a property expects; literals are checked against it at parse time.
public enum PropertyValueType: Sendable, Equatable {
    case color
    case number
    case boolean
    case string
    /// One of the listed keywords.
    case enumeration([String])
    /// An array of numbers, of exactly `count` when given.
    case numberArray(count: Int?)
    /// An array of strings (`text-font`).
    case stringArray
    /// Text: a string, or a number/boolean converted with `to-string` (`text-field`).
    case formatted
    /// An image name (`icon-image`).
    case image
    /// An array of `text-anchor` keywords (`text-variable-anchor`).
    case anchorArray
    /// Anchor keywords alternating with `[x, y]` offsets in ems (`text-variable-anchor-offset`,
    /// the specification's `variableAnchorOffsetCollection`).
    case anchorOffsets

    var styleType: StyleType {
        switch self {
        case .color: return .color
        case .number: return .number
        case .boolean: return .boolean
        case .string, .enumeration, .formatted, .image: return .string
        case .numberArray, .stringArray, .anchorArray, .anchorOffsets: return .array
        }
    }
}

/// Every paint, layout and sky property Flyby supports, with its type, default and range (from
/// the Mapbox/MapLibre Style Specification v8). Anything not listed is an error in a style.
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

    /// Where a property may appear.
    public enum Group: Sendable { case paint, layout, sky }

    /// Dense index (position in `allCases`), for per-layer tables.
    ///
    /// A payload-free enum is stored as its case number in declaration order, which is also the
    /// order of `allCases`; reading it directly replaces a dictionary lookup that hashed the raw
    /// name string on every property access (measured: a tenth of the label placement time).
    /// `StylePropertyTests` checks the two orders agree.
    @inline(__always)
    public var index: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
    static let byName: [String: StyleProperty] = {
        var t: [String: StyleProperty] = [:]
        for p in allCases { t[p.rawValue] = p }
        return t
    }()

    /// The layer type the property belongs to (nil for sky properties).
    public var layerType: LayerType? {
        let name = rawValue
        if name.hasPrefix("background-") { return .background }
        if name.hasPrefix("fill-extrusion-") { return .fillExtrusion }
        if name.hasPrefix("fill-") { return .fill }
        if name.hasPrefix("line-") { return .line }
        if name.hasPrefix("circle-") { return .circle }
        if name.hasPrefix("text-") || name.hasPrefix("icon-") || name.hasPrefix("symbol-") { return .symbol }
        if name.hasPrefix("raster-") { return .raster }
        if name.hasPrefix("hillshade-") { return .hillshade }
        return nil
    }

    public var group: Group {
        switch self {
        case .fillSortKey, .lineCap, .lineJoin, .lineMiterLimit, .lineRoundLimit, .lineSortKey, .circleSortKey,
             .symbolPlacement, .symbolSpacing, .symbolSortKey, .symbolAvoidEdges,
             .textField, .textFont, .textSize, .textMaxWidth, .textLineHeight, .textLetterSpacing, .textJustify,
             .textAnchor, .textOffset, .textRotate, .textPadding, .textTransform, .textMaxAngle, .textKeepUpright,
             .textAllowOverlap, .textIgnorePlacement, .textOptional,
             .textVariableAnchor, .textRadialOffset, .textVariableAnchorOffset, .iconKeepUpright,
             .iconImage, .iconSize, .iconRotate, .iconAnchor, .iconOffset, .iconPadding, .iconAllowOverlap,
             .iconIgnorePlacement, .iconOptional, .iconTextFit, .iconTextFitPadding,
             .textRotationAlignment, .iconRotationAlignment, .textPitchAlignment, .iconPitchAlignment:
            return .layout
        case .skyColor, .horizonColor, .fogColor, .skyHorizonBlend, .horizonFogBlend, .fogGroundBlend, .atmosphereBlend:
            return .sky
        default:
            return .paint
        }
    }

    static let anchors = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]

    public var valueType: PropertyValueType {
        switch self {
        case .backgroundColor, .fillColor, .fillOutlineColor, .fillExtrusionColor, .lineColor, .lineGradient, .circleColor,
             .circleStrokeColor, .textColor, .textHaloColor, .iconColor, .iconHaloColor, .skyColor, .horizonColor, .fogColor,
             .hillshadeShadowColor, .hillshadeHighlightColor, .hillshadeAccentColor:
            return .color
        case .fillAntialias, .textKeepUpright, .textAllowOverlap, .textIgnorePlacement, .textOptional, .iconKeepUpright,
             .iconAllowOverlap, .iconIgnorePlacement, .iconOptional, .symbolAvoidEdges:
            return .boolean
        case .lineCap: return .enumeration(["butt", "round", "square"])
        case .rasterResampling: return .enumeration(["linear", "nearest"])
        case .hillshadeIlluminationAnchor: return .enumeration(["map", "viewport"])
        case .lineJoin: return .enumeration(["bevel", "round", "miter"])
        case .symbolPlacement: return .enumeration(["point", "line", "line-center"])
        case .textJustify: return .enumeration(["auto", "left", "center", "right"])
        case .textAnchor, .iconAnchor: return .enumeration(StyleProperty.anchors)
        case .textTransform: return .enumeration(["none", "uppercase", "lowercase"])
        case .fillTranslateAnchor, .fillExtrusionTranslateAnchor, .textTranslateAnchor, .iconTranslateAnchor, .lineTranslateAnchor,
             .circleTranslateAnchor:
            return .enumeration(["map", "viewport"])
        case .circlePitchScale, .circlePitchAlignment: return .enumeration(["map", "viewport"])
        case .textRotationAlignment: return .enumeration(["map", "viewport", "viewport-glyph", "auto"])
        case .iconRotationAlignment: return .enumeration(["map", "viewport", "auto"])
        // Labels are drawn facing the viewer: `map` (labels lying on the pitched ground) is
        // refused by name rather than drawn as `viewport`.
        case .textPitchAlignment, .iconPitchAlignment: return .enumeration(["viewport", "auto"])
        case .fillTranslate, .fillExtrusionTranslate, .textTranslate, .iconTranslate, .lineTranslate, .circleTranslate: return .numberArray(count: 2)
        case .lineDasharray: return .numberArray(count: nil)
        case .iconTextFit: return .enumeration(["none", "width", "height", "both"])
        case .iconTextFitPadding: return .numberArray(count: 4)
        case .textOffset, .iconOffset: return .numberArray(count: 2)
        case .textFont: return .stringArray
        case .textVariableAnchor: return .anchorArray
        case .textVariableAnchorOffset: return .anchorOffsets
        case .textField: return .formatted
        case .iconImage, .fillPattern, .linePattern, .backgroundPattern: return .image
        default: return .number
        }
    }

    /// The value used when the style leaves the property out or an expression fails.
    public var defaultValue: StyleValue {
        switch self {
        case .backgroundColor, .fillColor, .fillExtrusionColor, .lineColor, .circleColor, .circleStrokeColor, .textColor, .iconColor:
            return .color(.black)
        case .fillOutlineColor: return .null  // null: use fill-color
        case .textVariableAnchor, .textVariableAnchorOffset: return .null  // null: `text-anchor` alone
        case .textHaloColor, .iconHaloColor: return .color(.transparent)
        case .iconTextFit: return .string("none")
        case .iconTextFitPadding: return .array([.number(0), .number(0), .number(0), .number(0)])
        case .skyColor: return .color(StyleColor(r8: 0x88, g8: 0xC6, b8: 0xFC))
        case .horizonColor: return .color(.white)
        case .fogColor: return .color(.white)
        case .backgroundOpacity, .fillOpacity, .lineOpacity, .circleOpacity, .circleStrokeOpacity,
             .textOpacity, .iconOpacity, .iconSize, .lineWidth, .fillExtrusionOpacity:
            return .number(1)
        case .fillAntialias, .textKeepUpright: return .bool(true)
        case .textAllowOverlap, .textIgnorePlacement, .textOptional, .iconAllowOverlap, .iconIgnorePlacement,
             .iconOptional, .symbolAvoidEdges, .iconKeepUpright:
            return .bool(false)
        case .lineCap: return .string("butt")
        case .lineJoin: return .string("miter")
        case .lineMiterLimit: return .number(2)
        case .lineRoundLimit: return .number(1.05)
        case .circleRadius: return .number(5)
        case .symbolPlacement: return .string("point")
        case .symbolSpacing: return .number(250)
        case .textField, .iconImage, .fillPattern, .linePattern, .backgroundPattern: return .string("")
        case .lineGradient: return .null  // null: `line-color`
        case .textFont: return .array([.string("Open Sans Regular")])
        case .textSize: return .number(16)
        case .textMaxWidth: return .number(10)
        case .textLineHeight: return .number(1.2)
        case .textJustify, .textAnchor, .iconAnchor: return .string("center")
        case .textOffset, .iconOffset, .fillTranslate, .fillExtrusionTranslate, .textTranslate, .iconTranslate, .lineTranslate, .circleTranslate:
            return .array([.number(0), .number(0)])
        case .fillTranslateAnchor, .fillExtrusionTranslateAnchor, .textTranslateAnchor, .iconTranslateAnchor, .lineTranslateAnchor,
             .circleTranslateAnchor:
            return .string("map")
        case .textRotationAlignment, .iconRotationAlignment, .textPitchAlignment, .iconPitchAlignment: return .string("auto")
        case .circlePitchScale: return .string("map")
        case .circlePitchAlignment: return .string("viewport")
        case .textPadding, .iconPadding: return .number(2)
        case .textTransform: return .string("none")
        case .textMaxAngle: return .number(45)
        case .skyHorizonBlend: return .number(0.8)
        case .horizonFogBlend: return .number(0.8)
        case .fogGroundBlend: return .number(0.5)
        case .atmosphereBlend: return .number(0.8)
        case .lineDasharray: return .null  // null: solid
        case .rasterOpacity, .rasterBrightnessMax: return .number(1)
        case .rasterResampling: return .string("linear")
        case .rasterFadeDuration: return .number(300)
        case .hillshadeIlluminationDirection: return .number(335)
        case .hillshadeIlluminationAnchor: return .string("viewport")
        case .hillshadeExaggeration: return .number(0.5)
        case .hillshadeShadowColor, .hillshadeAccentColor: return .color(.black)
        case .hillshadeHighlightColor: return .color(.white)
        default: return .number(0)
        }
    }

    /// The allowed range of a number property; evaluated values are clamped into it.
    public var range: ClosedRange<Double>? {
        switch self {
        case .backgroundOpacity, .fillOpacity, .lineOpacity, .circleOpacity, .circleStrokeOpacity, .textOpacity,
             .iconOpacity, .skyHorizonBlend, .horizonFogBlend, .fogGroundBlend, .atmosphereBlend, .fillExtrusionOpacity,
             .rasterOpacity, .rasterBrightnessMin, .rasterBrightnessMax, .hillshadeExaggeration:
            return 0...1
        case .rasterSaturation, .rasterContrast: return -1...1
        case .hillshadeIlluminationDirection: return 0...359
        case .rasterFadeDuration: return 0...Double.greatestFiniteMagnitude
        case .lineWidth, .lineGapWidth, .lineBlur, .circleRadius, .circleBlur, .circleStrokeWidth, .textSize,
             .textMaxWidth, .textHaloWidth, .textHaloBlur, .iconHaloWidth, .iconHaloBlur, .textPadding, .iconPadding, .iconSize,
             .lineMiterLimit, .lineRoundLimit, .textMaxAngle, .fillExtrusionHeight, .fillExtrusionBase:
            return 0...Double.greatestFiniteMagnitude
        case .symbolSpacing: return 1...Double.greatestFiniteMagnitude
        default: return nil
        }
    }

    /// Looks a property up by its style name.
    public init?(name: String) {
        guard let p = StyleProperty.byName[name] else { return nil }
        self = p
    }

    /// Property names of a layer type and group, sorted, for "known:" lists in errors.
    static func names(for type: LayerType?, group: Group) -> [String] {
        allCases.filter { $0.layerType == type && $0.group == group }.map(\.rawValue).sorted()
    }
}
