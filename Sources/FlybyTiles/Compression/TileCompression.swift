/// How tile or directory bytes are compressed (PMTiles v3 §3.3 codes; MBTiles and folders are
/// detected from the bytes).
public enum TileCompression: String, Sendable {
    case none, gzip, brotli, zstd
    /// PMTiles code 0: the writer did not say. Bytes are then sniffed (gzip magic or plain).
    case unknown

    /// PMTiles v3 compression code (§3.3): 0 unknown, 1 none, 2 gzip, 3 brotli, 4 zstd.
    public init?(pmtilesCode: UInt8) {
        switch pmtilesCode {
        case 0: self = .unknown
        case 1: self = .none
        case 2: self = .gzip
        case 3: self = .brotli
        case 4: self = .zstd
        default: return nil
        }
    }

    /// True when `bytes` start with the gzip magic 1F 8B (RFC 1952 §2.3.1).
    public static func isGzip(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B }
}

/// A decompression failure: corrupt or truncated data, or output past the limit (a "bomb").
public struct DecompressionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Decompresses tile and directory bytes with a bound on the output, so a small input cannot
/// make the reader allocate without limit.
public enum Decompressor {
    /// Default bound on the inflated size of one tile: 64 MiB (real vector tiles are well under
    /// 1 MiB inflated; MapLibre refuses far less).
    public static let defaultLimit = 64 << 20

    /// The bytes of `data` decompressed as `compression` says, at most `limit` bytes.
    /// `.unknown` inflates gzip data (by its magic) and passes anything else through.
    public static func decompress(_ data: [UInt8], _ compression: TileCompression, limit: Int = defaultLimit) throws(DecompressionError) -> [UInt8] {
        switch compression {
        case .none:
            guard data.count <= limit else { throw DecompressionError("\(data.count) bytes, more than the limit of \(limit >> 20) MiB") }
            return data
        case .unknown:
            return TileCompression.isGzip(data) ? try gzipInflate(data, limit: limit) : try decompress(data, .none, limit: limit)
        case .gzip: return try gzipInflate(data, limit: limit)
        case .brotli: return try brotliDecompress(data, limit: limit)
        case .zstd: return try zstdDecompress(data, limit: limit)
        }
    }

    /// The chunk by which output buffers grow: output memory is at most the bytes produced plus
    /// one chunk, never `limit` up front.
    static let chunk = 64 << 10

    static func limitError(_ what: String, _ limit: Int) -> DecompressionError {
        DecompressionError("\(what) data inflates past the limit of \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit) bytes")")
    }
}
