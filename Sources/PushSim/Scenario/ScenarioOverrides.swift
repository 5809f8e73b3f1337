// `--set PATH=VALUE` overrides: read in the file syntax and applied to the node tree before decoding.

/// Applies dotted-path overrides to a document's node tree, so that an overridden value is
/// checked by exactly the same decoding as one written in the file.
enum ScenarioOverrides {
    /// Splits `PATH=VALUE`, checks the path and reads the value. Errors point into the argument
    /// (file `--set`, line 1, column within `PATH=VALUE`).
    static func parse(_ argument: String) throws -> (segments: [String], value: YAMLNode) {
        let file = ScenarioError.overrideFile
        guard let equals = argument.firstIndex(of: "=") else {
            throw ScenarioError(location: SourceLocation(file: file, line: 1, column: 1),
                                message: "expected PATH=VALUE (such as `queue.repeat_max_count=5`), found `\(argument)`")
        }
        let pathText = String(argument[..<equals])
        let segments = pathText.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let (index, message) = ScenarioSchema.checkPath(segments) {
            // Column of the offending segment: the lengths of those before it, plus their dots.
            let column = 1 + segments.prefix(index).reduce(0) { $0 + $1.unicodeScalars.count + 1 }
            throw ScenarioError(location: SourceLocation(file: file, line: 1, column: column), message: message)
        }
        let valueText = String(argument[argument.index(after: equals)...])
        let value = try YAMLReader.readValue(text: valueText, file: file, columnOffset: pathText.unicodeScalars.count + 1)
        return (segments, value)
    }

    /// Sets `value` at `segments` (already checked against the schema) in `root`, creating a
    /// missing section, replacing an existing value.
    static func apply(_ value: YAMLNode, at segments: [String], to root: inout YAMLNode) throws {
        guard let first = segments.first else { return }
        if segments.count == 1 {
            try set(first, to: value, in: &root)
            return
        }
        guard case .mapping(var entries) = root.kind else {
            throw notAMapping(root, path: "the top level", setting: segments)
        }
        let rest = Array(segments.dropFirst())
        if let index = entries.firstIndex(where: { $0.key == first }) {
            var section = entries[index].value
            if section.isEmpty { section = YAMLNode(.mapping([]), at: section.location) }
            guard case .mapping = section.kind else { throw notAMapping(section, path: "`\(first)`", setting: segments) }
            try apply(value, at: rest, to: &section)
            entries[index].value = section
        } else {
            var section = YAMLNode(.mapping([]), at: value.location)
            try apply(value, at: rest, to: &section)
            entries.append(YAMLNode.Entry(key: first, keyLocation: value.location, value: section))
        }
        root.kind = .mapping(entries)
    }

    private static func set(_ key: String, to value: YAMLNode, in node: inout YAMLNode) throws {
        if node.isEmpty { node = YAMLNode(.mapping([]), at: node.location) }
        guard case .mapping(var entries) = node.kind else { throw notAMapping(node, path: "the top level", setting: [key]) }
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].value = value
        } else {
            entries.append(YAMLNode.Entry(key: key, keyLocation: value.location, value: value))
        }
        node.kind = .mapping(entries)
    }

    private static func notAMapping(_ node: YAMLNode, path: String, setting segments: [String]) -> ScenarioError {
        ScenarioError(location: node.location,
                      message: "cannot set `\(segments.joined(separator: "."))`: expected \(path) to be a mapping, found \(node.foundDescription)")
    }
}
