import FlybyData

/// The chunks of a binary glTF file (glTF 2.0 specification §4.4 "Binary glTF Layout").
///
/// A GLB file is a 12-byte header (`magic` 0x46546C67 "glTF", `version` 2, `length` of the whole
/// file), then chunks of `chunkLength` (UInt32), `chunkType` (UInt32) and the data. The first
/// chunk is the JSON document (type 0x4E4F534A "JSON"); an optional second chunk is the binary
/// buffer (type 0x004E4942 "BIN\0"); chunks of other types are skipped, as §4.4.3 requires. All
/// integers are little-endian; every chunk starts and ends on a 4-byte boundary.
///
/// Every length is checked against the bytes there are before anything is read, so a truncated
/// or lying file is a one-line error naming it.
struct GLBContainer {
    /// The JSON chunk's bytes (trailing space padding included; JSON ignores it).
    let json: [UInt8]
    /// Where the BIN chunk's data lies in the file's bytes (nil when there is none).
    let bin: Range<Int>?

    static let magic: UInt32 = 0x4654_6C67
    static let jsonType: UInt32 = 0x4E4F_534A
    static let binType: UInt32 = 0x004E_4942

    /// Reads the header and chunk table of `bytes`, the contents of the file named `file`.
    init(_ bytes: [UInt8], file: String) throws(InputError) {
        func fail(_ message: String) -> InputError { InputError(file: file, message: message) }
        guard bytes.count >= 12 else {
            throw fail("\(bytes.count) bytes is too short for a binary glTF header (12 bytes, glTF 2.0 §4.4.2)")
        }
        guard GLBContainer.u32(bytes, 0) == GLBContainer.magic else {
            throw fail("not a binary glTF (.glb) file: it does not start with the magic 'glTF'")
        }
        let version = GLBContainer.u32(bytes, 4)
        guard version == 2 else { throw fail("binary glTF version \(version) is not read (only version 2)") }
        let length = Int(GLBContainer.u32(bytes, 8))
        guard length <= bytes.count else {
            throw fail("the header's length \(length) is past the end of the file (\(bytes.count) bytes)")
        }
        guard length >= 20 else { throw fail("the header's length \(length) leaves no room for the JSON chunk") }
        var offset = 12, index = 0
        var json: [UInt8]?, bin: Range<Int>?
        while offset < length {
            guard length - offset >= 8 else {
                throw fail("chunks[\(index)]: its 8-byte chunk header is past the end of the file (at byte \(offset) of \(length))")
            }
            let chunkLength = Int(GLBContainer.u32(bytes, offset)), type = GLBContainer.u32(bytes, offset + 4)
            let start = offset + 8
            guard chunkLength <= length - start else {
                throw fail("chunks[\(index)]: length \(chunkLength) is past the end of the file (\(length - start) bytes left at byte \(start))")
            }
            guard chunkLength % 4 == 0 else {
                throw fail("chunks[\(index)]: length \(chunkLength) is not a multiple of 4 (chunks are 4-byte aligned, glTF 2.0 §4.4.3.1)")
            }
            if index == 0 {
                guard type == GLBContainer.jsonType else { throw fail("chunks[0] is not the JSON chunk (type 0x\(String(type, radix: 16)))") }
                guard chunkLength > 0 else { throw fail("chunks[0]: the JSON chunk is empty") }
                json = Array(bytes[start..<(start + chunkLength)])
            } else if type == GLBContainer.jsonType {
                throw fail("chunks[\(index)]: a second JSON chunk (only the first chunk is JSON)")
            } else if type == GLBContainer.binType {
                guard index == 1 else { throw fail("chunks[\(index)]: the BIN chunk must be the second chunk (glTF 2.0 §4.4.3.1)") }
                bin = start..<(start + chunkLength)
            }
            offset = start + chunkLength
            index += 1
        }
        guard let json else { throw fail("no JSON chunk") }
        self.json = json
        self.bin = bin
    }

    /// The little-endian UInt32 at `offset` (the caller has checked the 4 bytes are there).
    @inline(__always)
    static func u32(_ b: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(b[offset]) | UInt32(b[offset + 1]) << 8 | UInt32(b[offset + 2]) << 16 | UInt32(b[offset + 3]) << 24
    }
}
