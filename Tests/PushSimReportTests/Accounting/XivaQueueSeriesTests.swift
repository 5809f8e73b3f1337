// The XIVA queue's minute-by-minute series: merging partitions and shards, reading back, and the files a run writes.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct XivaQueueSeriesTests {
    private func series(_ pairs: [(Int, Int)]) -> XivaQueueSeries {
        XivaQueueSeries(minutes: pairs.map(\.0), waiting: pairs.map(\.1)) ?? XivaQueueSeries()
    }

    @Test func mergeKeepsTheLargerCountOfEachMinute() {
        var a = series([(3, 5), (4, 2), (9, 1)])
        a.merge(series([(1, 7), (4, 6), (10, 3)]))
        #expect(a.minutes == [1, 3, 4, 9, 10] && a.waiting == [7, 5, 6, 1, 3])
        var empty = XivaQueueSeries()
        empty.merge(a)
        expectEqual(empty, a)
    }

    @Test func readingBackRefusesUnorderedOrEmptyMinutes() {
        #expect(XivaQueueSeries(minutes: [2, 1], waiting: [1, 1]) == nil)
        #expect(XivaQueueSeries(minutes: [1, 1], waiting: [1, 1]) == nil)
        #expect(XivaQueueSeries(minutes: [1], waiting: [0]) == nil)
        #expect(XivaQueueSeries(minutes: [-1], waiting: [2]) == nil)
        #expect(XivaQueueSeries(minutes: [0, 5], waiting: [2, 1]) != nil)
    }

    @Test func theCSVListsMinutesAndTheChartIsDrawnOnlyWithAFiniteCapacity() throws {
        expectEqual(XivaQueueReport.csv(series([(2160, 250), (2161, 139)])), "minute,waiting\n2160,250\n2161,139\n")
        let svg = XivaQueueReport.svg(series([(2160, 250), (2161, 139)]), scenario: "herd")
        #expect(svg.hasPrefix("<?xml") && svg.contains("re-requests waiting") && svg.contains("1d12h"))
        let text = """
        name: q
        duration: 1d
        devices: 4
        xiva: {capacity: 1/s}

        """
        let finite = try ScenarioLoader.parse(text: text, file: "q.yaml")
        let names = RunSummary.files(Simulator.run(finite), scenario: finite).map(\.name)
        expectEqual(names, ["summary.json", "summary.md", "load.csv", "load.svg", "costs.svg", "xiva-queue.csv", "xiva-queue.svg", "report.html"])
        let forever = try ScenarioLoader.parse(text: text, file: "q.yaml", overrides: ["xiva.capacity=forever"])
        expectEqual(RunSummary.files(Simulator.run(forever), scenario: forever).map(\.name), ["summary.json", "summary.md", "load.csv", "load.svg", "costs.svg", "report.html"])
    }
}
