// Tests of decoding: every key of the contract, its default, its checks, and where errors point.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ScenarioDecoderTests {
    private func decode(_ text: String, overrides: [String] = []) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: overrides)
    }
    private let ms = SimTime.millisecond, s = SimTime.second, h = SimTime.hour, d = SimTime.day
    private func t(_ us: Int64) -> SimTime { SimTime(microseconds: us) }

    @Test func contractExampleDecodesWithExpectedValues() throws {
        let (sc, sweep) = try ScenarioLoader.parseWithSweep(text: ContractExample.text, file: "example.yaml")
        #expect(sweep.isEmpty)
        expectEqual(sc.name, "commuters")
        expectEqual(sc.description, "...")
        expectEqual(sc.seed, 7)
        expectEqual(sc.duration, t(7 * d))
        expectEqual(sc.drain, t(d))
        expectEqual(sc.devices, 10_000)
        expectEqual(sc.mail.ratePerMicrosecond, 40.0 / Double(d))
        expectEqual(sc.connectivity.online, .exponential(mean: Double(3 * h)))
        expectEqual(sc.connectivity.offline, .exponential(mean: Double(40 * SimTime.minute)))
        expectEqual(sc.connectivity.windows, [OfflineWindow(start: t(8 * h), end: t(8 * h + 40 * SimTime.minute), every: t(d))])
        expectEqual(sc.xiva.drop, 0)
        expectEqual(sc.xiva.latency, .constant(t(50 * ms)))
        expectEqual(sc.xiva.retention, t(3 * d))
        expectEqual(sc.xiva.requestLatency, .constant(t(300 * ms)))
        expectEqual(sc.xiva.requestError, 0)
        expectEqual(sc.xiva.resendLatency, .constant(t(200 * ms)))
        expectEqual(sc.apns.loss, 0)
        expectEqual(sc.apns.latency, .constant(t(100 * ms)))
        expectEqual(sc.apns.expiration, t(d))
        expectEqual(sc.device.alertsOff, 0)
        #expect(sc.device.clearAfter == nil)
        expectEqual(sc.extension.deadline, t(30 * s))
        expectEqual(sc.extension.processing, .constant(t(200 * ms)))
        expectEqual(sc.queue.mode, .both)
        expectEqual(sc.queue.repeatMaxCount, 10)
        #expect(sc.queue.collapseId)
        expectEqual(sc.queue.client, .intended)
    }

    @Test func everyDefaultIsTheContracts() throws {
        let sc = try decode(minimalScenario)
        expectEqual(sc.description, "")
        expectEqual(sc.seed, 1)
        expectEqual(sc.drain, t(d))
        expectEqual(sc.mail.ratePerMicrosecond, 40.0 / Double(d))
        #expect(sc.connectivity.online == nil && sc.connectivity.offline == nil && sc.connectivity.windows.isEmpty)
        expectEqual(sc.xiva.drop, 0)
        expectEqual(sc.xiva.requestError, 0)
        expectEqual(sc.xiva.latency, .constant(t(50 * ms)))
        expectEqual(sc.xiva.retention, t(3 * d))
        expectEqual(sc.xiva.requestLatency, .constant(t(300 * ms)))
        expectEqual(sc.xiva.resendLatency, .constant(t(200 * ms)))
        expectEqual(sc.apns.loss, 0)
        expectEqual(sc.apns.latency, .constant(t(100 * ms)))
        expectEqual(sc.apns.expiration, t(d))
        #expect(sc.device.alertsOff == 0 && sc.device.clearAfter == nil)
        expectEqual(sc.extension.deadline, t(30 * s))
        expectEqual(sc.extension.processing, .constant(t(200 * ms)))
        #expect(sc.queue.mode == .both && sc.queue.repeatMaxCount == 10 && sc.queue.collapseId && sc.queue.client == .intended)
    }

    @Test func everyKeyIsRead() throws {
        let sc = try decode(minimalScenario + """
            description: "a study"
            seed: 18446744073709551615
            drain: 2h
            mail: {rate: 3/2h}
            xiva:
              drop: 1%
              latency: uniform(10ms, 20ms)
              retention: forever
              request_latency: lognormal(300ms, 5s)
              request_error: 0.5
              resend_latency: exponential(1s)
            apns: {loss: 0.25, latency: 0, expiration: forever}
            device: {alerts_off: 10%, clear_after: exponential(1h)}
            extension: {deadline: forever, processing: 1s}
            queue: {mode: on, repeat_max_count: 0, collapse_id: false, client: literal}
            """)
        expectEqual(sc.description, "a study")
        expectEqual(sc.seed, UInt64.max)
        expectEqual(sc.drain, t(2 * h))
        expectEqual(sc.mail.ratePerMicrosecond, 3.0 / Double(2 * h))
        expectEqual(sc.xiva.drop, 0.01)
        expectEqual(sc.xiva.latency, .uniform(min: 10e3, max: 20e3))
        expectEqual(sc.xiva.retention, .forever)
        expectEqual(sc.xiva.requestLatency, .lognormal(median: 300e3, p99: 5e6))
        expectEqual(sc.xiva.requestError, 0.5)
        expectEqual(sc.xiva.resendLatency, .exponential(mean: 1e6))
        expectEqual(sc.apns.loss, 0.25)
        expectEqual(sc.apns.latency, .constant(.zero))
        expectEqual(sc.apns.expiration, .forever)
        expectEqual(sc.device.alertsOff, 0.1)
        expectEqual(sc.device.clearAfter, .exponential(mean: Double(h)))
        expectEqual(sc.extension.deadline, .forever)
        expectEqual(sc.extension.processing, .constant(t(s)))
        #expect(sc.queue.mode == .on && sc.queue.repeatMaxCount == 0 && !sc.queue.collapseId && sc.queue.client == .literal)
    }

    @Test func requiredKeysAreNameDurationAndDevices() {
        let name = scenarioError("duration: 1d\ndevices: 1\n")
        expectEqual(place(name), "t.yaml:1:1")
        expectEqual(name?.message.contains("missing required key `name`"), true)
        expectEqual(scenarioError("name: x\ndevices: 1\n")?.message.contains("`duration`"), true)
        expectEqual(scenarioError("name: x\nduration: 1d\n")?.message.contains("`devices`"), true)
    }

    @Test func emptyFileAndNonMappingTopAreRejected() {
        expectEqual(scenarioError("# nothing\n")?.message.contains("empty"), true)
        let list = scenarioError("- a\n- b\n")
        expectEqual(place(list), "t.yaml:1:1")
        expectEqual(list?.message.contains("found a list"), true)
    }

    @Test func devicesMustBeAtLeastOne() {
        let error = scenarioError("name: t\nduration: 1d\ndevices: 0\n")
        expectEqual(place(error), "t.yaml:3:10")
        expectEqual(error?.message, "`devices`: expected an integer ≥ 1, found `0`")
    }

    @Test func durationMustBePositive() {
        expectEqual(place(scenarioError("name: t\nduration: 0\ndevices: 1\n")), "t.yaml:2:11")
    }

    @Test func repeatMaxCountMustNotBeNegative() {
        let error = scenarioError(minimalScenario + "queue:\n  repeat_max_count: -1\n")
        expectEqual(place(error), "t.yaml:5:21")
        expectEqual(error?.message.contains("`queue.repeat_max_count`"), true)
    }

    @Test func unknownKeySuggestsNearest() {
        let error = scenarioError(minimalScenario + "queue:\n  repeat_max_cont: 5\n")
        expectEqual(place(error), "t.yaml:5:3")
        expectEqual(error?.message, "unknown key `repeat_max_cont` in `queue`; did you mean `repeat_max_count`?")
        let top = scenarioError("nmae: t\nduration: 1d\ndevices: 1\n")
        expectEqual(place(top), "t.yaml:1:1")
        expectEqual(top?.message.contains("did you mean `name`?"), true)
    }

    @Test func unknownTopLevelKeyNamesTheSectionsHoldingIt() {
        let error = scenarioError(minimalScenario + "latency: 5ms\n")
        expectEqual(place(error), "t.yaml:4:1")
        expectEqual(error?.message.contains("belongs under `xiva` or `apns`"), true)
    }

    @Test func mappingWhereAScalarBelongsIsRejected() {
        let error = scenarioError("name: t\nduration: {a: 1}\ndevices: 1\n")
        expectEqual(place(error), "t.yaml:2:11")
        expectEqual(error?.message, "`duration`: expected a duration, found a mapping")
        expectEqual(scenarioError(minimalScenario + "seed: [1]\n")?.message.contains("found a list"), true)
    }

    @Test func scalarWhereAMappingBelongsIsRejected() {
        let error = scenarioError(minimalScenario + "xiva: 5\n")
        expectEqual(place(error), "t.yaml:4:7")
        expectEqual(error?.message.contains("`xiva`: expected a mapping"), true)
    }

    @Test func emptySectionMeansDefaults() throws {
        let sc = try decode(minimalScenario + "connectivity:\nqueue:\n")
        #expect(sc.connectivity.online == nil && sc.queue.mode == .both)
    }

    @Test func quotedNumberIsAStringNotANumber() throws {
        try expectEqual(decode("name: \"2024\"\nduration: 1d\ndevices: 1\n").name, "2024")
        let error = scenarioError("name: t\nduration: 1d\ndevices: \"5\"\n")
        expectEqual(place(error), "t.yaml:3:10")
        expectEqual(error?.message.contains("quoted string"), true)
    }

    @Test func nameMustBeAUsableFolderName() {
        expectEqual(place(scenarioError("name: ''\nduration: 1d\ndevices: 1\n")), "t.yaml:1:7")
        #expect(scenarioError("name: a/b\nduration: 1d\ndevices: 1\n") != nil)
        expectEqual(scenarioError("name: {a: 1}\nduration: 1d\ndevices: 1\n")?.message.contains("expected a string"), true)
    }

    @Test func foreverIsRejectedWhereNotAllowed() {
        let error = scenarioError(minimalScenario + "drain: forever\n")
        expectEqual(place(error), "t.yaml:4:8")
        expectEqual(error?.message.contains("`forever` is not accepted here"), true)
        #expect(scenarioError(minimalScenario + "xiva: {latency: forever}\n") != nil)
    }

    @Test func expirationZeroIsAllowed() throws {
        try expectEqual(decode(minimalScenario + "apns: {expiration: 0}\nxiva: {retention: 0}\n").apns.expiration, .zero)
    }

    @Test func probabilitiesAreRangeChecked() {
        for key in ["xiva: {drop: ", "xiva: {request_error: ", "apns: {loss: ", "device: {alerts_off: "] {
            let error = scenarioError(minimalScenario + key + "1.5}\n")
            expectEqual(error?.message.contains("between 0 and 1"), true, "\(key)")
        }
    }

    @Test func connectivityOnlineAndOfflineGoTogether() {
        let error = scenarioError(minimalScenario + "connectivity:\n  offline: 40m\n")
        expectEqual(place(error), "t.yaml:5:3")
        expectEqual(error?.message.contains("both or neither"), true)
    }

    @Test func connectivityOnlineMeanMustBePositive() {
        let error = scenarioError(minimalScenario + "connectivity: {online: 0, offline: 1h}\n")
        expectEqual(place(error), "t.yaml:4:24")
        expectEqual(error?.message.contains("mean greater than 0"), true)
    }

    @Test func windowsNeedStartAndEnd() {
        let error = scenarioError(minimalScenario + "connectivity:\n  windows:\n    - {start: 8h}\n")
        expectEqual(place(error), "t.yaml:6:7")
        expectEqual(error?.message.contains("missing required key `end` in `connectivity.windows[0]`"), true)
        let unknown = scenarioError(minimalScenario + "connectivity:\n  windows:\n    - {start: 8h, ends: 9h}\n")
        expectEqual(unknown?.message.contains("did you mean `end`?"), true)
    }

    @Test func windowEndMustFollowStart() {
        let error = scenarioError(minimalScenario + "connectivity:\n  windows: [{start: 9h, end: 9h}]\n")
        expectEqual(place(error), "t.yaml:5:30")
        expectEqual(error?.message.contains("expected a time after start (9h)"), true)
    }

    @Test func windowEveryMustBePositive() throws {
        let error = scenarioError(minimalScenario + "connectivity:\n  windows:\n    - start: 1h\n      end: 2h\n      every: 0\n")
        expectEqual(place(error), "t.yaml:8:14")
        let once = try decode(minimalScenario + "connectivity:\n  windows:\n    - {start: 23h, end: 31h}\n")
        expectEqual(once.connectivity.windows, [OfflineWindow(start: t(23 * h), end: t(31 * h), every: nil)])
    }

    @Test func windowsMustBeAList() {
        expectEqual(scenarioError(minimalScenario + "connectivity: {windows: {start: 1h, end: 2h}}\n")?.message.contains("expected a list of windows"), true)
    }

    @Test func queueModeAndClientAreEnumerations() throws {
        try expectEqual(decode(minimalScenario + "queue: {mode: off}\n").queue.mode, .off)
        try expectEqual(decode(minimalScenario + "queue: {mode: \"on\"}\n").queue.mode, .on)
        let error = scenarioError(minimalScenario + "queue: {mode: sometimes}\n")
        expectEqual(place(error), "t.yaml:4:15")
        expectEqual(error?.message, "`queue.mode`: expected one of off, on, both, found `sometimes`")
        expectEqual(scenarioError(minimalScenario + "queue: {client: clever}\n")?.message.contains("intended, literal"), true)
    }

    @Test func collapseIdIsABoolean() {
        expectEqual(scenarioError(minimalScenario + "queue: {collapse_id: yes}\n")?.message.contains("`true` or `false`"), true)
    }

    @Test func seedIsAnUnsigned64BitIntegerInTheFile() {
        expectEqual(place(scenarioError(minimalScenario + "seed: -1\n")), "t.yaml:4:7")
        #expect(scenarioError(minimalScenario + "seed: 18446744073709551616\n") != nil)
    }

    @Test func errorDescriptionIsFileLineColumnMessage() {
        let error = ScenarioError(location: SourceLocation(file: "a.yaml", line: 3, column: 7), message: "boom")
        expectEqual(error.description, "a.yaml:3:7: boom")
        expectEqual(ScenarioError(location: nil, message: "boom").description, "boom")
    }
}
