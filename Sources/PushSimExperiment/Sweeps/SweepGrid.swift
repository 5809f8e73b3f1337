// The points of a parameter sweep: axes from the file and the command line, and their grid.
import PushSimScenarioFile

/// One key set to one value at a sweep point, in the file syntax (applied as `--set PATH=VALUE`).
package struct SweepSetting: Equatable, Hashable, Sendable {
    package var path: String
    package var value: String
    package init(path: String, value: String) { self.path = path; self.value = value }

    /// The override that applies this setting: `PATH=VALUE`.
    package var override: String { "\(path)=\(value)" }
}

/// One point of the grid: a value for every axis, in axis order.
package struct SweepPoint: Equatable, Hashable, Sendable {
    package var settings: [SweepSetting]
    package init(settings: [SweepSetting]) { self.settings = settings }

    /// The overrides that turn the base scenario into this point.
    package var overrides: [String] { settings.map(\.override) }

    /// A short label such as `queue.repeat_max_count=5, apns.loss=1%` (`base` when there are no axes).
    package var label: String { settings.isEmpty ? "base" : settings.map(\.override).joined(separator: ", ") }
}

/// Why a sweep cannot be set up (bad `--vary`, say); exit status 2.
package struct SweepError: Error, CustomStringConvertible, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

package enum SweepGrid {
    /// The cartesian product of the axes' values. The first axis varies slowest and the last
    /// fastest (like nested loops written in axis order), so the points of one value of the
    /// first axis are adjacent. No axes: one point with no settings (the scenario as it is).
    package static func points(_ axes: [SweepAxis]) -> [SweepPoint] {
        var points = [SweepPoint(settings: [])]
        for axis in axes {
            var next: [SweepPoint] = []
            next.reserveCapacity(points.count * axis.values.count)
            for point in points {
                for value in axis.values {
                    next.append(SweepPoint(settings: point.settings + [SweepSetting(path: axis.path, value: value)]))
                }
            }
            points = next
        }
        return points
    }

    /// The axes a sweep runs: the command line's `--vary` axes first, in the order given (the
    /// first is the charts' x axis), then the file's `sweep:` axes whose path the command line
    /// neither varies nor fixes with `--set` — the command line wins, path by path.
    package static func axes(file: [SweepAxis], commandLine: [SweepAxis], fixed: Set<String>) -> [SweepAxis] {
        let varied = Set(commandLine.map(\.path))
        return commandLine + file.filter { !varied.contains($0.path) && !fixed.contains($0.path) }
    }

    /// The file name `--vary` errors carry: `--vary:1:COLUMN`, as `--set` errors do.
    package static let varyFile = "--vary"
    /// The most points a grid may have (and runs, points × replications): a table or chart of
    /// more is unreadable, and each point is a scenario held in memory. Checked from the axes'
    /// lengths before a single point is built.
    package static let maxPoints = 10_000
    package static let maxRuns = 100_000

    /// Reads one `--vary PATH=V1,V2,…`. Values are in the file syntax; commas inside brackets,
    /// parentheses, braces or quotes belong to the value (`uniform(1s, 2s)` is one value).
    package static func parseVary(_ text: String) throws -> SweepAxis { try readVary(text).axis }

    /// Like ``parseVary(_:)``, also giving where each value starts in `text` (a column counted
    /// in characters from 1), so an error in a value can point into the argument. Errors are
    /// located `--vary:1:COLUMN`.
    /// `option`: the option as the user typed it (`optimize --over`), which errors name.
    package static func readVary(_ text: String, option: String = varyFile) throws -> VaryArgument {
        func fail(_ column: Int, _ message: String) -> ScenarioError {
            ScenarioError(location: SourceLocation(file: option, line: 1, column: column), message: message)
        }
        guard let equals = text.firstIndex(of: "=") else {
            throw fail(1, "\(option) expects PATH=V1,V2,… (such as `queue.repeat_max_count=0,5,10`), found `\(text)`")
        }
        let pathText = String(text[..<equals])
        let segments = pathText.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let (index, message) = ScenarioSchema.checkPath(segments) {
            throw fail(1 + segments.prefix(index).reduce(0) { $0 + $1.unicodeScalars.count + 1 }, message)
        }
        if pathText == "seed" {
            throw fail(1, option == varyFile
                ? "a sweep cannot vary `seed`: replications already run with derived seeds (use --replications N)"
                : "\(option) cannot vary `seed`: every candidate already runs on the same derived seeds, as many as --first-stage and --max-replications allow")
        }
        let offset = pathText.unicodeScalars.count + 2   // the column of the first character after `=`
        let values = splitValuesWithColumns(String(text[text.index(after: equals)...]))
        for value in values where value.text.isEmpty {
            throw fail(offset + value.column, "\(option) `\(pathText)`: expected a comma-separated list of values with none empty, found \(values.count == 1 ? "nothing after `=`" : "an empty value")")
        }
        return VaryArgument(axis: SweepAxis(path: pathText, values: values.map(\.text)),
                            columns: values.map { offset + $0.column })
    }

    /// The number of points of the grid of `axes` (the product of their lengths), nil when it
    /// passes `Int.max`. Nothing is built.
    package static func pointCount(_ axes: [SweepAxis]) -> Int? {
        var count = 1
        for axis in axes {
            let (product, overflow) = count.multipliedReportingOverflow(by: axis.values.count)
            if overflow { return nil }
            count = product
        }
        return count
    }

    /// Why a grid of `axes` × `replications` is too large, or nil; from the lengths alone.
    package static func sizeRefusal(_ axes: [SweepAxis], replications: Int, name: String) -> String? {
        let lengths = axes.map { String($0.values.count) }.joined(separator: " × ")
        guard let points = pointCount(axes) else {
            return "refusing to sweep '\(name)': its grid (\(lengths)) has more than \(Int.max) points; use fewer values"
        }
        if points > maxPoints {
            return "refusing to sweep '\(name)': its grid has \(points) points (\(lengths)), more than \(maxPoints); "
                + "use fewer values, or split the grid into several sweeps"
        }
        let (runs, overflow) = points.multipliedReportingOverflow(by: max(1, replications))
        if overflow || runs > maxRuns {
            return "refusing to sweep '\(name)': \(points) points × \(replications) replications are "
                + "\(overflow ? "too many" : String(runs)) runs, more than \(maxRuns); use fewer points or replications"
        }
        return nil
    }

    /// Splits a list at the commas that are not nested in brackets or quotes; trims spaces.
    static func splitValues(_ text: String) -> [String] { splitValuesWithColumns(text).map(\.text) }

    /// The values of a list with the column (from 0, in characters of `text`) where each starts.
    static func splitValuesWithColumns(_ text: String) -> [(text: String, column: Int)] {
        var values: [(text: String, column: Int)] = []
        var current = ""
        var start = 0
        var depth = 0
        var quote: Character?
        func finish() {
            let trimmed = current.trimmingCharacters(in: .whitespaces)
            // An empty value is pointed at where its slot starts.
            let leading = trimmed.isEmpty ? 0 : current.prefix { $0 == " " || $0 == "\t" }.count
            values.append((trimmed, start + leading))
            current = ""
        }
        for (position, ch) in text.enumerated() {
            if let q = quote {
                if ch == q { quote = nil }
                current.append(ch)
                continue
            }
            switch ch {
            case "\"", "'": quote = ch; current.append(ch)
            case "(", "[", "{": depth += 1; current.append(ch)
            case ")", "]", "}": depth = max(0, depth - 1); current.append(ch)
            case "," where depth == 0:
                finish()
                start = position + 1
            default: current.append(ch)
            }
        }
        finish()
        return values
    }
}

/// One `--vary` argument read: its axis, and the column in the argument where each value starts.
package struct VaryArgument: Sendable {
    package var axis: SweepAxis
    package var columns: [Int]
}

import Foundation
