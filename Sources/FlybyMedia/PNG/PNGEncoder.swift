/// Encodes premultiplied ARGB frames as PNG files (PNG specification, RFC 2083 / W3C PNG 2nd ed.).
///
/// The output is 8 bits per channel, non-interlaced:
/// - colour type 2 (**RGB**) when every pixel is opaque (alpha 255), which is the usual case for a
///   rendered map frame and saves a quarter of the data;
/// - colour type 6 (**RGBA**, straight alpha) otherwise. PNG stores un-premultiplied colour, so each
///   channel is un-premultiplied as `c = min(255, round(p · 255 / a))` (round half up); a pixel with
///   `a = 0` is written as 0,0,0,0.
///
/// ``PNGDecoder`` premultiplies back with `p = round(c · a / 255)`. For every *valid* premultiplied
/// pixel (each channel `p ≤ a`) the round trip gives the original pixel back exactly: the error of the
/// un-premultiplied value is at most ½, which scales back by `a/255 < 1` to less than ½. Channels
/// with `p > a` (not valid premultiplied data) are clamped.
///
/// The image data is filtered per row (PNG §6, filter method 0) with ``Filter`` and compressed with
/// zlib's deflate at ``compressionLevel``; chunk CRCs are zlib's `crc32`. An `sRGB` chunk (perceptual
/// intent) says the pixels are sRGB. The bytes depend only on the pixels and the options (and the
/// zlib build), never on time or memory addresses.
///
/// **Choice of defaults** (measured on a synthetic 1280×720 map-like frame — flat fills, blocks,
/// anti-aliased diagonal roads, a noisy label strip — release build, 2-core VM shared with other
/// jobs at load average 5–7, so times are ranges of medians over three runs;
/// `FLYBY_BENCH=1 swift test -c release --no-parallel --filter pngBenchmark`):
///
/// | filter, level | bytes | ms |
/// | --- | --- | --- |
/// | none, 6 | 31 013 | 31–44 |
/// | sub, 6 | 28 109 | 31–34 |
/// | **up, 6 (default)** | **20 193** | **18–46** |
/// | paeth, 6 | 21 482 | 40–60 |
/// | adaptive (min. sum of abs.), 6 | 27 417 | 48–97 |
/// | up, 1 | 37 870 | 7–23 |
/// | up, 9 | 19 522 | 56–105 |
///
/// Map frames are dominated by flat areas and long horizontal runs, where *Up* turns whole rows
/// into zeros; the classic adaptive heuristic picks worse filters here at about twice the cost.
/// Converting and filtering take 0.7–1.9 ms; deflate is the rest. For long frame sequences,
/// level 1 is 2–3× faster for about 1.9× the bytes. The `Z_FILTERED` strategy was within noise
/// (slightly larger); `Z_RLE` gave 5× larger files.
public struct PNGEncoder: Sendable {
    /// The PNG row filter (PNG §9.2). `adaptive` tries all five per row and keeps the one with the
    /// smallest sum of absolute signed byte values (the heuristic suggested in PNG §12.8).
    public enum Filter: Sendable, CaseIterable, CustomStringConvertible {
        case none, sub, up, average, paeth, adaptive

        public var description: String {
            switch self {
            case .none: "none"
            case .sub: "sub"
            case .up: "up"
            case .average: "average"
            case .paeth: "paeth"
            case .adaptive: "adaptive"
            }
        }
    }

    /// How deflate searches for matches (zlib's `strategy`).
    public enum Strategy: Sendable, CaseIterable, CustomStringConvertible {
        /// `Z_DEFAULT_STRATEGY`.
        case standard
        /// `Z_FILTERED`: favours Huffman coding of small values, meant for filtered image data.
        case filtered
        /// `Z_RLE`: matches at distance 1 only; fastest, weaker on repeated patterns.
        case rle

        var zlib: ZlibStrategy {
            switch self {
            case .standard: .defaultStrategy
            case .filtered: .filtered
            case .rle: .rle
            }
        }

        public var description: String {
            switch self {
            case .standard: "standard"
            case .filtered: "filtered"
            case .rle: "rle"
            }
        }
    }

    /// zlib compression level, 0 (store) … 9 (smallest, slowest). Values outside are clamped.
    public var compressionLevel: Int
    /// Row filter.
    public var filter: Filter
    /// Deflate strategy.
    public var strategy: Strategy

    /// Creates an encoder. The defaults are a good size/speed balance for map frames.
    public init(compressionLevel: Int = 6, filter: Filter = .up, strategy: Strategy = .standard) {
        self.compressionLevel = compressionLevel
        self.filter = filter
        self.strategy = strategy
    }

    /// The 8-byte PNG signature (PNG §5.2).
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Encodes `pixels` (row-major, top row first, premultiplied ARGB `0xAARRGGBB`) as PNG bytes.
    /// - Parameters:
    ///   - pixels: exactly `width × height` pixels.
    ///   - width: image width in pixels, 1 … 2³¹−1.
    ///   - height: image height in pixels, 1 … 2³¹−1.
    /// - Returns: the complete PNG file.
    /// - Throws: ``MediaError/invalidArgument(_:)`` for bad sizes, ``MediaError/zlib(function:code:message:)``
    ///   if compression fails.
    public func encode(pixels: [UInt32], width: Int, height: Int) throws(MediaError) -> [UInt8] {
        var result: Result<[UInt8], MediaError> = .success([])
        pixels.withUnsafeBufferPointer { buffer in
            result = Result { () throws(MediaError) in try encode(pixels: buffer, width: width, height: height) }
        }
        return try result.get()
    }

    /// Encodes `pixels` (row-major, top row first, premultiplied ARGB `0xAARRGGBB`) as PNG bytes.
    /// See ``encode(pixels:width:height:)-(([UInt32],_,_)``.
    public func encode(pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int) throws(MediaError) -> [UInt8] {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .invalidArgument("PNG size \(width)×\(height) must be between 1 and 2^31-1 on each side")
        }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count == pixels.count else {
            throw .invalidArgument("PNG \(width)×\(height) needs \(width * height) pixels, got \(pixels.count)")
        }
        let opaque = PNGEncoder.isOpaque(pixels)
        let channels = opaque ? 3 : 4
        let filtered = PNGEncoder.filterImage(pixels, width: width, height: height, channels: channels, filter: filter)
        let level = Int32(min(max(compressionLevel, 0), 9))
        let compressed = try withBytes(filtered) { raw throws(MediaError) in
            try zlibDeflate(raw, level: level, strategy: strategy.zlib)
        }

        var out: [UInt8] = []
        out.reserveCapacity(compressed.count + 128)
        out += PNGEncoder.signature
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, opaque ? 2 : 6, 0, 0, 0]  // depth, colour type, compression, filter, interlace
        PNGEncoder.appendChunk("IHDR", header, to: &out)
        PNGEncoder.appendChunk("sRGB", [0], to: &out)
        // One IDAT chunk per 1 MiB keeps chunk lengths far below the 2^31−1 limit.
        var start = 0
        repeat {
            let end = min(start + (1 << 20), compressed.count)
            PNGEncoder.appendChunk("IDAT", compressed[start..<end], to: &out)
            start = end
        } while start < compressed.count
        PNGEncoder.appendChunk("IEND", [], to: &out)
        return out
    }

    static func isOpaque(_ pixels: UnsafeBufferPointer<UInt32>) -> Bool {
        var all: UInt32 = 0xFF00_0000
        for p in pixels { all &= p }
        return all == 0xFF00_0000
    }

    /// Appends one chunk: length, type, data, CRC-32 over type and data (PNG §5.3).
    static func appendChunk(_ type: String, _ data: some Collection<UInt8>, to out: inout [UInt8]) {
        out.appendBigEndian(UInt32(data.count))
        let typeStart = out.count
        out += Array(type.utf8)
        out += data
        let crc = out[typeStart...].withUnsafeBytes { zlibCRC32(0, $0) }
        out.appendBigEndian(crc)
    }

    /// Converts pixels to 8-bit RGB(A) rows and filters them: `height × (1 + width·channels)` bytes,
    /// each row led by its filter-type byte.
    static func filterImage(_ pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int, channels: Int,
                            filter: Filter) -> [UInt8] {
        let rowBytes = width * channels
        let stride = rowBytes + 1
        var out = [UInt8](repeating: 0, count: height * stride)
        // Two raw rows (previous, current) plus, for adaptive, one candidate row per filter.
        var rows = [UInt8](repeating: 0, count: 2 * rowBytes + (filter == .adaptive ? rowBytes : 0))
        rows.withUnsafeMutableBufferPointer { scratch in
            out.withUnsafeMutableBufferPointer { dst in
                let base = scratch.baseAddress!
                var prev = base
                var cur = base + rowBytes
                let trial = base + 2 * rowBytes
                for y in 0..<height {
                    let src = pixels.baseAddress! + y * width
                    if channels == 3 {
                        convertOpaqueRow(src, width: width, into: cur)
                    } else {
                        convertTranslucentRow(src, width: width, into: cur)
                    }
                    let row = dst.baseAddress! + y * stride
                    if filter == .adaptive {
                        var bestType: UInt8 = 0
                        var bestCost = Int.max
                        for type: UInt8 in 0...4 {
                            applyFilter(type, cur: cur, prev: prev, count: rowBytes, bpp: channels, into: trial)
                            let cost = signedCost(trial, rowBytes)
                            if cost < bestCost { bestCost = cost; bestType = type }
                        }
                        row[0] = bestType
                        applyFilter(bestType, cur: cur, prev: prev, count: rowBytes, bpp: channels, into: row + 1)
                    } else {
                        let type = filterType(filter)
                        row[0] = type
                        applyFilter(type, cur: cur, prev: prev, count: rowBytes, bpp: channels, into: row + 1)
                    }
                    swap(&prev, &cur)
                }
            }
        }
        return out
    }

    static func filterType(_ filter: Filter) -> UInt8 {
        switch filter {
        case .none: 0
        case .sub: 1
        case .up: 2
        case .average: 3
        case .paeth, .adaptive: 4
        }
    }

    /// Sum of |byte as Int8|: the "minimum sum of absolute differences" cost of PNG §12.8.
    static func signedCost(_ row: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        var cost = 0
        for i in 0..<count {
            let v = Int(Int8(bitPattern: row[i]))
            cost &+= v < 0 ? -v : v
        }
        return cost
    }

    /// Writes filter `type` (PNG §9.2) of the raw row `cur` (with `prev` the raw row above, zeros for
    /// the first row) into `out`. `bpp` is the number of bytes per complete pixel.
    static func applyFilter(_ type: UInt8, cur: UnsafeMutablePointer<UInt8>, prev: UnsafeMutablePointer<UInt8>,
                            count: Int, bpp: Int, into out: UnsafeMutablePointer<UInt8>) {
        switch type {
        case 0:
            out.update(from: cur, count: count)
        case 1:
            for i in 0..<min(bpp, count) { out[i] = cur[i] }
            for i in bpp..<max(count, bpp) { out[i] = cur[i] &- cur[i - bpp] }
        case 2:
            for i in 0..<count { out[i] = cur[i] &- prev[i] }
        case 3:
            for i in 0..<count {
                let left = i >= bpp ? Int(cur[i - bpp]) : 0
                out[i] = cur[i] &- UInt8((left + Int(prev[i])) >> 1)
            }
        default:
            for i in 0..<count {
                let a = i >= bpp ? cur[i - bpp] : 0
                let c = i >= bpp ? prev[i - bpp] : 0
                out[i] = cur[i] &- paeth(a, prev[i], c)
            }
        }
    }

    /// The Paeth predictor (PNG §9.4).
    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        if pb <= pc { return b }
        return c
    }

    static func convertOpaqueRow(_ src: UnsafePointer<UInt32>, width: Int, into dst: UnsafeMutablePointer<UInt8>) {
        var o = dst
        for x in 0..<width {
            let p = src[x]
            o[0] = UInt8(truncatingIfNeeded: p >> 16)
            o[1] = UInt8(truncatingIfNeeded: p >> 8)
            o[2] = UInt8(truncatingIfNeeded: p)
            o += 3
        }
    }

    static func convertTranslucentRow(_ src: UnsafePointer<UInt32>, width: Int, into dst: UnsafeMutablePointer<UInt8>) {
        var o = dst
        for x in 0..<width {
            let p = src[x]
            let a = p >> 24
            if a == 255 {
                o[0] = UInt8(truncatingIfNeeded: p >> 16)
                o[1] = UInt8(truncatingIfNeeded: p >> 8)
                o[2] = UInt8(truncatingIfNeeded: p)
                o[3] = 255
            } else if a == 0 {
                o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0
            } else {
                o[0] = unpremultiply((p >> 16) & 0xFF, a)
                o[1] = unpremultiply((p >> 8) & 0xFF, a)
                o[2] = unpremultiply(p & 0xFF, a)
                o[3] = UInt8(a)
            }
            o += 4
        }
    }

    /// `min(255, round(p · 255 / a))` for `a` in 1…254.
    @inline(__always)
    static func unpremultiply(_ p: UInt32, _ a: UInt32) -> UInt8 {
        UInt8(min(255, (p * 255 + a / 2) / a))
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 24))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }
}
