// report.html for the figures of several sweeps drawn together (`pushsim report DIR DIR… --out
// OUT`): the answer in words for each folder, the key figures, the figures, and how each folder
// was made; every number read from OUT's together.json.

extension HTMLPage {
    /// A source's point as `axis=value`.
    func togetherPoint(_ source: Int, _ point: Int) -> String {
        let base = "sources.\(source).points.\(point).set"
        let shown = keys(base).map { HTMLText.escape($0) + "=" + setting("\(base).\($0)") }
        return shown.isEmpty ? "the file as written" : shown.joined(separator: ", ")
    }

    mutating func together() {
        let sources = count("sources")
        let names = (0..<sources).map { text("sources.\($0).name") }
        title = "PushSim · \(sources) \(string("kind") ?? "sweeps") drawn together · report"
        heading("PushSim · " + names.joined(separator: ", ") + " drawn together", level: 1)
        let axis = string("axis").map { "<code>\(HTMLText.escape($0))</code>" } ?? "nothing (each scenario as written)"
        var answer = "\(sources) sweeps of " + axis + ", one a " + (string("kind") == "segments" ? "segment" : "population")
            + ", drawn together: each figure below has a colour per folder (its off arm dashed). "
        for s in 0..<sources {
            // Each folder's lowest mean loss with the queue, with its interval.
            let candidates = (0..<count("sources.\(s).points")).compactMap { p -> (Int, Int, Double)? in
                guard let a = arm("on", in: "sources.\(s).points.\(p).runs"),
                      let m = double("sources.\(s).points.\(p).runs.\(a).loss_rate.mean") else { return nil }
                return (p, a, m)
            }
            guard let (p, a, _) = candidates.min(by: { $0.2 < $1.2 }), let (q, b, _) = candidates.max(by: { $0.2 < $1.2 }) else { continue }
            let lowest = "sources.\(s).points.\(p).runs.\(a).loss_rate", highest = "sources.\(s).points.\(q).runs.\(b).loss_rate"
            answer += names[s] + ": with the queue, the lowest loss is at <b>" + togetherPoint(s, p) + "</b>, "
                + interval(lowest, .percent) + " of letters lost (95 % interval"
                + (double("sources.\(s).replications") == 1 ? "; one replication: none" : "") + ")"
            if q != p { answer += ", the highest at " + togetherPoint(s, q) + ", " + interval(highest, .percent) + overlapNote(lowest, highest) }
            // The price the axis moves: letters known only from a summary, at its first and last value.
            let points = count("sources.\(s).points")
            if points > 1, let first = arm("on", in: "sources.\(s).points.0.runs"), let last = arm("on", in: "sources.\(s).points.\(points - 1).runs"),
               value("sources.\(s).points.0.runs.\(first).summarized_rate.mean") != nil {
                answer += "; letters known only from a summary go from " + interval("sources.\(s).points.0.runs.\(first).summarized_rate", .percent)
                    + " at " + togetherPoint(s, 0) + " to " + interval("sources.\(s).points.\(points - 1).runs.\(last).summarized_rate", .percent)
                    + " at " + togetherPoint(s, points - 1)
            }
            answer += ". "
        }
        paragraph(answer, cls: "answer")
        paragraph("The figures are drawn from each folder's sweep.json; together.json beside this page keeps what they were drawn from.", cls: "note")

        heading("The key figures (mean ± 95 % interval half-width)")
        var rows: [[String]] = []
        for s in 0..<sources {
            for p in 0..<count("sources.\(s).points") {
                let runs = "sources.\(s).points.\(p).runs"
                for a in 0..<count(runs) {
                    let base = "\(runs).\(a)"
                    rows.append([names[s] + ", " + togetherPoint(s, p) + ", " + armName(a, in: runs), interval(base + ".loss_rate", .percent),
                                 value(base + ".summarized_rate.mean") != nil ? interval(base + ".summarized_rate", .percent) : "—",
                                 interval(base + ".duplicate_rate", .percent), interval(base + ".latency_s.p99", .seconds)])
                }
            }
        }
        table(["folder, point, arm", "loss rate", "summarized", "duplicate rate", "latency p99"], rows)
    }

    /// How the figures were made: each folder's scenario, version, commit, client and seeds, then the drawing.
    mutating func togetherProvenance(command: String?) {
        heading("How this was made")
        var rows: [[String]] = []
        for s in 0..<count("sources") {
            let base = "sources.\(s)"
            let client = value(base + ".client") == nil ? "—" : text(base + ".client")
            let recovery = value(base + ".recovery") == nil ? "" : " (recovery " + text(base + ".recovery") + ")"
            rows.append([text(base + ".name"), text(base + ".folder"), text(base + ".scenario"),
                         text(base + ".pushsim_version"),
                         value(base + ".pushsim_commit") == nil ? "not recorded" : text(base + ".pushsim_commit"),
                         client + recovery, number(base + ".replications", .count),
                         (0..<count(base + ".seeds")).map { number("\(base).seeds.\($0)", .plain(0)) }.joined(separator: ", ")])
        }
        table(["line", "folder", "scenario", "PushSim version", "commit", "the extension's client (queue.client)", "replications", "seeds"], rows,
              caption: "Each folder, as its sweep.json says it was made")
        table(["", ""], [
            ["drawn by PushSim", text("pushsim_version") + ", commit " + text("pushsim_commit")],
            ["command", command.map { "<code class=\"command\">\(HTMLText.escape($0))</code>" }
                ?? "not recorded: this page was made from the folder by <code>pushsim report</code>"],
        ])
        for s in 0..<count("sources") where value("sources.\(s).description") != nil {
            paragraph(text("sources.\(s).name") + ": " + text("sources.\(s).description"), cls: "note")
        }
    }
}
