// The hourly summary of an extension log on rows written by hand: hours, buckets, answers, devices.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ExtensionLogSummaryTests {
    private func row(_ device: Int, _ t: Int64, gap: Int = 0, _ answer: LogAnswer = .none) -> LoggedPush {
        LoggedPush(device: device, time: t, position: 1, gapSize: gap, answer: answer)
    }

    @Test func eachHourCountsItsOwnRows() {
        let rows = [
            row(0, 10 * minute), row(1, 20 * minute, gap: 2, .answered), row(0, 59 * minute + 59 * sec, gap: 1, .timeout),
            // Hour 1 has no row; hour 2 starts exactly at 2 h.
            row(2, 2 * hour, gap: 70, .summarized), row(2, 2 * hour + 1, gap: 5, .pending), row(3, 3 * hour - 1, gap: 3, .notSent),
            row(3, 2 * hour + 5 * minute, gap: 4, .error),
        ]
        let summary = ExtensionLogSummary(rows)
        expectEqual(summary.hours.map(\.hour), [0, 2])
        let first = summary.hours[0], third = summary.hours[1]
        expectEqual(first.pushes, 3)
        expectEqual(first.gaps, 2)
        expectEqual(first.missed, 3)
        expectEqual(first.devices, 2)
        expectEqual(first.gapsPerPush, 2.0 / 3.0)
        expectEqual(first.gapSizes, [1, 1, 0, 0, 0, 0, 0, 0])
        expectEqual(first.count(.none), 1)
        expectEqual(first.count(.answered), 1)
        expectEqual(first.count(.timeout), 1)
        expectEqual(first.reRequests, 2)
        expectEqual(third.pushes, 4)
        expectEqual(third.gaps, 4)
        expectEqual(third.missed, 82)
        expectEqual(third.devices, 2)
        // 70 in 65+, 5 in 5–8, 3 and 4 in 3–4.
        expectEqual(third.gapSizes, [0, 0, 2, 1, 0, 0, 0, 1])
        // pending and error were sent; summarized and not_sent were not.
        expectEqual(third.reRequests, 2)
        expectEqual(summary.total.pushes, 7)
        expectEqual(summary.total.gaps, 6)
        expectEqual(summary.total.missed, 85)
    }

    /// The rows' order does not matter: a log read back in any order gives the same summary.
    @Test func theOrderOfTheRowsDoesNotMatter() {
        let rows = (0..<40).map { k in row(k % 7, Int64(k) * 17 * minute, gap: k % 3, k % 3 == 0 ? .none : .answered) }
        expectEqual(ExtensionLogSummary(rows), ExtensionLogSummary(rows.reversed()))
        expectEqual(ExtensionLogSummary(rows).hours.reduce(0) { $0 + $1.pushes }, 40)
    }

    @Test func bucketsCoverEverySizeOnce() {
        let buckets: [Int] = (1...200).map { ExtensionLogSummary.bucket(ofGapSize: $0) }
        let expected: [Int] = (1...200).map { (size: Int) -> Int in
            ExtensionLogSummary.gapBuckets.firstIndex { size >= $0.lower && size <= ($0.upper ?? Int.max) } ?? -1
        }
        expectEqual(buckets, expected)
        #expect(ExtensionLogSummary.gapBuckets.indices.map(ExtensionLogSummary.bucketName)
            == ["gaps_1", "gaps_2", "gaps_3_4", "gaps_5_8", "gaps_9_16", "gaps_17_32", "gaps_33_64", "gaps_65_up"])
    }

    @Test func anEmptyLogHasNoHours() {
        #expect(ExtensionLogSummary([LoggedPush]()).hours.isEmpty)
    }
}

@Suite struct LogAnswerTests {
    @Test func ordinalsFollowTheColumnOrder() {
        expectEqual(LogAnswer.allCases.map(\.ordinal), Array(LogAnswer.allCases.indices))
        expectEqual(LogAnswer.allCases.filter(\.reRequested), [.answered, .error, .timeout, .pending])
    }
}
