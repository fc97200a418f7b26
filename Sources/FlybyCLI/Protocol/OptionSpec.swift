import FlybyCore

/// One `--name VALUE` (or `--name` flag) a command accepts: its name, the kind of value with
/// its bounds, its default and one line of meaning. The parser (``ParsedOptions``) checks every
/// value against the kind, and the help (``CommandHelp``) is written from the same declaration,
/// so an option's range and default are stated once.
struct OptionSpec: Sendable {
    /// The name without the dashes (`crf` for `--crf`).
    var name: String
    /// What the value is and what it may be.
    var kind: OptionKind
    /// The word standing for the value in the help (`N`, `MiB`, `WxH`); unused for flags.
    var placeholder: String
    /// What the option does, in one or two sentences (no range or default: those are generated).
    var help: String
    /// The value when the option is not given, as the user would write it (`"20"`); nil when
    /// there is none or it is decided at run time (then ``defaultText`` says what it is).
    var defaultValue: String?
    /// The help's words for a default decided at run time ("one per core", "the flight's").
    var defaultText: String?
    /// The command cannot run without it: `'<command>' needs --name PLACEHOLDER` when missing.
    var isRequired = false

    init(_ name: String, _ kind: OptionKind, _ placeholder: String = "", help: String, default defaultValue: String? = nil,
         defaultText: String? = nil, required isRequired: Bool = false) {
        self.name = name; self.kind = kind; self.placeholder = placeholder; self.help = help
        self.defaultValue = defaultValue; self.defaultText = defaultText; self.isRequired = isRequired
    }

    /// `--name PLACEHOLDER`, as the usage line and the option list show it.
    var synopsis: String { kind.takesValue ? "--\(name) \(placeholder)" : "--\(name)" }
}

/// The kind of value an option takes, with its bounds.
enum OptionKind: Sendable {
    /// Any text (a path, JSON, a name); checked by the command.
    case string
    /// A whole number in the range; `unit` names it in messages (`of MiB`).
    case int(ClosedRange<Int>, unit: String? = nil)
    /// A finite number in the range; `openBelow` excludes the lower bound (`(0, 1000]`).
    case double(ClosedRange<Double>, openBelow: Bool = false, unit: String? = nil)
    /// A frame size (``PixelSize``: `WxH` or a preset), each side 1…`maxSide` pixels.
    case size(maxSide: Int)
    /// One of these words, exactly.
    case words([String])
    /// No value: present or not.
    case flag

    var takesValue: Bool {
        if case .flag = self { return false }
        return true
    }

    /// The accepted values in words (`0…51`, `(0, 1000]`, `one of json`); nil for text and flags.
    var rangeText: String? {
        switch self {
        case .string, .flag: return nil
        case .int(let r, _): return "\(r.lowerBound)…\(r.upperBound)"
        case .double(let r, let open, _): return OptionKind.text(r, openBelow: open)
        case .size(let maxSide):
            return "WxH, sides 1…\(maxSide), or " + PixelSize.presets.map(\.name).joined(separator: ", ")
        case .words(let words): return "one of " + words.joined(separator: ", ")
        }
    }

    static func text(_ r: ClosedRange<Double>, openBelow: Bool) -> String {
        func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
        if r.upperBound == .infinity { return (openBelow ? "> " : "≥ ") + number(r.lowerBound) }
        return openBelow ? "(\(number(r.lowerBound)), \(number(r.upperBound))]" : "\(number(r.lowerBound))…\(number(r.upperBound))"
    }

    /// Checks `text` as a value of this kind; the error names `--name` and what is accepted.
    func value(_ text: String, option name: String) throws(CommandError) -> OptionValue {
        switch self {
        case .string: return .string(text)
        case .flag: return .flag
        case .int(let range, let unit):
            guard let n = Int(text), range.contains(n) else {
                let what = unit.map { "a whole number of \($0)" } ?? "a whole number"
                throw CommandError("--\(name) must be \(what) \(range.lowerBound)…\(range.upperBound), not '\(text)'")
            }
            return .int(n)
        case .double(let range, let open, let unit):
            guard let x = Double(text), x.isFinite, range.contains(x), !(open && x == range.lowerBound) else {
                let what = unit.map { "a number of \($0)" } ?? "a number"
                let bound = OptionKind.text(range, openBelow: open)
                throw CommandError("--\(name) must be \(what) \(bound.hasPrefix("(") ? "in " : "")\(bound), not '\(text)'")
            }
            return .double(x)
        case .size(let maxSide):
            do throws(PixelSizeError) {
                return .size(try PixelSize(parsing: text, maxSide: maxSide))
            } catch {
                throw CommandError("--\(name) " + error.reason)
            }
        case .words(let words):
            guard words.contains(text) else {
                throw CommandError("--\(name) must be one of \(words.joined(separator: ", ")), not '\(text)'")
            }
            return .string(text)
        }
    }
}

/// A checked option value.
enum OptionValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case size(PixelSize)
    case flag
}

/// The positional arguments of a command: their names for the usage line, how many are
/// accepted, and the phrase a wrong count is reported with.
struct Positionals: Sendable {
    /// As the usage line shows them (`FLIGHT_OR_TRACE`, `TRACE_A TRACE_B`).
    var usage: String
    /// How many are accepted.
    var count: ClosedRange<Int>
    /// `'<command>' <phrase> (see 'flyby help <command>')` for a wrong count (`takes one trace
    /// file`); nil: a stray argument is reported as `unexpected argument 'X' for '<command>'`.
    var wrongCount: String?

    static let none = Positionals(usage: "", count: 0...0, wrongCount: nil)

    init(usage: String, count: ClosedRange<Int>, wrongCount: String?) {
        self.usage = usage; self.count = count; self.wrongCount = wrongCount
    }

    /// Exactly one, two, … named arguments (`Positionals.exactly("FLIGHT", "takes one flight file")`).
    static func exactly(_ usage: String, _ wrongCount: String) -> Positionals {
        Positionals(usage: usage, count: usage.split(separator: " ").count...usage.split(separator: " ").count, wrongCount: wrongCount)
    }
}
