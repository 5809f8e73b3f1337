// The parser of a command line, driven by the command's declared options (CommandOption).
import PushSimScenarioFile

/// The parsed words of a command line.
struct Arguments {
    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var options: [String: [String]] = [:]
    private var defaults: [String: String] = [:]
    /// The declared range of each numeric option (CommandOption.range).
    private var ranges: [String: ClosedRange<Int>] = [:]

    /// Parses `words` by the command's `declared` options. `--name=value` and `--name value`
    /// are both accepted; `--` ends the options; an option that is not repeatable may be given
    /// once.
    init(_ words: [String], declared: [CommandOption]) throws {
        var byName: [String: CommandOption] = [:]
        for option in declared {
            byName[option.name] = option
            for alias in option.aliases { byName[alias] = option }
            if case .value(let text)? = option.defaultValue { defaults[option.name] = text }
            if let range = option.range { ranges[option.name] = range }
        }
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("--") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            var name = String(word.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = byName[name] else {
                let hint = Suggestion.typo(of: name, among: declared.flatMap { [$0.name] + $0.aliases }).map { " (did you mean --\($0)?)" } ?? ""
                throw InputError.usage("unknown option --\(name)\(hint)")
            }
            // An alias is kept under the option's own name, so the command reads one name.
            name = option.name
            switch option.kind {
            case .flag:
                if value != nil { throw InputError.usage("--\(name) takes no value") }
                flags.insert(name)
            case .value(let placeholder):
                if value == nil {
                    guard index < words.count else { throw InputError.usage("--\(name) needs a value: --\(name) \(placeholder)") }
                    value = words[index]
                    index += 1
                }
                if !option.repeatable && options[name] != nil {
                    let names = ([option.name] + option.aliases).map { "--\($0)" }.joined(separator: " or ")
                    throw InputError.usage("\(names) is given twice; give it once")
                }
                if let range = option.range { _ = try CommandOption.wholeNumber(value ?? "", of: name, in: range) }
                options[name, default: []].append(value ?? "")
            }
        }
        if let missing = declared.first(where: { $0.required && options[$0.name] == nil }) {
            throw InputError.usage("missing \(missing.label)")
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    /// Whether the option was typed (its default does not count).
    func given(_ name: String) -> Bool { options[name] != nil }
    /// The value given for an option, or its declared default value.
    func value(_ name: String) -> String? { options[name]?.last ?? defaults[name] }
    /// Every value given for a repeatable option, in order.
    func values(_ name: String) -> [String] { options[name] ?? [] }

    /// A numeric option (or its declared default value) as a whole number in its declared range
    /// (CommandOption.range); nil when neither is there.
    func integer(_ name: String) throws -> Int? {
        try integer(name, in: ranges[name] ?? Int.min...Int.max)
    }

    /// An option read as a whole number in a range the command works out when it runs (`trace
    /// --device`: the scenario's devices); nil when it is not given.
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value(name) else { return nil }
        return try CommandOption.wholeNumber(text, of: name, in: range)
    }

    /// An option declared with a default value: the value given, or that default.
    func valueWithDefault(_ name: String) throws -> String {
        // Only a command that forgot the declaration's default gets here without a value.
        guard let text = value(name) else { throw InputError.usage("missing --\(name)") }
        return text
    }

    /// A numeric option declared with a default value, in its declared range.
    func integerWithDefault(_ name: String) throws -> Int {
        // Only a command that forgot the declaration's default gets here without a value.
        guard let n = try integer(name) else { throw InputError.usage("missing --\(name)") }
        return n
    }
}
