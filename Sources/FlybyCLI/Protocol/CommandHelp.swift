import Foundation

/// The help texts, written from the command declarations (``FlybyCommand``, ``OptionSpec``):
/// the command list of `flyby help`, and for each command its usage line, description, options
/// (meaning, accepted values, default) and notes.
enum CommandHelp {
    /// Lines are wrapped at this many characters.
    static let width = 100
    /// Option descriptions start in this column.
    static let optionColumn = 19

    /// `flyby help`: every command with its summary.
    static func usage() -> String {
        var s = """
        flyby \(FlybyCommandLine.version) — camera animation and viewport simulation for maps

        usage: flyby <command> [options]

        commands:

        """
        let column = max(10, CommandRegistry.commands.map { $0.name.count + 2 }.max() ?? 0)
        for c in CommandRegistry.commands { s += "  " + c.name.padding(toLength: column, withPad: " ", startingAt: 0) + c.summary + "\n" }
        s += """

        'flyby help <command>' shows a command's options. Exit codes: 0 success, 1 a check failed,
        2 bad usage or input, 3 a missing program or device.
        """
        return s
    }

    /// `flyby help CMD` and `flyby CMD --help`.
    static func help(for command: any FlybyCommand.Type) -> String {
        if command.subcommands.isEmpty {
            var s = synopsis(command, path: "flyby", prefix: "usage: ") + "\n"
            s += section(command.about)
            s += optionList(command.options)
            s += section(command.notes)
            return trimmed(s)
        }
        // A group: every subcommand's usage line, the group's description, then each subcommand.
        var s = ""
        for (i, sub) in command.subcommands.enumerated() {
            s += synopsis(sub, path: "flyby \(command.name)", prefix: i == 0 ? "usage: " : "       ") + "\n"
        }
        s += section(command.about)
        for sub in command.subcommands {
            s += "\n" + wrap("\(sub.name): " + sub.about, indent: 0, hanging: 4) + "\n"
            if !sub.options.isEmpty { s += optionList(sub.options, heading: nil) }
        }
        s += section(command.notes)
        return trimmed(s)
    }

    /// `usage: flyby play FLIGHT_OR_TRACE --out OUT [--frames A:B] …`, wrapped under the command.
    static func synopsis(_ command: any FlybyCommand.Type, path: String, prefix: String) -> String {
        var words = [prefix + path + " " + command.name]
        if !command.positionals.usage.isEmpty { words.append(command.positionals.usage) }
        for o in command.options { words.append(o.isRequired ? o.synopsis : "[\(o.synopsis)]") }
        let head = words.removeFirst()
        return wrap(words, first: head, hanging: head.count + 1)
    }

    /// The `options:` list: each option's synopsis, meaning, accepted values and default.
    static func optionList(_ options: [OptionSpec], heading: String? = "options:") -> String {
        guard !options.isEmpty else { return "" }
        var s = heading.map { "\n" + $0 + "\n" } ?? ""
        for o in options {
            var text = o.help
            var facts: [String] = []
            if let range = o.kind.rangeText { facts.append(range) }
            if let d = o.defaultText ?? o.defaultValue { facts.append("default " + d) }
            if !facts.isEmpty { text += " (" + facts.joined(separator: "; ") + ")" }
            let head = "  " + o.synopsis
            let pad = head.count + 1 < optionColumn ? String(repeating: " ", count: optionColumn - head.count) : "  "
            s += wrap(words(text), first: head + pad, hanging: optionColumn, joinFirst: false) + "\n"
        }
        return s
    }

    /// A blank line and `text`, when there is any.
    static func section(_ text: String) -> String { text.isEmpty ? "" : "\n" + text + "\n" }

    static func trimmed(_ s: String) -> String {
        var s = s
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }

    /// `text` wrapped at ``width``: the first line indented `indent`, the others `hanging`.
    static func wrap(_ text: String, indent: Int, hanging: Int) -> String {
        let all = words(text)
        guard let first = all.first else { return "" }
        return wrap(Array(all.dropFirst()), first: String(repeating: " ", count: indent) + first, hanging: hanging)
    }

    /// The words of `text`, split at spaces and line breaks.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    /// `words` after `first`, wrapped at ``width`` with continuation lines indented `hanging`.
    /// With `joinFirst` false the first word follows `first` without a space (it ends in one).
    static func wrap(_ words: [String], first: String, hanging: Int, joinFirst: Bool = true) -> String {
        var lines: [String] = []
        var line = first
        var fresh = !joinFirst
        for w in words {
            if !fresh && line.count + 1 + w.count > width && line.count > hanging {
                lines.append(line)
                line = String(repeating: " ", count: hanging) + w
            } else {
                line += (fresh ? "" : " ") + w
            }
            fresh = false
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
