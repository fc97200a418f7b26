/// One `flyby` command, declared as a type: its name, one-line summary, positional arguments,
/// options and a short hand-written description. Dispatch, `flyby help`, `flyby help CMD` and
/// `CMD --help` all come from these declarations and the one list in ``CommandRegistry``
/// (docs/cli.md). Adding a command is one new file and one line in the registry.
///
/// A command with ``subcommands`` (`tiles info`, `bench render`) is a group: the word after it
/// picks one, and its help shows every subcommand.
protocol FlybyCommand: Sendable {
    /// The word that runs it (`play`; `render` for `bench render`).
    static var name: String { get }
    /// One line for the command list of `flyby help`.
    static var summary: String { get }
    /// What it does, before the option list (plain text, line breaks kept).
    static var about: String { get }
    /// After the option list: exit codes, notes, examples (may be empty).
    static var notes: String { get }
    /// Positional arguments.
    static var positionals: Positionals { get }
    /// Options, in the order the help lists them (and values are checked).
    static var options: [OptionSpec] { get }
    /// The subcommands of a group; empty for a command that runs.
    static var subcommands: [any FlybyCommand.Type] { get }
    /// Runs with the parsed arguments. Errors are ``CommandError``s or errors naming their input.
    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws
}

extension FlybyCommand {
    static var notes: String { "" }
    static var positionals: Positionals { .none }
    static var options: [OptionSpec] { [] }
    static var subcommands: [any FlybyCommand.Type] { [] }
    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
        throw CommandError("'\(name)' needs a subcommand (see 'flyby help \(name)')")
    }
}
