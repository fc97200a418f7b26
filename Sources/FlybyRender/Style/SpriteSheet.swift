import FlybyData
import FlybyMedia

/// A style's sprite sheet (Style Specification, "Sprite"): `name.json` maps image names to
/// rectangles of `name.png` (`x`, `y`, `width`, `height` in pixels of the sheet, `pixelRatio`,
/// `sdf`). Each image is cut out once at load time and drawn at one sheet pixel per
/// `pixelRatio` screen pixels.
public struct SpriteSheet: Sendable {
    /// The images by name, premultiplied.
    public let images: [String: PixelBuffer]
    /// The images the sheet marks `sdf: true` (signed-distance-field icons, recoloured by `icon-color`).
    public let sdfNames: Set<String>
    /// The sheet's pixel ratio (1 for `name.png`, 2 for `name@2x.png`).
    public let pixelRatio: Double
    /// How each image is drawn: its own `pixelRatio` (default the sheet's), `sdf`, and the
    /// `stretchX`, `stretchY` and `content` of `icon-text-fit` (Style Specification, "Sprite").
    public let info: [String: SpriteImageInfo]
    /// The most stretch zones one image may list along each axis.
    public static let maximumStretchZones = 64

    /// The most images one sheet may list (real sheets have a few hundred).
    public static let maximumImages = 10_000
    /// The most pixels all cut-out images may hold together (32 Mi pixels, 128 MiB): entries may
    /// overlap, so without a bound 10,000 entries each naming a whole large sheet would ask for
    /// hundreds of gigabytes. Real sheets cut out each pixel about once.
    public static let maximumImagePixels = 1 << 25

    /// Reads `path.json` and `path.png` (or `path@2x.*` for `pixelRatio` 2).
    /// - Throws: ``InputError`` naming the JSON file and the entry for a rectangle outside the PNG,
    ///   a missing file, or a PNG that cannot be decoded.
    public init(path: String, pixelRatio: Int = 1) throws(InputError) {
        let suffix = pixelRatio >= 2 ? "@2x" : ""
        let jsonPath = path + suffix + ".json", pngPath = path + suffix + ".png"
        let jsonBytes = try FileInput.read(jsonPath, maxBytes: 16 << 20)
        let sheet: PNGImage
        let pngBytes = try FileInput.read(pngPath, maxBytes: 64 << 20)
        do throws(MediaError) {
            sheet = try PNGDecoder.decode(pngBytes)
        } catch {
            throw InputError(file: pngPath, message: "cannot decode the sprite image: \(error)")
        }
        try self.init(json: jsonBytes, file: jsonPath, sheet: sheet, pixelRatio: pixelRatio)
    }

    /// Cuts the images that the sprite JSON `json` (read from `file`, for errors) lists out of the
    /// decoded sheet `sheet`.
    /// - Throws: ``InputError`` naming `file` and the entry (see ``init(path:pixelRatio:)``).
    public init(json: [UInt8], file: String, sheet: PNGImage, pixelRatio: Int = 1) throws(InputError) {
        let doc = try JSONDocument(file: file, bytes: json)
        let members = try doc.cursor.members()
        guard members.count <= SpriteSheet.maximumImages else {
            throw doc.cursor.error("a sprite sheet of \(members.count) images (at most \(SpriteSheet.maximumImages))")
        }
        var images: [String: PixelBuffer] = [:]
        var sdf: Set<String> = []
        var info: [String: SpriteImageInfo] = [:]
        var pixels = 0
        for (name, entry) in members {
            try entry.rejectUnknownKeys(["x", "y", "width", "height", "pixelRatio", "sdf", "content", "stretchX", "stretchY"])
            let x = Int(try entry.required("x").double(in: 0...Double(sheet.width), what: "x"))
            let y = Int(try entry.required("y").double(in: 0...Double(sheet.height), what: "y"))
            let w = Int(try entry.required("width").double(in: 0...Double(sheet.width), what: "width"))
            let h = Int(try entry.required("height").double(in: 0...Double(sheet.height), what: "height"))
            guard x + w <= sheet.width, y + h <= sheet.height else {
                throw entry.error("the image '\(name)' (\(w)×\(h) at \(x),\(y)) lies outside the \(sheet.width)×\(sheet.height) sprite image")
            }
            pixels += w * h
            guard pixels <= SpriteSheet.maximumImagePixels else {
                throw entry.error("the sprite's images add up to more than \(SpriteSheet.maximumImagePixels) pixels (entries overlap far too much)")
            }
            var image = PixelBuffer(width: w, height: h)
            for row in 0..<h {
                for col in 0..<w { image.pixels[row * w + col] = sheet.pixels[(y + row) * sheet.width + x + col] }
            }
            images[name] = image
            var item = SpriteImageInfo(pixelRatio: Double(max(1, pixelRatio)))
            if let r = try entry.member("pixelRatio") { item.pixelRatio = try r.double(in: 0.25...8, what: "pixelRatio") }
            if try entry.member("sdf")?.bool() == true { sdf.insert(name); item.sdf = true }
            item.stretchX = try SpriteSheet.zones(entry.member("stretchX"), length: w, name: name)
            item.stretchY = try SpriteSheet.zones(entry.member("stretchY"), length: h, name: name)
            if let c = try entry.member("content") {
                let v = try c.elements()
                guard v.count == 4 else { throw c.error("the content box of '\(name)' must be [left, top, right, bottom]") }
                let l = try v[0].double(in: 0...Double(w), what: "left"), t = try v[1].double(in: 0...Double(h), what: "top")
                let r = try v[2].double(in: l...Double(w), what: "right"), b = try v[3].double(in: t...Double(h), what: "bottom")
                item.content = (l, t, r, b)
            }
            info[name] = item
        }
        self.images = images
        self.info = info
        sdfNames = sdf
        self.pixelRatio = Double(max(1, pixelRatio))
    }
}

extension SpriteSheet {
    /// `stretchX` / `stretchY`: `[[from, to], …]` in image pixels, each inside 0…`length`, in order.
    static func zones(_ c: JSONCursor?, length: Int, name: String) throws(InputError) -> [ClosedRange<Double>] {
        guard let c else { return [] }
        let items = try c.elements()
        guard items.count <= SpriteSheet.maximumStretchZones else {
            throw c.error("'\(name)' lists \(items.count) stretch zones (at most \(SpriteSheet.maximumStretchZones))")
        }
        var out: [ClosedRange<Double>] = []
        var last = 0.0
        for item in items {
            let pair = try item.elements()
            guard pair.count == 2 else { throw item.error("a stretch zone of '\(name)' must be [from, to]") }
            let a = try pair[0].double(in: last...Double(length), what: "from")
            let b = try pair[1].double(in: a...Double(length), what: "to")
            out.append(a...b)
            last = b
        }
        return out
    }
}

/// How one image of a sprite (or one added by name) is drawn. Lengths in image pixels.
public struct SpriteImageInfo: Sendable, Equatable {
    /// Image pixels per screen pixel at `icon-size` 1 (2 for an `@2x` image).
    public var pixelRatio: Double
    /// A signed distance field in the alpha channel (coverage 0.75 at the edge, as glyphs),
    /// tinted by `icon-color` with an `icon-halo-*` halo.
    public var sdf = false
    /// Columns / rows that stretch under `icon-text-fit` (the rest keep their size); empty: stretch all.
    public var stretchX: [ClosedRange<Double>] = []
    public var stretchY: [ClosedRange<Double>] = []
    /// The part that the text must fit in under `icon-text-fit`: left, top, right, bottom (nil: the whole image).
    public var content: (left: Double, top: Double, right: Double, bottom: Double)?

    public init(pixelRatio: Double = 1, sdf: Bool = false) { self.pixelRatio = pixelRatio; self.sdf = sdf }

    public static func == (a: SpriteImageInfo, b: SpriteImageInfo) -> Bool {
        a.pixelRatio == b.pixelRatio && a.sdf == b.sdf && a.stretchX == b.stretchX && a.stretchY == b.stretchY
            && a.content.map { [$0.left, $0.top, $0.right, $0.bottom] } == b.content.map { [$0.left, $0.top, $0.right, $0.bottom] }
    }
}

extension PixelBuffer {
    /// The mean of the pixels (premultiplied, so transparent pixels lighten it), as a colour:
    /// what a pattern finer than the eye resolves looks like.
    public var averageColor: Color {
        guard !pixels.isEmpty else { return .transparent }
        var a = 0, r = 0, g = 0, b = 0
        for p in pixels {
            a += Int(p >> 24); r += Int((p >> 16) & 0xFF); g += Int((p >> 8) & 0xFF); b += Int(p & 0xFF)
        }
        let n = pixels.count
        let premultiplied = UInt32((a + n / 2) / n) << 24 | UInt32((r + n / 2) / n) << 16 | UInt32((g + n / 2) / n) << 8 | UInt32((b + n / 2) / n)
        return Color(premultipliedARGB: premultiplied)
    }
}
