import FlybyData

extension TrueTypeFont {
    /// The one loader of the fonts shipped in FlybyData's resources (`fonts/DejaVuSans.ttf`,
    /// `fonts/DejaVuSans-Bold.ttf`), for the map renderer, the ornaments, plots and the window.
    /// - Throws: ``FontError`` naming the font when it is missing from the resources or unreadable.
    public static func builtin(_ name: String = "DejaVuSans.ttf") throws(FontError) -> TrueTypeFont {
        guard let path = BuiltinData.path("fonts/\(name)") else {
            throw FontError(font: name, message: "the built-in font is missing from the resources")
        }
        return try TrueTypeFont(contentsOfFile: path)
    }
}
