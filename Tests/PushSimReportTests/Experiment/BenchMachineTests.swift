// Tests of the machine a bench document records, and of what a comparison with a baseline says
// about it: the same kind of machine, another one, or a baseline that does not say.
import Foundation
import Testing
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct BenchMachineTests {
    static let epyc = BenchMachine(processor: "AMD EPYC", logicalProcessors: 2, system: "Linux 6.18.44 x86_64")
    static let xeon = BenchMachine(processor: "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", logicalProcessors: 2,
                                   system: "Linux 6.1.0 x86_64")

    static func report(machine: BenchMachine?) -> BenchReport {
        var report = BenchReport(repetitions: 1, rungs: [BenchBaselineTests.result(1_000, seconds: 0.05, cpu: 0.05)],
                                 parallel: nil, cores: 1)
        report.machine = machine
        return report
    }

    @Test func aBenchDocumentRecordsItsMachineAndABaselineGivesItBack() throws {
        let text = Self.report(machine: Self.epyc).json.prettyText
        expectEqual(BenchReport.baselineMachine(text), Self.epyc)
        // The document is still a baseline like any other.
        #expect(try BenchReport.baseline(text, source: "b.json", ladder: ["1k"])["1k"] != nil)
        // The table names it too.
        #expect(Self.report(machine: Self.epyc).table.contains("machine: AMD EPYC, 2 logical processors, Linux 6.18.44 x86_64"))
    }

    @Test func aDocumentWithoutAMachineSaysNothingOfOne() {
        #expect(BenchReport.baselineMachine(BenchBaselineTests.baselineText) == nil)
        #expect(!Self.report(machine: nil).json.prettyText.contains("\"machine\""))
        // A damaged machine object is read as none: the comparison then says the baseline does not say.
        let damaged = #"{"rungs": [], "machine": {"processor": "X", "logical_processors": "two"}}"#
        #expect(BenchReport.baselineMachine(damaged) == nil)
        #expect(BenchReport.baselineMachine(#"{"rungs": [], "machine": {"processor": "X", "logical_processors": 0}}"#) == nil)
        #expect(BenchReport.baselineMachine("not json") == nil)
    }

    @Test func theComparisonSaysWhetherTheMachinesDiffer() {
        let other = BenchMachine.comparisonNote(baseline: Self.xeon, now: Self.epyc)
        #expect(other.contains("two machines") && other.contains("Xeon") && other.contains("AMD EPYC"))
        #expect(other.contains(".ci/regenerate-bench"))
        let unknown = BenchMachine.comparisonNote(baseline: nil, now: Self.epyc)
        #expect(unknown.contains("does not say which machine") && unknown.contains("AMD EPYC"))
        // Another kernel release on the same processor is the same kind of machine; more
        // processors are not.
        var updated = Self.epyc
        updated.system = "Linux 6.19.1 x86_64"
        #expect(BenchMachine.comparisonNote(baseline: updated, now: Self.epyc).contains("the baseline's kind of machine"))
        var bigger = Self.epyc
        bigger.logicalProcessors = 4
        #expect(BenchMachine.comparisonNote(baseline: bigger, now: Self.epyc).contains("two machines"))
        // The note stands under the comparison's heading, before the rungs.
        let comparisons = [BenchReport.Comparison(name: "1k", baseline: 1, now: 1, dropPercent: 0, eventsDropPercent: nil,
                                                  clock: .cpu, regressed: false)]
        let text = BenchReport.comparisonText(comparisons, source: "b.json", tolerancePercent: 10, machineNote: other)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3 && lines[1].contains("two machines") && lines[2].contains("1k"))
    }

    @Test func thisMachineIsDescribed() {
        let machine = BenchMachine.current
        #expect(!machine.processor.isEmpty && machine.logicalProcessors >= 1)
        #if os(Linux)
        #expect(machine.system.hasPrefix("Linux "))
        #expect(machine.processor != "unknown")
        #endif
    }
}
