// The points of a parameter sweep: axes from the file and the command line, and their grid.

/// One key set to one value at a sweep point, in the file syntax (applied as `--set PATH=VALUE`).
public struct SweepSetting: Equatable, Hashable, Sendable {
    public var path: String
    public var value: String
    public init(path: String, value: String) { self.path = path; self.value = value }

    /// The override that applies this setting: `PATH=VALUE`.
    public var override: String { "\(path)=\(value)" }
}

/// One point of the grid: a value for every axis, in axis order.
public struct SweepPoint: Equatable, Hashable, Sendable {
    public var settings: [SweepSetting]
    public init(settings: [SweepSetting]) { self.settings = settings }

    /// The overrides that turn the base scenario into this point.
    public var overrides: [String] { settings.map(\.override) }

    /// A short label such as `queue.repeat_max_count=5, apns.loss=1%` (`base` when there are no axes).
    public var label: String { settings.isEmpty ? "base" : settings.map(\.override).joined(separator: ", ") }
}

/// Why a sweep cannot be set up (bad `--vary`, say); exit status 2.
public struct SweepError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

public enum SweepGrid {
    /// The cartesian product of the axes' values. The first axis varies slowest and the last
    /// fastest (like nested loops written in axis order), so the points of one value of the
    /// first axis are adjacent. No axes: one point with no settings (the scenario as it is).
    public static func points(_ axes: [SweepAxis]) -> [SweepPoint] {
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
    public static func axes(file: [SweepAxis], commandLine: [SweepAxis], fixed: Set<String>) -> [SweepAxis] {
        let varied = Set(commandLine.map(\.path))
        return commandLine + file.filter { !varied.contains($0.path) && !fixed.contains($0.path) }
    }

    /// Reads one `--vary PATH=V1,V2,…`. Values are in the file syntax; commas inside brackets,
    /// parentheses, braces or quotes belong to the value (`uniform(1s, 2s)` is one value).
    public static func parseVary(_ text: String) throws -> SweepAxis {
        guard let equals = text.firstIndex(of: "=") else {
            throw SweepError("--vary expects PATH=V1,V2,… (such as `queue.repeat_max_count=0,5,10`), found `\(text)`")
        }
        let path = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        guard !path.isEmpty else { throw SweepError("--vary `\(text)`: the key path before `=` is empty") }
        let values = splitValues(String(text[text.index(after: equals)...]))
        guard !values.isEmpty, !values.contains(where: \.isEmpty) else {
            throw SweepError("--vary `\(text)`: expected a comma-separated list of values with none empty")
        }
        return SweepAxis(path: path, values: values)
    }

    /// Splits a list at the commas that are not nested in brackets or quotes; trims spaces.
    static func splitValues(_ text: String) -> [String] {
        var values: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        for ch in text {
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
                values.append(current.trimmingCharacters(in: .whitespaces)); current = ""
            default: current.append(ch)
            }
        }
        values.append(current.trimmingCharacters(in: .whitespaces))
        return values
    }
}

import Foundation
