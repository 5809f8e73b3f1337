// The text of `pushsim COMMAND --help` and of a usage error's synopsis, derived from the declaration.

extension CommandSpec {
    /// Synopsis lines are wrapped before this column.
    static let synopsisWidth = 100

    /// `Usage: pushsim run FILE [--json] [--set PATH=VALUE]… …`, wrapped under the first
    /// operand. Options typed in the operands (`--all` of check) are not repeated.
    var synopsis: String {
        let head = "Usage: pushsim \(name) "
        let indent = String(repeating: " ", count: head.count)
        let items = options.filter { !operands.contains("--\($0.name)") }.map { option in
(option.required ? option.label : "[\(option.label)]") + (option.repeatable ? "…" : "")
        }
        var lines: [String] = []
        var line = head + operands
        for item in items {
            if line.count + 1 + item.count > Self.synopsisWidth && line.count > head.count {
                lines.append(line)
                line = indent + item
            } else {
                line += (line.hasSuffix(" ") ? "" : " ") + item
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The whole help: synopsis, what the command does, every option with its default, notes
    /// and examples.
    var help: String {
        var parts = [synopsis]
        if !about.isEmpty { parts.append(about) }
        let labels = operandHelp.map(\.name) + options.map(\.label)
        let column = (labels.map(\.count).max() ?? 0) + 2
        let rows = operandHelp.map { ($0.name, $0.help) }
            + options.map { ($0.label, Self.helpText(of: $0, width: Self.synopsisWidth - 2 - column)) }
        let pad = String(repeating: " ", count: 2 + column)
        let table = rows.map { label, text in
            "  " + label.padding(toLength: column, withPad: " ", startingAt: 0)
                + text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + pad)
        }
        if !table.isEmpty { parts.append(table.joined(separator: "\n")) }
        if !notes.isEmpty { parts.append(notes) }
        if !examples.isEmpty {
            parts.append((examples.count == 1 ? "Example:\n" : "Examples:\n") + examples.map { "  " + $0 }.joined(separator: "\n"))
        }
        return parts.joined(separator: "\n\n")
    }

    /// An option's help with its default and whether it repeats, as the declaration says; the
    /// addition goes on a line of its own when the last line would pass `width`.
    static func helpText(of option: CommandOption, width: Int) -> String {
        var extras: [String] = []
        switch option.defaultValue {
        case .value(let text)?: extras.append("default \(text)")
        case .described(let text)?: extras.append("default: \(text)")
        case nil: break
        }
        if option.repeatable && !option.help.contains("repeatable") { extras.append("repeatable") }
        if !option.aliases.isEmpty { extras.append("also " + option.aliases.map { "--\($0)" }.joined(separator: ", ")) }
        guard !extras.isEmpty else { return option.help }
        let addition = "(" + extras.joined(separator: "; ") + ")"
        let lastLine = option.help.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        return option.help + (lastLine.count + 1 + addition.count > width ? "\n" : " ") + addition
    }
}
