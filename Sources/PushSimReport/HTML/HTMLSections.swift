// The sections of report.html for each kind of result: the answer in words, the key table, what
// each cause of loss means, the load at peak; every number read from the result's JSON.

extension HTMLPage {
    /// Index of the run object for `arm` ("off" or "on") in `runs`, if the run has that arm.
    func arm(_ name: String, in path: String = "runs") -> Int? {
        (0..<count(path)).first { string("\(path).\($0).queue") == name }
    }

    var scenarioName: String { string("scenario") ?? "scenario" }

    // MARK: run

    mutating func run() {
        title = "PushSim · \(scenarioName) · report"
        heading("PushSim · " + text("scenario") + " · " + text("resolved_scenario.devices") + " devices × "
                + text("resolved_scenario.duration"), level: 1)
        let off = arm("off"), on = arm("on")
        var answer = ""
        if let off, let on {
            answer = "With the queue, " + number("runs.\(on).loss_rate", .percent) + " of letters are lost instead of "
                + number("runs.\(off).loss_rate", .percent) + " without it (" + number("runs.\(on).lost", .count) + " against "
                + number("runs.\(off).lost", .count) + " of " + number("runs.\(on).letters", .count) + " letters). "
        } else if let only = off ?? on {
            answer = (only == on ? "With the queue, " : "Without the queue, ") + number("runs.\(only).loss_rate", .percent)
                + " of letters are lost (" + number("runs.\(only).lost", .count) + " of " + number("runs.\(only).letters", .count) + "). "
        }
        if let on {
            answer += number("runs.\(on).summarized", .count) + " letters end in a summary (“N missed messages”): neither delivered nor lost. "
            answer += "The queue re-requested " + number("runs.\(on).re_requests", .count) + " gaps and re-sent "
                + number("runs.\(on).resent", .count) + " pushes. "
        }
        let arms = [off, on].compactMap { $0 }
        answer += "Duplicates: " + arms.map { number("runs.\($0).duplicates", .count) + " " + armName($0) }.joined(separator: ", ") + ". "
        answer += "Half the letters arrive within " + arms.map { number("runs.\($0).latency_s.p50", .seconds) + " " + armName($0) }.joined(separator: ", ")
            + "; 99 % within " + arms.map { number("runs.\($0).latency_s.p99", .seconds) + " " + armName($0) }.joined(separator: ", ") + "."
        paragraph(answer, cls: "answer")
        paragraph("One run at one seed: no interval is given here. <code>pushsim sweep FILE --replications 10</code> repeats it with other seeds and gives 95 % intervals.", cls: "note")

        heading("The key figures")
        let header = ["metric"] + arms.map { armName($0) }
        var rows: [[String]] = []
        for (label, key, style) in [("letters", "letters", Style.count), ("delivered", "delivered", .count),
                                    ("summarized (not lost, not delivered)", "summarized", .count), ("lost", "lost", .count),
                                    ("loss rate", "loss_rate", .percent), ("duplicates", "duplicates", .count),
                                    ("latency to first delivery, p50", "latency_s.p50", .seconds),
                                    ("p90", "latency_s.p90", .seconds), ("p99", "latency_s.p99", .seconds), ("max", "latency_s.max", .seconds)] {
            rows.append([label] + arms.map { number("runs.\($0).\(key)", style) })
        }
        if let on {
            for (label, key) in [("re-requests", "re_requests"), ("re-sent pushes", "resent"), ("summaries shown", "summaries"),
                                 ("extension time-outs", "extension_timeouts")] where value("runs.\(on).\(key)") != nil {
                rows.append([label] + arms.map { $0 == on ? number("runs.\($0).\(key)", .count) : "—" })
            }
        }
        table(header, rows)

        causes(arms)
        load(arms)
    }

    /// Said when the lowest and highest means' 95 % intervals overlap: the points are not told apart.
    func overlapNote(_ lowest: String, _ highest: String) -> String {
        guard let low = double(lowest + ".mean"), let high = double(highest + ".mean"),
              let a = double(lowest + ".ci95"), let b = double(highest + ".ci95"), low + a >= high - b else { return "" }
        return " (the two intervals overlap: the sweep does not tell its points apart by loss)"
    }

    func armName(_ index: Int, in path: String = "runs") -> String {
        string("\(path).\(index).queue") == "on" ? "with the queue" : "without the queue"
    }

    /// The causes that count in some arm, each with what it means.
    mutating func causes(_ arms: [Int]) {
        let names = Set(arms.flatMap { keys("runs.\($0).causes") })
            .filter { name in arms.contains { (double("runs.\($0).causes.\(name)") ?? 0) > 0 } }.sorted()
        heading("Why letters were lost")
        guard !names.isEmpty else { paragraph("No letter was lost."); return }
        paragraph("Every lost letter has one cause: the first that applies in the order of docs/scenarios.md. Causes that count nowhere in this run are left out.")
        table(["cause", "what it means"] + arms.map { armName($0) },
              names.map { name in ["<code>\(name)</code>", HTMLText.escape(HTMLText.causeMeaning[name] ?? "see docs/scenarios.md")]
                  + arms.map { number("runs.\($0).causes.\(name)", .count) } })
    }

    /// The load at its peak per bin of simulated time, per arm.
    mutating func load(_ arms: [Int]) {
        guard let first = arms.first, value("runs.\(first).load") != nil else { return }
        heading("The load at peak")
        paragraph("Counted in bins of " + number("runs.\(first).load.bin_s", .plain(0)) + " s of simulated time, over "
                  + number("runs.\(first).load.devices", .count) + " devices; “peak” is the busiest bin, “at” when it began.")
        var rows: [[String]] = []
        for (label, key) in [("letters in", "letters_in"), ("pushes sent to APNs", "pushes_sent"), ("re-requests at XIVA", "re_requests"),
                             ("re-sent pushes", "resent"), ("summaries shown", "summaries")] {
            // The queue's own flows only where the queue works.
            let queueOnly = ["re_requests", "resent", "summaries"].contains(key)
            for a in arms where value("runs.\(a).load.\(key)") != nil && !(queueOnly && string("runs.\(a).queue") == "off") {
                rows.append(["\(label), \(armName(a))", number("runs.\(a).load.\(key).mean", .plain(2)), number("runs.\(a).load.\(key).peak", .count),
                             value("runs.\(a).load.\(key).peak_at_s") == nil ? "—" : number("runs.\(a).load.\(key).peak_at_s", .clock),
                             number("runs.\(a).load.\(key).per_1000_devices.peak", .plain(2))])
            }
        }
        table(["flow", "mean a bin", "peak", "at (simulated time)", "peak per 1 000 devices"], rows)
        if let note = string("runs.\(first).load.assumption") { paragraph("Scaling: " + HTMLText.escape(note) + ".", cls: "note") }
    }

    // MARK: sweep

    mutating func sweep() {
        title = "PushSim · \(scenarioName) · sweep report"
        heading("PushSim sweep · " + text("scenario") + " · " + number("replications", .count) + " replications a point", level: 1)
        let axes = (0..<count("axes")).compactMap { string("axes.\($0).path") }
        let points = count("points")
        func label(_ p: Int) -> String {
            axes.map { axis in "\(HTMLText.escape(axis))=\(setting("points.\(p).set.\(axis)"))" }.joined(separator: ", ")
        }
        // The answer: for each arm, the point with the lowest mean loss rate, and the spread.
        var answer = ""
        for armName in ["on", "off"] {
            let candidates = (0..<points).compactMap { p -> (Int, Int, Double)? in
                guard let a = arm(armName, in: "points.\(p).runs"), let m = double("points.\(p).runs.\(a).loss_rate.mean") else { return nil }
                return (p, a, m)
            }
            guard let best = candidates.min(by: { $0.2 < $1.2 }), let worst = candidates.max(by: { $0.2 < $1.2 }) else { continue }
            answer += (armName == "on" ? "With the queue" : "Without the queue") + ", the lowest loss is at <b>\(label(best.0))</b>: "
                + interval("points.\(best.0).runs.\(best.1).loss_rate", .percent) + " of letters lost (95 % interval)"
            if worst.0 != best.0 {
                answer += "; the highest at \(label(worst.0)): " + interval("points.\(worst.0).runs.\(worst.1).loss_rate", .percent)
                answer += overlapNote("points.\(best.0).runs.\(best.1).loss_rate", "points.\(worst.0).runs.\(worst.1).loss_rate")
            }
            answer += ". "
        }
        if case .object? = value("reference.set") {
            answer += "Differences below are paired, seed by seed, against the reference point (" + keys("reference.set").map { text("reference.set.\($0)") }.joined(separator: ", ") + ")."
        }
        paragraph(answer, cls: "answer")

        heading("The key figures (mean ± 95 % interval half-width)")
        var rows: [[String]] = []
        for p in 0..<points {
            for a in 0..<count("points.\(p).runs") {
                let base = "points.\(p).runs.\(a)"
                rows.append(["\(label(p)), \(armName(a, in: "points.\(p).runs"))", interval(base + ".loss_rate", .percent),
                             value(base + ".summarized_rate") != nil ? interval(base + ".summarized_rate", .percent) : "—",
                             interval(base + ".duplicate_rate", .percent), interval(base + ".latency_s.p99", .seconds)])
            }
        }
        table(["point", "loss rate", "summarized", "duplicate rate", "latency p99"], rows)
    }

    // MARK: optimize

    mutating func optimize() {
        title = "PushSim · \(scenarioName) · optimize report"
        heading("PushSim optimize · " + text("scenario") + " · " + text("metric"), level: 1)
        var answer = "Chosen: <b>" + text("chosen") + "</b>. " + text("guarantee")
        answer += " It took " + number("total_replications", .count) + " replications in all (a fixed sample would have taken "
            + number("fixed_sample.total_replications", .count) + ")."
        if value("stopped_by_interruption") == .bool(true) { answer += " <b>Stopped early: the guarantee does not hold.</b>" }
        paragraph(answer, cls: "answer")
        heading("The candidates (δ = " + number("delta", .plain(4)) + ")")
        var rows: [[String]] = []
        for s in 0..<count("systems") {
            let base = "systems.\(s)"
            let within: String
            if value(base + ".chosen") == .bool(true) { within = "chosen" }
            else if let d = double(base + ".difference_from_chosen.mean"), let h = double(base + ".difference_from_chosen.half_width"),
                    let delta = double("delta") { within = d - h <= delta ? "within δ of the chosen" : "worse by more than δ" }
            else { within = "—" }
            rows.append([text(base + ".label"), number(base + ".mean", .plain(5)), number(base + ".replications", .count),
                         value(base + ".difference_from_chosen.mean") == nil ? "0" :
                            number(base + ".difference_from_chosen.mean", .plain(5)) + " ± " + number(base + ".difference_from_chosen.half_width", .plain(5)),
                         value(base + ".eliminated.by") == nil ? "survived" : "eliminated by " + text(base + ".eliminated.by"), within])
        }
        table(["candidate", "mean", "replications", "minus the chosen (95 %)", "sampling", "versus δ"], rows)
        paragraph("Procedure: " + text("procedure") + ". " + text("comparison") + ".", cls: "note")
    }

    // MARK: calibrate

    mutating func calibrate() {
        title = "PushSim · \(scenarioName) · calibration report"
        heading("PushSim calibrate · " + text("scenario"), level: 1)
        var fitted: [String] = []
        for p in 0..<count("parameters") {
            let base = "parameters.\(p)"
            var line = text(base + ".path") + " = <b>" + (value(base + ".value_text") != nil ? text(base + ".value_text") : number(base + ".value", .plain(4))) + "</b>"
            if value(base + ".ci95_text.0") != nil {
                line += " (95 % interval " + text(base + ".ci95_text.0") + " to " + text(base + ".ci95_text.1") + ")"
            } else if value(base + ".ci95.0") != nil {
                line += " (95 % interval " + number(base + ".ci95.0", .plain(4)) + " to " + number(base + ".ci95.1", .plain(4)) + ")"
            }
            if value(base + ".identified") == .bool(false) { line += ", <b>not identified</b>: " + text(base + ".not_identified_because") }
            fitted.append(line)
        }
        var answer = "Fitted: " + fitted.joined(separator: "; ") + ". "
        answer += "The fit: J = " + number("fit.j", .plain(3)) + " on " + number("fit.degrees_of_freedom", .count)
            + " degree(s) of freedom, p = " + number("fit.p_value", .plain(3))
            + " (a small p says the model cannot reproduce the observed figures together). "
        answer += value("converged") == .bool(true) ? "The search converged." : "<b>The search did not converge.</b>"
        paragraph(answer, cls: "answer")
        heading("Observed against fitted")
        table(["figure", "observed", "fitted", "standard error", "standardized residual"], (0..<count("targets")).map { t in
            let base = "targets.\(t)"
            return [text(base + ".name"), number(base + ".observed", .plain(5)), number(base + ".fitted", .plain(5)),
                    number(base + ".standard_error", .plain(5)), number(base + ".standardized_residual", .plain(2))]
        })
        paragraph("Method: " + text("method") + ".", cls: "note")
    }
}
