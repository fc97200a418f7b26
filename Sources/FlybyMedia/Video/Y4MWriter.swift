/// Writes frames as a YUV4MPEG2 (`.y4m`) stream: uncompressed 8-bit Y′CbCr that ffmpeg, mpv, x264
/// and most encoders read directly.
///
/// **Format choices** (the Y4M header cannot say which matrix or range is used, so they are fixed
/// and documented here):
/// - Chroma: ``Chroma/c420jpeg`` by default — 4:2:0 with chroma sited at the centre of each 2×2
///   block (JPEG/MPEG-1 siting), each chroma sample the rounded mean of its 2×2 block (odd edges
///   repeat the last column/row). This is what H.264 `yuv420p` takes, at half the size of 4:4:4.
///   ``Chroma/c444`` keeps full-resolution chroma (no colour bleeding on thin lines).
/// - Matrix: ``Matrix/bt709`` by default (the matrix players assume for HD sizes such as 1280×720),
///   or ``Matrix/bt601``; always **limited ("studio") range**: Y′ in 16…235, Cb/Cr in 16…240, and
///   the header carries `XCOLORRANGE=LIMITED`.
/// - Arithmetic: integer, with coefficients `round(k · 2¹⁶)` from ITU-R BT.601-7 / BT.709-6
///   (Kr, Kb = 0.299, 0.114 / 0.2126, 0.0722), rounding half up. White → (235, 128, 128),
///   black → (16, 128, 128), pure red → (81, 90, 240) in BT.601 and (63, 102, 240) in BT.709.
/// - Alpha is dropped: the premultiplied colour is used as is, i.e. translucent pixels appear over
///   black (the same as ffmpeg's `bgra` input path).
///
/// The file is written through ``AtomicFileWriter``: it appears under its name only after
/// ``finish()``.
public final class Y4MWriter: FrameSink {
    /// Chroma subsampling of the stream.
    public enum Chroma: Sendable {
        /// 4:2:0, chroma centred in each 2×2 block (`C420jpeg`).
        case c420jpeg
        /// 4:4:4, no subsampling (`C444`).
        case c444
    }

    /// The Y′CbCr matrix (always limited range).
    public enum Matrix: Sendable {
        case bt601
        case bt709

        /// Rows Y′, Cb, Cr; each entry is the coefficient for R, G, B scaled by 2¹⁶ and by the
        /// limited-range scale (219/255 for Y′, 224/255 for Cb, Cr). Chroma rows sum to 0 so grey
        /// maps exactly to 128.
        var coefficients: (y: SIMD3<Int>, cb: SIMD3<Int>, cr: SIMD3<Int>) {
            switch self {
            case .bt601: return ([16829, 33039, 6416], [-9714, -19070, 28784], [28784, -24103, -4681])
            case .bt709: return ([11966, 40254, 4064], [-6596, -22188, 28784], [28784, -26145, -2639])
            }
        }
    }

    public let path: String
    public let width: Int, height: Int
    public let chroma: Chroma
    public let matrix: Matrix
    private let file: AtomicFileWriter
    private var buffer: [UInt8]
    private var finished = false

    /// Opens the stream and writes its header.
    /// - Parameters:
    ///   - path: the `.y4m` file to create (its folder must exist).
    ///   - width: frame width in pixels (> 0).
    ///   - height: frame height in pixels (> 0).
    ///   - fps: frames per second as a fraction `numerator / denominator`, e.g. `(60, 1)`.
    public init(path: String, width: Int, height: Int, fps: (numerator: Int, denominator: Int) = (60, 1),
                chroma: Chroma = .c420jpeg, matrix: Matrix = .bt709) throws(MediaError) {
        guard width > 0, height > 0 else { throw .invalidArgument("frame size \(width)×\(height) must be positive") }
        guard fps.numerator > 0, fps.denominator > 0 else {
            throw .invalidArgument("frame rate \(fps.numerator)/\(fps.denominator) must be positive")
        }
        self.path = path
        self.width = width
        self.height = height
        self.chroma = chroma
        self.matrix = matrix
        buffer = []
        file = try AtomicFileWriter(path: path)
        try file.write(Array(Y4MWriter.header(width: width, height: height, fps: fps, chroma: chroma).utf8))
    }

    deinit {
        if !finished { file.discard() }
    }

    /// The stream header line, e.g. `YUV4MPEG2 W1280 H720 F60:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n`.
    public static func header(width: Int, height: Int, fps: (numerator: Int, denominator: Int),
                              chroma: Chroma) -> String {
        let c = chroma == .c420jpeg ? "C420jpeg XYSCSS=420JPEG" : "C444 XYSCSS=444"
        return "YUV4MPEG2 W\(width) H\(height) F\(fps.numerator):\(fps.denominator) Ip A1:1 \(c) XCOLORRANGE=LIMITED\n"
    }

    /// Size in bytes of one frame's planes (without the `FRAME\n` marker).
    public static func planeBytes(width: Int, height: Int, chroma: Chroma) -> Int {
        switch chroma {
        case .c444: return 3 * width * height
        case .c420jpeg: return width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
        }
    }

    public func write(frame: UnsafeBufferPointer<UInt32>, index: Int) throws(MediaError) {
        try checkFrame(frame, width: width, height: height)
        Y4MWriter.convert(frame, width: width, height: height, chroma: chroma, matrix: matrix, into: &buffer)
        try file.write(Array("FRAME\n".utf8))
        try file.write(buffer)
    }

    public func finish() throws(MediaError) {
        guard !finished else { return }
        finished = true
        try file.commit()
    }

    public func cancel() {
        guard !finished else { return }
        finished = true
        file.discard()
    }

    /// Converts one premultiplied ARGB frame to planar Y′, Cb, Cr bytes (see the type's notes).
    /// `out` is resized to ``planeBytes(width:height:chroma:)``.
    public static func convert(_ frame: UnsafeBufferPointer<UInt32>, width: Int, height: Int, chroma: Chroma,
                               matrix: Matrix, into out: inout [UInt8]) {
        precondition(frame.count == width * height, "frame size does not match width × height")
        let total = planeBytes(width: width, height: height, chroma: chroma)
        if out.count != total { out = [UInt8](repeating: 0, count: total) }
        let (ky, kb, kr) = matrix.coefficients
        // Plain scalar Int math: assembling a SIMD3 per pixel was 4× slower (house style §3.8).
        // Wrapping operators: every sum is below 2^26 (coefficients under 2^16 times 4 · 255),
        // so they never wrap, and the loops carry no overflow checks.
        let (yr, yg, yb) = (ky.x, ky.y, ky.z)
        let (br, bg, bb) = (kb.x, kb.y, kb.z)
        let (rr, rg, rb) = (kr.x, kr.y, kr.z)
        out.withUnsafeMutableBufferPointer { dst in
            let yPlane = dst.baseAddress!
            let px = frame.baseAddress!
            let count = width * height
            // Luma in 32-bit lanes (every sum is below 2^26), which the compiler vectorises.
            let (yr32, yg32, yb32) = (UInt32(yr), UInt32(yg), UInt32(yb))
            for i in 0..<count {
                let p = px[i]
                let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                yPlane[i] = UInt8(truncatingIfNeeded: 16 &+ ((yr32 &* r &+ yg32 &* g &+ yb32 &* b &+ 32768) >> 16))
            }
            switch chroma {
            case .c444:
                let cb = yPlane + count, cr = cb + count
                for i in 0..<count {
                    let p = px[i]
                    let r = Int((p >> 16) & 0xFF), g = Int((p >> 8) & 0xFF), b = Int(p & 0xFF)
                    cb[i] = UInt8(truncatingIfNeeded: 128 &+ ((br &* r &+ bg &* g &+ bb &* b &+ 32768) >> 16))
                    cr[i] = UInt8(truncatingIfNeeded: 128 &+ ((rr &* r &+ rg &* g &+ rb &* b &+ 32768) >> 16))
                }
            case .c420jpeg:
                let cw = (width + 1) / 2, ch = (height + 1) / 2
                let cb = yPlane + count, cr = cb + cw * ch
                // 32-bit lanes again (|sum| < 2^25), no overflow checks.
                let (br32, bg32, bb32) = (Int32(br), Int32(bg), Int32(bb)), (rr32, rg32, rb32) = (Int32(rr), Int32(rg), Int32(rb))
                for cy in 0..<ch {
                    let row0 = px + (2 &* cy) &* width
                    let row1 = px + min(2 &* cy &+ 1, height &- 1) &* width
                    let cbRow = cb + cy &* cw, crRow = cr + cy &* cw
                    // The 2×2 block at column x0 (x1 = x0 + 1, or x0 itself at an odd width's last column).
                    @inline(__always) func block(_ cx: Int, _ x0: Int, _ x1: Int) {
                        let p0 = row0[x0], p1 = row0[x1], p2 = row1[x0], p3 = row1[x1]
                        // Channel sums of the 2×2 block (the mean's scale, 4, goes into the shift).
                        let r = Int32(truncatingIfNeeded: ((p0 >> 16) & 0xFF) &+ ((p1 >> 16) & 0xFF) &+ ((p2 >> 16) & 0xFF) &+ ((p3 >> 16) & 0xFF))
                        let g = Int32(truncatingIfNeeded: ((p0 >> 8) & 0xFF) &+ ((p1 >> 8) & 0xFF) &+ ((p2 >> 8) & 0xFF) &+ ((p3 >> 8) & 0xFF))
                        let b = Int32(truncatingIfNeeded: (p0 & 0xFF) &+ (p1 & 0xFF) &+ (p2 & 0xFF) &+ (p3 & 0xFF))
                        cbRow[cx] = UInt8(truncatingIfNeeded: 128 &+ ((br32 &* r &+ bg32 &* g &+ bb32 &* b &+ 131072) >> 18))
                        crRow[cx] = UInt8(truncatingIfNeeded: 128 &+ ((rr32 &* r &+ rg32 &* g &+ rb32 &* b &+ 131072) >> 18))
                    }
                    let pairs = width / 2
                    for cx in 0..<pairs { block(cx, 2 &* cx, 2 &* cx &+ 1) }
                    if pairs < cw { block(pairs, width &- 1, width &- 1) }
                }
            }
        }
    }
}
