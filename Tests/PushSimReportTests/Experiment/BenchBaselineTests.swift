// Tests of the bench's baseline check on report values built by hand: CPU time gates, wall time
// only for old baselines; the parallel rung is compared too. Nothing here is timed.
import Foundation
import Testing
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct BenchBaselineTests {
    /// A rung result with one sample of the given wall and CPU seconds.
    static func result(_ devices: Int, jobs: Int = 1, seconds: Double, cpu: Double, events: Int = 1_000_000,
                       letters: Int = 200_000) -> BenchRungResult {
        BenchRungResult(rung: BenchRung(devices: devices), jobs: jobs,
                        samples: [BenchSample(seconds: seconds, cpuSeconds: cpu, events: events, letters: letters,
                                              peakResidentBytes: 0, residentBeforeBytes: 0)])
    }

    /// The baseline's 1k rung: 1 M events and 200 000 letters in 0.05 s of wall and CPU time.
    static let baselineText = """
    {"rungs": [{"name": "1k", "jobs": 1, "events": 1000000, "letters": 200000, "letters_per_s": 4000000,
                "events_per_cpu_s": 20000000, "letters_per_cpu_s": 4000000}],
     "parallel": {"name": "1k", "jobs": 2, "events": 1000000, "letters": 200000, "letters_per_s": 7000000,
                  "events_per_cpu_s": 18000000, "letters_per_cpu_s": 3600000}}
    """

    @Test func busyNeighboursStretchingTheWallClockDoNotFail() throws {
        // Two busy processes beside it: three times the wall time, the same CPU time.
        let report = BenchReport(repetitions: 1, rungs: [Self.result(1_000, seconds: 0.15, cpu: 0.05)], parallel: nil, cores: 1)
        let comparisons = try report.compare(baselineText: Self.baselineText, source: "b.json", tolerancePercent: 10)
        expectEqual(comparisons.count, 1)
        #expect(comparisons[0].clock == .cpu && !comparisons[0].regressed)
        #expect(abs(comparisons[0].dropPercent) < 1e-9 && comparisons[0].eventsDropPercent.map { abs($0) < 1e-9 } == true)
        #expect(report.rungs[0].lettersPerSecond < 0.34 * 4_000_000)   // the wall-clock figure did drop 67 %
    }

    @Test func moreCPUTimePerLetterFails() throws {
        // 20 % more CPU time for the same work: letters and events per CPU-second fall 16.7 %.
        let report = BenchReport(repetitions: 1, rungs: [Self.result(1_000, seconds: 0.06, cpu: 0.06)], parallel: nil, cores: 1)
        let comparisons = try report.compare(baselineText: Self.baselineText, source: "b.json", tolerancePercent: 10)
        #expect(comparisons.count == 1 && comparisons[0].regressed)
        #expect(abs(comparisons[0].dropPercent - 100.0 / 6) < 1e-9)
        #expect(try !report.compare(baselineText: Self.baselineText, source: "b.json", tolerancePercent: 20)[0].regressed)
        let text = BenchReport.comparisonText(comparisons, source: "b.json", tolerancePercent: 10)
        #expect(text.contains("letters/CPU-s") && text.contains("SLOWER beyond tolerance"))
    }

    @Test func fewerEventsForTheSameLettersAreJudgedByLetters() throws {
        // A version that settles a step without an event: 10 % fewer events in 95 % of the CPU
        // time. Per event it is slower, per letter faster; the event counts differ, so only
        // letters are gated.
        let report = BenchReport(repetitions: 1, rungs: [Self.result(1_000, seconds: 0.0475, cpu: 0.0475, events: 900_000)],
                                 parallel: nil, cores: 1)
        let comparison = try report.compare(baselineText: Self.baselineText, source: "b.json", tolerancePercent: 3)[0]
        #expect(comparison.eventsDropPercent == nil && !comparison.regressed && comparison.dropPercent < 0)
    }

    @Test func theParallelRungIsComparedByItsThreads() throws {
        let parallel = Self.result(1_000, jobs: 2, seconds: 0.03, cpu: 200_000 / 3_600_000 * 1.5)
        let report = BenchReport(repetitions: 1, rungs: [Self.result(1_000, seconds: 0.05, cpu: 0.05)], parallel: parallel, cores: 2)
        expectEqual(report.baselineKeys, ["1k", "1k×2"])
        let comparisons = try report.compare(baselineText: Self.baselineText, source: "b.json", tolerancePercent: 10)
        expectEqual(comparisons.map(\.name), ["1k", "1k×2"])
        #expect(!comparisons[0].regressed && comparisons[1].regressed && comparisons[1].clock == .cpu)
        // A baseline of the parallel rung alone still has a rung in common.
        let parallelOnly = #"{"rungs": [], "parallel": {"name": "1k", "jobs": 2, "letters_per_s": 7000000}}"#
        try expectEqual(report.compare(baselineText: parallelOnly, source: "p.json", tolerancePercent: 10).map(\.name), ["1k×2"])
    }

    @Test func aBaselineWithoutCPUFiguresFallsBackToWallTimeAndSaysSo() throws {
        let old = #"{"rungs": [{"name": "1k", "letters_per_s": 4000000}]}"#
        let quiet = BenchReport(repetitions: 1, rungs: [Self.result(1_000, seconds: 0.05, cpu: 0.05)], parallel: nil, cores: 1)
        let busy = BenchReport(repetitions: 1, rungs: [Self.result(1_000, seconds: 0.15, cpu: 0.05)], parallel: nil, cores: 1)
        let same = try quiet.compare(baselineText: old, source: "old.json", tolerancePercent: 10)
        #expect(same[0].clock == .wall && !same[0].regressed)
        let slower = try busy.compare(baselineText: old, source: "old.json", tolerancePercent: 10)
        #expect(slower[0].clock == .wall && slower[0].regressed)
        #expect(BenchReport.comparisonText(slower, source: "old.json", tolerancePercent: 10).contains("wall clock: the baseline has no CPU time"))
    }

    @Test func aBaselineWithNoRungInCommonIsRefused() {
        let report = BenchReport(repetitions: 1, rungs: [Self.result(1_000, seconds: 0.05, cpu: 0.05)], parallel: nil, cores: 1)
        #expect {
            _ = try report.compare(baselineText: #"{"rungs": [{"name": "1M", "letters_per_s": 5}]}"#, source: "b", tolerancePercent: 10)
        } throws: { error in
            (error as? BenchBaselineError)?.message.contains("no rung in common with this ladder (1k); the baseline has 1M") == true
        }
    }

    /// The committed results/bench.json reads as a baseline: every rung the regeneration
    /// writes (.ci/regenerate-bench), the parallel rung and the spliced rungs' two-thread runs
    /// keyed by their threads, each rung's CPU figure per letter the one the file gives, and
    /// the machine it was measured on.
    @Test func theCommittedBenchJSONReadsAsABaseline() throws {
        let path = FuzzCorpus.repositoryRoot + "/results/bench.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let baseline = try BenchReport.baseline(text, source: path, ladder: ["1k"])
        for key in ["1k", "10k", "100k", "1M", "1M×2", "10k-v2", "100k-xiva", "100k-xiva×2", "100k-binary", "100k-binary×2"] {
            #expect(baseline[key]?.lettersPerCPUSecond ?? 0 > 0, "\(key)")
        }
        guard case .object(let top) = try JSONValue.parse(text), case .array(let rungs)? = top["rungs"],
              case .object(let oneKRung)? = rungs.first(where: { if case .object(let r) = $0 { return r["name"] == .string("1k") }; return false }),
              let oneK = baseline["1k"], let perCPU = oneK.lettersPerCPUSecond else {
            Issue.record("no 1k rung"); return
        }
        // The bench workload's 1 000 phones × 7 days: the model's count of its events.
        expectEqual(oneK.events, 1_364_305)
        expectEqual(BenchReport.number(oneKRung["letters_per_cpu_s"]), perCPU)
        #expect(BenchReport.baselineMachine(text) != nil, "results/bench.json does not say which machine measured it")
    }

    /// A document written before `letters_per_cpu_s`: its CPU figure per letter is derived from
    /// events per CPU-second.
    @Test func anOlderBaselineDerivesLettersPerCPUSecond() throws {
        let old = #"{"rungs": [{"name": "1k", "jobs": 1, "events": 1364305, "letters": 280323, "letters_per_s": 6000000, "events_per_cpu_s": 32409592}]}"#
        let perCPU = try #require(try BenchReport.baseline(old, source: "old.json", ladder: ["1k"])["1k"]?.lettersPerCPUSecond)
        #expect(abs(perCPU - 32_409_592.0 * 280_323 / 1_364_305) < 1e-6)
    }
}
