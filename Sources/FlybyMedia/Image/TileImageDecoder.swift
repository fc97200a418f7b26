/// The image formats of raster tiles, told apart by their first bytes (magic numbers).
public enum ImageFormat: String, Sendable {
    case png, jpeg, webp

    /// The format whose signature `bytes` start with: PNG `89 50 4E 47 0D 0A 1A 0A` (PNG spec
    /// §5.2), JPEG `FF D8 FF` (an SOI marker then a marker, ITU-T T.81 §B.1), WebP `RIFF····WEBP`
    /// (the RIFF container of the WebP container specification). Nil for anything else.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.count >= 8 && bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= 12 && bytes[0..<4].elementsEqual([0x52, 0x49, 0x46, 0x46]) && bytes[8..<12].elementsEqual([0x57, 0x45, 0x42, 0x50]) {
            return .webp
        }
        return nil
    }
}

/// Decodes raster-tile images (PNG, JPEG, WebP), whichever format the bytes are, into
/// premultiplied ARGB pixels (``PNGImage``, the module's decoded-image type).
///
/// PNG goes through ``PNGDecoder``; JPEG through libturbojpeg; WebP through libwebp. The width and
/// height are read from the headers and checked against `maxPixels` before any pixel memory is
/// allocated. Corrupt input throws ``MediaError``, never traps.
public enum TileImageDecoder {
    /// The largest tile accepted by default: 4096 × 4096 pixels (a tile is 256 or 512 pixels).
    public static let defaultMaxPixels = 4096 * 4096

    /// Decodes `bytes`.
    /// - Parameter maxPixels: the largest width × height accepted.
    /// - Throws: ``MediaError/invalidImage(_:)`` for data of no known format, a corrupt image or
    ///   one larger than `maxPixels`; PNG errors as ``PNGDecoder`` throws them.
    public static func decode(_ bytes: [UInt8], maxPixels: Int = defaultMaxPixels) throws(MediaError) -> PNGImage {
        guard let format = ImageFormat.sniff(bytes) else {
            throw .invalidImage("not a PNG, JPEG or WebP image (first bytes \(bytes.prefix(4).map { hex($0) }.joined(separator: " ")))")
        }
        return try withBytes(bytes) { (raw) throws(MediaError) in
            switch format {
            case .png:
                // The PNG header's size is checked here too, so a huge PNG is refused before inflating.
                if bytes.count >= 24 {
                    let w = Int(PNGDecoder.readBigEndian(raw.bindMemory(to: UInt8.self), 16))
                    let h = Int(PNGDecoder.readBigEndian(raw.bindMemory(to: UInt8.self), 20))
                    try check(w, h, maxPixels, "PNG")
                }
                return try PNGDecoder.decode(raw)
            case .jpeg:
                let jpeg = try TurboJPEGDecompressor()
                let (w, h) = try jpeg.header(raw)
                try check(w, h, maxPixels, "JPEG")
                return try straightRGBA(width: w, height: h) { (out) throws(MediaError) in try jpeg.decodeRGBA(raw, into: out, width: w, height: h) }
            case .webp:
                let (w, h) = try webpInfo(raw)
                try check(w, h, maxPixels, "WebP")
                return try straightRGBA(width: w, height: h) { (out) throws(MediaError) in try webpDecodeRGBA(raw, into: out, stride: w * 4) }
            }
        }
    }

    static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }

    static func check(_ w: Int, _ h: Int, _ maxPixels: Int, _ format: String) throws(MediaError) {
        guard w > 0, h > 0, w <= maxPixels, h <= maxPixels, w * h <= maxPixels else {
            throw .invalidImage("\(format): \(w)×\(h) pixels is larger than the \(maxPixels) pixels allowed")
        }
    }

    /// Lets `fill` write straight RGBA bytes, then premultiplies them into ARGB words:
    /// `p = round(c · a / 255)`, as ``PNGDecoder`` does.
    static func straightRGBA(width: Int, height: Int,
                             _ fill: (UnsafeMutableRawBufferPointer) throws(MediaError) -> Void) throws(MediaError) -> PNGImage {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        var failure: MediaError?
        rgba.withUnsafeMutableBytes { out in
            do throws(MediaError) { try fill(out) } catch { failure = error }
        }
        if let failure { throw failure }
        var pixels = [UInt32](repeating: 0, count: width * height)
        rgba.withUnsafeBufferPointer { s in
            pixels.withUnsafeMutableBufferPointer { d in
                for k in 0..<(width * height) {
                    let r = UInt32(s[4 * k]), g = UInt32(s[4 * k + 1]), b = UInt32(s[4 * k + 2]), a = UInt32(s[4 * k + 3])
                    if a == 255 {
                        d[k] = 0xFF00_0000 | r << 16 | g << 8 | b
                    } else {
                        d[k] = a << 24 | ((r * a + 127) / 255) << 16 | ((g * a + 127) / 255) << 8 | ((b * a + 127) / 255)
                    }
                }
            }
        }
        return PNGImage(width: width, height: height, pixels: pixels)
    }
}
