/// The one `--size` parser of `play`, `plot`, `snapshot`, `bench render` and `window`: `WxH` in
/// whole pixels (`1280x720`) or a preset name.
enum SizeOption {
    /// The preset names and their sizes in pixels.
    static let presets: [(name: String, width: Int, height: Int)] = [
        ("720p", 1280, 720), ("1080p", 1920, 1080), ("4k", 3840, 2160), ("square", 1080, 1080),
    ]

    /// `WxH` with whole sides 1…`maxSide`, or a preset (case-insensitive).
    /// - Throws: ``CommandError`` (exit 2) naming `--size` and the accepted forms.
    static func parse(_ text: String, maxSide: Int = 16384) throws -> (width: Int, height: Int) {
        let lower = text.lowercased()
        if let p = presets.first(where: { $0.name == lower }), p.width <= maxSide, p.height <= maxSide { return (p.width, p.height) }
        let parts = lower.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...maxSide).contains(w), (1...maxSide).contains(h) else {
            let names = presets.map(\.name).joined(separator: ", ")
            throw CommandError("--size must be WxH with whole numbers 1…\(maxSide), like 1280x720, or one of \(names); not '\(text)'")
        }
        return (w, h)
    }
}
