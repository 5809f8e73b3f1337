// A row of a Markdown table whose cells may hold any text: a `|` in a segment's name or a swept value must not open a column.
enum MarkdownTable {
    /// `| a | b |`, each cell's `|` escaped (`\|`, which GitHub-flavoured Markdown reads as a
    /// literal bar, inside code spans too) and its line breaks turned to spaces.
    static func row(_ cells: [String]) -> String {
        "| " + cells.map(cell).joined(separator: " | ") + " |\n"
    }

    static func cell(_ text: String) -> String {
        guard text.contains(where: { $0 == "|" || $0 == "\n" || $0 == "\r" }) else { return text }
        var out = ""
        for character in text {
            switch character {
            case "|": out += "\\|"
            case "\n", "\r", "\r\n": out += " "
            default: out.append(character)
            }
        }
        return out
    }
}
