// `--set PATH=VALUE` overrides: read in the file syntax and applied to the node tree before decoding.

/// Applies dotted-path overrides to a document's node tree, so that an overridden value is
/// checked by exactly the same decoding as one written in the file.
package enum ScenarioOverrides {
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
            throw ScenarioError(location: location(ofSegment: index, in: segments, startingAt: argumentStart), message: message)
        }
        let valueText = String(argument[argument.index(after: equals)...])
        let value = try YAMLReader.readValue(text: valueText, file: file, columnOffset: pathText.unicodeScalars.count + 1)
        return (segments, value)
    }

    /// Where a `--set` argument starts.
    static let argumentStart = SourceLocation(file: ScenarioError.overrideFile, line: 1, column: 1)

    /// The place of path segment `index` in a path written at `start`: the lengths of the
    /// segments before it, plus their dots.
    static func location(ofSegment index: Int, in segments: [String], startingAt start: SourceLocation) -> SourceLocation {
        var place = start
        place.column += segments.prefix(index).reduce(0) { $0 + $1.unicodeScalars.count + 1 }
        return place
    }

    /// Sets `value` at `segments` (already checked against the schema) in `root`, creating a
    /// missing section, replacing an existing value. `segments.NAME.…` reaches into the segment
    /// of that name, which must exist; `pathStart` is where the path is written, for that error.
    static func apply(_ value: YAMLNode, at segments: [String], to root: inout YAMLNode,
                      pathStart: SourceLocation = argumentStart) throws {
        if segments.count > 2 && segments[0] == "segments" {
            try applyInSegment(value, at: segments, to: &root, pathStart: pathStart)
            return
        }
        try apply(value, at: segments[...], to: &root, whole: segments)
    }

    private static func apply(_ value: YAMLNode, at segments: ArraySlice<String>, to root: inout YAMLNode, whole: [String]) throws {
        guard let first = segments.first else { return }
        if segments.count == 1 {
            try set(first, to: value, in: &root, whole: whole)
            return
        }
        guard case .mapping(var entries) = root.kind else {
            throw notAMapping(root, path: "the top level", setting: whole)
        }
        let rest = segments.dropFirst()
        if let index = entries.firstIndex(where: { $0.key == first }) {
            var section = entries[index].value
            if section.isEmpty { section = YAMLNode(.mapping([]), at: section.location) }
            guard case .mapping = section.kind else { throw notAMapping(section, path: "`\(first)`", setting: whole) }
            try apply(value, at: rest, to: &section, whole: whole)
            entries[index].value = section
        } else {
            var section = YAMLNode(.mapping([]), at: value.location)
            try apply(value, at: rest, to: &section, whole: whole)
            entries.append(YAMLNode.Entry(key: first, keyLocation: value.location, value: section))
        }
        root.kind = .mapping(entries)
    }

    /// `segments.NAME.REST`: finds the segment named NAME in the file's list and sets REST in it.
    private static func applyInSegment(_ value: YAMLNode, at segments: [String], to root: inout YAMLNode,
                                       pathStart: SourceLocation) throws {
        let name = segments[1]
        let nameLocation = location(ofSegment: 1, in: segments, startingAt: pathStart)
        guard case .mapping(var entries) = root.kind,
              let listIndex = entries.firstIndex(where: { $0.key == "segments" }),
              case .sequence(var items) = entries[listIndex].value.kind, !items.isEmpty else {
            throw ScenarioError(location: nameLocation,
                                message: "cannot set `\(segments.joined(separator: "."))`: the scenario has no `segments` list (give it in the file, or set the whole `segments` list first)")
        }
        let names = items.map { item -> String? in
            if case .scalar(let text, _)? = item["name"]?.kind { return text }
            return nil
        }
        guard let index = names.firstIndex(where: { $0 == name }) else {
            let known = names.compactMap { $0 }
            let suggestion = Suggestion.nearest(to: name, among: known).map { "; did you mean `\($0)`?" } ?? ""
            throw ScenarioError(location: nameLocation,
                                message: "unknown segment `\(name)` in `\(segments.joined(separator: "."))`: the segments are \(known.map { "`\($0)`" }.joined(separator: ", "))\(suggestion)")
        }
        var item = items[index]
        guard case .mapping = item.kind else { throw notAMapping(item, path: "segment `\(name)`", setting: segments) }
        // Setting one key of a mapping the segment inherits (`mail.bursts.size`) starts from the
        // inherited mapping: the segment's own then replaces the top level's whole, as it should.
        if segments.count > 4, item[segments[2]]?[segments[3]] == nil, let inherited = root[segments[2]]?[segments[3]],
           case .mapping = inherited.kind {
            try apply(inherited, at: segments[2...3], to: &item, whole: segments)
        }
        try apply(value, at: segments[2...], to: &item, whole: segments)
        items[index] = item
        entries[listIndex].value.kind = .sequence(items)
        root.kind = .mapping(entries)
    }

    private static func set(_ key: String, to value: YAMLNode, in node: inout YAMLNode, whole: [String]) throws {
        if node.isEmpty { node = YAMLNode(.mapping([]), at: node.location) }
        guard case .mapping(var entries) = node.kind else { throw notAMapping(node, path: "the top level", setting: whole) }
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
