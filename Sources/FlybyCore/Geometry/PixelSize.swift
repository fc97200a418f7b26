/// A frame size in whole device pixels: what `--size WxH` means to every command, and what the
/// renderer, a frame pipeline and an encoder are made with. ``ScreenSize`` is the same size in
/// points (Double) for the camera and the viewport.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels (≥ 1).
    public var width: Int
    /// Height in pixels (≥ 1).
    public var height: Int

    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// The largest side any frame may have, in pixels (a 16384 × 16384 frame is 1 GiB of pixels).
    public static let maxSide = 16384

    /// The names `--size` accepts besides `WxH`, with their sizes in pixels.
    public static let presets: [(name: String, size: PixelSize)] = [
        ("720p", PixelSize(width: 1280, height: 720)), ("1080p", PixelSize(width: 1920, height: 1080)),
        ("4k", PixelSize(width: 3840, height: 2160)), ("square", PixelSize(width: 1080, height: 1080)),
    ]

    /// Parses `WxH` with whole sides 1…`maxSide` (`1280x720`, `16X9`) or a preset name
    /// (case-insensitive; a preset larger than `maxSide` is refused too).
    /// - Throws: ``PixelSizeError`` naming the accepted forms.
    public init(parsing text: String, maxSide: Int = PixelSize.maxSide) throws(PixelSizeError) {
        let lower = text.lowercased()
        if let p = PixelSize.presets.first(where: { $0.name == lower }), p.size.width <= maxSide, p.size.height <= maxSide {
            self = p.size
            return
        }
        let parts = lower.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...maxSide).contains(w), (1...maxSide).contains(h) else {
            throw PixelSizeError(text: text, maxSide: maxSide)
        }
        self.init(width: w, height: h)
    }

    /// The same size in screen points at one pixel per point.
    public var screenSize: ScreenSize { ScreenSize(width: Double(width), height: Double(height)) }

    /// `WIDTHxHEIGHT`, the form ``init(parsing:maxSide:)`` reads.
    public var description: String { "\(width)x\(height)" }

    /// This size times `ratio` device pixels per point, each side.
    public func scaled(by ratio: Int) -> PixelSize { PixelSize(width: width * ratio, height: height * ratio) }
}

/// A size that is neither `WxH` within the bound nor a preset.
public struct PixelSizeError: Error, Sendable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// The largest side that was allowed, in pixels.
    public var maxSide: Int
    /// What is accepted and what was found (a command prefixes its option name).
    public var reason: String {
        let names = PixelSize.presets.map(\.name).joined(separator: ", ")
        return "must be WxH with whole numbers 1…\(maxSide), like 1280x720, or one of \(names); not '\(text)'"
    }
    public var description: String { "--size " + reason }
}
