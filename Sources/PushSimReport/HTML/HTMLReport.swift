// report.html: one self-contained page a manager and a reviewer read, written beside the JSON of
// `run`, `sweep`, `optimize` and `calibrate` (and by `pushsim report DIR` for a folder they wrote).
// It is made from the files of the folder alone — the JSON document and its charts — so a page
// made later from a folder (merged shards included) is the page the command would have written.
import PushSimCore

package enum HTMLReport {
    package static let name = "report.html"

    /// The command line that made the results, shown under "How this was made"; the command
    /// sets it for the call (nil when a page is made from a folder by `pushsim report`).
    @TaskLocal package static var commandLine: String?

    /// The documents a page can be made from, in the order they are looked for.
    package static let documents = ["summary.json", "sweep.json", "optimize.json", "calibrate.json"]

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
        default: page.calibrate()
        }
        page.charts(charts)
        page.provenance(command: command)
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
        var node: JSONValue? = document
        for part in path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            switch node {
            case .object(let members)?: node = members[part]
            case .array(let items)?:
                guard let i = Int(part), items.indices.contains(i) else { return nil }
                node = items[i]
            default: return nil
            }
        }
        return node
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

    enum Style { case count, percent, seconds, clock, plain(Int) }

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
        case .seconds:
            if v >= 3600 {
                (text, scale, digits) = (HTMLText.fixed(v / 3600, 2) + " h", 1.0 / 3600, 2)
            } else if v >= 60 {
                (text, scale, digits) = (HTMLText.fixed(v / 60, 1) + " min", 1.0 / 60, 1)
            } else {
                (text, scale, digits) = (HTMLText.fixed(v, 3) + " s", 1, 3)
            }
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
    func interval(_ path: String, _ style: Style) -> String {
        guard double(path + ".mean") != nil else { return "—" }
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
        rows.append(["command", command.map { "<code>\(HTMLText.escape($0))</code>" }
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
