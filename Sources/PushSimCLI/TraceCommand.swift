// `pushsim trace`: one device's timeline, event by event, as text or swim lanes in SVG.
import Foundation
import PushSimCore
import PushSimExperiment
import PushSimReport

enum TraceCommand {
    static let spec = CommandSpec(
        name: "trace", summary: "print one device's timeline event by event (or draw it: --svg)",
        operands: "FILE",
        about: """
        Lines: time (dDAY hh:mm:ss.mmm), hour of day (h00–h23), lane, letter (#i, the device's
        i-th letter), event. After the window, the fate of every letter seen in it. With segments,
        the title names the device's segment. A device that shares a server (a finite
        xiva.capacity, apns.interface: binary) is simulated with its whole partition, as in run.
        """,
        options: [
            CommandOption("device", .value("N"), required: true, help: "the device, from 0 to devices − 1"),
            .queue,
            CommandOption("from", .value("T"), default: .value("0"),
                          help: "first instant shown, in the duration syntax from time 0 (midnight): 8h, 1d7h"),
            CommandOption("to", .value("T"), default: .described("the end of the run"), help: "last instant shown (included)"),
            CommandOption("svg", .value("PATH"), help: "also draw the window as swim lanes (backend, XIVA, APNs, device, user)"),
            CommandOption.set.help("as for `pushsim run`"),
            CommandOption.seed.help("as for `pushsim run`"),
        ] + ResourceGuard.options,
        examples: ["pushsim trace scenarios/nightly-offline.yaml --device 3 --from 1d6h --to 1d8h"],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        let (scenario, _) = try ScenarioInput.load(arguments)
        guard let device = try arguments.integer("device", in: 0...max(0, scenario.devices - 1)) else {
            throw InputError.usage("missing --device N")
        }
        let arm = try ScenarioInput.arm(arguments, scenario: scenario)
        func time(_ name: String) throws -> Int64? {
            guard let text = arguments.value(name) else { return nil }
            do { return try TraceReport.parseTime(text).microseconds } catch let error as SweepError {
                throw InputError.usage("--\(name): \(error.message)")
            }
        }
        let end = scenario.end.microseconds
        let from = try time("from") ?? 0
        let to = try time("to") ?? end
        guard from <= to else { throw InputError.usage("--from must not be after --to") }

        // One device, but every event of it is kept as a line: refuse what would not fit, before any work.
        let estimate = ResourceGuard.traceEstimate(scenario, device: device)
        if let refusal = estimate.refusal(under: try ResourceGuard.limits(arguments), name: scenario.name) {
            throw InputError.refused(refusal)
        }
        ClientBudget.current?.expect(estimate, name: scenario.name)
        let svgPath = arguments.value("svg")
        if let svgPath { try ResultsWriter.checkFileDestination(svgPath) }
        let interruption = Interruption.shared
        interruption.install()
        interruption.begin("the trace of device \(device) of '\(scenario.name)'", total: 0, unit: "",
                           consequence: svgPath.map { "'\($0)' is as it was" } ?? "nothing was written")
        defer { interruption.end() }
        let (traced, ledger) = Simulator.trace(scenario, device: device, arm: arm)
        try ClientBudget.verify()
        // "will clear at T" is said at presentation time; the "cleared by the user" line at T
        // tells the same where it happens, with the letter, so only that one is shown.
        let all = traced.filter { if case .willClear = $0.event { false } else { true } }
        let fates = all.filter { if case .endOfRun = $0.event { true } else { false } }
        let events = TraceReport.window(all.filter { if case .endOfRun = $0.event { false } else { true } }, from: from, to: to)
        let title = "trace · \(scenario.name) · seed \(scenario.seed) · device \(device)\(TraceReport.segmentLabel(scenario, device: device)) · queue \(arm.rawValue)"
        if let path = arguments.value("svg") {
            // The state at `from`: the last flip before it, or the state at time 0.
            let flips = all.compactMap { entry -> (time: Int64, online: Bool)? in
                guard case .connectivity(let online) = entry.event else { return nil }
                return (entry.time, online)
            }
            let onlineAtFrom = flips.last { $0.time < from }?.online ?? Simulator.onlineAtStart(scenario, device: device)
            let svg = TraceSVG(title: title, entries: events, from: from, to: min(to, end), onlineAtStart: onlineAtFrom).svg
            try ResultsWriter.writeFile(svg, to: path)
        }
        var out = "# \(title) · \(TraceReport.formatTime(from)) to \(TraceReport.formatTime(to))\n"
        out += TraceReport.text(events)
        let seen = Set(events.compactMap(\.letter))
        let shown = fates.filter { $0.letter.map(seen.contains) ?? false }
        if !shown.isEmpty {
            out += "# fates of the \(shown.count) letter\(shown.count == 1 ? "" : "s") above\n"
            out += TraceReport.text(shown)
        }
        out += "# device total: " + TraceReport.footer(ledger)
        console.out(out)
        return ExitStatus.success.code
    }
}
