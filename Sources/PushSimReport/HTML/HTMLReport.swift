// report.html: one self-contained page a manager and a reviewer read, written beside the JSON of
// `run`, `sweep`, `optimize` and `calibrate` (and by `pushsim report DIR` for a folder they wrote).
// It is made from the files of the folder alone — the JSON document and its charts — so a page
// made later from a folder (merged shards included) is the page the command would have written.
import Foundation
import PushSimCore

package enum HTMLReport {
    package static let name = "report.html"

    /// The command line that made the results, shown under "How this was made"; the command
    /// sets it for the call (nil when a page is made from a folder by `pushsim report`).
    @TaskLocal package static var commandLine: String?

    /// The documents a page can be made from, in the order they are looked for.
    package static let documents = ["summary.json", "sweep.json", "optimize.json", "calibrate.json", SweepsTogether.name]

    /// The page for a set of results files (name and contents), or nil when none of them is a
    /// document a page is made from. Charts are the set's `.svg` files, in name order.
    package static func page(for files: [(name: String, contents: String)], command: String? = commandLine) throws -> String? {
        guard let kind = documents.first(where: { name in files.contains { $0.name == name } }),
              let text = files.first(where: { $0.name == kind })?.contents else { return nil }
        let document = try JSONValue.parse(text)
        let charts = files.filter { $0.name.hasSuffix(".svg") }.sorted { $0.name < $1.name }
        var page = HTMLPage(document: document)
        switch kind {
        case "summary.json": page.run()
        case "sweep.json": page.sweep()
        case "optimize.json": page.optimize()
        case SweepsTogether.name: page.together()
        default: page.calibrate()
        }
        page.charts(charts)
        if kind == SweepsTogether.name { page.togetherProvenance(command: command) } else { page.provenance(command: command) }
        return page.html
    }

    /// The files with report.html added (or replaced) when the set holds a document (the
    /// commands' own documents always parse; one that did not would leave the page out).
    package static func adding(to files: [(name: String, contents: String)], command: String? = commandLine)
        -> [(name: String, contents: String)] {
        guard let html = try? page(for: files, command: command) else { return files }
        return files.filter { $0.name != name } + [(name, html)]
    }
}

/// A page being written: its body, and the document the numbers come from.
struct HTMLPage {
    let document: JSONValue
    var title = "PushSim"
    var body = ""

    init(document: JSONValue) { self.document = document }

    // MARK: Looking up the document

    func value(_ path: String) -> JSONValue? {
        Self.lookup(document, path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[...])
    }

    /// The value at `parts` under `node`; a key may hold dots itself (a sweep's settings,
    /// `"queue.repeat_max_count"`), so an object is also searched for the parts joined.
    static func lookup(_ node: JSONValue, _ parts: ArraySlice<String>) -> JSONValue? {
        guard let first = parts.first else { return node }
        switch node {
        case .object(let members):
            var key = first, rest = parts.dropFirst()
            while true {
                if let child = members[key], let found = lookup(child, rest) { return found }
                guard let next = rest.first else { return nil }
                key += "." + next
                rest = rest.dropFirst()
            }
        case .array(let items):
            guard let i = Int(first), items.indices.contains(i) else { return nil }
            return lookup(items[i], parts.dropFirst())
        default: return nil
        }
    }

    /// A setting's value as written (a number, a name, true or false), escaped; not tied to the
    /// JSON by its path, whose key holds dots.
    func setting(_ path: String) -> String {
        switch value(path) {
        case .string(let s)?: return HTMLText.escape(s)
        case .int(let n)?: return String(n)
        case .uint(let n)?: return String(n)
        case .double(let d)?: return JSONValue.format(d)
        case .bool(let b)?: return b ? "true" : "false"
        default: return "?"
        }
    }

    func double(_ path: String) -> Double? {
        switch value(path) {
        case .int(let n)?: return Double(n)
        case .uint(let n)?: return Double(n)
        case .double(let d)?: return d
        default: return nil
        }
    }

    func string(_ path: String) -> String? {
        if case .string(let s)? = value(path) { return s }
        return nil
    }

    func count(_ path: String) -> Int {
        if case .array(let items)? = value(path) { return items.count }
        return 0
    }

    func keys(_ path: String) -> [String] {
        if case .object(let members)? = value(path) { return members.keys.sorted() }
        return []
    }

    // MARK: Numbers, each tied to the document's value it shows

    /// `secondsAs(v)`: seconds in the unit `.seconds` would choose for `v`.
    enum Style { case count, percent, seconds, secondsAs(Double), clock, plain(Int) }

    /// A number of the document as the page shows it, marked with its path, the factor from the
    /// JSON's value to the shown one and the decimals shown, so a check can compare the two.
    func number(_ path: String, _ style: Style) -> String {
        guard let v = double(path) else { return "—" }
        let (text, scale, digits): (String, Double, Int)
        switch style {
        case .count:
            (text, scale, digits) = (HTMLText.grouped(v), 1, 0)
        case .percent:
            let d = abs(v) >= 0.01 || v == 0 ? 2 : abs(v) >= 0.0001 ? 3 : 4
            (text, scale, digits) = (HTMLText.fixed(v * 100, d) + " %", 100, d)
        case .seconds, .secondsAs:
            var unit = v, least = 0
            if case .secondsAs(let other) = style { unit = other }
            let (size, name, shown) = unit >= 3600 ? (3600.0, " h", 2) : unit >= 60 ? (60.0, " min", 1) : (1.0, " s", 3)
            // A half-width in the mean's unit keeps two significant digits (± 0.05 min, not ± 0.1).
            if case .secondsAs = style, v > 0 { least = min(6, max(0, 1 - Int(floor(log10(v / size))))) }
            let d = max(shown, least)
            (text, scale, digits) = (HTMLText.fixed(v / size, d) + name, 1 / size, d)
        case .plain(let d):
            (text, scale, digits) = (HTMLText.fixed(v, d), 1, d)
        case .clock:
            // Simulated time as the tables write it (5d22h39m), to the second; scale 0 marks it.
            return "<span class=\"n\" data-json=\"\(path)\" data-scale=\"0\" data-digits=\"0\">\(HTMLText.clock(v))</span>"
        }
        return "<span class=\"n\" data-json=\"\(path)\" data-scale=\"\(HTMLText.fixed(scale, 10))\" data-digits=\"\(digits)\">\(text)</span>"
    }

    /// A text of the document, marked with its path.
    func text(_ path: String) -> String {
        guard let s = string(path) else { return "—" }
        return "<span class=\"t\" data-json=\"\(path)\">\(HTMLText.escape(s))</span>"
    }

    /// `mean ± ci95` of a sweep's summary object at `path`.
    /// Times keep the mean's unit for the half-width (`7.9 min ± 0.1 min`).
    func interval(_ path: String, _ style: Style) -> String {
        guard let mean = double(path + ".mean") else { return "—" }
        if case .seconds = style { return number(path + ".mean", style) + " ± " + number(path + ".ci95", .secondsAs(mean)) }
        return number(path + ".mean", style) + " ± " + number(path + ".ci95", style)
    }

    // MARK: Pieces

    mutating func heading(_ text: String, level: Int = 2) { body += "<h\(level)>\(text)</h\(level)>\n" }
    mutating func paragraph(_ text: String, cls: String? = nil) {
        body += (cls.map { "<p class=\"\($0)\">" } ?? "<p>") + text + "</p>\n"
    }

    mutating func table(_ header: [String], _ rows: [[String]], caption: String? = nil) {
        var out = "<div class=\"table\"><table>"
        if let caption { out += "<caption>\(caption)</caption>" }
        out += "<thead><tr>" + header.map { "<th>\($0)</th>" }.joined() + "</tr></thead><tbody>"
        for row in rows {
            out += "<tr>" + row.enumerated().map { $0.offset == 0 ? "<th scope=\"row\">\($0.element)</th>" : "<td>\($0.element)</td>" }.joined() + "</tr>"
        }
        body += out + "</tbody></table></div>\n"
    }

    mutating func charts(_ charts: [(name: String, contents: String)]) {
        guard !charts.isEmpty else { return }
        heading("Charts")
        for chart in charts {
            body += "<figure>" + HTMLText.inlineSVG(chart.contents)
                + "<figcaption>\(HTMLText.escape(chart.name)) (also a file beside this page)</figcaption></figure>\n"
        }
    }

    mutating func provenance(command: String?) {
        heading("How this was made")
        var rows: [[String]] = [
            ["PushSim version", text("pushsim_version")],
            ["commit", value("pushsim_commit") == nil ? "not recorded (made before 2.1.0)" : text("pushsim_commit")],
        ]
        if string("client.name") != nil {
            // The client that decided: a built-in one, or a team's own with the version it gave.
            let version = string("client.version") == nil ? "" : " " + text("client.version")
            let kind = string("client.kind") == "user" ? " (the team's own, protocol " + number("client.protocol", .plain(0)) + ")" : " (built-in)"
            rows.append(["the extension's client", text("client.name") + version + kind])
        } else {
            let client = value("resolved_scenario.queue.client") == nil ? "—" : text("resolved_scenario.queue.client")
            rows.append(["the extension's client (queue.client)", client])
        }
        rows.append(["command", command.map { "<code class=\"command\">\(HTMLText.escape($0))</code>" }
            ?? "not recorded: this page was made from the folder by <code>pushsim report</code>; the resolved scenario below, run at its seed, gives these results"])
        if double("seed") != nil { rows.append(["seed", number("seed", .plain(0))]) }
        if count("seeds") > 0 {
            rows.append(["seeds (one a replication)", (0..<count("seeds")).map { number("seeds.\($0)", .plain(0)) }.joined(separator: ", ")])
        }
        table(["", ""], rows)
        let resolved = flatten("resolved_scenario")
        if !resolved.isEmpty {
            paragraph("The resolved scenario: every key, defaults included, overrides applied (<code>pushsim validate FILE --print</code> prints the same as a file).")
            body += "<div class=\"table\"><table class=\"scenario\"><tbody>" + resolved.map { "<tr><th scope=\"row\">\(HTMLText.escape($0.key))</th><td>\(text($0.path))</td></tr>" }.joined() + "</tbody></table></div>\n"
        }
    }

    /// The string leaves under `path`, with their dotted keys.
    func flatten(_ path: String) -> [(key: String, path: String)] {
        switch value(path) {
        case .object(let members)?:
            return members.keys.sorted().flatMap { key -> [(key: String, path: String)] in
                flatten(path + "." + key).map { (key: $0.key.isEmpty ? key : key + "." + $0.key, path: $0.path) }
            }
        case .array(let items)?:
            return items.indices.flatMap { i -> [(key: String, path: String)] in
                flatten(path + ".\(i)").map { (key: $0.key.isEmpty ? "\(i)" : "\(i)." + $0.key, path: $0.path) }
            }
        case .string?: return [(key: "", path: path)]
        default: return []
        }
    }

    var html: String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escape(title))</title>
        <style>\(HTMLText.style)</style>
        </head>
        <body>
        <main>
        \(body)</main>
        </body>
        </html>

        """
    }
}
