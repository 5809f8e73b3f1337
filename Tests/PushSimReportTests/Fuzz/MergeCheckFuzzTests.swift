// The fuzzer for merge and check inputs: mangled partial results and baselines are refused with a message, never a trap.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

/// Mutations of JSON documents: bytes (as a damaged file), and values at random places
/// replaced by extremes (as a forged file; partial results are signed again, so the mutation
/// reaches the checks behind the checksum). Every choice comes from one seeded stream.
struct JSONMutator {
    var rng: RandomStream
    init(seed: UInt64) { rng = RandomStream(seed: seed) }

    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(rng.next() % UInt64(n)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    static let extremes: [JSONValue] = [
        .int(Int.max), .int(Int.min), .int(-1), .int(0), .uint(UInt64.max), .double(1e300), .double(-0.5),
        .double(9_007_199_254_740_992), .string("9"), .string("\u{1B}[31m\u{202E}"), .array([]), .object([:]), .null, .bool(true),
        .array([.array([.int(7295), .int(Int.max)])]), .array([.array([.int(-1), .int(1)])]),
    ]

    static let junk: [String] = ["9223372036854775808", "1e999", "-", "[[[[", "\"", "}", "\\u0000", "\u{FEFF}", "00", ",,", "NaN"]

    /// Every path (object keys and array indices) in a document.
    static func paths(_ value: JSONValue, prefix: [String] = []) -> [[String]] {
        switch value {
        case .object(let members):
            return members.keys.sorted().flatMap { (key: String) -> [[String]] in
                let path: [String] = prefix + [key]
                return [path] + paths(members[key] ?? .null, prefix: path)
            }
        case .array(let items):
            return items.indices.flatMap { (index: Int) -> [[String]] in
                let path: [String] = prefix + [String(index)]
                return [path] + paths(items[index], prefix: path)
            }
        default:
            return []
        }
    }

    /// A value somewhere in `document` replaced by an extreme, or a key removed; `all` are the
    /// document's paths (`paths(document)`), listed once for many mutations.
    mutating func mutateValue(_ document: JSONValue, paths all: [[String]]) -> JSONValue {
        var root = document
        guard !all.isEmpty else { return root }
        let path = pick(all)
        if below(5) == 0, case .object = root, path.count == 1 {
            if case .object(var members) = root { members[path[0]] = nil; root = .object(members) }
            return root
        }
        HostileParts.set(pick(JSONMutator.extremes), at: path, in: &root)
        return root
    }

    /// The text with a few bytes flipped, inserted, deleted or cut.
    mutating func mutateBytes(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        for _ in 0...below(3) {
            guard !bytes.isEmpty else { break }
            switch below(5) {
            case 0: bytes[below(bytes.count)] = UInt8(truncatingIfNeeded: rng.next())
            case 1: bytes.insert(contentsOf: Array(pick(JSONMutator.junk).utf8), at: below(bytes.count + 1))
            case 2: bytes.remove(at: below(bytes.count))
            case 3: bytes.removeSubrange(below(bytes.count)..<bytes.count)
            default:
                let start = below(bytes.count), end = min(bytes.count, start + below(40))
                bytes.insert(contentsOf: bytes[start..<end], at: below(bytes.count + 1))
            }
        }
        return bytes
    }
}

@Suite struct MergeCheckFuzzTests {
    @Test func mangledPartialResultsAreRefusedOrMergeConsistently() throws {
        let parts = try HostileParts.parts(count: 2, devices: 6)
        let documents = parts.map(\.json)
        let texts = documents.map(\.text)
        let documentPaths = documents.map { JSONMutator.paths($0) }
        var mutator = JSONMutator(seed: 15)
        var refused = 0, merged = 0
        for n in 0..<300 {
            let victim = mutator.below(2)
            let bytes: [UInt8]
            if n % 2 == 0 {
                bytes = mutator.mutateBytes(texts[victim])
            } else {
                // Forged: a value replaced, then signed again so the checks behind the checksum see it.
                guard case .object(var top) = mutator.mutateValue(documents[victim], paths: documentPaths[victim]) else { continue }
                top["checksum"] = nil
                top["checksum"] = .string(PartialResult.checksum(of: top))
                bytes = Array(JSONValue.object(top).text.utf8)
            }
            do {
                var merge = PartialMerge()
                try PartialResult.forEach(in: bytes, source: "mutant") { try merge.add($0, source: "mutant") }
                try merge.add(parts[1 - victim], source: "intact")
                let (result, _, _) = try merge.finish()
                // Whatever got through is a consistent run: the accounting identities hold.
                let consistent = result.arms.allSatisfy { $0.ledger.identitiesHold }
                #expect(consistent, "case \(n)")
                merged += 1
            } catch let error as PartialResultError {
                #expect(!error.message.isEmpty && error.message.count < 2_000, "case \(n)")
                refused += 1
            }
        }
        #expect(refused > 220, "the mutations should mostly be refused: \(refused) refused, \(merged) merged")
    }

    @Test func mangledBaselinesAreRefusedOrCompared() throws {
        let scenario = try SmallScenarios.load("quickstart", devices: 6)
        let (result, spreads) = CheckRun.run(scenario, thresholds: [], jobs: 1)
        let document = result.json
        let dir = TemporaryDirectory()
        let documentPaths = JSONMutator.paths(document)
        var mutator = JSONMutator(seed: 14)
        var refused = 0
        for n in 0..<300 {
            let bytes = n % 2 == 0 ? mutator.mutateBytes(document.prettyText)
                : Array(mutator.mutateValue(document, paths: documentPaths).prettyText.utf8)
            let path = dir.write("b\(n).json", String(decoding: bytes, as: UTF8.self))
            do {
                let baseline = try CheckComparison.readBaseline(path: path)
                try CheckComparison.validate(baseline, path: path, scenario: scenario)
                _ = CheckComparison.thresholds(baseline)
                let report = try CheckComparison.compare(baseline: baseline, baselinePath: path, now: result, spreads: spreads)
                _ = report.text
                _ = report.json.text
            } catch let error as CheckInputError {
                #expect(!error.description.isEmpty, "case \(n)")
                refused += 1
            }
        }
        #expect(refused > 100)
    }
}
