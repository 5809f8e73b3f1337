// Tests of the sweep grid: the cartesian product, its order, and where axes come from.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCore
import PushSimTestSupport

@Suite struct SweepGridTests {
    @Test func gridIsTheCartesianProductWithTheFirstAxisSlowest() {
        let axes = [SweepAxis(path: "queue.repeat_max_count", values: ["0", "5", "10"]),
                    SweepAxis(path: "apns.loss", values: ["0", "1%"])]
        let points = SweepGrid.points(axes)
        expectEqual(points.count, 6)
        #expect(points.map(\.label) == [
            "queue.repeat_max_count=0, apns.loss=0", "queue.repeat_max_count=0, apns.loss=1%",
            "queue.repeat_max_count=5, apns.loss=0", "queue.repeat_max_count=5, apns.loss=1%",
            "queue.repeat_max_count=10, apns.loss=0", "queue.repeat_max_count=10, apns.loss=1%",
        ])
        expectEqual(Set(points).count, 6)
        expectEqual(points[3].overrides, ["queue.repeat_max_count=5", "apns.loss=1%"])
    }

    @Test func noAxesMeansOnePointWithTheScenarioAsWritten() {
        expectEqual(SweepGrid.points([]), [SweepPoint(settings: [])])
    }

    @Test func commandLineAxesComeFirstAndReplaceTheFilesPathByPath() {
        let file = [SweepAxis(path: "apns.loss", values: ["0"]), SweepAxis(path: "queue.repeat_max_count", values: ["1"]),
                    SweepAxis(path: "xiva.drop", values: ["0", "1%"])]
        let cli = [SweepAxis(path: "queue.repeat_max_count", values: ["5", "6"])]
        let axes = SweepGrid.axes(file: file, commandLine: cli, fixed: ["xiva.drop"])
        expectEqual(axes, [SweepAxis(path: "queue.repeat_max_count", values: ["5", "6"]), SweepAxis(path: "apns.loss", values: ["0"])])
        expectEqual(SweepGrid.axes(file: file, commandLine: [], fixed: []), file)
    }

    @Test func varyValuesSplitAtTopLevelCommasOnly() throws {
        let axis = try SweepGrid.parseVary("apns.latency=100ms, uniform(1s, 2s),lognormal(150ms,3s)")
        expectEqual(axis.path, "apns.latency")
        expectEqual(axis.values, ["100ms", "uniform(1s, 2s)", "lognormal(150ms,3s)"])
        #expect(try SweepGrid.parseVary("connectivity.windows=[{start: 8h, end: 9h}],[]").values
                == ["[{start: 8h, end: 9h}]", "[]"])
    }

    /// Every malformed `--vary` names `--vary:1:COLUMN`, the column of what is wrong.
    @Test(arguments: [
        ("queue.repeat_max_count", 1), ("=1,2", 1), ("queue..x=1", 7), ("queue.repeat_max_count=1,,2", 26),
        ("apns.loss=", 11), ("apns.loss=1, ", 13), ("seed=1,2", 1), ("p=1,-1", 1),
    ])
    func malformedVaryIsALocatedError(text: String, column: Int) {
        do { _ = try SweepGrid.parseVary(text); Issue.record("accepted \(text)") } catch let error as ScenarioError {
            expectEqual(error.location, SourceLocation(file: "--vary", line: 1, column: column), "\(error)")
        } catch { Issue.record("\(error)") }
    }

    @Test func varyValuesKnowTheirColumns() throws {
        let argument = try SweepGrid.readVary("apns.loss=0, 2%,  uniform(1s, 2s)")
        expectEqual(argument.axis.values, ["0", "2%", "uniform(1s, 2s)"])
        expectEqual(argument.columns, [11, 14, 19])
    }

    @Test func gridSizeComesFromTheAxesWithoutOverflow() {
        let axis = { (n: Int) in SweepAxis(path: "apns.loss", values: Array(repeating: "0", count: n)) }
        expectEqual(SweepGrid.pointCount([axis(450), axis(450)]), 202_500)
        expectEqual(SweepGrid.pointCount([]), 1)
        // 2^21 values on each of three axes: 2^63 points, past Int.max, found without building anything.
        let huge = SweepAxis(path: "apns.loss", values: Array(repeating: "0", count: 1 << 21))
        #expect(SweepGrid.pointCount([huge, huge, huge]) == nil)
        expectEqual(SweepGrid.sizeRefusal([huge, huge, huge], replications: 1, name: "x")?.contains("more than"), true)
        expectEqual(SweepGrid.sizeRefusal([axis(450), axis(450)], replications: 1, name: "x")?.contains("202500 points"), true)
        #expect(SweepGrid.sizeRefusal([axis(100), axis(100)], replications: 1, name: "x") == nil)
        expectEqual(SweepGrid.sizeRefusal([axis(100), axis(100)], replications: 11, name: "x")?.contains("110000 runs"), true)
    }
}
