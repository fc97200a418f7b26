/// A decoded image: premultiplied ARGB pixels (`0xAARRGGBB`), row-major, top row first.
public struct PNGImage: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width × height` premultiplied ARGB pixels.
    public var pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// A small PNG reader (PNG specification, RFC 2083 / W3C PNG 2nd ed.) for icons and tests.
///
/// Reads non-interlaced images of colour types 0 (grey), 2 (RGB), 3 (palette), 4 (grey + alpha) and
/// 6 (RGBA) at bit depth 8, grey and palette also at 1, 2 and 4 bits, and 16-bit images (reduced to
/// their high byte). A `tRNS` chunk is honoured for palette, grey and RGB images. Colour is
/// premultiplied as `p = round(c · a / 255)` (see ``PNGEncoder`` for the round-trip guarantee).
/// Gamma, colour profiles and ancillary chunks are ignored. Chunk CRCs are checked.
///
/// Any malformed input throws ``MediaError/invalidPNG(_:)`` and any unread feature (interlacing,
/// unknown critical chunks) ``MediaError/unsupportedPNG(_:)``; it never traps.
public enum PNGDecoder {
    /// The largest image this decoder accepts, in pixels (a guard against absurd allocations).
    public static let maxPixelCount = 1 << 28

    /// Decodes a complete PNG file.
    /// - Throws: ``MediaError`` describing the first problem found.
    public static func decode(_ bytes: [UInt8]) throws(MediaError) -> PNGImage {
        var result: Result<PNGImage, MediaError> = .failure(.invalidPNG("empty"))
        bytes.withUnsafeBytes { raw in
            result = Result { () throws(MediaError) in try decode(raw) }
        }
        return try result.get()
    }

    /// Decodes a complete PNG file held in `raw`.
    public static func decode(_ raw: UnsafeRawBufferPointer) throws(MediaError) -> PNGImage {
        let bytes = raw.bindMemory(to: UInt8.self)
        guard bytes.count >= 8, Array(bytes[0..<8]) == PNGEncoder.signature else {
            throw .invalidPNG("missing PNG signature")
        }
        var offset = 8
        var header: Header?
        var palette: [UInt32] = []  // straight-alpha ARGB
        var transparency: [UInt8] = []
        var data: [UInt8] = []
        var sawEnd = false
        while !sawEnd {
            guard offset + 12 <= bytes.count else { throw .invalidPNG("truncated chunk at byte \(offset)") }
            let length = Int(readBigEndian(bytes, offset))
            let typeBytes = Array(bytes[(offset + 4)..<(offset + 8)])
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= Int(Int32.max), offset + 12 + length <= bytes.count else {
                throw .invalidPNG("chunk \(type) at byte \(offset) runs past the end of the file")
            }
            let body = UnsafeRawBufferPointer(rebasing: raw[(offset + 8)..<(offset + 8 + length)])
            let stored = readBigEndian(bytes, offset + 8 + length)
            let computed = zlibCRC32(zlibCRC32(0, UnsafeRawBufferPointer(rebasing: raw[(offset + 4)..<(offset + 8)])), body)
            guard stored == computed else { throw .invalidPNG("CRC mismatch in chunk \(type) at byte \(offset)") }
            let chunk = Array(body)
            switch type {
            case "IHDR":
                guard header == nil, offset == 8 else { throw .invalidPNG("IHDR must be the first chunk, once") }
                header = try Header(chunk)
            case "PLTE":
                guard chunk.count % 3 == 0, chunk.count > 0, chunk.count <= 768 else {
                    throw .invalidPNG("PLTE length \(chunk.count) is not a multiple of 3 in 3…768")
                }
                palette = stride(from: 0, to: chunk.count, by: 3).map {
                    0xFF00_0000 | UInt32(chunk[$0]) << 16 | UInt32(chunk[$0 + 1]) << 8 | UInt32(chunk[$0 + 2])
                }
            case "tRNS":
                transparency = chunk
            case "IDAT":
                guard header != nil else { throw .invalidPNG("IDAT before IHDR") }
                data += chunk
            case "IEND":
                sawEnd = true
            default:
                // Bit 5 of the first type byte clear = critical chunk (PNG §5.4).
                if typeBytes[0] & 0x20 == 0 { throw .unsupportedPNG("unknown critical chunk \(type)") }
            }
            offset += 12 + length
        }
        guard let header else { throw .invalidPNG("no IHDR chunk") }
        guard !data.isEmpty else { throw .invalidPNG("no IDAT chunk") }
        if header.colorType == 3 && palette.isEmpty { throw .invalidPNG("palette image without PLTE") }

        let rowBytes = (header.width * header.bitsPerPixel + 7) / 8
        // Deflate expands at most 1032:1; reject before allocating for a header that lies about its size.
        let needed = header.height * (rowBytes + 1)
        guard needed / 1032 <= data.count else {
            throw .invalidPNG("image data is truncated: \(data.count) compressed bytes cannot hold \(needed) bytes")
        }
        let inflated = try withBytes(data) { raw throws(MediaError) in
            try zlibInflate(raw, outputCount: header.height * (rowBytes + 1))
        }
        let rows = try unfilter(inflated, rowBytes: rowBytes, height: header.height,
                                bpp: max(1, header.bitsPerPixel / 8))
        return try expand(rows, header: header, rowBytes: rowBytes, palette: palette, transparency: transparency)
    }

    struct Header {
        var width: Int
        var height: Int
        var bitDepth: Int
        var colorType: Int

        var channels: Int {
            switch colorType {
            case 2: 3
            case 4: 2
            case 6: 4
            default: 1
            }
        }
        var bitsPerPixel: Int { channels * bitDepth }

        init(_ c: [UInt8]) throws(MediaError) {
            guard c.count == 13 else { throw .invalidPNG("IHDR has \(c.count) bytes, expected 13") }
            width = Int(c.withUnsafeBufferPointer { readBigEndian($0, 0) })
            height = Int(c.withUnsafeBufferPointer { readBigEndian($0, 4) })
            bitDepth = Int(c[8])
            colorType = Int(c[9])
            guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
                throw .invalidPNG("image size \(width)×\(height) is invalid")
            }
            guard width * height <= PNGDecoder.maxPixelCount else {
                throw .unsupportedPNG("image \(width)×\(height) is larger than \(PNGDecoder.maxPixelCount) pixels")
            }
            let allowed: [Int]
            switch colorType {
            case 0: allowed = [1, 2, 4, 8, 16]
            case 3: allowed = [1, 2, 4, 8]
            case 2, 4, 6: allowed = [8, 16]
            default: throw .invalidPNG("colour type \(colorType) does not exist")
            }
            guard allowed.contains(bitDepth) else {
                throw .invalidPNG("bit depth \(bitDepth) is not allowed for colour type \(colorType)")
            }
            guard c[10] == 0, c[11] == 0 else { throw .unsupportedPNG("compression or filter method is not 0") }
            guard c[12] == 0 else { throw .unsupportedPNG("interlaced (Adam7) images are not supported") }
        }
    }

    static func readBigEndian(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    /// Reverses the per-row filters (PNG §9.2) in place of a copy; returns `height × rowBytes` bytes.
    static func unfilter(_ data: [UInt8], rowBytes: Int, height: Int, bpp: Int) throws(MediaError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rowBytes * height)
        var badFilter: (row: Int, type: UInt8)?
        data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                let zeros = [UInt8](repeating: 0, count: rowBytes)
                zeros.withUnsafeBufferPointer { zero in
                    for y in 0..<height {
                        let type = src[y * (rowBytes + 1)]
                        let s = src.baseAddress! + y * (rowBytes + 1) + 1
                        let d = dst.baseAddress! + y * rowBytes
                        let up = y == 0 ? zero.baseAddress! : UnsafePointer(d - rowBytes)
                        switch type {
                        case 0:
                            for i in 0..<rowBytes { d[i] = s[i] }
                        case 1:
                            for i in 0..<rowBytes { d[i] = s[i] &+ (i >= bpp ? d[i - bpp] : 0) }
                        case 2:
                            for i in 0..<rowBytes { d[i] = s[i] &+ up[i] }
                        case 3:
                            for i in 0..<rowBytes {
                                let left = i >= bpp ? Int(d[i - bpp]) : 0
                                d[i] = s[i] &+ UInt8((left + Int(up[i])) >> 1)
                            }
                        case 4:
                            for i in 0..<rowBytes {
                                let a = i >= bpp ? d[i - bpp] : 0
                                let c = i >= bpp ? up[i - bpp] : 0
                                d[i] = s[i] &+ PNGEncoder.paeth(a, up[i], c)
                            }
                        default:
                            badFilter = (y, type)
                            return
                        }
                    }
                }
            }
        }
        if let badFilter { throw .invalidPNG("row \(badFilter.row) has unknown filter type \(badFilter.type)") }
        return out
    }

    /// Turns unfiltered rows into premultiplied ARGB pixels.
    static func expand(_ rows: [UInt8], header h: Header, rowBytes: Int, palette: [UInt32],
                       transparency: [UInt8]) throws(MediaError) -> PNGImage {
        var pixels = [UInt32](repeating: 0, count: h.width * h.height)
        let depth = h.bitDepth
        // Colour key from tRNS for grey/RGB (PNG §11.3.2.1), compared at full sample precision.
        var key: [Int]?
        if h.colorType == 0, transparency.count >= 2 { key = [Int(transparency[0]) << 8 | Int(transparency[1])] }
        if h.colorType == 2, transparency.count >= 6 {
            key = (0..<3).map { Int(transparency[2 * $0]) << 8 | Int(transparency[2 * $0 + 1]) }
        }
        var paletteARGB = palette
        for (i, alpha) in transparency.enumerated() where h.colorType == 3 && i < paletteARGB.count {
            paletteARGB[i] = paletteARGB[i] & 0x00FF_FFFF | UInt32(alpha) << 24
        }
        var badIndex: Int?
        rows.withUnsafeBufferPointer { src in
            for y in 0..<h.height {
                let row = src.baseAddress! + y * rowBytes
                // Sample `n` of this row at full precision (1…16 bits).
                func sample(_ n: Int) -> Int {
                    switch depth {
                    case 16: return Int(row[2 * n]) << 8 | Int(row[2 * n + 1])
                    case 8: return Int(row[n])
                    default:
                        let bit = n * depth
                        let byte = Int(row[bit >> 3])
                        return (byte >> (8 - depth - (bit & 7))) & ((1 << depth) - 1)
                    }
                }
                // Scales a sample to 8 bits.
                func eight(_ v: Int) -> UInt32 {
                    switch depth {
                    case 16: return UInt32(v >> 8)
                    case 8: return UInt32(v)
                    default: return UInt32(v * 255 / ((1 << depth) - 1))
                    }
                }
                for x in 0..<h.width {
                    var argb: UInt32
                    switch h.colorType {
                    case 0:
                        let g = sample(x)
                        let v = eight(g)
                        let a: UInt32 = key.map { $0[0] == g } == true ? 0 : 255
                        argb = a << 24 | v << 16 | v << 8 | v
                    case 2:
                        let r = sample(3 * x), g = sample(3 * x + 1), b = sample(3 * x + 2)
                        let a: UInt32 = key.map { $0 == [r, g, b] } == true ? 0 : 255
                        argb = a << 24 | eight(r) << 16 | eight(g) << 8 | eight(b)
                    case 3:
                        let index = sample(x)
                        guard index < paletteARGB.count else { badIndex = index; return }
                        argb = paletteARGB[index]
                    case 4:
                        let v = eight(sample(2 * x))
                        argb = eight(sample(2 * x + 1)) << 24 | v << 16 | v << 8 | v
                    default:
                        argb = eight(sample(4 * x + 3)) << 24 | eight(sample(4 * x)) << 16
                            | eight(sample(4 * x + 1)) << 8 | eight(sample(4 * x + 2))
                    }
                    pixels[y * h.width + x] = premultiply(argb)
                }
            }
        }
        if let badIndex { throw .invalidPNG("palette index \(badIndex) is outside the \(palette.count)-entry palette") }
        return PNGImage(width: h.width, height: h.height, pixels: pixels)
    }

    /// Straight ARGB → premultiplied ARGB with `p = round(c · a / 255)`.
    @inline(__always)
    static func premultiply(_ argb: UInt32) -> UInt32 {
        let a = argb >> 24
        if a == 255 { return argb }
        if a == 0 { return 0 }
        func mul(_ c: UInt32) -> UInt32 {
            let t = c * a + 128
            return (t + (t >> 8)) >> 8  // exact round(c·a/255) for c, a in 0…255
        }
        return a << 24 | mul((argb >> 16) & 0xFF) << 16 | mul((argb >> 8) & 0xFF) << 8 | mul(argb & 0xFF)
    }
}
