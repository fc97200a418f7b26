import FlybyData

/// Where a style's glyph PBFs are: its `glyphs` URL template as a local path, with `{fontstack}`
/// and `{range}` (Style Specification, "glyphs": `{range}` is `start-end`, 256 code points a file),
/// and the optional name table `fontstacks.json` beside the font folders.
///
/// A glyph server gets the whole `text-font` stack as one comma-joined `{fontstack}`; local
/// folders hold one font each, so Flyby puts one font name at a time into the template and walks
/// the stack itself (``GlyphStackFont``). `fontstacks.json` (`{"fallback": {"Noto Sans Bold":
/// "Noto Sans Medium", …}}`) names a folder to use for a font that has none of its own.
public struct GlyphSource: Sendable, Equatable {
    /// The template, `{fontstack}` and `{range}` still in it.
    public let template: String
    /// Font name → folder name, for fonts without a folder of their own.
    public let fallback: [String: String]

    /// - Parameters:
    ///   - template: a local path template (already resolved against the style's folder).
    ///   - fallback: the name table (see ``loadFallback(template:)`` for the file's).
    public init(template: String, fallback: [String: String] = [:]) {
        self.template = template
        self.fallback = fallback
    }

    /// The source for a style's `glyphs` template with the `fontstacks.json` that sits beside the
    /// `{fontstack}` folders, when there is one.
    /// - Throws: ``InputError`` naming `fontstacks.json` when it exists but is malformed.
    public static func load(template: String) throws(InputError) -> GlyphSource {
        // The folder before `{fontstack}` as a file path (a built-in style's folder is a resource).
        var path = template
        if let cut = GlyphSource.split(template, at: "{fontstack}"), cut.before.hasPrefix("builtin:") {
            path = StyleLoader.localPath(cut.before) + "/{fontstack}" + cut.after
        }
        var fallback: [String: String] = [:]
        if let cut = GlyphSource.split(path, at: "{fontstack}") {
            let table = cut.before + "fontstacks.json"
            if FileInput.isFile(table) {
                let doc = try JSONDocument(contentsOfFile: table)
                if let map = try doc.cursor.member("fallback") {
                    for (name, folder) in try map.members() { fallback[name] = try folder.string() }
                }
            }
        }
        return GlyphSource(template: path, fallback: fallback)
    }

    /// The file of range `range` (code points `256·range …`) of the font `name`.
    func path(font name: String, range: Int) -> String {
        let first = range * 256
        return GlyphSource.replace(GlyphSource.replace(template, "{fontstack}", with: name), "{range}", with: "\(first)-\(first + 255)")
    }

    /// The text before and after the first `token` in `text` (nil when it has none).
    static func split(_ text: String, at token: String) -> (before: String, after: String)? {
        let t = Array(token.utf8), u = Array(text.utf8)
        guard !t.isEmpty, u.count >= t.count else { return nil }
        for i in 0...(u.count - t.count) where u[i..<(i + t.count)].elementsEqual(t) {
            return (String(decoding: u[..<i], as: UTF8.self), String(decoding: u[(i + t.count)...], as: UTF8.self))
        }
        return nil
    }

    /// `text` with every `token` replaced by `value`.
    static func replace(_ text: String, _ token: String, with value: String) -> String {
        var rest = text, out = ""
        while let cut = split(rest, at: token) { out += cut.before + value; rest = cut.after }
        return out + rest
    }
}
