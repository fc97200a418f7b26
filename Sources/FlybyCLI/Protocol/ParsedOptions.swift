import FlybyCore

/// A command's arguments after parsing against its declarations: the positional arguments and
/// each given option's checked value. Accessors fall back to the declared default.
struct ParsedOptions {
    /// The positional arguments, in order.
    var positional: [String] = []
    /// The options given (the last one wins when an option is repeated).
    private(set) var values: [String: OptionValue] = [:]
    /// The declarations the values were checked against.
    let specs: [OptionSpec]

    /// Parses `args` for `command` (its name as the user typed it, for messages; `helpName` is
    /// what `flyby help` takes for it). `--name value`, `--name=value` and `--flag`; a `-` word
    /// that is a number (`-1`) is a positional argument.
    /// - Throws: ``CommandError`` (exit 2) for an unknown option, a missing value, a wrong count
    ///   of positional arguments, or a value outside its kind (checked in declaration order).
    init(_ args: [String], command: String, helpName: String, options specs: [OptionSpec], positionals: Positionals) throws(CommandError) {
        self.specs = specs
        var raw: [String: String] = [:]
        var i = 0
        while i < args.count {
            let a = args[i]
            if a.hasPrefix("--") && a.count > 2 {
                var name = String(a.dropFirst(2)), value: String?
                if let eq = name.firstIndex(of: "=") { value = String(name[name.index(after: eq)...]); name = String(name[..<eq]) }
                guard let spec = specs.first(where: { $0.name == name }), spec.kind.takesValue || value == nil else {
                    throw CommandError("unknown option '--\(name)' for '\(command)' (see 'flyby help \(helpName)')")
                }
                if spec.kind.takesValue {
                    if value == nil {
                        i += 1
                        guard i < args.count else { throw CommandError("option '--\(name)' needs a value (see 'flyby help \(helpName)')") }
                        value = args[i]
                    }
                    raw[name] = value
                } else {
                    raw[name] = ""
                }
            } else if a.hasPrefix("-") && a.count > 1 && Double(a) == nil {
                throw CommandError("unknown option '\(a)' for '\(command)' (see 'flyby help \(helpName)')")
            } else {
                positional.append(a)
            }
            i += 1
        }
        if !positionals.count.contains(positional.count) {
            if let phrase = positionals.wrongCount { throw CommandError("'\(command)' \(phrase) (see 'flyby help \(helpName)')") }
            throw CommandError("unexpected argument '\(positional[positionals.count.upperBound])' for '\(command)' (see 'flyby help \(helpName)')")
        }
        for spec in specs where spec.isRequired && (raw[spec.name] ?? "").isEmpty {
            throw CommandError("'\(command)' needs \(spec.synopsis) (see 'flyby help \(helpName)')")
        }
        for spec in specs {
            if let text = raw[spec.name] { values[spec.name] = try spec.kind.value(text, option: spec.name) }
        }
    }

    /// The given value, else the declared default (checked like a given one); nil for an option
    /// the command does not declare (shared code such as ``RenderScene`` asks for options only
    /// some commands take).
    private func value(_ name: String) -> OptionValue? {
        if let v = values[name] { return v }
        guard let spec = specs.first(where: { $0.name == name }), let text = spec.defaultValue else { return nil }
        do { return try spec.kind.value(text, option: name) } catch { preconditionFailure("default of '--\(name)': \(error)") }
    }

    /// Whether the option was given (not just defaulted).
    func has(_ name: String) -> Bool { values[name] != nil }

    /// A text (`.string` or `.words`) option.
    func string(_ name: String) -> String? {
        if case .string(let s)? = value(name) { return s }
        return nil
    }

    /// A whole-number option.
    func int(_ name: String) -> Int? {
        if case .int(let n)? = value(name) { return n }
        return nil
    }

    /// A number option.
    func double(_ name: String) -> Double? {
        if case .double(let x)? = value(name) { return x }
        return nil
    }

    /// A size option.
    func size(_ name: String) -> PixelSize? {
        if case .size(let s)? = value(name) { return s }
        return nil
    }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { values[name] == .flag }
}
