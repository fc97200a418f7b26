import CZlib

// Thin Swift wrappers over the zlib C calls FlybyMedia uses: one internal function per C call,
// each turning a failing return code into a `MediaError.zlib`. Nothing else in the module calls
// CZlib directly.

/// zlib's CRC-32 (ISO 3309 / ITU-T V.42, the CRC that PNG chunks use) of `bytes`, continuing from
/// `crc` (start with 0). The corresponding zlib function is `crc32`.
func zlibCRC32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
    var result = UInt(crc)
    var start = base.assumingMemoryBound(to: UInt8.self)
    var remaining = bytes.count
    // crc32 takes a uInt (32-bit) length: feed very large buffers in slices.
    while remaining > 0 {
        let n = min(remaining, 1 << 30)
        result = crc32(result, start, uInt(n))
        start += n
        remaining -= n
    }
    return UInt32(truncatingIfNeeded: result)
}

/// The largest size `deflate` can produce for `sourceLength` input bytes with default parameters.
/// The corresponding zlib function is `compressBound`.
func zlibCompressBound(_ sourceLength: Int) -> Int {
    Int(compressBound(uLong(sourceLength)))
}

/// zlib's `deflate` strategy (how matches are searched); see zlib.h.
enum ZlibStrategy: Int32 {
    case defaultStrategy = 0  // Z_DEFAULT_STRATEGY
    case filtered = 1  // Z_FILTERED
    case huffmanOnly = 2  // Z_HUFFMAN_ONLY
    case rle = 3  // Z_RLE
}

private func zlibMessage(_ stream: z_stream, _ code: Int32) -> String {
    if let msg = stream.msg { return String(cString: msg) }
    if let text = zError(code) { return String(cString: text) }
    return "unknown error"
}

/// Compresses `input` into a complete zlib stream (RFC 1950 header, deflate data, Adler-32) in one
/// call, with the given level (0–9) and strategy. Deterministic for a given zlib build.
/// The corresponding zlib functions are `deflateInit2_`, `deflate` and `deflateEnd`.
func zlibDeflate(_ input: UnsafeRawBufferPointer, level: Int32, strategy: ZlibStrategy) throws(MediaError) -> [UInt8] {
    var stream = z_stream()
    let initCode = deflateInit2_(&stream, level, Z_DEFLATED, 15, 8, strategy.rawValue,
                                 zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    guard initCode == Z_OK else {
        throw .zlib(function: "deflateInit2_", code: initCode, message: zlibMessage(stream, initCode))
    }
    defer { deflateEnd(&stream) }
    let bound = Int(deflateBound(&stream, uLong(input.count)))
    var output = [UInt8](repeating: 0, count: bound)
    let (code, produced) = pumpZlib(&stream, input: input, output: &output, stopWhenInputEnds: false) { s, lastInput in
        deflate(&s, lastInput ? Z_FINISH : Z_NO_FLUSH)
    }
    guard code == Z_STREAM_END else {
        throw .zlib(function: "deflate", code: code, message: zlibMessage(stream, code))
    }
    output.removeLast(output.count - produced)
    return output
}

/// Inflates the zlib stream `input` into exactly `outputCount` bytes. Throws when the stream is
/// corrupt, yields fewer than `outputCount` bytes, or yields more. A stream that yields exactly
/// `outputCount` bytes but lacks its final Adler-32 is accepted (as most PNG readers do).
/// The corresponding zlib functions are `inflateInit_`, `inflate` and `inflateEnd`.
func zlibInflate(_ input: UnsafeRawBufferPointer, outputCount: Int) throws(MediaError) -> [UInt8] {
    var stream = z_stream()
    let initCode = inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    guard initCode == Z_OK else {
        throw .zlib(function: "inflateInit_", code: initCode, message: zlibMessage(stream, initCode))
    }
    defer { inflateEnd(&stream) }
    // One spare byte detects a stream that is longer than the image needs.
    var output = [UInt8](repeating: 0, count: outputCount + 1)
    let (code, produced) = pumpZlib(&stream, input: input, output: &output, stopWhenInputEnds: true) { s, _ in
        inflate(&s, Z_NO_FLUSH)
    }
    if produced > outputCount {
        throw .invalidPNG("image data is longer than the image size requires")
    }
    if code != Z_OK && code != Z_STREAM_END && code != Z_BUF_ERROR {
        throw .zlib(function: "inflate", code: code, message: zlibMessage(stream, code))
    }
    guard produced == outputCount else {
        throw .invalidPNG("image data is truncated: \(produced) of \(outputCount) bytes")
    }
    output.removeLast()
    return output
}

/// Feeds `input` through `step` (one deflate or inflate call) into `output`, in chunks, because
/// zlib's `avail_in`/`avail_out` are 32-bit: inputs over 4 GiB still work. `step` gets whether the
/// chunk holds the last of the input. Returns the last zlib code and the bytes produced.
private func pumpZlib(_ stream: inout z_stream, input: UnsafeRawBufferPointer, output: inout [UInt8], stopWhenInputEnds: Bool,
                      step: (inout z_stream, Bool) -> Int32) -> (code: Int32, produced: Int) {
    var code: Int32 = Z_OK
    var produced = 0
    output.withUnsafeMutableBufferPointer { out in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.next_out = out.baseAddress
        var inputLeft = input.count
        var outputLeft = out.count
        repeat {
            let inChunk = min(inputLeft, Int(UInt32.max))
            let outChunk = min(outputLeft, Int(UInt32.max))
            stream.avail_in = uInt(inChunk)
            stream.avail_out = uInt(outChunk)
            code = step(&stream, inputLeft == inChunk)
            inputLeft -= inChunk - Int(stream.avail_in)
            outputLeft -= outChunk - Int(stream.avail_out)
        } while code == Z_OK && outputLeft > 0 && (!stopWhenInputEnds || inputLeft > 0)
        produced = out.count - outputLeft
    }
    return (code, produced)
}
