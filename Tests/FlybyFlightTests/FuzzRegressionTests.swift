import FlybyFuzzTargets
import FlybyTestSupport
import Foundation
import Testing

/// Replays every input that ever crashed a fuzz target, or that was written to probe one
/// (`Tools/Fuzz/regressions/TARGET/`): each must now run without breaking an invariant.
@Suite struct FuzzRegressionTests {
    static let folder = repositoryRoot() + "/Tools/Fuzz/regressions"

    static var inputs: [String] {
        FuzzTarget.allCases.flatMap { t in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + t.rawValue)) ?? []).sorted().map { "\(t.rawValue)/\($0)" }
        }
    }

    @Test func everyTargetHasRegressionInputs() {
        for t in FuzzTarget.allCases { #expect(Self.inputs.contains { $0.hasPrefix(t.rawValue + "/") }, "\(t.rawValue)") }
    }

    @Test(arguments: inputs)
    func regressionInputRunsCleanly(_ input: String) throws {
        let target = try #require(FuzzTarget(rawValue: String(input.split(separator: "/")[0])))
        let data = try #require(FileManager.default.contents(atPath: Self.folder + "/" + input))
        #expect(target.run([UInt8](data)))
    }
}
