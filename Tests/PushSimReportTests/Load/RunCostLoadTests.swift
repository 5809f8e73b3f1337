// `pushsim run`'s costs as load: per 1 000 phones a second (mean, busiest second, busiest minute) and at a fleet, n/a with its reason where a run cannot give a figure, and costs.svg.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct RunCostLoadTests {
    static let designs = SmallScenarios.directory.appendingPathComponent("designs.yaml").path

    /// designs.yaml cut to `devices` phones and three days, with the design and bin given.
    static func run(_ recovery: String, bin: SimTime = SimTime(microseconds: SimTime.minute), devices: Int = 60, fleet: Int? = nil) throws -> RunResult {
        var scenario = try ScenarioLoader.load(path: designs, overrides: ["devices=\(devices)", "duration=3d", "recovery=\(recovery)"])
        scenario.loadBin = bin
        var result = Simulator.run(scenario)
        result.loadFrame.fleet = fleet
        return result
    }

    static func object(_ value: JSONValue?, _ path: String) -> JSONValue? {
        path.split(separator: ".").reduce(value) { node, key in
            guard case .object(let members)? = node else { return nil }
            return members[String(key)]
        }
    }

    /// The counted costs' mean is their count over the measured window's length; per 1 000
    /// phones and at the fleet are the run's figure scaled by 1 000 and the fleet over the phones.
    @Test func theMeanIsTheCountOverTheWindowScaled() throws {
        let result = try Self.run("background_sync", fleet: 8_000_000)
        let arm = try #require(result.arms.last)
        let frame = result.loadFrame
        let window = Double(frame.duration - frame.warmup) / 1e6
        let counts = DesignMetrics.counts(arm).counts
        let measured = DesignLoad.measure(arm, frame: frame)
        for (key, metric) in DesignLoad.costs where ["silent_pushes", "fetches", "wakeups"].contains(key) {
            let count = try #require(counts[metric.name])
            #expect(count > 0, "\(key)")
            #expect(measured.values["\(key).mean_per_s"] == Double(count) / window, "\(key)")
        }
        // A background sync's alert pushes: the count over the window too (its series holds the silent pushes).
        expectEqual(measured.values["alert_pushes.mean_per_s"], Double(arm.ledger.apns.sent) / window)
        let json = DesignLoad.json(arm, frame: frame, devices: result.totalDevices)
        for (key, _) in DesignLoad.costs {
            guard let value = measured.values["\(key).mean_per_s"] else { continue }
            let per1000 = Self.object(json, "per_1000_per_s.\(key).mean_per_s")?.number
            let fleet = Self.object(json, "fleet_per_s.\(key).mean_per_s")?.number
            #expect(abs((per1000 ?? -1) - value * 1000 / 60) <= 1e-12 * value * 1000, "\(key)")
            #expect(abs((fleet ?? -1) - value * 8_000_000 / 60) <= 1e-9 * value * 8_000_000, "\(key)")
        }
    }

    /// The push queue's main app counts in its costs as load: the background pushes that woke it
    /// (queue.background_pushes) are silent pushes and wake-ups, counted as totals, and then the
    /// series of pushes sent holds them with the alert pushes; its re-requests join the
    /// extension's, which alone have a series.
    @Test func theQueuesAppCountsAsTotalsBesideTheSeries() throws {
        let result = try Self.run("queue", bin: SimTime(microseconds: SimTime.second))
        var arm = try #require(result.arms.last)
        let frame = result.loadFrame
        let window = Double(frame.duration - frame.warmup) / 1e6
        let alone = DesignLoad.measure(arm, frame: frame)
        #expect(alone.values["alert_pushes.peak_per_s_1s"] != nil && alone.values["xiva_requests.peak_per_s_1s"] != nil)
        #expect(alone.values["silent_pushes.mean_per_s"] == nil && alone.values["wakeups.mean_per_s"] == nil)
        arm.ledger.appHook.backgroundPushes = 600
        arm.ledger.appHook.backgroundWakes = 300
        arm.ledger.appHook.reRequests = 45
        let withApp = DesignLoad.measure(arm, frame: frame)
        expectEqual(withApp.values["silent_pushes.mean_per_s"], 600 / window)
        expectEqual(withApp.values["wakeups.mean_per_s"], 300 / window)
        expectEqual(withApp.values["xiva_requests.mean_per_s"], Double(arm.ledger.reRequests + 45) / window)
        expectEqual(withApp.values["alert_pushes.mean_per_s"], Double(arm.ledger.apns.sent) / window)
        for figure in ["peak_per_s_1s", "peak_per_s_1m"] {
            #expect(withApp.notApplicable["alert_pushes.\(figure)"]?.contains("holds the silent pushes too") == true)
            #expect(withApp.notApplicable["xiva_requests.\(figure)"]?.contains("not the main app's") == true)
        }
    }

    /// The busiest minute from 1 s bins is the peak of the same run binned by the minute (over
    /// 60), the busiest second at least that; binned by the minute the busiest second is n/a.
    @Test func theBusiestMinuteIsTheMinuteBinnedRunsPeak() throws {
        let seconds = try Self.run("queue", bin: SimTime(microseconds: SimTime.second)), minutes = try Self.run("queue")
        let bySecond = DesignLoad.measure(try #require(seconds.arms.last), frame: seconds.loadFrame)
        let byMinute = DesignLoad.measure(try #require(minutes.arms.last), frame: minutes.loadFrame)
        for key in ["xiva_requests", "alert_pushes"] {
            let minute = try #require(byMinute.values["\(key).peak_per_s_1m"])
            #expect(bySecond.values["\(key).peak_per_s_1m"] == minute, "\(key)")
            #expect(try #require(bySecond.values["\(key).peak_per_s_1s"]) >= minute, "\(key)")
            expectEqual((minute * 60).rounded(), minute * 60, "a minute's whole count over 60")
            #expect(byMinute.notApplicable["\(key).peak_per_s_1s"]?.contains("--load-bin 1s") == true)
            #expect(byMinute.values["\(key).peak_per_s_1s"] == nil)
        }
        // The mean is the series' mean over the window, whatever its bins.
        let a = try #require(bySecond.values["alert_pushes.mean_per_s"]), b = try #require(byMinute.values["alert_pushes.mean_per_s"])
        #expect(abs(a - b) <= 1e-9 * a)
    }

    /// A cost the design cannot have is absent from the figures and n/a with the design's
    /// reason, in the JSON and the table; never 0.
    @Test func aCostTheDesignCannotHaveIsNotApplicableNeverZero() throws {
        let result = try Self.run("queue")
        let arm = try #require(result.arms.last)
        let json = DesignLoad.json(arm, frame: result.loadFrame, devices: result.totalDevices)
        for key in ["silent_pushes", "fetches", "wakeups"] {
            #expect(Self.object(json, "per_1000_per_s.\(key)") == nil, "\(key)")
            guard case .object(let notApplicable)? = Self.object(json, "not_applicable") else { Issue.record("no not_applicable"); return }
            let reason = notApplicable["\(key).mean_per_s"]
            #expect(reason == DesignMetrics.measure(arm).notApplicable["\(key)_per_letter"].map(JSONValue.string), "\(key)")
        }
        let table = DesignLoad.markdown(result)
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("| on | silent pushes") }
        #expect(rows.count == 1 && rows[0].contains("n/a [") && !rows[0].contains("| 0 |"), "\(rows)")
        #expect(table.contains("the push queue sends no silent push"))
    }

    /// A sweep's load (``SweepLoad``): an arm whose design sends no re-request has its
    /// re-requests n/a with the design's reason at every figure and scale, never 0.
    @Test func aSweepsReRequestsOfADesignThatSendsNoneAreNotApplicable() throws {
        let result = try Self.run("catch_up", bin: SimTime(microseconds: SimTime.second))
        for arm in result.arms {
            var metrics = ArmMetrics(queue: arm.name, values: [:])
            SweepLoad(fleet: 1_000_000).add(to: &metrics, arm: arm, frame: result.loadFrame, devices: result.totalDevices)
            let reason = try #require(DesignMetrics.measure(arm).notApplicable["xiva_requests_per_letter"])
            for scale in ["per_1000", "fleet"] {
                for figure in DesignLoad.figures {
                    let name = SweepLoad.name(.reRequests, scale: scale, figure.name)
                    #expect(metrics.values[name] == nil && metrics.notApplicable[name] == reason, "\(arm.name) \(name)")
                    #expect(metrics.values[SweepLoad.name(.pushesSent, scale: scale, figure.name)] != nil, "\(arm.name) pushes \(figure.name)")
                }
            }
        }
    }

    /// costs.svg: a point for every figure the run has, every n/a named with its reason under
    /// the title, no two texts overlapping; summary.json carries the same figures.
    @Test func theChartDrawsEveryFigureAndNamesTheMissing() throws {
        let result = try Self.run("queue", bin: SimTime(microseconds: SimTime.second))
        let svg = DesignLoad.chart(result).svg
        let measured = DesignLoad.measure(try #require(result.arms.last), frame: result.loadFrame)
        #expect(svg.components(separatedBy: "<circle cx=").count - 1 == measured.values.count + DesignLoad.figures.count,
                "a point per figure, plus the legend's")
        for (name, reason) in [("silent pushes", "the push queue sends no silent push"), ("mail fetches", "the push queue fetches nothing"),
                               ("wake-ups", "the push queue wakes no app")] {
            #expect(svg.contains("n/a, \(name): \(reason)"), "\(name)")
        }
        expectEqual(SVGTextBoxes.overlaps(svg)?.isEmpty, true, "\(SVGTextBoxes.overlaps(svg) ?? [])")
        let files = RunSummary.files(result, scenario: try ScenarioLoader.load(path: Self.designs, overrides: ["devices=60", "duration=3d", "recovery=queue"]))
        #expect(files.contains { $0.name == DesignLoad.svgName })
        let summary = try JSONValue.parse(try #require(files.first { $0.name == "summary.json" }).contents)
        guard case .array(let arms)? = Self.object(summary, "harms_and_costs") else { Issue.record("no harms_and_costs"); return }
        let queueArm = try #require(arms.last)
        let peak = Self.object(queueArm, "load.per_1000_per_s.xiva_requests.peak_per_s_1s")?.number
        expectEqual(peak, measured.values["xiva_requests.peak_per_s_1s"].map { $0 * 1000 / 60 })
    }

    /// Under the title, a cost whose mean and busiest minute are drawn but whose busiest second
    /// is not (a run binned by the minute) is named with that figure alone, not as "peaks".
    @Test func theChartNamesWhichFiguresOfACostAreMissing() throws {
        let result = try Self.run("queue")
        let measured = DesignLoad.measure(try #require(result.arms.last), frame: result.loadFrame)
        #expect(measured.values["xiva_requests.peak_per_s_1m"] != nil && measured.notApplicable["xiva_requests.peak_per_s_1s"] != nil)
        let svg = DesignLoad.chart(result).svg
        #expect(svg.contains("XIVA requests (busiest second)"))
        #expect(!svg.contains("XIVA requests (peaks)"))
        // The names follow the figures: both peaks, one, or none of a cost whose figures are all
        // n/a for one reason; each reason names only the figures it stands for.
        let both = ["c.peak_per_s_1s": "r", "c.peak_per_s_1m": "r"]
        expectEqual(DesignLoad.notApplicableFigures(of: "c", because: "r", both), " (peaks)")
        expectEqual(DesignLoad.notApplicableFigures(of: "c", because: "r", ["c.peak_per_s_1s": "r"]), " (busiest second)")
        expectEqual(DesignLoad.notApplicableFigures(of: "c", because: "r", ["c.mean_per_s": "r"]), " (mean)")
        expectEqual(DesignLoad.notApplicableFigures(of: "c", because: "r", both.merging(["c.mean_per_s": "r"]) { a, _ in a }), "")
        let twoReasons = ["c.peak_per_s_1s": "binned", "c.peak_per_s_1m": "total"]
        expectEqual(DesignLoad.notApplicableFigures(of: "c", because: "binned", twoReasons), " (busiest second)")
        expectEqual(DesignLoad.notApplicableFigures(of: "c", because: "total", twoReasons), " (busiest minute)")
    }
}
