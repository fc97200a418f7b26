import FlybyTestSupport
import Foundation

/// The tile archives of the FlybyTilesTests fixtures (their README gives sources and licences),
/// read in place by the `flyby tiles` tests.
enum TileFixtures {
    static let root = repositoryRoot(filePath: String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")))
        + "/Tests/FlybyTilesTests/Fixtures"

    /// A fixture's bytes (`relative` to ``root``).
    static func bytes(_ relative: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
    }

    /// A fresh empty folder under the temporary directory.
    static func temporaryFolder(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "flyby-cli-tiles-tests-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `bytes` to `path`, making its folders.
    static func write(_ bytes: [UInt8], to path: String) {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }
}
