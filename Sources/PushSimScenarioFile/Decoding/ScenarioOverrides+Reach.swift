// `--set` on the paths `calibrate --fit` takes beyond keys: one argument of a distribution (`connectivity.offline.median=3m`) and one key of one item of a list (`connectivity.windows.0.length=2h`).

extension ScenarioOverrides {
    /// The arguments a distribution's value may be reached by, by the distribution's name.
    package static let distributionArguments: [String: [String]] = [
        "exponential": ["mean"], "uniform": ["min", "max"], "lognormal": ["median", "p99"],
    ]

    /// `PATH=VALUE` when PATH is no key but reaches into one: the key's path and its new value
    /// (the distribution with one argument replaced, the item's key set); nil when PATH is a
    /// key, or reaches nothing (the ordinary error follows). `resolved(path)` gives the value
    /// the scenario has at a key the file does not write (a default), in the file syntax.
    static func reach(_ argument: String, in root: YAMLNode, resolved: ([String]) -> String?) throws -> (segments: [String], value: YAMLNode)? {
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        let pathText = String(argument[..<equals])
        let segments = pathText.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard ScenarioSchema.checkPath(segments) != nil, !segments.contains(where: \.isEmpty) else { return nil }
        let valueText = String(argument[argument.index(after: equals)...])
        let valueAt = SourceLocation(file: ScenarioError.overrideFile, line: 1, column: pathText.unicodeScalars.count + 2)
        func fail(_ segment: Int, _ message: String) -> ScenarioError {
            ScenarioError(location: location(ofSegment: segment, in: segments, startingAt: argumentStart), message: "--set `\(pathText)`: " + message)
        }
        // One item of a list, by its place: `LIST.N.KEY` or `LIST.N.KEY.ARGUMENT`.
        if let listAt = segments.indices.first(where: { $0 > 0 && ScenarioSchema.listItemKeys(Array(segments[..<$0])) != nil }) {
            let listPath = Array(segments[..<listAt])
            let listName = listPath.joined(separator: ".")
            let itemKeys = ScenarioSchema.listItemKeys(listPath) ?? []
            guard listAt + 1 < segments.count, listAt + 3 >= segments.count, let k = Int(segments[listAt]), k >= 0,
                  String(k) == segments[listAt] else {
                throw fail(listAt, "`\(listName)` is a list: name one item by its place, from 0, and one of its keys (`\(listName).0.\(itemKeys.first ?? "KEY")`, or a distribution's argument after it)")
            }
            guard let list = node(at: listPath, in: root), case .sequence(var items) = list.kind else {
                throw fail(listAt, "the file does not write the list `\(listName)`: give it in the file (or set it whole with --set) first")
            }
            guard k < items.count, case .mapping(var entries) = items[k].kind else {
                throw fail(listAt, "`\(listName)` has \(items.count) item\(items.count == 1 ? "" : "s")\(items.isEmpty ? "" : " (0 to \(items.count - 1))"), so no item \(k)")
            }
            let key = segments[listAt + 1]
            guard itemKeys.contains(key) else {
                let hint = Suggestion.nearest(to: key, among: itemKeys).map { "; did you mean `\($0)`?" } ?? ""
                throw fail(listAt + 1, "an item of `\(listName)` has no key `\(key)`\(hint) (known: \(itemKeys.joined(separator: ", ")))")
            }
            var newText = valueText
            if listAt + 2 < segments.count {
                guard let current = entries.first(where: { $0.key == key }), case .scalar(let text, _) = current.value.kind else {
                    throw fail(listAt + 1, "item \(k) of `\(listName)` does not set `\(key)`: set it in the file first")
                }
                newText = try replacing(argument: segments[listAt + 2], of: text, with: valueText, at: listAt + 2, fail: fail)
            }
            let value = try YAMLReader.readValue(text: newText, file: ScenarioError.overrideFile, columnOffset: valueAt.column - 1)
            if let index = entries.firstIndex(where: { $0.key == key }) { entries[index].value = value }
            else { entries.append(YAMLNode.Entry(key: key, keyLocation: valueAt, value: value)) }
            items[k].kind = .mapping(entries)
            return (listPath, YAMLNode(.sequence(items), at: valueAt))
        }
        // One argument of a distribution: `connectivity.offline.median`.
        guard segments.count > 1, let name = segments.last, distributionArguments.values.contains(where: { $0.contains(name) }),
              ScenarioSchema.checkPath(Array(segments.dropLast())) == nil else { return nil }
        let keyPath = Array(segments.dropLast())
        let current: String?
        if let written = node(at: keyPath, in: root) {
            guard case .scalar(let text, _) = written.kind else { return nil }
            current = text
        } else {
            current = resolved(keyPath)
        }
        guard let current else {
            throw fail(segments.count - 1, "the scenario does not give `\(keyPath.joined(separator: "."))`; give it as exponential(MEAN), uniform(MIN, MAX) or lognormal(MEDIAN, P99) first")
        }
        let newText = try replacing(argument: name, of: current, with: valueText, at: segments.count - 1, fail: fail)
        return (keyPath, YAMLNode(.scalar(newText, style: .plain), at: valueAt))
    }

    /// `text` (`lognormal(40m, 6h)`) with its argument `name` replaced by `value`.
    private static func replacing(argument name: String, of text: String, with value: String, at segment: Int,
                                  fail: (Int, String) -> ScenarioError) throws -> String {
        let trimmed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")"), let names = distributionArguments[String(text[..<open])] else {
            throw fail(segment, "the value there is `\(text)`, not a distribution with named arguments (exponential(MEAN), uniform(MIN, MAX), lognormal(MEDIAN, P99)); set the key itself")
        }
        var parts = text[text.index(after: open)..<text.index(before: text.endIndex)].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        guard let k = names.firstIndex(of: name), parts.count == names.count else {
            throw fail(segment, "the value there is `\(text)`, whose arguments are \(names.map { "`\($0)`" }.joined(separator: ", ")), not `\(name)`")
        }
        guard !trimmed.isEmpty, !trimmed.contains(where: { ",()[]{}".contains($0) }) else {
            throw fail(segment, "expected one value for the argument `\(name)` (such as `3m`), found `\(value)`")
        }
        parts[k] = trimmed
        return String(text[...open]) + parts.joined(separator: ", ") + ")"
    }

    /// The node the document writes at `path` (a segment's keys through its name), or nil.
    static func node(at path: [String], in root: YAMLNode) -> YAMLNode? {
        var node = root
        for key in path {
            switch node.kind {
            case .mapping:
                guard let next = node[key] else { return nil }
                node = next
            case .sequence(let items):
                guard let item = items.first(where: { item in
                    if case .scalar(let text, _)? = item["name"]?.kind { return text == key }
                    return false
                }) else { return nil }
                node = item
            case .scalar: return nil
            }
        }
        return node
    }
}
