import CZlib

// Thin wrappers over the zlib calls FlybyTiles uses (one function per C call site, errors turned
// into `DecompressionError` here). FlybyTiles does not reuse FlybyMedia's `zlibInflate`: that one
// is internal and inflates to an exact, known size (PNG rows), while tiles need gzip headers and
// an open-ended size with a bound. Depending on FlybyMedia only for this would tie the vector
// decoder to the video and PNG code; raster tiles may add that dependency when they need its
// PNG decoder.

extension Decompressor {
    /// Inflates a gzip (RFC 1952) or zlib (RFC 1950) stream — zlib detects which from the header
    /// (`inflateInit2_` with window bits 15 + 32) — into at most `limit` bytes. Concatenated gzip
    /// members are read one after another.
    /// The corresponding zlib functions are `inflateInit2_`, `inflate`, `inflateReset` and `inflateEnd`.
    static func gzipInflate(_ input: [UInt8], limit: Int) throws(DecompressionError) -> [UInt8] {
        var stream = z_stream()
        let initCode = inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initCode == Z_OK else { throw DecompressionError("gzip: inflateInit2_ failed (\(initCode))") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(chunk, limit + 1))
        var failure: DecompressionError?
        input.withUnsafeBufferPointer { inp in
            stream.next_in = UnsafeMutablePointer(mutating: inp.baseAddress)
            stream.avail_in = uInt(inp.count)
            chunk.withUnsafeMutableBufferPointer { buf in
                while true {
                    stream.next_out = buf.baseAddress
                    stream.avail_out = uInt(buf.count)
                    let code = inflate(&stream, Z_NO_FLUSH)
                    let produced = buf.count - Int(stream.avail_out)
                    if output.count + produced > limit { failure = limitError("gzip", limit); return }
                    output.append(contentsOf: buf[0..<produced])
                    if code == Z_STREAM_END {
                        // Another gzip member may follow (RFC 1952 §2.2).
                        if stream.avail_in > 0, stream.next_in[0] == 0x1F { inflateReset(&stream); continue }
                        return
                    }
                    if code == Z_BUF_ERROR && stream.avail_in == 0 { failure = DecompressionError("gzip data is truncated"); return }
                    if code != Z_OK {
                        let detail = stream.msg.map { String(cString: $0) } ?? "error \(code)"
                        failure = DecompressionError("gzip data is corrupt (\(detail))"); return
                    }
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}
