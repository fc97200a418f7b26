import FlybyCore
import FlybyData

extension Style {
    /// This style with its labels in `language` where the data has it (Mapbox Maps SDK v10,
    /// "Localization": `localizeLabels(into:)`): in every `text-field` of the symbol layers
    /// (only those in `layerIDs` when given), each read of a name — `["get", "name"]`, or of a
    /// localized or transliterated name such as `name:latin`, `name_en`, `name:de` (a `{token}`
    /// too) — becomes `["coalesce", ["get", "name:LANG"], <the original read>]`, so a feature
    /// without `name:LANG` keeps its label. `name:nonlatin` (a second line of non-Latin script in
    /// OpenMapTiles styles) is left alone. The OpenMapTiles schema spells localized names
    /// `name:xx`, as this does.
    /// - Parameter language: a language code as in the data (`fi`, `sv`, `zh-Hans`): letters,
    ///   digits, `-` and `_`, 1…35 characters (BCP 47's longest tag).
    /// - Throws: ``InputError`` for a code outside that alphabet or length.
    public func localized(into language: String, layerIDs: Set<String>? = nil) throws(InputError) -> Style {
        guard (1...35).contains(language.count),
              language.unicodeScalars.allSatisfy({ ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_" })
        else {
            throw InputError(file: "--language", message: "'\(InputError.escaped(language))' is not a language code (letters, digits, '-' and '_', at most 35)")
        }
        let key = "name:" + language
        let layers = self.layers.map { layer in
            guard layer.type == .symbol, layerIDs?.contains(layer.id) ?? true, let e = layer.bindings[StyleProperty.textField.index]
            else { return layer }
            var l = layer
            l.bindings[StyleProperty.textField.index] = StyleExpression(e.root.localizingNames(key), type: e.exprType)
            return l
        }
        return Style(copying: self, layers: layers, sky: sky)
    }

    /// True for the property names ``localized(into:layerIDs:)`` rewrites.
    static func isLocalizableName(_ property: String) -> Bool {
        guard property.hasPrefix("name") else { return false }
        let rest = property.dropFirst(4)
        if rest.isEmpty { return true }
        guard let sep = rest.first, sep == ":" || sep == "_" else { return false }
        return rest.dropFirst() != "nonlatin" && !rest.dropFirst().isEmpty
    }
}

extension LoadedStyle {
    /// This style with its labels localized (``Style/localized(into:layerIDs:)``), same sources and sprite.
    public func localized(into language: String, layerIDs: Set<String>? = nil) throws(InputError) -> LoadedStyle {
        var s = LoadedStyle(style: try style.localized(into: language, layerIDs: layerIDs), sources: sources, tileSets: tileSets)
        s.sprite = sprite
        return s
    }
}

extension ExprNode {
    /// Every `get` of a localizable name (not inside `coalesce` already rewritten) read as
    /// `coalesce(get(key), get(name))`.
    func localizingNames(_ key: String) -> ExprNode {
        if case .get(let p) = self, p != key, Style.isLocalizableName(p) { return .coalesce([.get(key), self]) }
        return mapChildren { $0.localizingNames(key) }
    }
}
