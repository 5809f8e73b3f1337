// Charts that tell the truth, checked on the SVG: a numeric axis places its points in proportion
// to their values, names are drawn as categories (points with intervals, no line across them),
// a point alone still shows its interval, a metric over more than two decades gets a log axis,
// arms are named for what they are, optimize shows δ and who lies within it, and no two texts
// overlap.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ChartTruthTests {
    static func chart(_ categories: [String], axis: SVGChart.XAxis = .byValue, series: Int = 2) -> String {
        var chart = SVGChart(title: "Letters lost", subtitle: "a test", xLabel: "x", yLabel: "loss rate", categories: categories,
                             series: (0..<series).map { s in
                                 let values = categories.indices.map { Optional(0.01 * Double($0 + 1 + s)) }
                                 return SVGChart.Series(name: "arm \(s)", values: values, low: values.map { $0.map { $0 - 0.004 } },
                                                        high: values.map { $0.map { $0 + 0.004 } }, dashed: s == 0)
                             }, percent: true)
        chart.xAxis = axis
        return chart.svg
    }

    /// The x of every point of the first series, in order.
    static func pointXs(_ svg: String, series: String = "arm 0") -> [Double] {
        guard let group = svg.range(of: "<g class=\"series\" data-series=\"\(series)\">"),
              let end = svg.range(of: "</g>", range: group.upperBound..<svg.endIndex) else { return [] }
        let body = String(svg[group.upperBound..<end.lowerBound])
        let regex = try! NSRegularExpression(pattern: #"<circle cx="([0-9.]+)""#)
        return regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap {
            Range($0.range(at: 1), in: body).flatMap { Double(body[$0]) }
        }
    }

    @Test func aNumericAxisIsProportionalToItsValues() throws {
        let values = [0.0, 1, 2, 3, 5, 8, 13, 20, 30, 40, 50]
        let svg = Self.chart(values.map { String(Int($0)) })
        let xs = Self.pointXs(svg)
        try #require(xs.count == values.count)
        for (x, v) in zip(xs, values) {
            // Positions are written to 0.1 px over 422 px.
            #expect(abs((x - xs[0]) / (xs.last! - xs[0]) - v / 50) < 0.001, "\(v) at \(x)")
        }
        #expect(svg.contains("<polyline"))
        expectEqual(SVGTextBoxes.overlaps(svg)?.isEmpty, true, "\(SVGTextBoxes.overlaps(svg) ?? [])")
        // Every tick is drawn, and the first and last values are labelled.
        #expect(svg.components(separatedBy: "y2=\"").count - 1 >= values.count)
        #expect(svg.contains(">0</text>") && svg.contains(">50</text>"))
    }

    @Test func namesAreCategoriesWithoutALineAcross() throws {
        let svg = Self.chart(["queue", "catch_up", "background_sync", "none"])
        #expect(!svg.contains("<polyline"), "a line across designs")
        #expect(!svg.contains("class=\"band\""))
        expectEqual(svg.components(separatedBy: "class=\"interval\"").count - 1, 8, "an interval for every point of both arms")
        let first = Self.pointXs(svg, series: "arm 0"), second = Self.pointXs(svg, series: "arm 1")
        try #require(first.count == 4 && second.count == 4)
        // Evenly spaced categories, the two arms side by side at each.
        for i in 1..<4 { #expect(abs((first[i] - first[i - 1]) - (first[1] - first[0])) < 0.2) }
        for i in 0..<4 { #expect(second[i] > first[i] && second[i] - first[i] < 20) }
        #expect(svg.contains("point: mean; bar: 95 % CI"))
        expectEqual(SVGTextBoxes.overlaps(svg)?.isEmpty, true)
    }

    @Test func aPointAloneShowsItsInterval() {
        let svg = Self.chart(["10"], series: 1)
        expectEqual(svg.components(separatedBy: "class=\"interval\"").count - 1, 1)
    }

    @Test func anAxisInTheOrderGivenStaysEven() throws {
        // Time bins and other series drawn in order keep their even spacing and their line.
        let svg = Self.chart(["0", "1", "10", "100"], axis: .evenly)
        let xs = Self.pointXs(svg)
        try #require(xs.count == 4)
        #expect(abs((xs[2] - xs[1]) - (xs[1] - xs[0])) < 0.2)
        #expect(svg.contains("<polyline"))
    }

    @Test func thePlainStyleHasNoTitleAndLargerText() throws {
        var chart = SVGChart(title: "Letters lost", subtitle: "quickstart · 5 replications", xLabel: "x", yLabel: "loss rate",
                             categories: ["0", "1", "2", "5", "50"],
                             series: [SVGChart.Series(name: "queue on", values: [0.1, 0.05, 0.02, 0.01, 0.01], low: [0.09, 0.04, 0.01, 0, 0],
                                                      high: [0.11, 0.06, 0.03, 0.02, 0.02])], percent: true)
        chart.xAxis = .byValue
        let styled = chart.svg
        chart.plain = true
        let plain = chart.svg
        #expect(styled.contains(">Letters lost</text>") && !plain.contains(">Letters lost</text>"))
        #expect(!plain.contains("quickstart · 5 replications"))
        #expect(plain.contains("font-size=\"15\"") && plain.contains("font-size=\"16.2\""))
        expectEqual(SVGTextBoxes.overlaps(plain)?.isEmpty, true, "\(SVGTextBoxes.overlaps(plain) ?? [])")
    }

    /// The y of every point of a series, in order.
    static func pointYs(_ svg: String, series: String) -> [Double] {
        guard let group = svg.range(of: "<g class=\"series\" data-series=\"\(series)\">"),
              let end = svg.range(of: "</g>", range: group.upperBound..<svg.endIndex) else { return [] }
        let body = String(svg[group.upperBound..<end.lowerBound])
        let regex = try! NSRegularExpression(pattern: #"<circle cx="[0-9.]+" cy="([0-9.]+)""#)
        return regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap {
            Range($0.range(at: 1), in: body).flatMap { Double(body[$0]) }
        }
    }

    /// The y of the grid line labelled `label`.
    static func tickY(_ svg: String, label: String) -> Double? {
        let regex = try! NSRegularExpression(pattern: #"<text x="[0-9.]+" y="([0-9.]+)" text-anchor="end">"#
                                             + NSRegularExpression.escapedPattern(for: label) + "</text>")
        guard let match = regex.firstMatch(in: svg, range: NSRange(svg.startIndex..., in: svg)),
              let range = Range(match.range(at: 1), in: svg), let y = Double(svg[range]) else { return nil }
        return y - 4   // labels sit 4 px below their line
    }

    @Test func aMetricOverMoreThanTwoDecadesGetsALogAxis() throws {
        // The designs' loss: 12.45 % without recovery, 0.021 %, 0.011 % and 0.003 % with one.
        let values: [Double?] = [0.1245, 0.00021, 0.00011, 0.00003]
        var chart = SVGChart(title: "Letters lost", subtitle: "designs", xLabel: "recovery", yLabel: "loss rate (% of letters)",
                             categories: ["none", "queue", "catch_up", "both"],
                             series: [SVGChart.Series(name: "each design", values: values, low: values, high: values)], percent: true)
        chart.xAxis = .byValue
        let svg = chart.svg
        let probe = try #require(SVGProbe.parse(svg))
        expectEqual(probe.classedText["y-label"], "loss rate (% of letters), log scale")
        // A tick at every decade from the smallest value's to the largest's, equally spaced.
        let decades = ["0.001 %", "0.01 %", "0.1 %", "1 %", "10 %", "100 %"]
        let ticks = try decades.map { try #require(Self.tickY(svg, label: $0), "no tick \($0)") }
        let decade = ticks[0] - ticks[1]
        #expect(decade > 20)
        for i in 1..<ticks.count { #expect(abs((ticks[i - 1] - ticks[i]) - decade) < 0.2) }
        // Every point where its value's logarithm puts it.
        let ys = Self.pointYs(svg, series: "each design")
        try #require(ys.count == values.count)
        for (y, v) in zip(ys, values) {
            let expected = ticks[0] - (log10(v! * 100) - log10(0.001)) * decade
            #expect(abs(y - expected) < 0.3, "\(v!) at \(y), expected \(expected)")
        }
        // Nothing is 0: no row for it, no break in the axis.
        #expect(!svg.contains("axis-break") && Self.tickY(svg, label: "0 %") == nil)
        // 0.021 % and 0.011 % are told apart by more than a few pixels.
        #expect(ys[2] - ys[1] > 0.25 * decade)
        #expect(!svg.contains("<polyline"), "a line across designs")
        expectEqual(SVGTextBoxes.overlaps(svg)?.isEmpty, true, "\(SVGTextBoxes.overlaps(svg) ?? [])")
    }

    @Test func zeroOnALogAxisSitsBelowABreakAndANarrowSpanStaysLinear() throws {
        let withZero: [Double?] = [0.06, 0.0001, 0]
        var chart = SVGChart(title: "t", subtitle: "", xLabel: "x", yLabel: "loss", categories: ["1", "2", "3"],
                             series: [SVGChart.Series(name: "s", values: withZero, low: withZero, high: withZero)], percent: true)
        chart.xAxis = .byValue
        let svg = chart.svg
        #expect(svg.contains("class=\"axis-break\""))
        let zero = try #require(Self.tickY(svg, label: "0 %")), lowest = try #require(Self.tickY(svg, label: "0.01 %"))
        let ys = Self.pointYs(svg, series: "s")
        try #require(ys.count == 3)
        #expect(abs(ys[2] - zero) < 0.2 && abs(ys[1] - lowest) < 0.2)
        // Values within two decades keep a linear axis; a negative value forbids a log one.
        for values: [Double?] in [[0.06, 0.001, 0.03], [0.06, 0.00001, -0.001]] {
            let linear = SVGChart(title: "t", subtitle: "", xLabel: "x", yLabel: "loss", categories: ["1", "2", "3"],
                                  series: [SVGChart.Series(name: "s", values: values, low: values, high: values)], percent: true)
            #expect(!linear.svg.contains("log scale") && !linear.svg.contains("axis-break"))
        }
        // A time series of counts stays linear when told so.
        var counts = SVGChart(title: "t", subtitle: "", xLabel: "x", yLabel: "n", categories: ["1", "2"],
                              series: [SVGChart.Series(name: "s", values: [1, 1000], low: [nil, nil], high: [nil, nil])], percent: false)
        counts.yAxis = .linear
        #expect(!counts.svg.contains("log scale"))
    }

    /// A designs sweep: recovery = queue, catch_up, none, with each arm's loss and summarized share.
    static var designsSweep: SweepResult {
        let designs = ["queue", "catch_up", "none"]
        let onLoss = [0.00021, 0.00011, 0.1245], onSummarized = [0.0947, 0.1244, 0]
        let points = designs.indices.map { i in
            SweepPointResult(point: SweepPoint(settings: [SweepSetting(path: "recovery", value: designs[i])]), replications: [],
                             summaries: [
                                ArmSummary(queue: "off", metrics: ["loss_rate": MetricSummary(mean: 0.1245, ci95: 0.001, count: 10),
                                                                   "summarized_rate": MetricSummary(mean: 0, ci95: 0, count: 10)]),
                                ArmSummary(queue: "on", metrics: ["loss_rate": MetricSummary(mean: onLoss[i], ci95: 0.00007, count: 10),
                                                                  "summarized_rate": MetricSummary(mean: onSummarized[i], ci95: 0.001, count: 10)]),
                             ])
        }
        return SweepResult(scenario: "designs", axes: [SweepAxis(path: "recovery", values: designs)], seeds: Array(1...10), points: points)
    }

    @Test func aDesignsSweepNamesTheDesignsAndDrawsNoArmWhereTheMetricCannotBe() throws {
        let result = Self.designsSweep
        let loss = result.chart(SweepResult.chartSpecs[0]).svg
        let probe = try #require(SVGProbe.parse(loss))
        expectEqual(probe.series, ["no recovery (off arm)", "each design (on arm)"])
        #expect(!loss.contains("queue off") && !loss.contains("queue on"))
        #expect(!loss.contains("<polyline"), "a line across designs")
        #expect(loss.contains(">queue</text>") && loss.contains(">catch_up</text>") && loss.contains(">none</text>"))
        #expect(loss.contains("log scale"), "12.45 % and 0.011 % on one linear axis")
        expectEqual(loss.components(separatedBy: "class=\"interval\"").count - 1, 6, "an interval on every point")
        let summarized = try #require(SweepResult.chartSpecs.first { $0.metric == "summarized_rate" })
        try expectEqual(#require(SVGProbe.parse(result.chart(summarized).svg)).series, ["each design (on arm)"])
        // With the design fixed by the file, the on arm is named for it.
        var single = result
        single.axes = [SweepAxis(path: "apns.loss", values: ["0", "0.05", "0.1"])]
        single.points = single.points.enumerated().map { i, point in
            var copy = point
            copy.point = SweepPoint(settings: [SweepSetting(path: "apns.loss", value: ["0", "0.05", "0.1"][i])])
            return copy
        }
        single.resolvedScenario = [ScenarioPrinter.Entry("recovery", .scalar("catch_up"))]
        #expect(try #require(SVGProbe.parse(single.chart(SweepResult.chartSpecs[0]).svg)).series
                == ["no recovery (off arm)", "client catch-up (on arm)"])
    }

    static var optimizeResult: OptimizeResult {
        let values = ["0", "1", "2", "5", "10", "20", "50"]
        // Candidate − chosen (system 6): two within δ = 0.001 (one's interval reaches into it), four beyond.
        let means = [0.032, 0.029, 0.027, 0.023, 0.0015, 0.0004, 0]
        let half = [0.0005, 0.0005, 0.0005, 0.0005, 0.0008, 0.0006, 0]
        let differences = (0..<6).map { OptimizeDifference(system: $0, mean: means[$0], halfWidth: half[$0], replications: 5) }
        return OptimizeResult(
            scenario: "field", axes: [SweepAxis(path: "queue.repeat_max_count", values: values)],
            points: values.map { SweepPoint(settings: [SweepSetting(path: "queue.repeat_max_count", value: $0)]) },
            settings: OptimizeSettings(metric: "expected_cost", delta: 0.001, alpha: 0.05, firstStage: 5, maxReplications: 50),
            seeds: [7], selection: SelectionResult(best: 6, survivors: [6], eliminations: [], replications: Array(repeating: 5, count: 7),
                                                   means: means, finished: true),
            observations: Array(repeating: [], count: 7), differences: differences)
    }

    @Test func optimizeShowsDeltaAndWhichCandidatesLieWithinIt() throws {
        let result = Self.optimizeResult
        let svg = result.chart.svg
        let probe = try #require(SVGProbe.parse(svg))
        expectEqual(probe.series, ["within δ of the chosen", "worse by more than δ"])
        // Within: 10 (its interval reaches below δ), 20 and the chosen 50; beyond: the other four.
        expectEqual(Self.pointXs(svg, series: "within δ of the chosen").count, 3)
        expectEqual(Self.pointXs(svg, series: "worse by more than δ").count, 4)
        #expect(!svg.contains("<polyline"))
        // The zone is drawn from the chosen (0) to δ on the value axis.
        let zone = try NSRegularExpression(pattern: #"<rect class="zone" x="[0-9.]+" y="([0-9.]+)" width="[0-9.]+" height="([0-9.]+)""#)
        let match = try #require(zone.firstMatch(in: svg, range: NSRange(svg.startIndex..., in: svg)))
        let top = try #require(Double(svg[Range(match.range(at: 1), in: svg)!])), height = try #require(Double(svg[Range(match.range(at: 2), in: svg)!]))
        let chosenY = try #require(Self.pointYs(svg, series: "within δ of the chosen").last)
        #expect(abs(top + height - chosenY) < 0.2, "the zone starts at the chosen one")
        let farY = try #require(Self.pointYs(svg, series: "worse by more than δ").first)
        // 0.001 against 0.032 on a linear axis: δ is 1/32 of the way up to the first candidate.
        #expect(abs(height / (chosenY - farY) - 0.001 / 0.032) < 0.005)
        #expect(svg.contains("indifference zone, 0 to δ = 0.001"))
        // One axis of numbers: spaced by value.
        let xs = Self.pointXs(svg, series: "within δ of the chosen")
        #expect(abs((xs[1] - xs[0]) / (xs[2] - xs[0]) - 10.0 / 40) < 0.01)
        expectEqual(SVGTextBoxes.overlaps(svg)?.isEmpty, true, "\(SVGTextBoxes.overlaps(svg) ?? [])")
        if let folder = ProcessInfo.processInfo.environment["PUSHSIM_CHART_DUMP"] {
            try svg.write(toFile: folder + "/optimize-test.svg", atomically: true, encoding: .utf8)
            try Self.designsSweep.chart(SweepResult.chartSpecs[0]).svg.write(toFile: folder + "/designs-test.svg", atomically: true, encoding: .utf8)
        }
    }

    /// A one-axis sweep of `repeat_max_count` whose queue arm loses `scale` times 1 %, 0.5 %, 0.1 % and
    /// summarizes 2 %, 1 %, 0.2 %, with segments `a` and `b` (b twice a's figures).
    static func population(_ name: String, scale: Double, values: [String] = ["0", "5", "50"]) -> SweepResult {
        let loss = [0.01, 0.005, 0.001], summarized = [0.02, 0.01, 0.002]
        let points = values.indices.map { i in
            var on: [String: MetricSummary] = [:], off: [String: MetricSummary] = [:]
            for (prefix, factor) in [("", 1.0), ("segments.a.", 1.0), ("segments.b.", 2.0)] {
                on[prefix + "loss_rate"] = MetricSummary(mean: scale * factor * loss[i], ci95: 0.0001, count: 5)
                on[prefix + "summarized_rate"] = MetricSummary(mean: scale * factor * summarized[i], ci95: 0.0001, count: 5)
                off[prefix + "loss_rate"] = MetricSummary(mean: scale * factor * 0.06, ci95: 0.001, count: 5)
                off[prefix + "summarized_rate"] = MetricSummary(mean: 0, ci95: 0, count: 5)
            }
            return SweepPointResult(point: SweepPoint(settings: [SweepSetting(path: "queue.repeat_max_count", value: values[i])]),
                                    replications: [], summaries: [ArmSummary(queue: "off", metrics: off), ArmSummary(queue: "on", metrics: on)])
        }
        var result = SweepResult(scenario: name, axes: [SweepAxis(path: "queue.repeat_max_count", values: values)],
                                 seeds: [1, 2, 3, 4, 5], points: points)
        result.segments = ["a", "b"]
        return result
    }

    @Test func aSweepReadBackFromItsJSONDrawsTheSameCharts() throws {
        for original in [Self.designsSweep, Self.population("office", scale: 1)] {
            let read = try #require(SweepResult(sweepJSON: try JSONValue.parse(original.json.text)))
            for spec in SweepResult.chartSpecs {
                expectEqual(read.chart(spec).svg, original.chart(spec).svg, "\(original.scenario): \(spec.file)")
            }
        }
        #expect(SweepResult(sweepJSON: .object(["scenario": .string("x")])) == nil)
    }

    @Test func populationsShareOneFigureALinePerPopulationAndArm() throws {
        let overlay = SweepOverlay(sources: [SweepOverlay.Source(name: "office", result: Self.population("office", scale: 1)),
                                             SweepOverlay.Source(name: "nights", result: Self.population("nights", scale: 3,
                                                                                                         values: ["0", "10", "50"]))],
                                   kind: "populations")
        #expect(overlay.refusal == nil)
        let loss = overlay.chart(SweepResult.chartSpecs[0]).svg
        let probe = try #require(SVGProbe.parse(loss))
        #expect(probe.series == ["office · no recovery (off arm)", "office · push queue (on arm)",
                                 "nights · no recovery (off arm)", "nights · push queue (on arm)"])
        // One colour per population: both of its arms in it.
        let colour = { (series: String) -> String? in
            guard let group = loss.range(of: "<g class=\"series\" data-series=\"\(series)\">") else { return nil }
            return loss[group.upperBound...].firstMatch(of: /fill="(#[0-9a-f]{6})"/).map { String($0.1) }
        }
        expectEqual(colour("office · no recovery (off arm)"), colour("office · push queue (on arm)"))
        #expect(colour("office · push queue (on arm)") != colour("nights · push queue (on arm)"))
        // The axis is every value of both, in order, in proportion: 0, 5, 10, 50.
        let office = Self.pointXs(loss, series: "office · push queue (on arm)"), nights = Self.pointXs(loss, series: "nights · push queue (on arm)")
        try #require(office.count == 3 && nights.count == 3)
        #expect(abs((office[1] - office[0]) / (office[2] - office[0]) - 0.1) < 0.002)
        #expect(abs((nights[1] - nights[0]) / (nights[2] - nights[0]) - 0.2) < 0.002)
        // No off-arm line where the metric cannot exist.
        let summarized = try #require(SweepResult.chartSpecs.first { $0.metric == "summarized_rate" })
        try expectEqual(#require(SVGProbe.parse(overlay.chart(summarized).svg)).series, ["office · push queue (on arm)", "nights · push queue (on arm)"])
        expectEqual(SVGTextBoxes.overlaps(loss)?.isEmpty, true, "\(SVGTextBoxes.overlaps(loss) ?? [])")
        // Sweeps of other axes are refused.
        var other = Self.population("field", scale: 2)
        other.axes = [SweepAxis(path: "apns.loss", values: ["0"])]
        #expect(SweepOverlay(sources: overlay.sources + [SweepOverlay.Source(name: "field", result: other)], kind: "populations")
                    .refusal?.contains("share their axis") == true)
    }

    @Test func aSweepsSegmentsShareOneFigure() throws {
        let overlay = Self.population("office", scale: 1).segmentOverlay
        let files = overlay.charts(plain: false).map(\.name)
        #expect(files.first == "segments-loss_rate.svg" && files.allSatisfy { SweepResult.segmentOverlayFiles.contains($0) })
        let loss = overlay.chart(SweepResult.chartSpecs[0]).svg
        #expect(try #require(SVGProbe.parse(loss)).series
                == ["a · no recovery (off arm)", "a · push queue (on arm)", "b · no recovery (off arm)", "b · push queue (on arm)"])
        // Segment b's points sit a factor 2 above a's on the log axis: the same distance at every value.
        let a = Self.pointYs(loss, series: "a · push queue (on arm)"), b = Self.pointYs(loss, series: "b · push queue (on arm)")
        try #require(a.count == 3 && b.count == 3)
        for i in 0..<3 { #expect(abs((a[i] - b[i]) - (a[0] - b[0])) < 0.2 && a[i] > b[i]) }
        #expect(loss.contains("log scale"))
    }

    @Test func aSecondAxisOfDesignsNamesEachDesignAndDrawsTheOffArmOnce() throws {
        let channels = ["apns", "fcm"], designs = ["queue", "catch_up"]
        var points: [SweepPointResult] = []
        for channel in channels {
            for (d, design) in designs.enumerated() {
                let off = MetricSummary(mean: channel == "apns" ? 0.12 : 0.08, ci95: 0.001, count: 5)
                points.append(SweepPointResult(point: SweepPoint(settings: [SweepSetting(path: "channel", value: channel),
                                                                            SweepSetting(path: "recovery", value: design)]),
                                               replications: [], summaries: [
                                                ArmSummary(queue: "off", metrics: ["loss_rate": off]),
                                                ArmSummary(queue: "on", metrics: ["loss_rate": MetricSummary(mean: 0.0002 * Double(d + 1), ci95: 0.00005, count: 5)]),
                                               ]))
            }
        }
        let result = SweepResult(scenario: "designs", axes: [SweepAxis(path: "channel", values: channels),
                                                             SweepAxis(path: "recovery", values: designs)],
                                 seeds: [1, 2, 3, 4, 5], points: points)
        let svg = result.chart(SweepResult.chartSpecs[0]).svg
        try expectEqual(#require(SVGProbe.parse(svg)).series, ["no recovery (off arm)", "push queue (on arm)", "client catch-up (on arm)"])
        #expect(!svg.contains("<polyline"), "a line across channels")
    }

    /// A run's load.svg over 60 one-minute bins: letters in `letters` a bin, re-requests `reRequests` a bin.
    static func loadChart(letters: (Int) -> Int, reRequests: (Int) -> Int) -> String {
        var series = LoadSeries()
        for b in 0..<60 {
            if letters(b) > 0 { series.add(letters(b), bin: b, .lettersIn) }
            if reRequests(b) > 0 { series.add(reRequests(b), bin: b, .reRequests) }
            series.add(letters(b) / 2 + 1, bin: b, .pushesSent)
        }
        let result = RunResult(scenario: "load", seed: 1, arms: [ArmResult(.on, ledger: { var l = Ledger(); l.load = series; return l }())],
                               devices: 0..<10, totalDevices: 10,
                               loadFrame: LoadFrame(bin: SimTime.minute, warmup: 0, duration: SimTime.hour, end: SimTime.hour))
        return LoadChart(result).svg
    }

    /// The y of every vertex of the load chart's line `series`.
    static func lineYs(_ svg: String, series: String) -> [Double] {
        guard let line = svg.range(of: "<polyline data-series=\"\(series)\" points=\""),
              let end = svg.range(of: "\"", range: line.upperBound..<svg.endIndex) else { return [] }
        return svg[line.upperBound..<end.lowerBound].split(separator: " ").compactMap { $0.split(separator: ",").last.flatMap { Double($0) } }
    }

    @Test func theLoadChartTakesALogAxisOverMoreThanTwoDecades() throws {
        // Thousands of letters a bin beside a few re-requests, never 0: a log axis, no row for 0.
        let svg = Self.loadChart(letters: { 2000 + 10 * $0 }, reRequests: { $0 % 5 + 1 })
        let probe = try #require(SVGProbe.parse(svg))
        expectEqual(probe.classedText["y-label"], "count per bin, log scale")
        let ticks = try ["1", "10", "100", "1000", "10000"].map { try #require(Self.tickY(svg, label: $0), "no tick \($0)") }
        let decade = ticks[0] - ticks[1]
        #expect(decade > 20)
        for i in 1..<ticks.count { #expect(abs((ticks[i - 1] - ticks[i]) - decade) < 0.2) }
        #expect(!svg.contains("axis-break") && Self.tickY(svg, label: "0") == nil)
        // Every vertex where its count's logarithm puts it.
        let letters = Self.lineYs(svg, series: LoadQuantity.lettersIn.label), reRequests = Self.lineYs(svg, series: LoadQuantity.reRequests.label)
        try #require(letters.count == 60 && reRequests.count == 60)
        for b in [0, 17, 59] {
            #expect(abs(letters[b] - (ticks[0] - log10(Double(2000 + 10 * b)) * decade)) < 0.3)
            #expect(abs(reRequests[b] - (ticks[0] - log10(Double(b % 5 + 1)) * decade)) < 0.3)
        }
        // 1 and 2 re-requests a bin are told apart.
        #expect(reRequests[0] - reRequests[1] > 0.25 * decade)
        expectEqual(SVGTextBoxes.overlaps(svg)?.isEmpty, true, "\(SVGTextBoxes.overlaps(svg) ?? [])")

        // A bin of 0 re-requests: 0 on its own row under a break.
        let zero = Self.loadChart(letters: { 2000 + 10 * $0 }, reRequests: { $0 % 3 == 0 ? 0 : 4 })
        #expect(zero.contains("class=\"axis-break\""))
        let zeroY = try #require(Self.tickY(zero, label: "0")), oneY = try #require(Self.tickY(zero, label: "1"))
        let withZero = Self.lineYs(zero, series: LoadQuantity.reRequests.label)
        #expect(abs(withZero[0] - zeroY) < 0.2 && withZero[1] < oneY)

        // Within two decades: linear from 0, no break, no "log scale".
        let linear = Self.loadChart(letters: { 20 + $0 }, reRequests: { $0 % 5 + 1 })
        #expect(!linear.contains("log scale") && !linear.contains("axis-break"))
        // 1 to 79 a bin: ticks of 20 up to 80; 5 re-requests a quarter of the first step up.
        let bottom = try #require(Self.tickY(linear, label: "0")), first = try #require(Self.tickY(linear, label: "20"))
        #expect(abs(Self.lineYs(linear, series: LoadQuantity.reRequests.label)[4] - (bottom - 0.25 * (bottom - first))) < 0.3)
        if let folder = ProcessInfo.processInfo.environment["PUSHSIM_CHART_DUMP"] {
            try svg.write(toFile: folder + "/load-log.svg", atomically: true, encoding: .utf8)
            try zero.write(toFile: folder + "/load-zero.svg", atomically: true, encoding: .utf8)
        }
    }

    /// The height of the zone as drawn in `svg` (its first zone), in pixels.
    static func zoneHeight(_ svg: String) -> Double? {
        svg.firstMatch(of: /<rect class="zone" x="[0-9.]+" y="[0-9.]+" width="[0-9.]+" height="([0-9.]+)"/).flatMap { Double($0.1) }
    }

    @Test func optimizeZoomsToDeltaExactlyWhenItsZoneIsTooThinToRead() throws {
        // δ = 0.001 against differences up to 0.0325: the zone is a few pixels of the chart.
        let thin = Self.optimizeResult
        let mainZone = try #require(Self.zoneHeight(thin.chart.svg))
        #expect(mainZone < SVGChart.Layout.plotHeight / 20)
        let zoom = try #require(thin.zoomChart)
        let zoomed = zoom.svg
        // In the panel the zone is a quarter of the value axis (−δ to 3δ), not a sliver.
        let panelZone = try #require(Self.zoneHeight(zoomed))
        #expect(panelZone > SVGChart.Layout.plotHeight / 5, "the zone is \(panelZone) px of the panel")
        // Who lies within δ is seen there: 10, 20 and the chosen 50 with their places on the linear axis;
        // the four far above it are left out and counted.
        let within = Self.pointYs(zoomed, series: "within δ of the chosen")
        try #require(within.count == 3)
        let perUnit = panelZone / 0.001
        #expect(abs((within[2] - within[1]) - 0.0004 * perUnit) < 0.3 && abs((within[2] - within[0]) - 0.0015 * perUnit) < 0.3)
        #expect(Self.pointYs(zoomed, series: "worse by more than δ").isEmpty)
        #expect(zoomed.contains("4 beyond this panel"))
        #expect(!zoomed.contains("log scale"))
        expectEqual(SVGTextBoxes.overlaps(zoomed)?.isEmpty, true, "\(SVGTextBoxes.overlaps(zoomed) ?? [])")
        // optimize.svg holds both, the panel under the chart.
        let written = thin.svg
        expectEqual(written.components(separatedBy: "<g class=\"panel\"").count - 1, 2)
        #expect(written.contains("transform=\"translate(0 \(try #require(Int(thin.chart.svg.firstMatch(of: /height="([0-9]+)"/).map { String($0.1) } ?? ""))))\""))
        #expect(SVGProbe.parse(written) != nil)

        // The panel comes exactly when the zone, as drawn, is under a twentieth of the axis.
        var seen: Set<Bool> = []
        for delta in [0.0002, 0.0005, 0.001, 0.0015, 0.002, 0.003, 0.005, 0.01] {
            var result = thin
            result.settings.delta = delta
            let drawn = try #require(Self.zoneHeight(result.chart.svg))
            let needed = drawn < SVGChart.Layout.plotHeight / 20
            seen.insert(needed)
            expectEqual((result.zoomChart != nil), needed, "δ = \(delta): zone \(drawn) px")
            expectEqual((result.svg == result.chart.svg), !needed)
        }
        expectEqual(seen, [true, false], "the deltas tried fall on both sides of the rule")
        if let folder = ProcessInfo.processInfo.environment["PUSHSIM_CHART_DUMP"] {
            try written.write(toFile: folder + "/optimize-zoom.svg", atomically: true, encoding: .utf8)
        }
    }
}
