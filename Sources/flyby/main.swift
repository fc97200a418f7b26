#if canImport(Glibc)
import Glibc
#endif
import FlybyCLI

// The command-line tool: all logic lives in FlybyCLI so tests can call it in-process.
let status = FlybyCommandLine.main(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
