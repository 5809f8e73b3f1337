// Tests of device shards, partial results and merging, and of threads never changing a result.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct ShardSpecTests {
    @Test func shardsAreCountedFromZeroAndValidated() throws {
        guard case .success(let spec) = ShardSpec.parse("2/4") else { Issue.record("2/4 refused"); return }
        expectEqual(spec.index, 2)
        expectEqual(spec.count, 4)
        for bad in ["4/4", "-1/4", "0/0", "1", "a/b", "1/2/3", "", "/4", "1/"] {
            guard case .failure = ShardSpec.parse(bad) else { Issue.record("\(bad) accepted"); continue }
        }
        guard case .failure(let error) = ShardSpec.parse("4/4") else { return }
        #expect(error.message.contains("counted from 0"))
    }

    @Test func shardsCoverEveryDeviceOnceInOrder() {
        for (total, count) in [(10, 3), (7, 7), (3, 5), (1_000_003, 16), (0, 2), (Int.max, 3)] {
            var next = 0
            for k in 0..<count {
                guard let spec = ShardSpec(index: k, count: count) else { Issue.record("\(k)/\(count)"); return }
                let range = spec.devices(of: total)
                expectEqual(range.lowerBound, next)
                #expect(range.count <= total / count + 1)
                next = range.upperBound
            }
            expectEqual(next, total)
        }
    }

    @Test func fingerprintFollowsSettingsNotProcesses() throws {
        let a = try SmallScenarios.load("commuters")
        let b = try SmallScenarios.load("commuters")
        let c = try SmallScenarios.load("commuters", extra: ["apns.loss=0.2"])
        let d = try SmallScenarios.load("commuters", extra: ["seed=8"])
        expectEqual(a.fingerprint, b.fingerprint)
        #expect(a.fingerprint != c.fingerprint)
        #expect(a.fingerprint != d.fingerprint)
        expectEqual(a.fingerprint.count, 16)
    }
}

@Suite struct ThreadsAndShardsTests {
    @Test(arguments: SmallScenarios.names)
    func jobsNeverChangeTheDocument(name: String) throws {
        let scenario = try SmallScenarios.load(name)
        let one = Simulator.run(scenario, jobs: 1).json.text
        expectEqual(Simulator.run(scenario, jobs: 2).json.text, one)
        expectEqual(Simulator.run(scenario, jobs: 3).json.text, one)
    }

    @Test(arguments: SmallScenarios.names)
    func shardsMergeIntoExactlyTheSingleRun(name: String) throws {
        let scenario = try SmallScenarios.load(name)
        let single = Simulator.run(scenario, jobs: 1)
        for count in [2, 5] {
            let parts = (0..<count).compactMap { ShardSpec(index: $0, count: count) }
                .map { PartialResult.run(scenario, shard: $0, jobs: 1) }
            // Through text, as between machines, and in any order.
            let texts = parts.reversed().map { $0.json.text }
            let read = try texts.flatMap { try PartialResult.read($0, source: "part") }
            let merged = try PartialResult.merge(read)
            expectEqual(merged, single)
            expectEqual(merged.json.text, single.json.text)
        }
    }

    /// The latency seen by the user (Focus and the scheduled summary)
    /// goes through partial results and merges bucket by bucket into exactly the single run's.
    @Test func theSeenLatencyShardsAndMerges() throws {
        let scenario = try SmallScenarios.load("field-mix", extra: [
            "device.notification_summary={share: 0.5, times: [8h, 18:00]}", "device.focus={share: 0.5, windows: [{start: 22h, end: 7h}]}",
            "device.time_sensitive_off=0.3", "apns.time_sensitive=0.2"])
        let single = Simulator.run(scenario, jobs: 1)
        #expect(single.arms.allSatisfy { $0.ledger.focusSummary.seenLatency != nil && $0.ledger.focusSummary.heldInSummary > 0 })
        let parts = (0..<3).compactMap { ShardSpec(index: $0, count: 3) }.map { PartialResult.run(scenario, shard: $0, jobs: 1) }
        #expect(parts.allSatisfy { $0.json.text.contains("\"latency_seen\"") })
        let read = try parts.reversed().flatMap { try PartialResult.read($0.json.text, source: "part") }
        let merged = try PartialResult.merge(read)
        expectEqual(merged, single)
        #expect(merged.json.text == single.json.text && single.json.text.contains("\"latency_seen_s\""))
    }

    @Test func partialResultsRoundTrip() throws {
        let scenario = try SmallScenarios.load("flaky-network", extra: ["seed=18446744073709551615"])
        guard let shard = ShardSpec(index: 1, count: 3) else { return }
        let partial = PartialResult.run(scenario, shard: shard)
        let back = try PartialResult.read(partial.json.text, source: "p")
        expectEqual(back, [partial])
        expectEqual(back.first?.result.seed, UInt64.max)
        // Several documents in one text, as `cat part-* | pushsim merge -` gives.
        let twice = try PartialResult.read(partial.json.text + "\n" + partial.json.prettyText, source: "p")
        expectEqual(twice.count, 2)
    }

    @Test func partialCarriesEveryLedgerField() {
        // Ledger's fields: the integer counts listed for partials (those of the mechanisms'
        // counter sets and the FCM outcomes count by count), plus causes, latency and the XIVA
        // queue's series and the latency seen by the user (each carried by a key of its own).
        var counts = 0, others: [String] = []
        // The mechanisms' counter sets are stored together (MechanismCounts, in the registry).
        let ledgerFields = Mirror(reflecting: Ledger()).children.flatMap { child in
            child.label == "mechanismCounts" ? Array(Mirror(reflecting: child.value).children) : [child]
        }
        #expect(Mirror(reflecting: Ledger()).children.contains { $0.label == "mechanismCounts" })
        for child in ledgerFields {
            if child.value is Int { counts += 1 }
            else if child.value is any CounterSet || child.value is FCMOutcomes {
                // A counter set's integers are counts; anything else in it is carried by a key of its own.
                for member in Mirror(reflecting: child.value).children {
                    if member.value is Int { counts += 1 } else { others.append("\(child.label ?? "?").\(member.label ?? "?")") }
                }
            }
            else { others.append(child.label ?? "?") }
        }
        expectEqual(Mirror(reflecting: FCMOutcomes()).children.count, FCMOutcomes.counts.count, "FCMOutcomes gained a field: list it in FCMOutcomes.counts")
        expectEqual(others.sorted(), ["causes", "focusSummary.seenLatency", "latency", "load", "xivaQueue"])
        #expect(counts == PartialResult.ledgerCounts.count,
                "Ledger gained or lost a field: declare it (Ledger.coreCounts or its mechanism's CounterGroup), or merge loses it")
        var ledger = Ledger()
        for (n, (_, path)) in PartialResult.ledgerCounts.enumerated() { ledger[keyPath: path] = n + 1 }
        expectEqual(Set(PartialResult.ledgerCounts.map { ledger[keyPath: $0.1] }).count, PartialResult.ledgerCounts.count)
    }

    func parts(_ name: String, count: Int, extra: [String] = []) throws -> [PartialResult] {
        let scenario = try SmallScenarios.load(name, devices: 40, extra: extra)
        return (0..<count).compactMap { ShardSpec(index: $0, count: count) }.map { PartialResult.run(scenario, shard: $0) }
    }

    func refusal(_ parts: [PartialResult]) -> String? {
        do { _ = try PartialResult.merge(parts); return nil } catch { return "\(error)" }
    }

    @Test func mergeRefusesMissingRepeatedAndForeignShards() throws {
        let three = try parts("quickstart", count: 3)
        expectEqual(refusal(Array(three.prefix(2)))?.contains("missing 1 of 3 shards: 2/3"), true)
        expectEqual(refusal(three + [three[1]])?.contains("1/3 given more than once"), true)
        expectEqual(refusal([])?.contains("nothing to merge"), true)
        let otherSeed = try parts("quickstart", count: 3, extra: ["seed=99"])
        expectEqual(refusal([three[0], three[1], otherSeed[2]])?.contains("different seeds"), true)
        let otherSetting = try parts("quickstart", count: 3, extra: ["apns.loss=0.3"])
        expectEqual(refusal([three[0], three[1], otherSetting[2]])?.contains("different settings"), true)
        let otherScenario = try parts("commuters", count: 3)
        expectEqual(refusal([three[0], three[1], otherScenario[2]])?.contains("different scenarios"), true)
        let four = try parts("quickstart", count: 4)
        expectEqual(refusal([three[0], three[1], four[3]])?.contains("different numbers"), true)
    }

    @Test func mergeRefusesOverlappingOrShiftedRanges() throws {
        var three = try parts("quickstart", count: 3)
        three[1].result.devices = 10..<27   // overlaps shard 0 (0..<13)
        expectEqual(refusal(three)?.contains("not its own share"), true)
        let text = three[2].json.text.replacingOccurrences(of: "\"format\":\"pushsim-partial/2\"", with: "\"format\":\"pushsim-partial/9\"")
        #expect(throws: PartialResultError.self) { _ = try PartialResult.read(text, source: "p") }
        let full = Simulator.run(try SmallScenarios.load("quickstart", devices: 5)).json.text
        do { _ = try PartialResult.read(full, source: "full.json"); Issue.record("a full document was accepted") } catch {
            #expect("\(error)".contains("full run's document"))
        }
        #expect(throws: PartialResultError.self) { _ = try PartialResult.read("{\"format\": ", source: "p") }
        #expect(throws: PartialResultError.self) { _ = try PartialResult.read("", source: "p") }
    }

    @Test func jsonReaderKeepsIntegersExactAndRefusesJunk() throws {
        try expectEqual(JSONValue.parse("18446744073709551615"), .uint(UInt64.max))
        try expectEqual(JSONValue.parse("-9223372036854775808"), .int(Int.min))
        #expect(try JSONValue.parse("[1.5, \"a\\u00e9\\n\", true, null, {}]")
                == .array([.double(1.5), .string("aé\n"), .bool(true), .null, .object([:])]))
        for junk in ["{\"a\":1,\"a\":2}", "[1,]", "\"open", "1e999", "18446744073709551616", "{1:2}",
                     String(repeating: "[", count: 100) + String(repeating: "]", count: 100), "tru", "-"] {
            #expect(throws: JSONReadError.self) { _ = try JSONValue.parse(junk) }
        }
    }
}
