// `pushsim find`: which devices and letters ended with a given fate or cause, to trace one of them.
import Foundation
import PushSimCore
import PushSimExperiment
import PushSimReport

enum FindCommand {
    static let spec = CommandSpec(
        name: "find", summary: "list the letters (and devices) that ended with a fate or cause, to trace one",
        operands: "FILE",
        about: """
        Each line names a device and a letter as `pushsim trace` does (#n: the device's n-th
        letter), the instant it was written, and how it ended; the last line is the command that
        traces the first one. Runs the arm for every device without building traces: about as
        fast as `pushsim run` with one arm.
        """,
        options: [
            CommandOption("fate", .value("FATE"), required: true, help: """
                delivered, summarized, undeliverable, lost, or lost:CAUSE with a cause of the JSON
                (lost:apns_replaced, lost:undetected_gap, …)
                """),
            .queue,
            CommandOption("limit", .value("N"), default: .value("20"), range: 0...1_000_000, help: "letters to list, the first in device order; 0: counts only"),
            CommandOption.json.help("print {\"letters\": [{\"device\", \"letter\", \"time_s\", \"fate\"}…], the matching counts, and \"counts\": every fate and cause of the arm, as `run --json` names them}"),
            CommandOption.set.help("as for `pushsim run`: the same scenario and seed give the same letters"),
            CommandOption.seed.help("as for `pushsim run`"),
            CommandOption.jobs.help("threads; never changes the answer"),
        ] + ResourceGuard.options,
        examples: ["pushsim find scenarios/quickstart.yaml --fate lost:apns_replaced --queue off --limit 5"],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        let (scenario, _) = try ScenarioInput.load(arguments)
        // Refuse what the machine cannot do before any work, as `run` does (docs/errors.md §7).
        try ResourceGuard.refuseFind(scenario, arguments: arguments)
        guard let fateWord = arguments.value("fate") else { throw InputError.usage("missing --fate FATE (for example --fate lost:apns_replaced)") }
        guard let query = FateQuery.parse(fateWord) else {
            throw InputError.usage("--fate takes one of \(FateQuery.every.joined(separator: ", ")); got '\(fateWord)'")
        }
        let arm = try ScenarioInput.arm(arguments, scenario: scenario)
        if case .lost(let cause?) = query, cause.isQueueOnly, arm == .off {
            throw InputError.usage("the cause \(cause.key) belongs to the queue arm only: add --queue on")
        }
        let limit = try arguments.integerWithDefault("limit")
        let jobs = try ShardOption.jobs(arguments, scenario: scenario, shard: nil)
        let progress = console.errorIsTerminal && !arguments.flag("json")
            ? RunProgress(console: console, label: "find in '\(scenario.name)'", total: scenario.devices, inPlace: true) : nil
        let interruption = Interruption.shared
        interruption.install()
        interruption.begin("the search of '\(scenario.name)'", total: scenario.devices, unit: "devices", consequence: "nothing was written")
        defer { interruption.end() }
        let found = FateFinder.find(scenario, arm: arm, query: query, limit: limit, jobs: jobs) {
            interruption.advance(by: $0)
            progress?.advance(devices: $0, events: 0)
        }
        try ClientBudget.verify()
        if arguments.flag("json") {
            console.out(json(found, scenario: scenario, arm: arm, query: query).text + "\n")
            return ExitStatus.success.code
        }
        var out = "# find · \(scenario.name) · seed \(scenario.seed) · queue \(arm.rawValue) · \(query)\n"
        out += "\(ReportTable.grouped(found.lettersMatching)) letter\(found.lettersMatching == 1 ? "" : "s") on "
            + "\(ReportTable.grouped(found.devicesMatching)) of \(ReportTable.grouped(found.devicesSearched)) devices\n"
        if !found.letters.isEmpty {
            let rows = [["device", "letter", "written", "fate"]] + found.letters.map { letter in
                [String(letter.device), TraceReport.letterLabel(letter.letter), TraceReport.formatTime(letter.time.microseconds),
                 fateText(letter.fate)]
            }
            let widths = (0..<4).map { c in rows.map { $0[c].count }.max() ?? 0 }
            for row in rows {
                out += row.enumerated().map { c, cell in
                    c == 3 ? cell : cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                }.joined(separator: "  ") + "\n"
            }
            if found.letters.count < found.lettersMatching { out += "… and \(found.lettersMatching - found.letters.count) more (--limit)\n" }
            let first = found.letters[0]
            out += "# trace the first: " + traceCommand(arguments, device: first.device, arm: arm, from: first.time) + "\n"
        }
        console.out(out)
        return ExitStatus.success.code
    }

    static func fateText(_ fate: LetterFate) -> String {
        switch fate {
        case .delivered(let latency): return "delivered after \(SimTime(microseconds: latency - latency % SimTime.millisecond))"
        case .summarized: return "summarized"
        case .undeliverable: return "undeliverable"
        case .lost(let cause): return "lost:\(cause.key)"
        }
    }

    /// The `pushsim trace` command line for one letter: the same file, overrides and seed, from
    /// a minute before the letter was written.
    static func traceCommand(_ arguments: Arguments, device: Int, arm: Arm, from: SimTime) -> String {
        let start = SimTime(microseconds: max(0, from.microseconds - SimTime.minute) / SimTime.second * SimTime.second)
        var words = ["pushsim", "trace", arguments.positionals[0], "--device", String(device), "--queue", arm.rawValue, "--from", start.description]
        for set in arguments.values("set") { words += ["--set", set] }
        if let seed = arguments.value("seed") { words += ["--seed", seed] }
        return words.map(shellQuoted).joined(separator: " ")
    }

    /// A word as a POSIX shell reads it back unchanged: quoted when it holds anything special.
    static func shellQuoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { s in
            ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || "-_./=:,%+".unicodeScalars.contains(s)
        }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static func json(_ found: FateFinding, scenario: Scenario, arm: Arm, query: FateQuery) -> JSONValue {
        .object([
            "scenario": .string(scenario.name), "seed": .uint(scenario.seed), "queue": .string(arm.rawValue),
            "fate": .string(query.description),
            "letters_matching": .int(found.lettersMatching), "devices_matching": .int(found.devicesMatching),
            "devices_searched": .int(found.devicesSearched),
            // Every fate of the arm, named as in `pushsim run --json`, so the two can be compared.
            "counts": .object([
                "letters": .int(found.tally.letters), "delivered": .int(found.tally.delivered),
                "summarized": .int(found.tally.summarized), "lost": .int(found.tally.lost),
                "undeliverable": .int(found.tally.uninstall.undeliverable),
                "causes": .object(Dictionary(uniqueKeysWithValues: LossCause.listed(found.tally.count(of:)).map { ($0.key, JSONValue.int(found.tally.count(of: $0))) })),
            ]),
            "letters": .array(found.letters.map { letter in
                .object(["device": .int(letter.device), "letter": .int(letter.letter + 1),
                         "time_s": .double(Double(letter.time.microseconds) / 1e6), "fate": .string(fateText(letter.fate))])
            }),
        ])
    }
}
