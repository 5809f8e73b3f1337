// The declaration of one command-line option: parsing, help and usage errors are all derived from it.

/// One option of a command, declared once. `Arguments` parses by it, `CommandHelp` prints it,
/// and a usage error names it; there is no other list of a command's options.
struct CommandOption: Sendable {
    /// What follows the option's name.
    enum Kind: Sendable, Equatable {
        /// Nothing: the option is a switch (`--json`).
        case flag
        /// One value, shown in help as the placeholder (`--jobs N`).
        case value(String)
    }

    /// What the option is when it is not given.
    enum Default: Sendable, Equatable {
        /// A value read exactly as if it had been typed (`3` for `--repetitions`).
        case value(String)
        /// Worked out when the command runs (every core, `results/<name>/`): shown in help only.
        case described(String)
    }

    /// The name without its dashes: `max-events`.
    var name: String
    var kind: Kind
    var defaultValue: Default?
    /// What the option does, as help shows it; `\n` starts a new line in the help's column.
    var help: String
    /// Whether the option may be given more than once (each value is kept, in order).
    var repeatable: Bool
    /// Whether the command cannot run without it (`trace --device N`).
    var required: Bool
    /// The whole numbers the option takes (`--jobs 1...1024`), or nil when it is not a number
    /// or its bounds depend on the scenario (`trace --device`). The parser refuses any other value.
    var range: ClosedRange<Int>?
    /// Other names the option answers to (`optimize --vary` for `--over`): the name another
    /// command uses for the same thing, so a user's habit from there works here too.
    var aliases: [String]

    init(_ name: String, _ kind: Kind, default defaultValue: Default? = nil, range: ClosedRange<Int>? = nil,
         repeatable: Bool = false, required: Bool = false, aliases: [String] = [], help: String) {
        self.name = name
        self.aliases = aliases
        self.kind = kind
        self.defaultValue = defaultValue
        self.range = range
        self.help = help
        self.repeatable = repeatable
        self.required = required
    }

    /// `--jobs N`, `--json`: the option as a user types it.
    var label: String {
        switch kind {
        case .flag: return "--\(name)"
        case .value(let placeholder): return "--\(name) \(placeholder)"
        }
    }

    /// `text` as a whole number in `range`, or the usage error that names the option and its bounds.
    static func wholeNumber(_ text: String, of name: String, in range: ClosedRange<Int>) throws -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw InputError.usage("--\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return n
    }

    /// The same option with another command's wording of its help.
    func help(_ text: String) -> CommandOption {
        var copy = self
        copy.help = text
        return copy
    }
}

/// The options several commands share, declared once here so their names, placeholders and
/// defaults cannot differ between commands.
extension CommandOption {
    static let set = CommandOption(
        "set", .value("PATH=VALUE"), repeatable: true,
        help: "override any key by its dotted path, value in the file's syntax\n(repeatable): --set queue.repeat_max_count=5")
    static let seed = CommandOption("seed", .value("N"), help: "override the seed (an unsigned 64-bit integer)")
    static let jobs = CommandOption("jobs", .value("N"), default: .described("every core"), range: 1...1024,
                                    help: "threads to use; never changes the result")
    static let json = CommandOption("json", .flag, help: "print the contract's JSON document instead of the table")
    static let noWrite = CommandOption("no-write", .flag, help: "write no files")
    static let resume = CommandOption("resume", .flag, help: """
        reuse the runs an earlier, stopped invocation finished (kept beside
        DIR in .NAME.runs/ until the results are written); without it the
        experiment starts afresh. Says how many runs it computed and reused
        """)
    static let queue = CommandOption("queue", .value("on|off"), default: .described("on, unless the scenario's queue.mode is off"),
                                     help: "the arm")
}
