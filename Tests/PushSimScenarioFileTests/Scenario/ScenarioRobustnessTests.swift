// Randomized robustness: mutated scenario files must end in a located ScenarioError or a Scenario, never a trap.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ScenarioRobustnessTests {
    /// Bytes that matter to the reader, inserted at random places.
    private static let pieces: [[UInt8]] = [
        "[", "{", "]", "}", "- ", ": ", "\n  ", "'", "\"", "#", ",", "\t", "\r", "\\u12", "(", ")", "&", "*", "!",
        "|", "forever", "99999999999999999999", "%", ".", "\n", " ", "---", "-", "1e999",
    ].map { Array($0.utf8) } + [[0xFF], [0x00], [0xC3], [0xEF, 0xBB, 0xBF]]

    @Test func mutatedContractExampleNeverTraps() {
        var rng = RandomStream(seed: 2024)
        let base = Array(ContractExample.text.utf8)
            + Array("\nsweep:\n  xiva.latency: [1s, uniform(1s, 2s)]\n  connectivity.windows: [[{start: 1h, end: 2h}]]\n".utf8)
        var accepted = 0
        for _ in 0..<2000 {
            var bytes = base
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let at = Int(rng.next() % UInt64(bytes.count + 1))
                switch rng.next() % 3 {
                case 0: bytes.insert(contentsOf: Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))], at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: rng.next()) }
                }
            }
            do {
                let root = try YAMLReader.read(bytes: bytes, file: "f.yaml")
                _ = try ScenarioLoader.decodeDocument(root, file: "f.yaml", overrides: [])
                accepted += 1
            } catch let error as ScenarioError {
                #expect(error.location != nil, "\(error)")
            } catch {
                Issue.record("not a ScenarioError: \(error)")
            }
        }
        // Mutations inside comments keep the file valid: both outcomes must occur.
        #expect(accepted > 0 && accepted < 2000)
    }
}
