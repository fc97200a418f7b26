import CTurboJPEG

// Thin Swift wrappers over the libturbojpeg calls FlybyMedia uses (TurboJPEG API 2, `turbojpeg.h`):
// one internal function per C call, each turning a failure into a `MediaError.invalidImage` with
// the library's message. Nothing else in the module calls CTurboJPEG directly.

/// A TurboJPEG decompressor handle, destroyed with the value (`tjInitDecompress` / `tjDestroy`).
final class TurboJPEGDecompressor {
    let handle: tjhandle

    /// A new decompressor. The corresponding TurboJPEG function is `tjInitDecompress`.
    /// - Throws: ``MediaError/invalidImage(_:)`` when the library cannot make one (out of memory).
    init() throws(MediaError) {
        guard let h = tjInitDecompress() else { throw .invalidImage("JPEG: cannot start the decompressor") }
        handle = h
    }

    deinit { tjDestroy(handle) }

    /// The last error's text. The corresponding TurboJPEG function is `tjGetErrorStr2`.
    func errorText() -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }

    /// The width and height of a JPEG image from its headers. The corresponding TurboJPEG function
    /// is `tjDecompressHeader3`.
    /// - Throws: ``MediaError/invalidImage(_:)`` with the library's message for corrupt headers.
    func header(_ bytes: UnsafeRawBufferPointer) throws(MediaError) -> (width: Int, height: Int) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw .invalidImage("JPEG: no data") }
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, base.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), &w, &h,
                                  &subsampling, &colorspace) == 0, w > 0, h > 0 else {
            throw .invalidImage("JPEG: \(errorText())")
        }
        return (Int(w), Int(h))
    }

    /// Decodes a JPEG image into `output` as RGBA bytes (alpha 255), `width × 4` bytes a row.
    /// The corresponding TurboJPEG function is `tjDecompress2`.
    /// - Precondition: `output` holds `width × height × 4` bytes for the size ``header(_:)`` gave.
    /// - Throws: ``MediaError/invalidImage(_:)`` with the library's message for corrupt data
    ///   (warnings, e.g. a truncated scan, count as errors: `TJFLAG_STOPONWARNING`).
    func decodeRGBA(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, width: Int, height: Int) throws(MediaError) {
        guard let base = bytes.baseAddress, let out = output.baseAddress else { throw .invalidImage("JPEG: no data") }
        let flags = Int32(TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING)
        guard tjDecompress2(handle, base.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), out.assumingMemoryBound(to: UInt8.self),
                            Int32(width), Int32(width * 4), Int32(height), Int32(TJPF_RGBA.rawValue), flags) == 0 else {
            throw .invalidImage("JPEG: \(errorText())")
        }
    }
}
