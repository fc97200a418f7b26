/// The one list of `flyby` commands, in the order `flyby help` shows them. Dispatch and every
/// help text come from it (docs/cli.md).
enum CommandRegistry {
    static let commands: [any FlybyCommand.Type] = [
        WindowCommand.self,
        TraceCommand.self,
        PlayCommand.self,
        SnapshotCommand.self,
        DiffCommand.self,
        PlotCommand.self,
        BenchCommand.self,
        SoakCommand.self,
        TilesCommand.self,
        JoinCommand.self,
        PlanCommand.self,
        FarmStatusCommand.self,
        HelpCommand.self,
    ]

    /// The command named `name`, if any.
    static func command(named name: String) -> (any FlybyCommand.Type)? {
        commands.first { $0.name == name }
    }

    /// Runs `command` with `args` (the words after its name). A group takes the first word as
    /// its subcommand; `path` is the words typed so far (`["tiles"]`), for messages.
    static func run(_ command: any FlybyCommand.Type, _ args: [String], path: [String] = [], _ out: CommandOutput) throws {
        let words = path + [command.name]
        let helpName = (path.first ?? command.name)
        if !command.subcommands.isEmpty {
            let names = command.subcommands.map { $0.name }
            let shown = words.joined(separator: " ")
            guard let word = args.first else {
                throw CommandError("'\(shown)' needs a subcommand: \(names.joined(separator: ", ")) (see 'flyby help \(helpName)')")
            }
            guard let sub = command.subcommands.first(where: { $0.name == word }) else {
                throw CommandError("unknown '\(shown)' subcommand '\(word)' (known: \(names.joined(separator: ", ")); see 'flyby help \(helpName)')")
            }
            return try run(sub, Array(args.dropFirst()), path: words, out)
        }
        let parsed = try ParsedOptions(args, command: words.joined(separator: " "), helpName: helpName,
                                       options: command.options, positionals: command.positionals)
        try command.run(parsed, out)
    }
}

/// `flyby help [COMMAND]`: the command list, or one command's help.
enum HelpCommand: FlybyCommand {
    static let name = "help"
    static let summary = "show help for a command"
    static let about = "Shows the list of commands, or the options of one command (as 'flyby COMMAND --help' does)."
    static let positionals = Positionals(usage: "[COMMAND]", count: 0...1, wrongCount: "takes at most one command")

    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws { try show(parsed.positional, out) }

    /// The help for the first word of `args` (further words are ignored: `flyby help bench
    /// render` shows the `bench` help), or the command list.
    static func show(_ args: [String], _ out: CommandOutput) throws {
        guard let name = args.first, name != "--help", name != "-h" else { out.print(CommandHelp.usage()); return }
        guard let command = CommandRegistry.command(named: name) else {
            throw CommandError("unknown command '\(name)' (see 'flyby help')")
        }
        out.print(CommandHelp.help(for: command))
    }
}
