// `pushsim capacity`: the least capacity per 1 000 phones that keeps re-requests answered in time, checked against its own runs.
import Foundation
import Testing
@testable import PushSimCLI
@testable import PushSimReport
import PushSimTestSupport

/// The thundering herd's outage on 500 phones in one partition: every phone back at once.
private let herd = SmallScenarios.path("thundering-herd")
private let small = ["--set", "devices=500", "--set", "xiva.partitions=1", "--set", "duration=1d14h", "--jobs", "1"]

@Suite(.serialized) struct CapacityCommandTests {
    /// Each seed's answer reached the target in its own run, and the capacity just below it did
    /// not; the answer's mean lies among the seeds' answers; per partition and fleet are scaled.
    @Test func eachSeedsAnswerIsItsLeastCapacityReachingTheTarget() throws {
        let dir = TemporaryDirectory()
        let run = runPushsim(["capacity", herd, "--target", "in_time_share>=99%", "--replications", "2", "--resolution", "2%",
                              "--partition-size", "100k", "--fleet", "1M", "--out", dir.file("out")] + small)
        expectEqual(run.status, 0, "\(run.err)")
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.file("out/capacity.json")))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        expectEqual(root["reachable"] as? Bool, true)
        let seeds = try #require(root["seeds"] as? [[String: Any]])
        expectEqual(seeds.count, 2)
        var answers: [Double] = []
        for seed in seeds {
            let reached = try #require(seed["reached_per_1000_per_s"] as? Double)
            let missed = try #require(seed["missed_per_1000_per_s"] as? Double)
            let tried = try #require(seed["tried"] as? [[String: Any]])
            func share(at c: Double) -> Double? { tried.first { $0["per_1000_per_s"] as? Double == c }?["in_time_share"] as? Double }
            #expect(try #require(share(at: reached)) >= 0.99)
            #expect(try #require(share(at: missed)) < 0.99)
            #expect(reached - missed <= 0.02 * reached)
            // Every capacity tried at or above the answer reached the target (one crossing a seed).
            for t in tried where (t["per_1000_per_s"] as? Double ?? 0) >= reached { #expect(t["in_time_share"] as? Double ?? 0 >= 0.99) }
            answers.append(reached)
        }
        let perThousand = try #require((root["per_1000_devices"] as? [String: Any])?["per_s"] as? Double)
        #expect(abs(perThousand - answers.reduce(0, +) / 2) < 1e-9 * perThousand)
        let partition = try #require(root["per_partition"] as? [String: Any])
        expectEqual(partition["devices"] as? Int, 100_000)
        #expect(abs((partition["per_s"] as? Double ?? 0) - perThousand * 100) < 1e-6 * perThousand)
        let fleet = try #require(root["fleet"] as? [String: Any])
        expectEqual(fleet["partitions"] as? Int, 10)
        #expect(abs((fleet["per_s"] as? Double ?? 0) - perThousand * 1000) < 1e-6 * perThousand)
        let markdown = try String(contentsOfFile: dir.file("out/capacity.md"), encoding: .utf8)
        #expect(markdown.contains("per partition of 100,000 phones") && markdown.contains("What caps the share"))
    }

    /// XIVA answering 0.53 % of re-requests with an error caps the share at 99.47 %: a target
    /// of 99.5 % is out of reach whatever the capacity, and the errors are named as the cause.
    @Test func aCeilingSetByRequestErrorsIsSaid() throws {
        let run = runPushsim(["capacity", herd, "--target", "in_time_share>=0.995", "--replications", "2", "--no-write", "--json",
                              "--set", "xiva.request_error=0.53%"] + small)
        expectEqual(run.status, 0, "\(run.err)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let ceiling = try #require(root["ceiling"] as? [String: Any])
        expectEqual((ceiling["capped_by"] as? String)?.hasPrefix("error answers (xiva.request_error)"), true, "\(ceiling)")
        let share = try #require((ceiling["in_time_share"] as? [String: Any])?["mean"] as? Double)
        let errors = try #require((ceiling["error_answers_per_re_request"] as? [String: Any])?["mean"] as? Double)
        // About 427 re-requests a seed: the errors' share within 4 binomial standard errors of 0.53 %.
        #expect(abs(errors - 0.0053) < 4 * (0.0053 * 0.9947 / 800).squareRoot(), "\(errors)")
        #expect(share > 0.98 && abs(share + errors - 1) < 1e-12, "with no limit, nothing but the errors is late")
        // A seed whose ceiling is under the target has no answer, so neither has the search.
        expectEqual(root["reachable"] as? Bool, (ceilingsBelow(root) == 0))
    }

    #if DEBUG
    static let optimized = false
    #else
    static let optimized = true
    #endif

    /// The committed thundering herd (10 partitions of 1 000 phones, 3 seeds): the answer per
    /// 1 000 phones lies between the committed sweep's 27/s, which missed 99 % (98.13 ± 0.87 %),
    /// and 28/s, which kept it (99.50 ± 0.46 %), and its interval reaches into that bracket;
    /// per partition of 100 000 phones that is the committed "about 2 800/s". About 15 s in
    /// release, minutes in debug: run in release (`swift test -c release`, the README's command).
    @Test(.enabled(if: optimized, "the full herd runs in release; the small herd above runs in both"))
    func theCommittedThunderingHerdAnswerIsReproduced() throws {
        let run = runPushsim(["capacity", SmallScenarios.path("thundering-herd"), "--partition-size", "100k", "--no-write", "--json"])
        expectEqual(run.status, 0, "\(run.err)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let perThousand = try #require(root["per_1000_devices"] as? [String: Any])
        let mean = try #require(perThousand["per_s"] as? Double)
        let low = try #require(perThousand["ci95_low"] as? Double), high = try #require(perThousand["ci95_high"] as? Double)
        #expect(27 < mean && mean <= 28, "\(mean)")
        #expect(low < 28 && high > 27, "[\(low), \(high)]")
        let partition = try #require((root["per_partition"] as? [String: Any])?["per_s"] as? Double)
        #expect(2_700 < partition && partition <= 2_800)
    }

    func ceilingsBelow(_ root: [String: Any]) -> Int {
        (root["seeds"] as? [[String: Any]] ?? []).filter { ($0["ceiling_in_time_share"] as? Double ?? 1) < 0.995 }.count
    }

    @Test func badTargetsAreUsageErrors() {
        for (target, message) in [("loss_rate<=0.01", "--target expects in_time_share>=P"), ("in_time_share>=1", "above 0 and below 1"),
                                  ("in_time_share>=x", "expected a fraction or a percentage")] {
            let run = runPushsim(["capacity", herd, "--target", target, "--no-write"] + small)
            #expect(run.status == 2 && run.err.contains(message), "\(target): \(run.err)")
        }
        let off = runPushsim(["capacity", herd, "--no-write", "--set", "queue.mode=off"] + small)
        #expect(off.status == 2 && off.err.contains("queue.mode off"), "\(off.err)")
    }
}
