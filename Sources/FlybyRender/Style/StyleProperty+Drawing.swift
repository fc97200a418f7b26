/// Whether the renderer draws a property: the one table that says which accepted properties
/// change no pixel yet (CONTRACTS.md §4: never a silent skip). The style loader warns once per
/// property name when a style sets one that is not drawn (see ``StyleLoader/warn``), and
/// `StylePropertyDrawingTests` checks that every property marked ``Drawing/drawn`` is read by the
/// drawing code. docs/style-properties.md lists the same states.
extension StyleProperty {
    /// How a property reaches the pixels.
    public enum Drawing: Sendable, Equatable {
        /// Read by the drawing code: its value changes what is drawn as the specification says.
        case drawn
        /// Accepted and not drawn yet; the text says what is drawn instead (the warning's text).
        case notDrawn(String)
        /// Only the values that are the behaviour drawn are accepted (others are refused when
        /// the style is parsed), so no code needs to read it.
        case fixed(String)
    }

    /// This property's state (see ``Drawing``).
    public var drawing: Drawing {
        switch self {
        case .atmosphereBlend: return .notDrawn("the fog band has a fixed shape")
        case .rasterFadeDuration: return .notDrawn("raster tiles appear at once, without a fade")
        case .textPitchAlignment, .iconPitchAlignment:
            return .fixed("labels face the viewer; only `viewport` and `auto` are accepted")
        default: return .drawn
        }
    }

    /// True when the renderer reads the property (``Drawing/drawn`` or ``Drawing/fixed(_:)``).
    public var isDrawn: Bool {
        if case .notDrawn = drawing { return false }
        return true
    }
}

extension Style {
    /// The properties this style sets that are not drawn (``StyleProperty/isDrawn``), each
    /// once, first use first: the property, and a one-line warning naming the file, the layer
    /// (or `sky`) and what is drawn instead.
    public var undrawnProperties: [(property: StyleProperty, warning: String)] {
        var seen: Set<StyleProperty> = []
        var found: [(property: StyleProperty, warning: String)] = []
        func check(_ properties: [StyleProperty], _ place: String) {
            for p in properties where !p.isDrawn && seen.insert(p).inserted {
                guard case .notDrawn(let instead) = p.drawing else { continue }
                found.append((p, "warning: \(file): \(place) sets \(p.rawValue), which is accepted but not drawn yet: \(instead)"))
            }
        }
        for layer in layers { check(layer.declaredProperties, "layer '\(layer.id)'") }
        if let sky { check(sky.declaredProperties, "sky") }
        // Drawn alone, but not together: a patterned or gradient line is drawn on its centre line.
        for layer in layers {
            let set = layer.declaredProperties
            guard let shading = set.first(where: { $0 == .linePattern || $0 == .lineGradient }) else { continue }
            for p in set where (p == .lineOffset || p == .lineGapWidth) && seen.insert(p).inserted {
                found.append((p, "warning: \(file): layer '\(layer.id)' sets \(p.rawValue) with \(shading.rawValue), which is not drawn together yet: the \(shading == .linePattern ? "pattern" : "gradient") is drawn on the line's centre, one line wide"))
            }
        }
        return found
    }
}
