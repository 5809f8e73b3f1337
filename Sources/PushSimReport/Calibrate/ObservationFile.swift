// Reads `calibrate --observed OBS.json`: what a team observed of its fleet, every error located at file:line:column.
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment

/// The observation file (docs/research.md, "Calibrate to your fleet"): a JSON object with any
/// of these members, each with its sample size:
///
/// ```json
/// {"description": "…",
///  "apns_console": {"pushes": 120000, "shares": {"delivered": 0.81, "discarded_disabled": 0.04}},
///  "gap_sizes": {"gaps": 3400, "shares": {"gaps_1": 0.55, "gaps_2": 0.2}},
///  "gaps_per_push": {"pushes": 50000, "value": 0.021},
///  "re_requests_per_minute": {"value": 3.2, "minutes": 1440, "devices": 10000}}
/// ```
///
/// `gaps_per_push` may instead give `{"by_hour": [{"hour": 7, "pushes": 2100, "value": 0.05}, …]}`;
/// `"extension_log": "logs.csv"` (relative to the observation file) reads both `gap_sizes` and
/// `gaps_per_push` by hour from an extension log's rows (`run --logs`, or a team's own), through
/// the summary `run --logs` writes; a bad row is refused at `logs.csv:LINE:COLUMN`.
/// Shares left out of a group are fitted together as its `other` cell. Unknown keys, shares
/// outside [0, 1], shares that add up to more than 1, sizes that are not positive and hours
/// outside 0…23 are refused at `OBS.json:LINE:COLUMN`.
package enum ObservationFile {
    /// The most bytes an observation file may have: it is a handful of numbers.
    package static let maxBytes = 1 << 20

    package static func read(path: String, memoryLimit: Double = .infinity) throws -> CalibrationObservations {
        let bytes: [UInt8]
        do { bytes = try BoundedInput.read(path: path, limit: maxBytes + 1, role: "the observation file") } catch {
            throw ScenarioError(location: nil, message: "\(path): cannot read the observation file: \(error.reason)")
        }
        if bytes.count > maxBytes {
            throw ScenarioError(location: SourceLocation(file: path, line: 1, column: 1),
                                message: "the observation file is larger than \(maxBytes / 1024) KB: expected a few observed figures")
        }
        return try parse(text: String(decoding: bytes, as: UTF8.self), file: path, memoryLimit: memoryLimit)
    }

    /// `memoryLimit`: the most bytes reading the extension log it names may take (`--max-memory`).
    package static func parse(text: String, file: String, memoryLimit: Double = .infinity) throws -> CalibrationObservations {
        let root: JSONValue
        do { root = try JSONValue.parse(text) } catch let error as JSONReadError {
            throw ScenarioError(location: SourceLocation(file: file, line: error.line, column: error.column), message: error.message)
        }
        var reader = Reader(text: text, file: file, memoryLimit: memoryLimit)
        return try reader.observations(root)
    }

    /// The members each object may have.
    static let topKeys = ["description", "apns_console", "gap_sizes", "gaps_per_push", "re_requests_per_minute", "extension_log"]

    /// `path` as named in the observation file `file`: relative to the file's folder.
    static func resolve(_ path: String, from file: String) -> String {
        guard !path.hasPrefix("/"), let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }

    struct Reader {
        let text: String
        let file: String
        var memoryLimit: Double = .infinity

        func fail(_ path: [JSONStep], _ message: String) -> ScenarioError {
            let at = JSONValue.location(of: path, in: text) ?? (1, 1)
            return ScenarioError(location: SourceLocation(file: file, line: at.line, column: at.column), message: message)
        }

        func object(_ value: JSONValue, _ path: [JSONStep], keys: [String], what: String) throws -> [String: JSONValue] {
            guard case .object(let members) = value else { throw fail(path, "expected \(what) (a JSON object)") }
            for key in members.keys.sorted() where !keys.contains(key) {
                let hint = Suggestion.nearest(to: key, among: keys).map { "; did you mean `\($0)`?" } ?? ""
                throw fail(path + [.key(key)], "unknown key `\(key)` in \(what)\(hint) (known: \(keys.joined(separator: ", ")))")
            }
            return members
        }

        /// The largest figure an observation may give (a count of pushes, a rate a minute):
        /// past it the moments' weights overflow and no candidate could be scored.
        static let maxFigure = 1e15

        func number(_ value: JSONValue?, _ path: [JSONStep], _ what: String) throws -> Double {
            switch value {
            case .int(let n)? where Double(n).magnitude <= Reader.maxFigure: return Double(n)
            case .uint(let n)? where Double(n) <= Reader.maxFigure: return Double(n)
            case .double(let x)? where x.isFinite && x.magnitude <= Reader.maxFigure: return x
            case .int?, .uint?, .double?:
                throw fail(path, "expected \(what), of at most 10^15 (no observation counts more), found \(value.map { String($0.text.prefix(40)) } ?? "")")
            case nil: throw fail(Array(path.dropLast()), "missing `\(path.last.map { if case .key(let k) = $0 { return k } else { return "" } } ?? "")`: expected \(what)")
            default: throw fail(path, "expected \(what), found something else")
            }
        }

        func size(_ members: [String: JSONValue], _ key: String, _ path: [JSONStep], _ what: String) throws -> Double {
            let n = try number(members[key], path + [.key(key)], "\(what), a number > 0")
            guard n > 0 else { throw fail(path + [.key(key)], "`\(key)` must be greater than 0 (\(what)), found \(n)") }
            return n
        }

        func share(_ value: JSONValue?, _ path: [JSONStep], _ what: String) throws -> Double {
            let x = try number(value, path, "a share between 0 and 1")
            guard (0...1).contains(x) else { throw fail(path, "\(what) must be a share between 0 and 1, found \(x)") }
            return x
        }

        func shares(_ value: JSONValue, _ path: [JSONStep], sizeKey: String, categories: [String], what: String) throws -> ObservedShares {
            let members = try object(value, path, keys: [sizeKey, "shares"], what: "`\(what)`")
            let n = try size(members, sizeKey, path, "the number of \(sizeKey) observed")
            guard let sharesValue = members["shares"] else { throw fail(path, "missing `shares`: expected {CATEGORY: SHARE, …}") }
            let given = try object(sharesValue, path + [.key("shares")], keys: categories, what: "`\(what).shares`")
            if given.isEmpty { throw fail(path + [.key("shares")], "`\(what).shares` is empty: give at least one category's share") }
            var out: [ObservedShares.Share] = []
            for category in categories {
                guard let v = given[category] else { continue }
                out.append(.init(category: category, value: try share(v, path + [.key("shares"), .key(category)], "`\(category)`")))
            }
            let sum = out.reduce(0) { $0 + $1.value }
            if sum > 1 + 1e-6 {
                throw fail(path + [.key("shares")], "the shares of `\(what)` add up to \(sum), more than 1")
            }
            if out.count == categories.count && abs(sum - 1) > 1e-3 {
                throw fail(path + [.key("shares")], "`\(what)` gives every category, so its shares must add up to 1, found \(sum)")
            }
            return ObservedShares(shares: out, sampleSize: n)
        }

        mutating func observations(_ root: JSONValue) throws -> CalibrationObservations {
            let top = try object(root, [], keys: ObservationFile.topKeys, what: "the observation file")
            if let d = top["description"], case .string = d {} else if top["description"] != nil {
                throw fail([.key("description")], "`description` must be a string")
            }
            var result = CalibrationObservations()
            if let v = top["apns_console"] {
                result.console = try shares(v, [.key("apns_console")], sizeKey: "pushes",
                                            categories: CalibrationObservations.consoleCategories, what: "apns_console")
            }
            if let v = top["gap_sizes"] {
                result.gapSizes = try shares(v, [.key("gap_sizes")], sizeKey: "gaps",
                                             categories: CalibrationObservations.gapSizeCategories, what: "gap_sizes")
            }
            if let v = top["gaps_per_push"] {
                let path: [JSONStep] = [.key("gaps_per_push")]
                let members = try object(v, path, keys: ["pushes", "value", "by_hour"], what: "`gaps_per_push`")
                if let byHour = members["by_hour"] {
                    if members["pushes"] != nil || members["value"] != nil {
                        throw fail(path + [.key("by_hour")], "`gaps_per_push` gives either `by_hour` or `pushes` and `value`, not both")
                    }
                    guard case .array(let items) = byHour, !items.isEmpty else {
                        throw fail(path + [.key("by_hour")], "expected `by_hour` as a list of {\"hour\": H, \"pushes\": N, \"value\": X}")
                    }
                    var seen: Set<Int> = []
                    for (i, item) in items.enumerated() {
                        let at = path + [.key("by_hour"), .index(i)]
                        let m = try object(item, at, keys: ["hour", "pushes", "value"], what: "an hour of `gaps_per_push.by_hour`")
                        let h = try number(m["hour"], at + [.key("hour")], "an hour of the day, 0 to 23")
                        guard h == h.rounded(), (0...23).contains(h) else {
                            throw fail(at + [.key("hour")], "`hour` is an hour of the day, a whole number from 0 to 23, found \(h)")
                        }
                        guard seen.insert(Int(h)).inserted else { throw fail(at + [.key("hour")], "hour \(Int(h)) is given twice") }
                        result.gapsPerPush.append(ObservedGapsPerPush(
                            hour: Int(h), value: try share(m["value"], at + [.key("value")], "gaps per push"),
                            pushes: try size(m, "pushes", at, "the pushes logged in that hour")))
                    }
                    result.gapsPerPush.sort { ($0.hour ?? -1) < ($1.hour ?? -1) }
                } else {
                    result.gapsPerPush = [ObservedGapsPerPush(hour: nil, value: try share(members["value"], path + [.key("value")], "gaps per push"),
                                                              pushes: try size(members, "pushes", path, "the pushes logged"))]
                }
            }
            if let v = top["re_requests_per_minute"] {
                let path: [JSONStep] = [.key("re_requests_per_minute")]
                let m = try object(v, path, keys: ["value", "minutes", "devices"], what: "`re_requests_per_minute`")
                let rate = try number(m["value"], path + [.key("value")], "re-requests per minute, a number ≥ 0")
                guard rate >= 0 else { throw fail(path + [.key("value")], "re-requests per minute cannot be negative, found \(rate)") }
                result.reRequestsPerMinute = ObservedRate(perMinute: rate, minutes: try size(m, "minutes", path, "the minutes observed"),
                                                          devices: try size(m, "devices", path, "the phones of the fleet observed"))
            }
            if let v = top["extension_log"] {
                let at: [JSONStep] = [.key("extension_log")]
                guard case .string(let logPath) = v, !logPath.isEmpty else {
                    throw fail(at, "`extension_log` is the path of an extension log CSV (the rows `pushsim run --logs FILE.csv` writes), a string")
                }
                for key in ["gap_sizes", "gaps_per_push"] where top[key] != nil {
                    throw fail([.key(key)], "`\(key)` is read from `extension_log` here: give one or the other")
                }
                let rows: [LoggedPush]
                do { rows = try ExtensionLogReader.read(path: ObservationFile.resolve(logPath, from: file), memoryLimit: memoryLimit) } catch let error as ScenarioError where error.location == nil {
                    throw fail(at, error.message)
                }
                let fromLog = CalibrationObservations.fromLog(ExtensionLogSummary(rows))
                if fromLog.gapsPerPush.isEmpty {
                    throw fail(at, "the extension log `\(logPath)` has no rows: nothing to fit")
                }
                result.gapSizes = fromLog.gapSizes
                result.gapsPerPush = fromLog.gapsPerPush
            }
            if result.isEmpty {
                throw fail([], "the observation file gives nothing to fit: expected at least one of apns_console, gap_sizes, gaps_per_push, re_requests_per_minute, extension_log")
            }
            return result
        }
    }
}
