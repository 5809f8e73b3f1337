// The trace of a hand-built device, checked rule by rule and against a golden file.
//
// Re-record the golden file after an intended change with
//   PUSHSIM_RECORD_GOLDEN=1 swift test --filter TraceGoldenTests
// then review the diff of Tests/PushSimCLITests/Golden/ and commit it.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCLI
import PushSimTestSupport

/// The golden trace sits in this target's Golden folder, found from this file's place beside it.
extension TraceFixture {
    static var goldenURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden").appendingPathComponent("trace-offline-window.txt")
    }
}

@Suite struct TraceGoldenTests {
    @Test func everyFirstPushReachesAPNsFiftyMillisecondsAfterItsLetter() throws {
        let entries = Simulator.trace(try TraceFixture.scenario(), device: 0, arm: .on).entries
        let created = TraceFixture.created(entries)
        #expect(created.count >= 8)
        var firstArrival: [Int: Int64] = [:]
        for e in entries where e.text == "reached APNs" { if let l = e.letter, firstArrival[l] == nil { firstArrival[l] = e.time } }
        for (letter, t) in created { expectEqual(firstArrival[letter], t + 50 * TraceFixture.ms) }
    }

    @Test func onlineLettersArePresentedThreeHundredFiftyMillisecondsAfterCreation() throws {
        let entries = Simulator.trace(try TraceFixture.scenario(), device: 0, arm: .off).entries
        let created = TraceFixture.created(entries)
        let presented = Dictionary(entries.filter { $0.text == "presented (delivered)" }.compactMap { e in e.letter.map { ($0, e.time) } },
                                   uniquingKeysWith: min)
        for (letter, t) in created where t + 150 * TraceFixture.ms < TraceFixture.windowStart || t >= TraceFixture.windowEnd {
            expectEqual(presented[letter], t + 350 * TraceFixture.ms)
        }
    }

    @Test func theOfflineWindowKeepsOnlyTheLastPushAndTheQueueRecoversTheRest() throws {
        let scenario = try TraceFixture.scenario()
        let off = Simulator.trace(scenario, device: 0, arm: .off)
        let inWindow = TraceFixture.created(off.entries)
            .filter { $0.value + 150 * TraceFixture.ms >= TraceFixture.windowStart && $0.value < TraceFixture.windowEnd }
            .keys.sorted()
        #expect(inWindow.count >= 3, "the fixture needs letters in the window")
        // Queue off: all but the last are replaced in the one-slot store.
        expectEqual(off.ledger.count(of: .apnsReplaced), inWindow.count - 1)
        let flushed = off.entries.first { $0.text == "stored push sent to device" }
        #expect(flushed?.time == TraceFixture.windowEnd && flushed?.letter == inWindow.last)
        // Queue on: the gap is found on arrival, re-requested after processing, re-sent, presented.
        let on = Simulator.trace(scenario, device: 0, arm: .on)
        let gap = try #require(on.entries.first { $0.text.hasPrefix("extension found gap") })
        expectEqual(gap.time, TraceFixture.windowEnd + 100 * TraceFixture.ms)
        #expect(gap.text.hasSuffix("(\(inWindow.count - 1) missed): re-request"))
        let request = try #require(on.entries.first { $0.text.hasPrefix("re-request sent") })
        expectEqual(request.time, gap.time + 200 * TraceFixture.ms)
        let answer = try #require(on.entries.first { $0.text.hasPrefix("re-request answered") })
        expectEqual(answer.time, request.time + 300 * TraceFixture.ms)
        let resentPresented = on.entries.filter { $0.text == "presented (delivered)" && $0.letter.map(inWindow.dropLast().contains) == true }
        expectEqual(resentPresented.count, inWindow.count - 1)
        // Re-sent copies: answer + 200 ms to APNs, + 100 ms to the device, + 200 ms processing.
        #expect(resentPresented.allSatisfy { $0.time == answer.time + 500 * TraceFixture.ms })
        expectEqual(on.ledger.delivered, on.ledger.letters)
        expectEqual(on.ledger.resent, inWindow.count - 1)
        // The user clears each notification two hours after it appears.
        let cleared = on.entries.filter { $0.text == "cleared by the user" }
        #expect(!cleared.isEmpty)
    }

    @Test func traceCommandMatchesTheGoldenFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-trace-golden-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("trace-golden.yaml")
        try TraceFixture.text.write(to: file, atomically: true, encoding: .utf8)
        var output = ""
        for queue in ["off", "on"] {
            let console = Console.capturing()
            let status = PushSimTool.main(["trace", file.path, "--device", "0", "--queue", queue], console: console)
            expectEqual(status, 0)
            output += console.standardOutput
        }
        if ProcessInfo.processInfo.environment["PUSHSIM_RECORD_GOLDEN"] == "1" {
            try output.write(to: TraceFixture.goldenURL, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOf: TraceFixture.goldenURL, encoding: .utf8)
        expectEqual(output, golden, "the trace changed; if on purpose, re-record with PUSHSIM_RECORD_GOLDEN=1")
    }
}
