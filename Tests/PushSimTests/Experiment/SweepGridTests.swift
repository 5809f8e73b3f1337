// Tests of the sweep grid: the cartesian product, its order, and where axes come from.
import Testing
@testable import PushSim

@Suite struct SweepGridTests {
    @Test func gridIsTheCartesianProductWithTheFirstAxisSlowest() {
        let axes = [SweepAxis(path: "queue.repeat_max_count", values: ["0", "5", "10"]),
                    SweepAxis(path: "apns.loss", values: ["0", "1%"])]
        let points = SweepGrid.points(axes)
        #expect(points.count == 6)
        #expect(points.map(\.label) == [
            "queue.repeat_max_count=0, apns.loss=0", "queue.repeat_max_count=0, apns.loss=1%",
            "queue.repeat_max_count=5, apns.loss=0", "queue.repeat_max_count=5, apns.loss=1%",
            "queue.repeat_max_count=10, apns.loss=0", "queue.repeat_max_count=10, apns.loss=1%",
        ])
        #expect(Set(points).count == 6)
        #expect(points[3].overrides == ["queue.repeat_max_count=5", "apns.loss=1%"])
    }

    @Test func noAxesMeansOnePointWithTheScenarioAsWritten() {
        #expect(SweepGrid.points([]) == [SweepPoint(settings: [])])
    }

    @Test func commandLineAxesComeFirstAndReplaceTheFilesPathByPath() {
        let file = [SweepAxis(path: "apns.loss", values: ["0"]), SweepAxis(path: "queue.repeat_max_count", values: ["1"]),
                    SweepAxis(path: "xiva.drop", values: ["0", "1%"])]
        let cli = [SweepAxis(path: "queue.repeat_max_count", values: ["5", "6"])]
        let axes = SweepGrid.axes(file: file, commandLine: cli, fixed: ["xiva.drop"])
        #expect(axes == [SweepAxis(path: "queue.repeat_max_count", values: ["5", "6"]), SweepAxis(path: "apns.loss", values: ["0"])])
        #expect(SweepGrid.axes(file: file, commandLine: [], fixed: []) == file)
    }

    @Test func varyValuesSplitAtTopLevelCommasOnly() throws {
        let axis = try SweepGrid.parseVary("apns.latency=100ms, uniform(1s, 2s),lognormal(150ms,3s)")
        #expect(axis.path == "apns.latency")
        #expect(axis.values == ["100ms", "uniform(1s, 2s)", "lognormal(150ms,3s)"])
        #expect(try SweepGrid.parseVary("connectivity.windows=[{start: 8h, end: 9h}],[]").values
                == ["[{start: 8h, end: 9h}]", "[]"])
    }

    @Test func malformedVaryIsAnError() {
        #expect(throws: SweepError.self) { try SweepGrid.parseVary("queue.repeat_max_count") }
        #expect(throws: SweepError.self) { try SweepGrid.parseVary("=1,2") }
        #expect(throws: SweepError.self) { try SweepGrid.parseVary("queue.repeat_max_count=1,,2") }
    }
}
