import CZstd

extension Decompressor {
    /// Decompresses zstd frames (RFC 8878) into at most `limit` bytes, chunk by chunk (the frame's
    /// declared content size is not trusted).
    /// The corresponding libzstd functions are `ZSTD_createDCtx`, `ZSTD_decompressStream`,
    /// `ZSTD_isError`, `ZSTD_getErrorName` and `ZSTD_freeDCtx`.
    static func zstdDecompress(_ input: [UInt8], limit: Int) throws(DecompressionError) -> [UInt8] {
        guard let context = ZSTD_createDCtx() else { throw DecompressionError("zstd: cannot create a decoder") }
        defer { ZSTD_freeDCtx(context) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(chunk, limit + 1))
        var failure: DecompressionError?
        input.withUnsafeBufferPointer { inp in
            var inBuffer = ZSTD_inBuffer(src: inp.baseAddress, size: inp.count, pos: 0)
            chunk.withUnsafeMutableBufferPointer { buf in
                var lastHint = 1
                while true {
                    var outBuffer = ZSTD_outBuffer(dst: buf.baseAddress, size: buf.count, pos: 0)
                    let hint = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                    if ZSTD_isError(hint) != 0 {
                        failure = DecompressionError("zstd data is corrupt (\(String(cString: ZSTD_getErrorName(hint))))"); return
                    }
                    if output.count + outBuffer.pos > limit { failure = limitError("zstd", limit); return }
                    output.append(contentsOf: buf[0..<outBuffer.pos])
                    lastHint = hint
                    if hint == 0 && inBuffer.pos == inBuffer.size { return }
                    if outBuffer.pos < outBuffer.size && inBuffer.pos == inBuffer.size {
                        // All input consumed and the decoder still wants more: truncated frame.
                        if lastHint != 0 { failure = DecompressionError("zstd data is truncated"); return }
                        return
                    }
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}
