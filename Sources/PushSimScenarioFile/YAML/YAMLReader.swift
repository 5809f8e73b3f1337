// A reader for the contract's YAML subset: text → YAMLNode tree with locations, or a located error.

/// Reads the YAML subset of the scenario contract (docs/scenarios.md §1).
///
/// Supported: block mappings and sequences by indentation (spaces only), flow sequences and
/// mappings (nested, possibly across lines), `#` comments, blank lines, plain, single-quoted and
/// double-quoted scalars. Rejected with an error naming the feature: anchors, aliases, tags,
/// block (multi-line) scalars, document markers and directives, complex keys, duplicate keys.
///
/// One deliberate departure from YAML: inside a plain scalar, a `,` between parentheses does not
/// end the scalar, so `[uniform(1s, 2s), 3s]` is a list of two distributions. Brackets in a plain
/// scalar must balance.
///
/// Nesting is bounded (``maxDepth``) and the recursion follows the nesting, so no input can
/// exhaust the stack.
struct YAMLReader {
    /// The deepest nesting of collections accepted.
    static let maxDepth = 64
    /// The largest file accepted, in bytes: scenario files are a few kilobytes of hand-written
    /// text, and a bound keeps the time and memory of reading any input small.
    static let maxBytes = 4 * 1024 * 1024

    let file: String
    /// Added to the columns of the first line: a `--set` value starts after `PATH=`.
    let firstLineColumnOffset: Int
    let lines: [[Unicode.Scalar]]
    /// The first line not yet consumed by the block parser.
    private var next = 0

    private init(file: String, lines: [[Unicode.Scalar]], firstLineColumnOffset: Int) {
        self.file = file; self.lines = lines; self.firstLineColumnOffset = firstLineColumnOffset
    }

    // MARK: Entry points

    /// Reads a whole document from raw bytes, which must be UTF-8. nil: the document is empty.
    static func read(bytes: [UInt8], file: String) throws -> YAMLNode? {
        try checkSize(bytes.count, file: file)
        var splitter = LineSplitter(file: file, columnOffset: 0)
        var iterator = bytes.makeIterator()
        var codec = UTF8()
        decoding: while true {
            switch codec.decode(&iterator) {
            case .scalarValue(let s): try splitter.feed(s)
            case .emptyInput: break decoding
            case .error: throw splitter.error("invalid UTF-8: a scenario file must be UTF-8 text")
            }
        }
        var reader = YAMLReader(file: file, lines: splitter.finish(), firstLineColumnOffset: 0)
        return try reader.readDocument()
    }

    /// Reads a whole document from text. nil: the document is empty.
    static func read(text: String, file: String) throws -> YAMLNode? {
        try checkSize(text.utf8.count, file: file)
        var splitter = LineSplitter(file: file, columnOffset: 0)
        for s in text.unicodeScalars { try splitter.feed(s) }
        var reader = YAMLReader(file: file, lines: splitter.finish(), firstLineColumnOffset: 0)
        return try reader.readDocument()
    }

    private static func checkSize(_ count: Int, file: String) throws {
        guard count > maxBytes else { return }
        throw ScenarioError(location: SourceLocation(file: file, line: 1, column: 1),
                            message: "the file is \(count) bytes: expected a scenario file of at most \(maxBytes / 1024 / 1024) MB of text")
    }

    /// Reads one value written inline, as after `key: ` in a file: a flow collection or a scalar.
    /// Empty text reads as an empty plain scalar.
    static func readValue(text: String, file: String, columnOffset: Int) throws -> YAMLNode {
        var splitter = LineSplitter(file: file, columnOffset: columnOffset)
        for s in text.unicodeScalars { try splitter.feed(s) }
        var reader = YAMLReader(file: file, lines: splitter.finish(), firstLineColumnOffset: columnOffset)
        guard let (line, column) = try reader.nextSignificantLine() else {
            return .empty(at: reader.location(0, 0))
        }
        let node = try reader.readInlineValue(line: line, column: column, depth: 1)
        if let (extra, col) = try reader.nextSignificantLine() {
            throw reader.error(extra, col, "unexpected text after the value: a value must be one scalar or one flow collection")
        }
        return node
    }

    // MARK: Locations and errors

    func location(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line + 1, column: column + 1 + (line == 0 ? firstLineColumnOffset : 0))
    }

    func error(_ line: Int, _ column: Int, _ message: String) -> ScenarioError {
        ScenarioError(location: location(line, column), message: message)
    }

    /// The character at (line, column), or nil past the end of the line or the text.
    private func char(_ line: Int, _ column: Int) -> Unicode.Scalar? {
        guard line >= 0, line < lines.count, column >= 0, column < lines[line].count else { return nil }
        return lines[line][column]
    }

    private static func isSpace(_ s: Unicode.Scalar?) -> Bool { s == " " || s == "\t" }

    /// A short quote of what stands at (line, column), for "found …".
    private func found(_ line: Int, _ column: Int) -> String {
        guard line < lines.count else { return "the end of the file" }
        guard column < lines[line].count else { return "the end of the line" }
        let rest = lines[line][column...].prefix(20)
        var text = ""
        text.unicodeScalars.append(contentsOf: rest)
        return "`\(text)\(lines[line].count - column > 20 ? "…" : "")`"
    }

    // MARK: Lines

    /// Column of the first character after spaces and tabs from `column`, or nil if the rest of
    /// the line is blank or a comment.
    private func contentStart(_ line: Int, from column: Int) -> Int? {
        var c = column
        while YAMLReader.isSpace(char(line, c)) { c += 1 }
        guard let s = char(line, c) else { return nil }
        // A `#` starts a comment at the line start or after whitespace.
        if s == "#" && (c == 0 || YAMLReader.isSpace(char(line, c - 1))) { return nil }
        return c
    }

    /// Moves `next` to the next line with content and returns it with its indentation; checks
    /// what is wrong on any line regardless of context (tabs in indentation, document markers).
    private mutating func nextSignificantLine() throws -> (line: Int, indent: Int)? {
        while next < lines.count {
            let line = next
            guard contentStart(line, from: 0) != nil else { next += 1; continue }
            var indent = 0
            while char(line, indent) == " " { indent += 1 }
            if char(line, indent) == "\t" {
                throw error(line, indent, "a tab in indentation: indent with spaces only")
            }
            try checkLineStart(line)
            return (line, indent)
        }
        return nil
    }

    /// Rejects document markers and directives, which only mean something at column 1.
    private func checkLineStart(_ line: Int) throws {
        let l = lines[line]
        if l.count >= 3, (l[0] == "-" && l[1] == "-" && l[2] == "-") || (l[0] == "." && l[1] == "." && l[2] == "."),
           l.count == 3 || YAMLReader.isSpace(l[3]) {
            throw error(line, 0, "document markers (`---`, `...`) are not supported: a scenario file is exactly one document")
        }
        if l.first == "%" {
            throw error(line, 0, "directives (`%`) are not supported")
        }
    }

    // MARK: Block structure

    private mutating func readDocument() throws -> YAMLNode? {
        guard let (line, indent) = try nextSignificantLine() else { return nil }
        let root = try readBlockNode(line: line, column: indent, depth: 1)
        if let (extra, col) = try nextSignificantLine() {
            if col < indent {
                throw error(extra, col, "this line is indented less than the first line (column \(indent + 1)): expected nothing or a line at column \(indent + 1), found \(found(extra, col))")
            }
            throw error(extra, col, "unexpected content after the document's top-level value: found \(found(extra, col))")
        }
        return root
    }

    private func checkDepth(_ depth: Int, _ line: Int, _ column: Int) throws {
        if depth > YAMLReader.maxDepth {
            throw error(line, column, "nesting deeper than \(YAMLReader.maxDepth) levels is not supported")
        }
    }

    /// Is (line, column) a block sequence indicator: `-` followed by whitespace or the line end?
    private func isDash(_ line: Int, _ column: Int) -> Bool {
        char(line, column) == "-" && (char(line, column + 1) == nil || YAMLReader.isSpace(char(line, column + 1)))
    }

    /// A node whose first character is at (line, column); its block indentation is `column`.
    private mutating func readBlockNode(line: Int, column: Int, depth: Int) throws -> YAMLNode {
        try checkDepth(depth, line, column)
        try rejectUnsupportedIndicator(line, column)
        if isDash(line, column) { return try readBlockSequence(line: line, column: column, depth: depth) }
        if lineHasKey(line, column) { return try readBlockMapping(line: line, column: column, depth: depth) }
        return try readInlineValue(line: line, column: column, depth: depth)
    }

    private mutating func readBlockSequence(line firstLine: Int, column: Int, depth: Int) throws -> YAMLNode {
        try checkDepth(depth, firstLine, column)
        var items: [YAMLNode] = []
        var line = firstLine
        while true {
            let item: YAMLNode
            if let start = contentStart(line, from: column + 1) {
                if char(line, column + 1) == "\t" {
                    throw error(line, column + 1, "a tab after `-`: separate the item with spaces")
                }
                item = try readBlockNode(line: line, column: start, depth: depth + 1)
            } else {
                next = line + 1
                if let (l2, i2) = try nextSignificantLine(), i2 > column {
                    item = try readBlockNode(line: l2, column: i2, depth: depth + 1)
                } else {
                    item = .empty(at: location(line, column + 1))
                }
            }
            items.append(item)
            guard let (l2, i2) = try nextSignificantLine() else { break }
            if i2 > column { throw unexpectedIndentation(after: item, line: l2, column: i2, expectedColumn: column) }
            if i2 < column || !isDash(l2, column) { break }
            line = l2
        }
        return YAMLNode(.sequence(items), at: location(firstLine, column))
    }

    private mutating func readBlockMapping(line firstLine: Int, column: Int, depth: Int) throws -> YAMLNode {
        try checkDepth(depth, firstLine, column)
        var entries: [YAMLNode.Entry] = []
        var seen: [String: SourceLocation] = [:]
        var line = firstLine
        while true {
            let (key, afterColon) = try readBlockKey(line, column)
            let keyLocation = location(line, column)
            if let first = seen[key] {
                throw error(line, column, "duplicate key `\(key)` (first at line \(first.line)): expected each key once in a mapping")
            }
            seen[key] = keyLocation
            let value: YAMLNode
            if let start = contentStart(line, from: afterColon) {
                value = try readInlineValue(line: line, column: start, depth: depth + 1)
            } else {
                next = line + 1
                if let (l2, i2) = try nextSignificantLine(), i2 > column {
                    value = try readBlockNode(line: l2, column: i2, depth: depth + 1)
                } else if let (l2, i2) = try nextSignificantLine(), i2 == column, isDash(l2, column) {
                    // `key:` followed by `- item` lines at the key's own indentation.
                    value = try readBlockSequence(line: l2, column: column, depth: depth + 1)
                } else {
                    value = .empty(at: location(line, afterColon))
                }
            }
            entries.append(YAMLNode.Entry(key: key, keyLocation: keyLocation, value: value))
            guard let (l2, i2) = try nextSignificantLine() else { break }
            if i2 > column { throw unexpectedIndentation(after: value, line: l2, column: i2, expectedColumn: column) }
            if i2 < column { break }
            if isDash(l2, column) {
                throw error(l2, column, "expected `key: value` at this indentation, found a list item `-`")
            }
            line = l2
        }
        return YAMLNode(.mapping(entries), at: location(firstLine, column))
    }

    private func unexpectedIndentation(after node: YAMLNode, line: Int, column: Int, expectedColumn: Int) -> ScenarioError {
        if case .scalar = node.kind, !node.isEmpty {
            if isDash(line, column) || lineHasKey(line, column) {
                return error(line, column, "unexpected indentation: expected column \(expectedColumn + 1) or less, found column \(column + 1) (the line above already has its value \(node.foundDescription), so nothing can nest under it)")
            }
            return error(line, column, "multi-line strings are not supported: a value must fit on its line (found more-indented \(found(line, column)))")
        }
        return error(line, column, "unexpected indentation: expected column \(expectedColumn + 1) or less, found column \(column + 1)")
    }

    /// Does a `key:` start at (line, column)?
    private func lineHasKey(_ line: Int, _ column: Int) -> Bool {
        guard let first = char(line, column) else { return false }
        if first == "'" || first == "\"" {
            guard let (_, end) = try? readQuoted(line, column) else { return false }
            var c = end
            while YAMLReader.isSpace(char(line, c)) { c += 1 }
            return char(line, c) == ":" && (char(line, c + 1) == nil || YAMLReader.isSpace(char(line, c + 1)))
        }
        if first == "[" || first == "{" { return false }
        return plainKeyColon(line, column) != nil
    }

    /// The column of the `:` ending a plain key that starts at `column`, if there is one before
    /// a comment or the line end.
    private func plainKeyColon(_ line: Int, _ column: Int) -> Int? {
        var c = column
        while let s = char(line, c) {
            if s == "#" && c > column && YAMLReader.isSpace(char(line, c - 1)) { return nil }
            if s == ":" && (char(line, c + 1) == nil || YAMLReader.isSpace(char(line, c + 1))) { return c }
            c += 1
        }
        return nil
    }

    /// Reads `key:` at (line, column); returns the key and the column after the colon.
    private func readBlockKey(_ line: Int, _ column: Int) throws -> (String, Int) {
        try rejectUnsupportedIndicator(line, column)
        guard let first = char(line, column) else {
            throw error(line, column, "expected `key: value`, found the end of the line")
        }
        if first == "'" || first == "\"" {
            let (key, end) = try readQuoted(line, column)
            var c = end
            while YAMLReader.isSpace(char(line, c)) { c += 1 }
            guard char(line, c) == ":", char(line, c + 1) == nil || YAMLReader.isSpace(char(line, c + 1)) else {
                throw error(line, c, "expected `:` after the key, found \(found(line, c))")
            }
            return (key, c + 1)
        }
        if first == ":" || first == "[" || first == "{" || first == "," || first == "]" || first == "}" {
            throw error(line, column, "expected `key: value`, found \(found(line, column))")
        }
        guard let colon = plainKeyColon(line, column) else {
            throw error(line, column, "expected `key: value`, found \(found(line, column))")
        }
        var end = colon
        while end > column && YAMLReader.isSpace(char(line, end - 1)) { end -= 1 }
        var key = ""
        key.unicodeScalars.append(contentsOf: lines[line][column..<end])
        return (key, colon + 1)
    }

    /// Rejects the indicators of features outside the subset, naming the feature.
    private func rejectUnsupportedIndicator(_ line: Int, _ column: Int) throws {
        guard let s = char(line, column) else { return }
        let feature: String?
        switch s {
        case "&": feature = "anchors (`&`) are not supported"
        case "*": feature = "aliases (`*`) are not supported"
        case "!": feature = "tags (`!`) are not supported"
        case "|", ">": feature = "block scalars (`|`, `>`) and multi-line strings are not supported"
        case "%": feature = "`%` cannot start a value (it marks directives, which are not supported); quote the value"
        case "@", "`": feature = "`\(s)` is reserved and cannot start a value; quote the value"
        case "?":
            let after = char(line, column + 1)
            feature = (after == nil || YAMLReader.isSpace(after)) ? "complex keys (`?`) are not supported" : nil
        default: feature = nil
        }
        if let feature { throw error(line, column, feature) }
    }

    // MARK: Inline values

    /// A value that starts at (line, column) and ends on its line (a flow collection may run on
    /// over the following lines); consumes through the line where it ends.
    private mutating func readInlineValue(line: Int, column: Int, depth: Int) throws -> YAMLNode {
        try checkDepth(depth, line, column)
        try rejectUnsupportedIndicator(line, column)
        let first = char(line, column)
        let node: YAMLNode
        var endLine = line
        var endColumn: Int
        if first == "[" || first == "{" {
            var l = line, c = column
            node = try readFlowNode(&l, &c, depth: depth)
            endLine = l; endColumn = c
        } else if first == "'" || first == "\"" {
            let (text, end) = try readQuoted(line, column)
            node = YAMLNode(.scalar(text, style: first == "'" ? .singleQuoted : .doubleQuoted), at: location(line, column))
            endColumn = end
        } else if isDash(line, column) {
            throw error(line, column, "a list cannot start after `key:` on the same line: put each `- item` on its own line, or write `[a, b]`")
        } else {
            let (text, end) = try readBlockPlain(line, column)
            node = YAMLNode(.scalar(text, style: .plain), at: location(line, column))
            endColumn = end
        }
        if let extra = contentStart(endLine, from: endColumn) {
            if char(endLine, extra) == ":" {
                throw error(endLine, extra, "a mapping cannot start here: put nested keys on their own lines, or write `{key: value}`")
            }
            throw error(endLine, extra, "unexpected text after the value, found \(found(endLine, extra))")
        }
        next = endLine + 1
        return node
    }

    /// A plain scalar in block context: runs to a comment or the line end.
    private func readBlockPlain(_ line: Int, _ column: Int) throws -> (String, Int) {
        var c = column
        var end = column
        var brackets: [(Unicode.Scalar, Int)] = []
        while let s = char(line, c) {
            if s == "#" && c > column && YAMLReader.isSpace(char(line, c - 1)) { break }
            if s == ":" && (char(line, c + 1) == nil || YAMLReader.isSpace(char(line, c + 1))) {
                throw error(line, c, "a mapping cannot start here: `: ` inside a value; quote the value or put nested keys on their own lines")
            }
            try trackBracket(s, line, c, &brackets)
            if !YAMLReader.isSpace(s) { end = c + 1 }
            c += 1
        }
        if let (open, at) = brackets.last {
            throw error(line, at, "unbalanced `\(open)` in a plain value: expected its closing bracket on the same line")
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: lines[line][column..<end])
        return (text, end)
    }

    private func trackBracket(_ s: Unicode.Scalar, _ line: Int, _ c: Int, _ stack: inout [(Unicode.Scalar, Int)]) throws {
        switch s {
        case "(", "[", "{": stack.append((s, c))
        case ")", "]", "}":
            let open: Unicode.Scalar = s == ")" ? "(" : s == "]" ? "[" : "{"
            guard let last = stack.last, last.0 == open else {
                throw error(line, c, "unbalanced `\(s)` in a plain value: no matching `\(open)` before it")
            }
            stack.removeLast()
        default: break
        }
    }

    /// A quoted scalar starting at (line, column); returns its text and the column after it.
    /// Quoted scalars end on the line they start: multi-line strings are outside the subset.
    private func readQuoted(_ line: Int, _ column: Int) throws -> (String, Int) {
        guard let quote = char(line, column) else { throw error(line, column, "expected a quoted string") }
        var text = ""
        var c = column + 1
        let unterminated = "unterminated quoted string: expected a closing \(quote) on the same line (multi-line strings are not supported)"
        if quote == "'" {
            while true {
                guard let s = char(line, c) else { throw error(line, column, unterminated) }
                if s == "'" {
                    if char(line, c + 1) == "'" { text.unicodeScalars.append("'"); c += 2; continue }
                    return (text, c + 1)
                }
                text.unicodeScalars.append(s); c += 1
            }
        }
        while true {
            guard let s = char(line, c) else { throw error(line, column, unterminated) }
            if s == "\"" { return (text, c + 1) }
            if s != "\\" { text.unicodeScalars.append(s); c += 1; continue }
            guard let e = char(line, c + 1) else { throw error(line, column, unterminated) }
            switch e {
            case "\"": text.unicodeScalars.append("\""); c += 2
            case "\\": text.unicodeScalars.append("\\"); c += 2
            case "/": text.unicodeScalars.append("/"); c += 2
            case "n": text.unicodeScalars.append("\n"); c += 2
            case "t": text.unicodeScalars.append("\t"); c += 2
            case "r": text.unicodeScalars.append("\r"); c += 2
            case "u", "U":
                let width = e == "u" ? 4 : 8
                var value: UInt32 = 0
                for k in 0..<width {
                    guard let h = char(line, c + 2 + k), let digit = YAMLReader.hexValue(h) else {
                        throw error(line, c, "invalid escape: expected \\\(e) and \(width) hex digits, found \(found(line, c))")
                    }
                    value = value &* 16 &+ digit
                }
                guard let scalar = Unicode.Scalar(value), value != 0 else {
                    throw error(line, c, "invalid escape: \(LineSplitter.codePoint(value)) is not an allowed character")
                }
                text.unicodeScalars.append(scalar); c += 2 + width
            default:
                throw error(line, c, "unknown escape `\\\(e)`: expected one of \\\" \\\\ \\/ \\n \\t \\r \\uXXXX \\UXXXXXXXX")
            }
        }
    }

    private static func hexValue(_ s: Unicode.Scalar) -> UInt32? {
        switch s.value {
        case 0x30...0x39: return s.value - 0x30
        case 0x41...0x46: return s.value - 0x41 + 10
        case 0x61...0x66: return s.value - 0x61 + 10
        default: return nil
        }
    }

    // MARK: Flow collections

    /// Skips whitespace, comments and line ends inside a flow collection.
    private func skipFlowSpace(_ line: inout Int, _ column: inout Int) throws {
        while line < lines.count {
            if let start = contentStart(line, from: column) { column = start; return }
            line += 1; column = 0
            if line < lines.count { try checkLineStart(line) }
        }
    }

    private mutating func readFlowNode(_ line: inout Int, _ column: inout Int, depth: Int) throws -> YAMLNode {
        try checkDepth(depth, line, column)
        try rejectUnsupportedIndicator(line, column)
        guard let first = char(line, column) else { throw error(line, column, "expected a value, found \(found(line, column))") }
        let start = location(line, column)
        switch first {
        case "[":
            var items: [YAMLNode] = []
            column += 1
            while true {
                try skipFlowSpace(&line, &column)
                if char(line, column) == "]" { column += 1; break }
                try expectFlowValueStart(line, column, closing: "]")
                items.append(try readFlowNode(&line, &column, depth: depth + 1))
                try skipFlowSpace(&line, &column)
                if char(line, column) == "," { column += 1; continue }
                if char(line, column) == "]" { column += 1; break }
                try checkUnterminated(line, closing: "]")
                if char(line, column) == ":" {
                    throw error(line, column, "a `key: value` pair cannot stand directly in `[...]`: write `{key: value}`")
                }
                throw error(line, column, "expected `,` or `]` in the list, found \(found(line, column))")
            }
            return YAMLNode(.sequence(items), at: start)
        case "{":
            var entries: [YAMLNode.Entry] = []
            var seen: [String: SourceLocation] = [:]
            column += 1
            while true {
                try skipFlowSpace(&line, &column)
                if char(line, column) == "}" { column += 1; break }
                try expectFlowValueStart(line, column, closing: "}")
                let keyLocation = location(line, column)
                try rejectUnsupportedIndicator(line, column)
                let key: String
                if char(line, column) == "'" || char(line, column) == "\"" {
                    let (text, end) = try readQuoted(line, column)
                    key = text; column = end
                } else if char(line, column) == "[" || char(line, column) == "{" {
                    throw error(line, column, "a collection cannot be a key: expected a plain or quoted key")
                } else {
                    key = try readFlowPlain(line, &column, isKey: true)
                }
                if let first = seen[key] {
                    throw ScenarioError(location: keyLocation,
                                        message: "duplicate key `\(key)` (first at line \(first.line), column \(first.column)): expected each key once in a mapping")
                }
                seen[key] = keyLocation
                try skipFlowSpace(&line, &column)
                guard char(line, column) == ":" else {
                    throw error(line, column, "expected `:` after the key `\(key)`, found \(found(line, column))")
                }
                column += 1
                try skipFlowSpace(&line, &column)
                let value: YAMLNode
                if char(line, column) == "," || char(line, column) == "}" {
                    value = .empty(at: location(line, column))
                } else {
                    try expectFlowValueStart(line, column, closing: "}")
                    value = try readFlowNode(&line, &column, depth: depth + 1)
                }
                entries.append(YAMLNode.Entry(key: key, keyLocation: keyLocation, value: value))
                try skipFlowSpace(&line, &column)
                if char(line, column) == "," { column += 1; continue }
                if char(line, column) == "}" { column += 1; break }
                try checkUnterminated(line, closing: "}")
                throw error(line, column, "expected `,` or `}` in the mapping, found \(found(line, column))")
            }
            return YAMLNode(.mapping(entries), at: start)
        case "'", "\"":
            let (text, end) = try readQuoted(line, column)
            column = end
            return YAMLNode(.scalar(text, style: first == "'" ? .singleQuoted : .doubleQuoted), at: start)
        default:
            let text = try readFlowPlain(line, &column, isKey: false)
            return YAMLNode(.scalar(text, style: .plain), at: start)
        }
    }

    private func checkUnterminated(_ line: Int, closing: Unicode.Scalar) throws {
        if line >= lines.count {
            throw ScenarioError(location: location(max(0, lines.count - 1), lines.last?.count ?? 0),
                                message: "unterminated flow collection: expected `\(closing)`, found the end of the input")
        }
    }

    private func expectFlowValueStart(_ line: Int, _ column: Int, closing: Unicode.Scalar) throws {
        if line >= lines.count {
            throw ScenarioError(location: location(max(0, lines.count - 1), lines.last?.count ?? 0),
                                message: "unterminated flow collection: expected `\(closing)`, found the end of the input")
        }
        if let s = char(line, column), s == "," || s == "]" || s == "}" {
            throw error(line, column, "expected a value, found `\(s)`")
        }
    }

    /// A plain scalar inside a flow collection: ends at `,` `]` `}` (a `,` between parentheses
    /// excepted), at `: `, at a comment or at the line end.
    private func readFlowPlain(_ line: Int, _ column: inout Int, isKey: Bool) throws -> String {
        let start = column
        var c = column
        var end = column
        var parens: [(Unicode.Scalar, Int)] = []
        while let s = char(line, c) {
            if s == "#" && c > start && YAMLReader.isSpace(char(line, c - 1)) { break }
            if s == ":" {
                let after = char(line, c + 1)
                if after == nil || YAMLReader.isSpace(after) || after == "," || after == "]" || after == "}" { break }
            }
            if parens.isEmpty && (s == "," || s == "]" || s == "}") { break }
            if (s == "]" || s == "}"), let (open, at) = parens.last {
                throw error(line, at, "unbalanced `\(open)` in a plain value: expected its closing bracket before `\(s)`")
            }
            if s == "[" || s == "{" {
                throw error(line, c, "unexpected `\(s)` inside a plain value: quote the value")
            }
            try trackBracket(s, line, c, &parens)
            if !YAMLReader.isSpace(s) { end = c + 1 }
            c += 1
        }
        if let (open, at) = parens.last {
            throw error(line, at, "unbalanced `\(open)` in a plain value: expected its closing bracket on the same line")
        }
        if end == start {
            throw error(line, start, "expected a \(isKey ? "key" : "value"), found \(found(line, start))")
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: lines[line][start..<end])
        column = end
        return text
    }
}

/// Splits decoded text into lines, accepting CRLF and a leading byte-order mark, and rejecting
/// characters a text file should not hold (NUL, other control characters, a lone CR).
struct LineSplitter {
    /// The longest line accepted, in Unicode scalars.
    static let maxLineLength = 65_536

    let file: String
    let columnOffset: Int
    private var lines: [[Unicode.Scalar]] = []
    private var current: [Unicode.Scalar] = []
    private var pendingCR = false
    private var atStart = true

    init(file: String, columnOffset: Int) { self.file = file; self.columnOffset = columnOffset }

    /// An error at the position the next character would take.
    func error(_ message: String) -> ScenarioError {
        let line = lines.count
        return ScenarioError(location: SourceLocation(file: file, line: line + 1,
                                                      column: current.count + 1 + (line == 0 ? columnOffset : 0)),
                             message: message)
    }

    mutating func feed(_ s: Unicode.Scalar) throws {
        defer { atStart = false }
        if pendingCR {
            guard s == "\n" else { throw error("a carriage return not followed by a line feed: expected LF or CRLF line endings") }
            pendingCR = false
            lines.append(current); current = []
            return
        }
        switch s.value {
        case 0x0A: lines.append(current); current = []
        case 0x0D: pendingCR = true
        case 0x09:
            if current.count >= LineSplitter.maxLineLength {
                throw error("this line is longer than \(LineSplitter.maxLineLength) characters: expected lines of a hand-written scenario file")
            }
            current.append(s)
        case 0x00: throw error("a NUL character (U+0000): a scenario file must be text")
        case 0x01...0x1F, 0x7F...0x9F:
            throw error("control character \(LineSplitter.codePoint(s.value)) is not allowed in a scenario file")
        case 0xFEFF:
            if atStart { return }
            throw error("a byte-order mark (U+FEFF) is only allowed at the start of the file")
        default:
            if current.count >= LineSplitter.maxLineLength {
                throw error("this line is longer than \(LineSplitter.maxLineLength) characters: expected lines of a hand-written scenario file")
            }
            current.append(s)
        }
    }

    /// `U+000B`: the usual way to name a code point.
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    mutating func finish() -> [[Unicode.Scalar]] {
        // A CR at the very end is a line end too.
        lines.append(current)
        current = []
        return lines
    }
}
