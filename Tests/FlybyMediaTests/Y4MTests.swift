import Foundation
import Testing
@testable import FlybyMedia

@Suite struct Y4MTests {
    private func planes(_ pixels: [UInt32], width: Int, height: Int, chroma: Y4MWriter.Chroma,
                        matrix: Y4MWriter.Matrix) -> [UInt8] {
        var out: [UInt8] = []
        pixels.withUnsafeBufferPointer {
            Y4MWriter.convert($0, width: width, height: height, chroma: chroma, matrix: matrix, into: &out)
        }
        return out
    }

    @Test func headerIsYUV4MPEG2() {
        #expect(Y4MWriter.header(width: 1280, height: 720, fps: (60, 1), chroma: .c420jpeg)
            == "YUV4MPEG2 W1280 H720 F60:1 Ip A1:1 C420jpeg XYSCSS=420JPEG XCOLORRANGE=LIMITED\n")
        #expect(Y4MWriter.header(width: 7, height: 5, fps: (30000, 1001), chroma: .c444)
            == "YUV4MPEG2 W7 H5 F30000:1001 Ip A1:1 C444 XYSCSS=444 XCOLORRANGE=LIMITED\n")
        #expect(Y4MWriter.planeBytes(width: 1280, height: 720, chroma: .c420jpeg) == 1280 * 720 * 3 / 2)
        #expect(Y4MWriter.planeBytes(width: 5, height: 3, chroma: .c420jpeg) == 15 + 2 * 3 * 2)
        #expect(Y4MWriter.planeBytes(width: 5, height: 3, chroma: .c444) == 45)
    }

    struct ColourCase: Sendable, CustomTestStringConvertible {
        var name: String
        var argb: UInt32
        var matrix: Y4MWriter.Matrix
        var yuv: [UInt8]
        var testDescription: String { "\(name) \(matrix)" }
    }

    static let colours: [ColourCase] = [
        ColourCase(name: "white", argb: 0xFFFF_FFFF, matrix: .bt601, yuv: [235, 128, 128]),
        ColourCase(name: "black", argb: 0xFF00_0000, matrix: .bt601, yuv: [16, 128, 128]),
        ColourCase(name: "red", argb: 0xFFFF_0000, matrix: .bt601, yuv: [81, 90, 240]),
        ColourCase(name: "green", argb: 0xFF00_FF00, matrix: .bt601, yuv: [145, 54, 34]),
        ColourCase(name: "blue", argb: 0xFF00_00FF, matrix: .bt601, yuv: [41, 240, 110]),
        ColourCase(name: "white", argb: 0xFFFF_FFFF, matrix: .bt709, yuv: [235, 128, 128]),
        ColourCase(name: "black", argb: 0xFF00_0000, matrix: .bt709, yuv: [16, 128, 128]),
        ColourCase(name: "red", argb: 0xFFFF_0000, matrix: .bt709, yuv: [63, 102, 240]),
        ColourCase(name: "grey", argb: 0xFF80_8080, matrix: .bt709, yuv: [126, 128, 128]),
    ]

    /// Reference values: ITU-R BT.601 / BT.709 limited range, Y′ = 16 + 219·E′y, Cb/Cr = 128 + 224·E′.
    @Test(arguments: colours)
    func knownColours(_ c: ColourCase) {
        for chroma in [Y4MWriter.Chroma.c444, .c420jpeg] {
            let out = planes([UInt32](repeating: c.argb, count: 4), width: 2, height: 2, chroma: chroma, matrix: c.matrix)
            #expect(Array(out.prefix(4)) == [UInt8](repeating: c.yuv[0], count: 4))
            let cb = out[4], cr = chroma == .c444 ? out[8] : out[5]
            #expect([cb, cr] == [c.yuv[1], c.yuv[2]], "\(chroma)")
        }
    }

    @Test func chromaIsTheMeanOfEach2x2BlockAndOddEdgesRepeat() {
        // 3×1: block 0 = red, black (rows repeat); block 1 = red alone (column repeats).
        let out = planes([0xFFFF_0000, 0xFF00_0000, 0xFFFF_0000], width: 3, height: 1, chroma: .c420jpeg, matrix: .bt601)
        #expect(out.count == 3 + 2 + 2)
        #expect(Array(out[0..<3]) == [81, 16, 81])
        #expect(Array(out[3..<5]) == [109, 90])  // Cb: mean of red (−38) and black (0) → 128 − 19
        #expect(Array(out[5..<7]) == [184, 240])  // Cr: 128 + 56
    }

    @Test func fileHasHeaderAndFramesAndAppearsOnlyOnFinish() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.y4m"
        let writer = try Y4MWriter(path: path, width: 6, height: 4, fps: (30, 1))
        for i in 0..<3 { try writer.write(frame: [UInt32](repeating: 0xFF10_2030, count: 24), index: i) }
        #expect(!FileManager.default.fileExists(atPath: path))
        try writer.finish()
        let data = try #require(FileManager.default.contents(atPath: path))
        let header = Y4MWriter.header(width: 6, height: 4, fps: (30, 1), chroma: .c420jpeg)
        #expect(data.count == header.utf8.count + 3 * (6 + 24 + 2 * 3 * 2))
        #expect(String(decoding: data.prefix(header.utf8.count), as: UTF8.self) == header)
        #expect(String(decoding: data[header.utf8.count..<(header.utf8.count + 6)], as: UTF8.self) == "FRAME\n")
        #expect(folderContents(folder) == ["out.y4m"])
    }

    @Test func cancelledOrFailedWritesLeaveNothing() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try Y4MWriter(path: folder + "/x.y4m", width: 2, height: 2)
        #expect(throws: MediaError.self) { try writer.write(frame: [0, 0, 0], index: 0) }
        writer.cancel()
        #expect(folderContents(folder).isEmpty)
        do {
            let dropped = try Y4MWriter(path: folder + "/y.y4m", width: 2, height: 2)
            try dropped.write(frame: [0, 0, 0, 0], index: 0)
        }
        #expect(folderContents(folder).isEmpty)
    }
}
