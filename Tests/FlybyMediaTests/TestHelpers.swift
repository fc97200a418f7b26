import Foundation
@_exported import FlybyTestSupport
import FlybyCore

/// A fresh empty folder under the system temporary folder.
func makeTemporaryFolder(_ label: String = #function) throws -> String {
    let base = FileManager.default.temporaryDirectory.path
    let safe = label.filter { $0.isLetter || $0.isNumber }
    var template = Array("\(base)/flyby-media-\(safe)-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw CocoaError(.fileWriteUnknown)
    }
    return String(cString: made)
}

/// Names in a folder, sorted.
func folderContents(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}



/// Bitwise CRC-32 (polynomial 0xEDB88320, reflected), written from the PNG spec's description and
/// independent of zlib.
func referenceCRC32<C: Collection<UInt8>>(_ bytes: C) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        crc ^= UInt32(b)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// A map-like test frame: flat background, filled blocks, anti-aliased diagonal "roads" and a noisy
/// "label" area. Opaque.
func mapLikeFrame(width: Int, height: Int) -> [UInt32] {
    var pixels = [UInt32](repeating: 0xFFEE_EAE2, count: width * height)
    var rng = SplitMix64(seed: 42)
    for _ in 0..<40 {
        let x0 = Int(rng.next() % UInt64(width)), y0 = Int(rng.next() % UInt64(height))
        let w = 20 + Int(rng.next() % 200), h = 20 + Int(rng.next() % 120)
        let colour: UInt32 = [0xFFC8_E6C9, 0xFFAA_D3DF, 0xFFD9_D0C9, 0xFFF2_EFE9][Int(rng.next() % 4)]
        for y in y0..<min(height, y0 + h) { for x in x0..<min(width, x0 + w) { pixels[y * width + x] = colour } }
    }
    for r in 0..<12 {
        let slope = Double(r) * 0.3 - 1.5, offset = Double(r * 61 % height)
        for x in 0..<width {
            let yc = offset + slope * Double(x)
            for dy in -3...3 {
                let y = Int(yc) + dy
                guard y >= 0, y < height else { continue }
                let cover = max(0, 1 - abs(Double(y) - yc) / 3.5)
                let v = UInt32(255 - 60 * cover)
                pixels[y * width + x] = 0xFF00_0000 | v << 16 | v << 8 | UInt32(255 - 120 * cover)
            }
        }
    }
    for y in (height / 2)..<min(height, height / 2 + 14) {
        for x in (width / 3)..<min(width, width / 3 + 160) where rng.next() % 3 == 0 {
            pixels[y * width + x] = 0xFF33_3333
        }
    }
    return pixels
}
