// One `--fit PATH=LOW..HIGH`: a scenario key (or one argument of a distribution) and the box it is searched in.
import PushSimCore
import PushSimScenarioFile

/// A parameter `calibrate` fits: the key it overrides, the interval it is searched in, and how
/// a value is written back in the file syntax.
package struct FitParameter: Equatable, Sendable {
    /// What the numbers are: a plain number (a probability, a share, a count), a duration in
    /// microseconds, or a rate per microsecond.
    package enum Unit: String, Equatable, Sendable { case number, duration, rate }

    /// As given: `device.alerts_off`, `connectivity.offline.median`.
    package var path: String
    /// The key the value is written to: the path itself, or without the distribution's argument.
    package var keyPath: String
    /// Around the argument in the key's value (`lognormal(` and `, 4h)`); empty for a whole value.
    package var prefix = ""
    package var suffix = ""
    package var unit: Unit
    /// A whole number (an integer key such as `queue.repeat_max_count`): values are rounded.
    package var integer: Bool
    package var low: Double
    package var high: Double
    /// The value the scenario gives, where the search starts (clamped into the box).
    package var start: Double
    /// Where LOW and HIGH begin in the argument (columns from 1), for `--fit:1:COLUMN` errors.
    package var lowColumn: Int
    package var highColumn: Int
    /// The value's text as the scenario gives it, between `prefix` and `suffix` (empty for a
    /// whole value, which is written whole): where another parameter of the same key finds it.
    package var original = ""

    /// The file name `--fit` errors carry, as `--set` and `--vary` errors do.
    package static let argumentFile = "--fit"

    /// The distribution arguments a path may end with, by the distribution's name.
    static let arguments = ScenarioOverrides.distributionArguments

    /// `value` (rounded for an integer key) in the file syntax.
    package func text(_ value: Double) -> String {
        switch unit {
        case .duration: return SimTime(microseconds: Int64(max(0, value).rounded())).description
        case .rate: return ScenarioPrinter.rate(value)
        case .number: return ScenarioPrinter.decimal(integer ? value.rounded() : value)
        }
    }

    /// The `--set` override that gives the key `value`.
    package func override(_ value: Double) -> String { keyPath + "=" + prefix + text(value) + suffix }

    /// The `--set` overrides that give every parameter its value, one per key: parameters that
    /// share a key (two arguments of one distribution, two values of one list of windows) are
    /// written into the same value, each in its own place, so that none undoes another.
    package static func overrides(_ parameters: [FitParameter], _ values: [Double]) -> [String] {
        var keys: [String] = []
        var byKey: [String: [(parameter: FitParameter, value: Double)]] = [:]
        for (parameter, value) in zip(parameters, values) {
            if byKey[parameter.keyPath] == nil { keys.append(parameter.keyPath) }
            byKey[parameter.keyPath, default: []].append((parameter, value))
        }
        return keys.map { key in
            let group = byKey[key] ?? []
            guard group.count > 1, let first = group.first?.parameter else { return group[0].parameter.override(group[0].value) }
            // The key's value as the file gives it, each parameter's text put in its place, from the last place to the first.
            var text = Array((first.prefix + first.original + first.suffix).unicodeScalars)
            for (parameter, value) in group.sorted(by: { $0.parameter.prefix.unicodeScalars.count > $1.parameter.prefix.unicodeScalars.count }) {
                let start = parameter.prefix.unicodeScalars.count
                text.replaceSubrange(start..<(start + parameter.original.unicodeScalars.count), with: Array(parameter.text(value).unicodeScalars))
            }
            var out = String.UnicodeScalarView()
            out.append(contentsOf: text)
            return key + "=" + String(out)
        }
    }

    /// Parameters that would write the same value (a path given twice, a whole distribution and
    /// one of its arguments): the first such pair's message; nil when every one has a place of
    /// its own.
    package static func clash(_ parameters: [FitParameter]) -> String? {
        for (i, a) in parameters.enumerated() {
            for b in parameters[..<i] where a.keyPath == b.keyPath {
                let aStart = a.prefix.unicodeScalars.count, bStart = b.prefix.unicodeScalars.count
                let overlap = a.prefix.isEmpty || b.prefix.isEmpty
                    || (aStart < bStart + b.original.unicodeScalars.count && bStart < aStart + a.original.unicodeScalars.count)
                if overlap {
                    return a.path == b.path ? "--fit `\(a.path)` is given twice"
                        : "--fit `\(b.path)` and `\(a.path)` fit the same value of `\(a.keyPath)`: give one of them"
                }
            }
        }
        return nil
    }

    /// The value as the search sees it: whole for an integer key, and otherwise on a grid of a
    /// power of ten at most 1/10 000 of the range (a duration at least a whole microsecond), so
    /// the fitted value reads `14m55.4s` or `0.15706`, not seventeen digits the data cannot
    /// support.
    package func settled(_ value: Double) -> Double {
        if integer { return value.rounded() }
        // The grid as `perUnit` points per 1, or `step` units apart: a power of ten either way,
        // so that dividing by a whole number gives the decimal's nearest Double (0.15706, not
        // 0.15706000000000001 as multiplying by 1e-5 would).
        var perUnit = 1.0, step = 1.0
        let finest = (high - low) / 10_000
        if finest > 0 && finest.isFinite {
            while 1 / perUnit > finest && perUnit < 1e15 { perUnit *= 10 }
            while step * 10 <= finest { step *= 10 }
        }
        if unit == .duration { perUnit = 1 }
        let onGrid = perUnit > 1 ? (value * perUnit).rounded() / perUnit : (value / step).rounded() * step
        return min(max(onGrid, low), high)
    }

    /// Reads `PATH=LOW..HIGH` against the resolved `scenario` (which gives the starting value
    /// and, for a distribution's argument, its other arguments). Errors are located `--fit:1:COLUMN`.
    /// `entries`: the scenario's printed entries when the caller has them (many `--fit` read
    /// against one scenario print it once).
    package static func read(_ argument: String, in scenario: Scenario,
                             entries given: [ScenarioPrinter.Entry]? = nil) throws -> FitParameter {
        func fail(_ column: Int, _ message: String) -> ScenarioError {
            ScenarioError(location: SourceLocation(file: argumentFile, line: 1, column: column), message: message)
        }
        guard let equals = argument.firstIndex(of: "="), let dots = argument.range(of: "..", range: equals..<argument.endIndex) else {
            throw fail(1, "--fit expects PATH=LOW..HIGH (such as `device.alerts_off=0..0.5` or `connectivity.offline.median=5m..2h`), found `\(argument)`")
        }
        let path = String(argument[..<equals])
        let lowText = String(argument[argument.index(after: equals)..<dots.lowerBound]).trimmingCharacters(in: .whitespaces)
        let highText = String(argument[dots.upperBound...]).trimmingCharacters(in: .whitespaces)
        let lowColumn = argument.distance(from: argument.startIndex, to: equals) + 2
        let highColumn = argument.distance(from: argument.startIndex, to: dots.upperBound) + 1
        let segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if path == "seed" || path == "devices" {
            throw fail(1, "--fit `\(path)`: \(path == "seed" ? "the seed is the common random numbers, not a parameter" : "the number of phones simulated is not a parameter of the fleet (set it with --set devices=N)")")
        }
        var keyPath = path, prefix = "", suffix = ""
        let entries = given ?? ScenarioPrinter.entries(scenario)
        var baseText: String?
        if let listAt = segments.indices.first(where: { $0 > 0 && ScenarioSchema.listItemKeys(Array(segments[..<$0])) != nil }) {
            // One value of one item of a list replaced whole (`connectivity.windows.0.length.mean`):
            // the override writes the whole list again, with the fitted value in its place.
            let item = try listItem(path: path, segments: segments, at: listAt, entries: entries, fail: fail)
            (keyPath, prefix, suffix, baseText) = (item.keyPath, item.prefix, item.suffix, item.base)
        } else if let (index, message) = ScenarioSchema.checkPath(segments) {
            // Not a key: perhaps a distribution's argument, `connectivity.offline.median`.
            guard segments.count > 1, let argumentName = segments.last, arguments.values.contains(where: { $0.contains(argumentName) }),
                  ScenarioSchema.checkPath(Array(segments.dropLast())) == nil else {
                throw fail(1 + segments.prefix(index).reduce(0) { $0 + $1.unicodeScalars.count + 1 }, message)
            }
            keyPath = segments.dropLast().joined(separator: ".")
            guard let value = scalar(at: Array(segments.dropLast()), in: entries), let open = value.firstIndex(of: "("),
                  value.hasSuffix(")"), let names = arguments[String(value[..<open])] else {
                let given = scalar(at: Array(segments.dropLast()), in: entries)
                // The key itself is suggested only where it can be fitted: not a size, nor a key not given.
                let fix: String
                if given == nil {
                    fix = "the scenario does not give `\(keyPath)`; give it as exponential(MEAN), uniform(MIN, MAX) or lognormal(MEDIAN, P99) first"
                } else if let given, (try? number(given, { ScenarioError(location: nil, message: $0) })) == nil {
                    fix = "its value is `\(given)`, which is not fitted (a bound is a number, a duration or a rate); give it as exponential(MEAN), uniform(MIN, MAX) or lognormal(MEDIAN, P99) to fit an argument"
                } else {
                    fix = "its value is `\(given ?? "")`; fit `\(keyPath)` itself, or give it as exponential(MEAN), uniform(MIN, MAX) or lognormal(MEDIAN, P99) first"
                }
                throw fail(1, "--fit `\(path)`: `\(keyPath)` is not a distribution with named arguments here: \(fix)")
            }
            (prefix, suffix, baseText) = try distributionArgument(argumentName, of: value, open: open, names: names, path: path, keyPath: keyPath, fail: fail)
        } else {
            baseText = scalar(at: segments, in: entries)
            // A key of a section the scenario does not give: fitting it alone would make the
            // section without its required keys, at every candidate.
            if baseText == nil, segments.count >= 3, node(at: Array(segments.dropLast(2)), in: entries) != nil,
               node(at: Array(segments.dropLast()), in: entries) == nil {
                let section = segments.dropLast().joined(separator: ".")
                throw fail(1, "--fit `\(path)`: the scenario has no `\(section)`, so there is nothing of it to fit; give `\(section)` with its keys in the file (or with --set) first")
            }
        }
        let (low, lowUnit) = try number(lowText) { fail(lowColumn, "--fit `\(path)`: LOW \($0)") }
        let (high, highUnit) = try number(highText) { fail(highColumn, "--fit `\(path)`: HIGH \($0)") }
        // A bare 0 is a duration and a rate too: the other bound says which.
        let unit = lowUnit == .number && low == 0 ? highUnit : lowUnit
        if highUnit != unit && !(highUnit == .number && high == 0) {
            throw fail(highColumn, "--fit `\(path)`: LOW `\(lowText)` and HIGH `\(highText)` are not the same kind of value (a number, a duration or a rate)")
        }
        // Past 2^53 a Double no longer holds every whole number: the bound would be quoted back as another.
        for (bound, text, column, name) in [(low, lowText, lowColumn, "LOW"), (high, highText, highColumn, "HIGH")]
        where unit == .number && bound.magnitude > 9_007_199_254_740_992 {
            throw fail(column, "--fit `\(path)`: \(name) `\(text)` is more than 2^53 (9007199254740992), past which a bound is not kept exactly; expected a bound of at most that")
        }
        guard low < high else {
            throw fail(lowColumn, "--fit `\(path)`: the range `\(lowText)..\(highText)` is empty; LOW must be below HIGH")
        }
        let integer = unit == .number && low == low.rounded() && high == high.rounded()
            && (baseText.map { !$0.isEmpty && $0.allSatisfy(\.isNumber) } ?? false)
        var start = (low + high) / 2
        if let baseText, let (value, baseUnit) = try? number(baseText, { ScenarioError(location: nil, message: $0) }), baseUnit == unit || value == 0 {
            start = min(max(value, low), high)
        }
        return FitParameter(path: path, keyPath: keyPath, prefix: prefix, suffix: suffix, unit: unit, integer: integer,
                            low: low, high: high, start: start, lowColumn: lowColumn, highColumn: highColumn,
                            original: prefix.isEmpty && suffix.isEmpty ? "" : baseText ?? "")
    }

    /// A bound in the file syntax: `0.2`, `20%` (a number), `30m` (a duration), `40/d` (a rate).
    static func number<E: Error>(_ text: String, _ fail: (String) -> E) throws(E) -> (Double, Unit) {
        if text.isEmpty { throw fail("is missing") }
        if text.hasSuffix("%"), let value = Double(text.dropLast()), value.isFinite { return (value / 100, .number) }
        if let value = Double(text), value.isFinite, text.first != "+", !text.contains(where: { $0.isLetter }) { return (value, .number) }
        if let slash = text.firstIndex(of: "/") {
            let perText = String(text[text.index(after: slash)...])
            let per = try? ValueParsers.duration(perText.first?.isNumber == true ? perText : "1" + perText)
            guard let count = Double(text[..<slash]), count.isFinite, count >= 0, let per, per.microseconds > 0 else {
                throw fail("expected a rate such as `40/d`, found `\(text)`")
            }
            return (count / Double(per.microseconds), .rate)
        }
        do { return (Double(try ValueParsers.duration(text).microseconds), .duration) } catch {
            throw fail("expected a number (`0.2`, `20%`), a duration (`30m`) or a rate (`40/d`), found `\(text)`")
        }
    }

    /// `value` (`lognormal(1m, 1h)`) around its argument `name`: the text before and after it, and the argument itself.
    static func distributionArgument(_ name: String, of value: String, open: String.Index, names: [String], path: String, keyPath: String,
                         fail: (Int, String) -> ScenarioError) throws -> (prefix: String, suffix: String, base: String) {
        let parts = String(value[value.index(after: open)..<value.index(before: value.endIndex)])
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let k = names.firstIndex(of: name), parts.count == names.count else {
            throw fail(1 + path.unicodeScalars.count - name.unicodeScalars.count,
                       "--fit `\(path)`: `\(keyPath)` is `\(value)`, whose arguments are \(names.map { "`\($0)`" }.joined(separator: ", ")), not `\(name)`")
        }
        return (String(value[...open]) + parts[..<k].map { $0 + ", " }.joined(), parts[(k + 1)...].map { ", " + $0 }.joined() + ")", parts[k])
    }

    /// `--fit LIST.N.KEY` or `LIST.N.KEY.ARGUMENT`, `segments[at]` being N: the key path of the
    /// whole list, the list in one line before and after the fitted value, and the value the
    /// scenario gives. A list one of whose values holds a comma (`uniform(6h, 9h)`) cannot be
    /// written in one line (YAML ends a flow mapping's value at the comma): refused.
    static func listItem(path: String, segments: [String], at listAt: Int, entries: [ScenarioPrinter.Entry],
                         fail: (Int, String) -> ScenarioError) throws -> (keyPath: String, prefix: String, suffix: String, base: String) {
        let listPath = Array(segments[..<listAt])
        let listName = listPath.joined(separator: ".")
        let itemKeys = ScenarioSchema.listItemKeys(listPath) ?? []
        let column = { (i: Int) in 1 + segments.prefix(i).reduce(0) { $0 + $1.unicodeScalars.count + 1 } }
        let example = "`\(listName).0.\(itemKeys.first ?? "KEY")`"
        guard listAt + 1 < segments.count, listAt + 3 >= segments.count, let k = Int(segments[listAt]), k >= 0, String(k) == segments[listAt] else {
            throw fail(column(listAt), "--fit `\(path)`: `\(listName)` is a list: name one item by its place, from 0, and one of its keys (\(example), or a distribution's argument after it)")
        }
        guard case .list(let items)? = node(at: listPath, in: entries), k < items.count, case .mapping(let itemEntries) = items[k] else {
            let count: Int
            if case .list(let items)? = node(at: listPath, in: entries) { count = items.count } else { count = 0 }
            throw fail(column(listAt), "--fit `\(path)`: `\(listName)` has \(count) item\(count == 1 ? "" : "s")\(count > 0 ? " (0 to \(count - 1))" : ""), so no item \(k)")
        }
        let key = segments[listAt + 1]
        guard itemKeys.contains(key) else {
            let hint = Suggestion.nearest(to: key, among: itemKeys).map { "; did you mean `\($0)`?" } ?? ""
            throw fail(column(listAt + 1), "--fit `\(path)`: an item of `\(listName)` has no key `\(key)`\(hint) (known: \(itemKeys.joined(separator: ", ")))")
        }
        guard let entry = itemEntries.first(where: { $0.key == key }), case .scalar(let value) = entry.value else {
            throw fail(column(listAt + 1), "--fit `\(path)`: item \(k) of `\(listName)` does not set `\(key)`: set it in the file first")
        }
        var around = (prefix: "", suffix: "", base: value)
        if listAt + 2 < segments.count {
            let name = segments[listAt + 2]
            guard let open = value.firstIndex(of: "("), value.hasSuffix(")"), let names = arguments[String(value[..<open])] else {
                throw fail(column(listAt + 2), "--fit `\(path)`: `\(key)` of item \(k) is `\(value)`, not a distribution with named arguments; fit `\(listName).\(k).\(key)` itself")
            }
            around = try distributionArgument(name, of: value, open: open, names: names, path: path, keyPath: "\(listName).\(k).\(key)", fail: fail)
        }
        // The list in one line, the fitted value marked.
        let marker = "\u{1}"
        var comma: String?
        func flow(_ node: ScenarioPrinter.Node) -> String {
            switch node {
            case .scalar(let text), .text(let text):
                if text.contains(",") && comma == nil { comma = text }
                return text
            case .mapping(let entries): return "{" + entries.map { $0.key + ": " + flow($0.value) }.joined(separator: ", ") + "}"
            case .list(let items): return "[" + items.map(flow).joined(separator: ", ") + "]"
            }
        }
        var marked = items
        marked[k] = .mapping(itemEntries.map { $0.key == key ? ScenarioPrinter.Entry(key, .scalar(marker)) : $0 })
        let line = flow(.list(marked))
        if comma == nil && (around.prefix + around.suffix).contains(",") { comma = around.prefix + around.base + around.suffix }
        if let comma {
            throw fail(1, "--fit `\(path)`: `\(listName)` holds `\(comma)`, whose comma cannot stand in the one-line list the fitted value is written in; write that value without a comma (`exponential(…)`, `lognormal` of another item) or fit another key")
        }
        let parts = line.components(separatedBy: marker)
        return (listName, parts[0] + around.prefix, around.suffix + parts[1], around.base)
    }

    /// The scalar the printed scenario holds at `path` (a segment's keys through its name).
    static func scalar(at path: [String], in entries: [ScenarioPrinter.Entry]) -> String? {
        if case .scalar(let text)? = node(at: path, in: entries) { return text }
        if case .text(let text)? = node(at: path, in: entries) { return text }
        return nil
    }

    /// The node the printed scenario holds at `path` (a segment's keys through its name).
    static func node(at path: [String], in entries: [ScenarioPrinter.Entry]) -> ScenarioPrinter.Node? {
        var node = ScenarioPrinter.Node.mapping(entries)
        for key in path {
            switch node {
            case .mapping(let entries):
                guard let next = entries.first(where: { $0.key == key }) else { return nil }
                node = next.value
            case .list(let items):
                guard let item = items.first(where: { item in
                    if case .mapping(let e) = item, let name = e.first(where: { $0.key == "name" }) {
                        return name.value == .text(key) || name.value == .scalar(key)
                    }
                    return false
                }) else { return nil }
                node = item
            case .scalar, .text: return nil
            }
        }
        return node
    }
}
