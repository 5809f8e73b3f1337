// The estimate with version 2's keys: bursts, traces, segments and per-device windows still refuse a run too big to do.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct ResourceEstimatePopulationTests {
    private func scenario(_ text: String, overrides: [String] = []) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "r.yaml", overrides: overrides)
    }
    private let base = "name: r\nduration: 10d\ndrain: 0\ndevices: 1000\nqueue: {mode: on}\n"
    private let limits = ResourceEstimate.Limits(maxEvents: ResourceEstimate.Limits.defaultMaxEvents, maxMemoryBytes: 8 * 1024 * 1024 * 1024)

    @Test func burstsAddRateTimesSize() throws {
        let plain = ResourceEstimate(try scenario(base + "mail: {rate: 2/d}\n"))
        let bursty = ResourceEstimate(try scenario(base + "mail: {rate: 2/d, bursts: {rate: 1/d, size: 8}}\n"))
        #expect(abs(plain.lettersPerDevice - 20) < 1e-9)
        #expect(abs(bursty.lettersPerDevice - (20 + 10 * 8)) < 1e-9)
        // The busiest device is judged by the compound count: 6 standard deviations of it.
        #expect(abs(bursty.peakLettersPerDevice - (100 + 6 * (20.0 + 10 * 64).squareRoot() + 16)) < 1e-9)
        // A modest rate with enormous bursts is refused before it runs.
        let huge = ResourceEstimate(try scenario(base + "mail: {rate: 1/d, bursts: {rate: 10/d, size: 100000000}}\n"))
        #expect(huge.refusal(under: limits, name: "r") != nil)
    }

    @Test func aTraceCountsExactly() throws {
        let folder = TemporaryDirectory()
        folder.write("t.csv", "time,device\n1,0\n2,0\n3,0\n4,2\n")
        let path = folder.write("s.yaml", "name: r\nduration: 1d\ndevices: 4\nmail: {trace: t.csv}\n")
        let estimate = ResourceEstimate(try ScenarioLoader.load(path: path))
        expectEqual(estimate.letters, 4)
        expectEqual(estimate.lettersPerDevice, 1)
        expectEqual(estimate.peakLettersPerDevice, 3)
    }

    @Test func segmentsWeighTheirRatesByTheirDevices() throws {
        let text = base + "mail: {rate: 10/d}\nsegments:\n  - {name: a, share: 90%}\n  - {name: b, share: 10%, mail: {rate: 1000/d}}\n"
        let estimate = ResourceEstimate(try scenario(text))
        #expect(abs(estimate.lettersPerDevice - (0.9 * 100 + 0.1 * 10_000)) < 1e-6)
        #expect(abs(estimate.peakLettersPerDevice - ResourceEstimate.peak(10_000)) < 1e-9)
        // A small segment with a huge rate is enough to refuse the run.
        let heavy = ResourceEstimate(try scenario(text, overrides: ["segments.b.mail.rate=100000000/d", "segments.b.share=0.1%", "segments.a.share=99.9%"]))
        #expect(heavy.refusal(under: limits, name: "r") != nil)
        // A shard splits its devices in the segments' proportions.
        let shard = ResourceEstimate(try scenario(text), devices: 100)
        #expect(abs(shard.letters - 100 * estimate.lettersPerDevice) < 1e-6)
    }

    @Test func windowsDrawnPerDeviceAreLaidOutPerDevice() throws {
        let same = ResourceEstimate(try scenario(base + "connectivity: {windows: [{start: 1h, end: 2h, every: 1m}]}\n"), jobs: 1)
        let drawn = ResourceEstimate(try scenario(base + "connectivity: {windows: [{start: 1h, length: 1m, every: 2m}]}\n"), jobs: 1)
        // Shared: once per chunk (16 with one job); drawn: once per device.
        expectEqual(drawn.windowSteps, 0)
        #expect(drawn.events > same.events)
        let heavy = ResourceEstimate(try scenario(base + "connectivity: {windows: [{start: 0, length: 1us, every: 2us, spread: 1us}]}\n",
                                                  overrides: ["devices=1000000"]), jobs: 1)
        #expect(heavy.refusal(under: limits, name: "r") != nil)
    }
}
