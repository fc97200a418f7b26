import CBrotli

extension Decompressor {
    /// Decompresses a brotli stream (RFC 7932) into at most `limit` bytes, chunk by chunk.
    /// The corresponding libbrotlidec functions are `BrotliDecoderCreateInstance`,
    /// `BrotliDecoderDecompressStream` and `BrotliDecoderDestroyInstance`.
    static func brotliDecompress(_ input: [UInt8], limit: Int) throws(DecompressionError) -> [UInt8] {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else { throw DecompressionError("brotli: cannot create a decoder") }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(chunk, limit + 1))
        var failure: DecompressionError?
        input.withUnsafeBufferPointer { inp in
            var nextIn = inp.baseAddress
            var availIn = inp.count
            chunk.withUnsafeMutableBufferPointer { buf in
                while true {
                    var nextOut = buf.baseAddress
                    var availOut = buf.count
                    let result = BrotliDecoderDecompressStream(decoder, &availIn, &nextIn, &availOut, &nextOut, nil)
                    let produced = buf.count - availOut
                    if output.count + produced > limit { failure = limitError("brotli", limit); return }
                    output.append(contentsOf: buf[0..<produced])
                    switch result {
                    case BROTLI_DECODER_RESULT_SUCCESS: return
                    case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                    case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: failure = DecompressionError("brotli data is truncated"); return
                    default:
                        let code = BrotliDecoderGetErrorCode(decoder)
                        let text = BrotliDecoderErrorString(code).map { String(cString: $0) } ?? "error"
                        failure = DecompressionError("brotli data is corrupt (\(text))"); return
                    }
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}
