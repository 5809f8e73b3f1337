// Hostile partial results, generated here: forged counts, absurd shards, edited parts, other versions, floods.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

/// Builds hostile parts from real ones: `forge` edits the document and signs it again (so the
/// edit reaches the range checks behind the checksum), `edit` changes it without signing.
enum HostileParts {
    static func parts(count: Int = 2, devices: Int = 8) throws -> [PartialResult] {
        let scenario = try SmallScenarios.load("quickstart", devices: devices)
        return (0..<count).compactMap { ShardSpec(index: $0, count: count) }.map { PartialResult.run(scenario, shard: $0) }
    }

    static func object(_ part: PartialResult) -> [String: JSONValue] {
        guard case .object(let top) = part.json else { return [:] }
        return top
    }

    /// The part with `change` applied to its document, signed again with a matching checksum.
    static func forge(_ part: PartialResult, _ change: (inout [String: JSONValue]) -> Void) -> String {
        var top = object(part)
        top["checksum"] = nil
        change(&top)
        top["checksum"] = .string(PartialResult.checksum(of: top))
        return JSONValue.object(top).text
    }

    /// Sets `value` at a path of object keys and array indices inside `root`.
    static func set(_ value: JSONValue, at path: [String], in root: inout JSONValue) {
        guard let first = path.first else { root = value; return }
        let rest = Array(path.dropFirst())
        switch root {
        case .object(var members):
            var child = members[first] ?? .null
            set(value, at: rest, in: &child)
            members[first] = child
            root = .object(members)
        case .array(var items):
            guard let i = Int(first), items.indices.contains(i) else { return }
            set(value, at: rest, in: &items[i])
            root = .array(items)
        default: return
        }
    }

    static func forge(_ part: PartialResult, setting value: JSONValue, at path: [String]) -> String {
        forge(part) { top in
            var root = JSONValue.object(top)
            set(value, at: path, in: &root)
            if case .object(let changed) = root { top = changed }
        }
    }

    /// Reads and merges texts; the error message, or nil when they merged.
    static func refusal(_ texts: [String]) -> String? {
        do {
            var merge = PartialMerge()
            for (n, text) in texts.enumerated() {
                try PartialResult.forEach(in: Array(text.utf8), source: "part-\(n)") { try merge.add($0, source: "part-\(n)") }
            }
            _ = try merge.finish()
            return nil
        } catch let error as PartialResultError {
            return error.message
        } catch {
            return "not a PartialResultError: \(error)"
        }
    }
}

@Suite struct PartialResultHostileTests {
    @Test func partsCarryVersionSizeAndAChecksumThatRoundTrips() throws {
        let part = try #require(HostileParts.parts().first)
        let top = HostileParts.object(part)
        expectEqual(top["version"], .string(PushSimVersion.current))
        expectEqual(top["format"], .string("pushsim-partial/2"))
        guard case .string(let checksum)? = top["checksum"] else { Issue.record("no checksum"); return }
        #expect(checksum.hasPrefix("fnv1a64:") && checksum.count == 8 + 16)
        // Pretty-printed, with escapes that do not change a value: still the same content.
        let pretty = part.json.prettyText.replacingOccurrences(of: "\"quickstart\"", with: "\"quick\\u0073tart\"")
        try expectEqual(PartialResult.read(pretty, source: "p"), [part])
    }

    @Test func anEditedPartIsRefusedEvenWhenItsSumsStillAddUp() throws {
        let parts = try HostileParts.parts()
        // Move one event between the arms' counts of events: every identity still holds.
        let text = parts[1].json.text
        guard let range = text.range(of: "\"events\":") else { Issue.record("no events"); return }
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        let edited = text.replacingCharacters(in: range.upperBound..<text.index(range.upperBound, offsetBy: digits.count),
                                              with: String((Int(digits) ?? 0) + 1))
        let message = HostileParts.refusal([parts[0].json.text, edited])
        expectEqual(message?.contains("part-1: the checksum does not match the content"), true, "\(message ?? "merged")")
    }

    @Test func aPartOfAnotherVersionOrFormatIsRefused() throws {
        let part = try #require(HostileParts.parts().first)
        let other = HostileParts.forge(part, setting: .string("1.0.0"), at: ["version"])
        #expect(HostileParts.refusal([other])?.contains("made by pushsim 1.0.0, but this is pushsim \(PushSimVersion.current)") == true)
        let old = HostileParts.forge(part, setting: .string("pushsim-partial/1"), at: ["format"])
        expectEqual(HostileParts.refusal([old])?.contains("another version of pushsim"), true)
        var top = HostileParts.object(part)
        top["checksum"] = nil
        expectEqual(HostileParts.refusal([JSONValue.object(top).text])?.contains("`checksum`: missing"), true)
    }

    @Test func countsNearTwoToTheSixtyThreeAreRefusedWithoutOverflow() throws {
        let parts = try HostileParts.parts()
        // Each part alone is consistent (letters = lost = one cause); together they pass Int.max.
        func huge(_ part: PartialResult) -> String {
            HostileParts.forge(part) { top in
                var root = JSONValue.object(top)
                let n = Int.max / 2 + 1
                for key in ["letters", "lost", "delivered", "summarized"] {
                    HostileParts.set(.int(key == "letters" || key == "lost" ? n : 0), at: ["arms", "0", "counts", key], in: &root)
                }
                for cause in LossCause.allCases {
                    HostileParts.set(.int(cause == .xivaDrop ? n : 0), at: ["arms", "0", "causes", cause.key], in: &root)
                }
                HostileParts.set(.array([]), at: ["arms", "0", "latency", "buckets"], in: &root)
                if case .object(let changed) = root { top = changed }
            }
        }
        let message = HostileParts.refusal([huge(parts[0]), huge(parts[1])])
        #expect(message?.contains("part-1: `arms[0].counts.letters`: adding this part takes the total past 9223372036854775807") == true,
                "\(message ?? "merged")")
        // A count past Int.max, a negative one, a fraction, 1e300: each named by its key path.
        for bad: JSONValue in [.uint(UInt64(Int.max) + 1), .int(-1), .double(1.5), .double(1e300), .string("7")] {
            let text = HostileParts.forge(parts[0], setting: bad, at: ["arms", "1", "counts", "resent"])
            expectEqual(HostileParts.refusal([text])?.contains("`arms[1].counts.resent`: expected a whole number from 0 to"), true)
        }
    }

    @Test func absurdShardCountsCostNothing() throws {
        let part = try #require(HostileParts.parts(count: 1).first)
        // One part claiming to be shard 0 of 2^63 − 1, or of a billion: refused at once as
        // incomplete (its share of 8 devices is none of them), never allocated per shard.
        for count in [Int.max, 1_000_000_000] {
            let text = HostileParts.forge(part) { top in
                top["shard"] = .object(["index": .int(0), "count": .int(count)])
                top["devices"] = .object(["lower": .int(0), "upper": .int(0), "total": .int(8)])
            }
            // A bound on a hang, not a speed measurement: a loop per shard would take minutes (or
            // forever at 2^63 − 1); a loaded two-core machine may take a second for the refusal.
            let started = Date()
            let message = HostileParts.refusal([text]) ?? ""
            #expect(Date().timeIntervalSince(started) < 20)
            #expect(message.contains("of \(count) shards: 1/\(count), 2/\(count)"), "\(message)")
        }
        let wrongShare = HostileParts.forge(part, setting: .object(["index": .int(3), "count": .int(4)]), at: ["shard"])
        expectEqual(HostileParts.refusal([wrongShare])?.contains("not its own share"), true)
        let inverted = HostileParts.forge(part, setting: .object(["index": .int(4), "count": .int(4)]), at: ["shard"])
        expectEqual(HostileParts.refusal([inverted])?.contains("expected 0 ≤ index < count"), true)
    }

    @Test func forgedHistogramsAreRefused() throws {
        let part = try #require(HostileParts.parts().first)
        let cases: [(JSONValue, String)] = [
            (.array([.array([.int(LatencyHistogram.bucketCount), .int(1)])]), "indices ascending"),
            (.array([.array([.int(5), .int(1)]), .array([.int(5), .int(1)])]), "indices ascending"),
            (.array([.array([.int(5), .uint(UInt64.max)])]), "a count from 0 to"),
            (.array([.array([.int(5)])]), "[index, count]"),
            (.string("many"), "at most \(LatencyHistogram.bucketCount) [index, count] pairs"),
        ]
        for (buckets, expected) in cases {
            let text = HostileParts.forge(part, setting: buckets, at: ["arms", "0", "latency", "buckets"])
            let message = HostileParts.refusal([text]) ?? "merged"
            #expect(message.contains("`arms[0].latency.buckets") && message.contains(expected), "\(message)")
        }
        // Buckets that no longer add up to `delivered`.
        let short = HostileParts.forge(part, setting: .array([]), at: ["arms", "0", "latency", "buckets"])
        expectEqual(HostileParts.refusal([short])?.contains("the counts do not add up"), true)
    }

    @Test func theMergedSizeIsTheRunsSoSummaryMarkdownMatches() throws {
        let scenario = try SmallScenarios.load("quickstart", devices: 9)
        let parts = (0..<3).compactMap { ShardSpec(index: $0, count: 3) }.map { PartialResult.run(scenario, shard: $0) }
        var merge = PartialMerge()
        for part in parts.reversed() { try merge.add(part, source: "p") }
        let (result, size, provenance) = try merge.finish()
        let single = Simulator.run(scenario)
        let merged = RunSummary.files(result, size: size, provenance: provenance).map(\.contents)
        expectEqual(merged, RunSummary.files(single, scenario: scenario).map(\.contents))
        #expect(merged[1].contains("9 devices × "))
        #expect(merged[1].contains("## How this was made"))
    }
}

@Suite struct BoundedInputTests {
    @Test func anEndlessInputIsCutAtTheCap() throws {
        #expect(throws: BoundedInputError.tooLarge(limit: 1 << 20)) { _ = try BoundedInput.read(path: "/dev/zero", limit: 1 << 20) }
        #expect(throws: BoundedInputError.missing) { _ = try BoundedInput.read(path: "/nonexistent/x", limit: 10) }
        #expect(throws: BoundedInputError.notAFile) { _ = try BoundedInput.read(path: NSTemporaryDirectory(), limit: 10) }
        let dir = TemporaryDirectory()
        let file = dir.write("ten", "0123456789")
        try expectEqual(BoundedInput.read(path: file, limit: 10), Array("0123456789".utf8))
        #expect(throws: BoundedInputError.tooLarge(limit: 9)) { _ = try BoundedInput.read(path: file, limit: 9) }
    }
}
