// `pushsim find` and `pushsim trace` against `pushsim run`: the same fates, per arm and cause, on every bundled scenario and on fuzzed version-2 ones.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

/// What a search must agree with the run on, and the trace of the letters it found.
enum FindAgreement {
    /// Every disagreement between `find`'s counts (and its found letters' traces) and the run's
    /// ledgers, in words; empty when they agree.
    static func disagreements(_ scenario: Scenario, jobs: Int = 1) -> [String] {
        let run = Simulator.run(scenario, jobs: jobs)
        var problems: [String] = []
        for (a, arm) in scenario.arms.enumerated() {
            let ledger = run.arms[a].ledger
            let found = FateFinder.find(scenario, arm: arm, query: .lost(nil), limit: 2, jobs: jobs)
            let tally = found.tally
            let label = "\(scenario.name) queue \(arm.rawValue)"
            let pairs: [(String, Int, Int)] = [
                ("letters", tally.letters, ledger.letters), ("delivered", tally.delivered, ledger.delivered),
                ("summarized", tally.summarized, ledger.summarized), ("lost", tally.lost, ledger.lost),
                ("undeliverable", tally.uninstall.undeliverable, ledger.uninstall.undeliverable),
                ("lost (matching)", found.lettersMatching, ledger.lost),
            ] + LossCause.allCases.map { ("causes.\($0.key)", tally.count(of: $0), ledger.count(of: $0)) }
            for (name, mine, theirs) in pairs where mine != theirs {
                problems.append("\(label): \(name) find \(mine), run \(theirs)")
            }
            if tally.latency != ledger.latency { problems.append("\(label): latency histograms differ") }
            // The trace of each letter listed ends with the fate the search gave it.
            for letter in found.letters {
                let entries = Simulator.trace(scenario, device: letter.device, arm: arm).entries
                let end = entries.last { entry in
                    guard entry.letter == letter.letter, case .endOfRun = entry.event else { return false }
                    return true
                }
                if end?.event != .endOfRun(letter.fate) {
                    problems.append("\(label): device \(letter.device) letter \(letter.letter): find \(letter.fate), trace \(String(describing: end?.event))")
                }
            }
        }
        return problems
    }
}

@Suite struct FindAgreesWithRunTests {
    /// The bundled scenarios, cut to a few devices (segments, warm-ups, partitions and every
    /// key as written): what a new user tries first.
    @Test(arguments: FuzzCorpus.files.map(\.name).filter { !$0.hasPrefix("contract-") && $0 != "sweep.yaml" })
    func everyBundledScenario(_ name: String) throws {
        let path = FuzzCorpus.repositoryRoot + "/scenarios/" + name
        let full = try ScenarioLoader.load(path: path)
        let devices = min(full.devices, 40)
        var overrides = ["devices=\(devices)"]
        if full.xiva.partitions > devices { overrides.append("xiva.partitions=\(devices)") }
        let scenario = try ScenarioLoader.load(path: path, overrides: overrides)
        let problems = FindAgreement.disagreements(scenario)
        #expect(problems.isEmpty, "\(problems.prefix(8))")
    }

    /// Fuzzed version-2 scenarios: `find` counts what `run` counts, per arm and cause, and the
    /// trace of each found letter shows its fate. Most draws combine several mechanisms.
    @Test func fuzzedVersionTwoScenarios() throws {
        let cases = Int(ProcessInfo.processInfo.environment["PUSHSIM_FIND_FUZZ"] ?? "") ?? 300
        var valid = 0
        var seen: Set<String> = []
        var problems: [String] = []
        for k in 0..<cases {
            let draw = VersionTwoFuzz.scenario(k)
            guard let scenario = try? ScenarioLoader.parse(text: draw.text, file: "fuzz-\(k).yaml", overrides: draw.overrides) else { continue }
            valid += 1
            seen.formUnion(draw.mechanisms)
            if !scenario.segments.isEmpty { seen.insert("segments") }
            if scenario.warmup > .zero { seen.insert("warmup") }
            problems += FindAgreement.disagreements(scenario, jobs: k % 2 + 1).map { "case \(k) \(draw.mechanisms): \($0)" }
        }
        #expect(problems.isEmpty, "\(problems.count) disagreements: \(problems.prefix(8))")
        // Most combinations are valid, and every mechanism met the search at least once.
        #expect(valid * 2 >= cases, "only \(valid) of \(cases) fuzzed scenarios were valid")
        let missing = (VersionTwoFuzz.mechanisms.map(\.name) + ["segments", "warmup"]).filter { !seen.contains($0) }
        #expect(missing.isEmpty || cases < 100, "never in a valid case: \(missing)")
    }
}
