/// A frame of premultiplied ARGB pixels, row-major, top row first, stride == width.
///
/// Each pixel is a `UInt32` `0xAARRGGBB` whose colour channels are already multiplied by alpha.
/// In little-endian memory the bytes read B, G, R, A: what SDL's `SDL_PIXELFORMAT_ARGB8888`
/// texture and ffmpeg's `bgra` pixel format expect, so frames upload or encode without conversion.
/// Pixel `(x, y)` covers the square `[x, x+1) × [y, y+1)` in pixel space; its centre is `(x+0.5, y+0.5)`.
public struct PixelBuffer: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width · height` premultiplied `0xAARRGGBB` pixels, row by row.
    public var pixels: [UInt32]

    /// A buffer filled with `color` (transparent black by default).
    /// - Precondition: `width >= 0`, `height >= 0`.
    public init(width: Int, height: Int, color: Color = .transparent) {
        precondition(width >= 0 && height >= 0, "PixelBuffer size must not be negative")
        self.width = width
        self.height = height
        self.pixels = Array(repeating: color.premultipliedARGB, count: width * height)
    }

    /// The whole buffer as a rectangle.
    public var bounds: PixelRect { PixelRect(minX: 0, minY: 0, maxX: width, maxY: height) }

    /// Sets every pixel to `color` (no blending).
    public mutating func clear(to color: Color) {
        let value = color.premultipliedARGB
        pixels.withUnsafeMutableBufferPointer { $0.update(repeating: value) }
    }

    /// The packed premultiplied pixel at column `x`, row `y`.
    /// - Precondition: `0 <= x < width`, `0 <= y < height`.
    @inlinable
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel out of bounds")
        return pixels[y * width + x]
    }

    /// The straight colour at column `x`, row `y` (see ``Color/init(premultipliedARGB:)``).
    public func color(x: Int, y: Int) -> Color { Color(premultipliedARGB: pixel(x: x, y: y)) }

    /// Blends `color` over every pixel of `rect` (clipped to the buffer) with premultiplied source-over.
    public mutating func fill(_ rect: PixelRect, color: Color) {
        withView { $0.fill(rect, premultiplied: color.premultipliedARGB) }
    }

    /// Calls `body` with an unsafe view of the pixels, valid only during the call.
    @inlinable
    public mutating func withView<R>(_ body: (PixelBufferView) throws -> R) rethrows -> R {
        let w = width, h = height
        return try pixels.withUnsafeMutableBufferPointer { storage in
            try body(PixelBufferView(base: storage.baseAddress, width: w, height: h))
        }
    }
}
