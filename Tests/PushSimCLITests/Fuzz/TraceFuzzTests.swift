// The trace fuzzer: mutated `time,device` files read as a trace or fail at a place inside the CSV, never trap.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct TraceFuzzTests {
    static let seeds: [String] = [
        "time,device\n0,0\n3600.25,1\n86399.999999,2\n\n12,0\r\n",
        "time,device\r\n1,1\r\n1,1\r\n0.0000005,0\r\n",
        "time,device\n",
    ]

    @Test func mutatedTracesReadOrFailInsideTheFile() throws {
        var mutator = ScenarioMutator(seed: 0x7_2ACE)
        var read = 0, rejected = 0
        for number in 0..<max(200, ScenarioFuzzTests.caseCount / 10) {
            let base = Array(TraceFuzzTests.seeds[number % TraceFuzzTests.seeds.count].utf8)
            let (bytes, kinds) = mutator.mutate(base)
            do {
                let trace = try MailTraceReader.read(bytes: bytes, file: "t.csv", duration: SimTime(microseconds: SimTime.day), devices: 3)
                // Whatever was read is well formed: offsets per device, each device's times sorted and in range.
                expectEqual(trace.offsets.count, 4)
                expectEqual(trace.offsets.first, 0)
                expectEqual(trace.offsets.last, trace.count)
                for d in 0..<3 {
                    let times = Array(trace.letters(device: d))
                    #expect(times == times.sorted() && times.allSatisfy { $0 >= 0 && $0 < SimTime.day }, "case \(number) \(kinds)")
                }
                read += 1
            } catch let error as ScenarioError {
                let lines = bytes.count { $0 == 0x0A } + 1
                if let problem = FuzzOracle.problem(with: error, file: "t.csv", lineCount: lines) {
                    Issue.record("case \(number) (\(kinds)): \(problem)")
                }
                rejected += 1
            }
        }
        #expect(read > 0 && rejected > 0)
    }
}
