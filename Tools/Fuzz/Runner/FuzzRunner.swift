import FlybyFuzzTargets
import Foundation

// Two builds of one program (issue 8):
// - normal build: `flyby-fuzz TARGET FILE…` replays inputs (regressions, a corpus) through a target;
// - `Tools/fuzz` build (-D FLYBY_LIBFUZZER -sanitize=fuzzer,address): libFuzzer supplies `main` and
//   drives `LLVMFuzzerTestOneInput`, with the target named by FLYBY_FUZZ_TARGET.

#if FLYBY_LIBFUZZER
/// The target chosen by FLYBY_FUZZ_TARGET (read once).
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["FLYBY_FUZZ_TARGET"] ?? ""
    guard let t = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("FLYBY_FUZZ_TARGET must be one of \(FuzzTarget.allCases.map(\.rawValue))\n".utf8))
        exit(2)
    }
    return t
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if !selectedTarget.run(bytes) { fatalError("invariant broken by a \(selectedTarget.rawValue) input") }
    return 0
}

/// libFuzzer's driver (compiler-rt), run from the executable's entry point: SwiftPM links an
/// executable's `main` to `<module>_main`, so libFuzzer's own `main` is not used.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@_cdecl("flyby_fuzz_main")
public func flybyFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
#else
@main
struct FuzzReplay {
    static func main() {
        let args = Array(CommandLine.arguments.dropFirst())
        guard let name = args.first, let target = FuzzTarget(rawValue: name) else {
            print("usage: flyby-fuzz TARGET FILE…   (targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))")
            exit(2)
        }
        var failed = 0
        for path in args.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { print("cannot read \(path)"); failed += 1; continue }
            if !target.run([UInt8](data)) { print("FAILED \(path)"); failed += 1 }
        }
        print("\(args.count - 1 - failed) passed, \(failed) failed")
        exit(failed == 0 ? 0 : 1)
    }
}
#endif
