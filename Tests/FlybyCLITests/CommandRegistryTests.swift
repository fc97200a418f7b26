@testable import FlybyCLI
import FlybyCore
import Foundation
import Testing

/// The one command list and the option declarations: dispatch, help and value checks all come
/// from them (docs/cli.md).
@Suite struct CommandRegistryTests {
    /// Every command and subcommand, with the words that reach it.
    static var everyCommand: [(words: String, command: any FlybyCommand.Type)] {
        CommandRegistry.commands.flatMap { c in
            c.subcommands.isEmpty ? [(c.name, c)] : c.subcommands.map { ("\(c.name) \($0.name)", $0) }
        }
    }

    @Test func commandAndOptionNamesAreUnique() {
        let names = CommandRegistry.commands.map { $0.name }
        #expect(Set(names).count == names.count)
        for (words, c) in Self.everyCommand {
            let options = c.options.map { $0.name }
            #expect(Set(options).count == options.count, "\(words)")
        }
    }

    @Test func theCommandListShowsEveryCommandOnce() {
        let usage = CommandHelp.usage()
        for c in CommandRegistry.commands {
            #expect(usage.components(separatedBy: "\n  \(c.name) ").count == 2, "\(c.name)")
        }
    }

    /// The help of each command names every option, its accepted values and its default.
    @Test func everyHelpStatesEachOptionsRangeAndDefault() {
        for (words, c) in Self.everyCommand {
            let top = CommandRegistry.command(named: String(words.split(separator: " ")[0]))!
            let help = CommandHelp.help(for: top).replacingOccurrences(of: "\n", with: " ")
                .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            #expect(help.contains("usage: flyby \(top.name)"), "\(words)")
            for o in c.options {
                #expect(help.contains(o.synopsis), "\(words) --\(o.name)")
                if let range = o.kind.rangeText { #expect(help.contains(range), "\(words) --\(o.name): \(range)") }
                if let d = o.defaultText ?? o.defaultValue { #expect(help.contains("default " + d), "\(words) --\(o.name): \(d)") }
            }
        }
    }

    /// Each declared default is a value its own kind accepts (the parser checks defaults like input).
    @Test func everyDefaultIsAValidValue() throws {
        for (words, c) in Self.everyCommand {
            for o in c.options {
                guard let d = o.defaultValue else { continue }
                #expect(throws: Never.self, "\(words) --\(o.name)") { _ = try o.kind.value(d, option: o.name) }
            }
        }
    }

    @Test(arguments: [
        (["play", "f.json", "--out", "o", "--crf", "52"], "--crf must be a whole number 0…51, not '52'"),
        (["play", "f.json", "--out", "o", "--fps", "0"], "--fps must be a number in (0, 1000], not '0'"),
        (["play", "f.json", "--out", "o", "--preset", "quick"], "--preset must be one of ultrafast"),
        (["play", "f.json", "--out", "o", "--tile-cache", "-1"], "--tile-cache must be a whole number of MiB 0…65536, not '-1'"),
        (["play", "f.json"], "'play' needs --out OUT (see 'flyby help play')"),
        (["play", "f.json", "--out=o", "--crf"], "option '--crf' needs a value (see 'flyby help play')"),
        (["play", "f.json", "--out", "o", "--layers"], "unknown option '--layers' for 'play' (see 'flyby help play')"),
        (["bench", "render", "--out", "x"], "unknown option '--out' for 'bench render' (see 'flyby help bench')"),
        (["bench", "render", "--layers=yes"], "unknown option '--layers' for 'bench render'"),
        (["tiles", "decode", "a", "1"], "'tiles decode' takes ARCHIVE Z X Y (see 'flyby help tiles')"),
        (["tiles", "peek"], "unknown 'tiles' subcommand 'peek' (known: info, decode; see 'flyby help tiles')"),
        (["soak", "extra"], "'soak' takes no file"),
        (["window", "--size", "9000x10"], "--size must be WxH with whole numbers 1…8192"),
        (["snapshot", "--out", "x.png", "--size", "0x5"], "--size must be WxH with whole numbers 1…16384"),
    ])
    func badArgumentsAreOneUsageLine(_ args: [String], _ message: String) {
        let out = CommandOutput(captures: true)
        #expect(FlybyCommandLine.run(arguments: args, output: out) == 2)
        #expect(out.stderrText.hasPrefix("flyby: error: ") && out.stderrText.contains(message), "\(out.stderrText)")
        #expect(out.stderrText.split(separator: "\n").count == 1)
    }

    @Test func optionsTakeEqualsOrTheNextWordAndTheLastOneWins() throws {
        let specs = [OptionSpec("n", .int(0...9), "N", help: "n", default: "4"), OptionSpec("f", .flag, help: "f"),
                     OptionSpec("s", .size(maxSide: 100), "WxH", help: "s")]
        let p = try ParsedOptions(["a", "--n=2", "-1", "--n", "3", "--f", "--s", "10x20"], command: "t", helpName: "t", options: specs,
                                  positionals: Positionals(usage: "A B", count: 2...2, wrongCount: "takes two"))
        #expect(p.positional == ["a", "-1"])
        #expect(p.int("n") == 3 && p.flag("f") && p.size("s") == PixelSize(width: 10, height: 20))
        let defaults = try ParsedOptions([], command: "t", helpName: "t", options: specs, positionals: .none)
        #expect(defaults.int("n") == 4 && !defaults.flag("f") && defaults.size("s") == nil && !defaults.has("n"))
    }
}
