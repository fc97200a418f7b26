import CWebP

// Thin Swift wrappers over the libwebp calls FlybyMedia uses (libwebp's `decode.h`): one internal
// function per C call, each turning a failure into a `MediaError.invalidImage`. Nothing else in
// the module calls CWebP directly.

/// The width and height of a WebP image from its headers, without decoding it. The corresponding
/// libwebp function is `WebPGetInfo`.
/// - Throws: ``MediaError/invalidImage(_:)`` when the headers are not a WebP image's.
func webpInfo(_ bytes: UnsafeRawBufferPointer) throws(MediaError) -> (width: Int, height: Int) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { throw .invalidImage("WebP: no data") }
    var w: Int32 = 0, h: Int32 = 0
    guard WebPGetInfo(base.assumingMemoryBound(to: UInt8.self), bytes.count, &w, &h) != 0, w > 0, h > 0 else {
        throw .invalidImage("WebP: the headers are corrupt or not a WebP image's")
    }
    return (Int(w), Int(h))
}

/// Decodes a WebP image into `output` as straight (not premultiplied) RGBA bytes, rows of
/// `stride` bytes. The corresponding libwebp function is `WebPDecodeRGBAInto`.
/// - Precondition: `output` holds at least `stride × height` bytes for the height `webpInfo` gave.
/// - Throws: ``MediaError/invalidImage(_:)`` when the image data is corrupt or truncated.
func webpDecodeRGBA(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, stride: Int) throws(MediaError) {
    guard let base = bytes.baseAddress, let out = output.baseAddress else { throw .invalidImage("WebP: no data") }
    let result = WebPDecodeRGBAInto(base.assumingMemoryBound(to: UInt8.self), bytes.count,
                                    out.assumingMemoryBound(to: UInt8.self), output.count, Int32(stride))
    guard result != nil else { throw .invalidImage("WebP: the image data is corrupt or truncated") }
}
