// The practical margin of each metric: how far a product gate lets it move beyond the noise before it fails.
import PushSimCore

/// A regression needs a change beyond the noise *and* beyond the margin: the tolerance is
/// `noise + margin` (docs/ci.md, "Tolerances"). `--tolerance METRIC=VALUE` sets the margin;
/// without it each metric has the default below.
package enum CheckMargins {
    /// A latency percentile may move 10 % of the baseline's value: a user cannot tell 0.55 s
    /// from 0.60 s, and under pairing even a harmless +20 ms of processing is beyond the noise.
    package static let latencyQuantileShare = 0.10
    /// A load peak may move 10 % of the baseline's: capacity is planned with headroom, and a
    /// peak within a tenth of the last one asks for no new capacity.
    package static let loadPeakShare = 0.10

    /// The default margin of `metric`: 10 % for the latency percentiles, none for the rest
    /// (a lost, summarized or duplicated letter, or the queue's extra work, counts from the
    /// first one beyond chance; the maximum has its own rank rule).
    package static func defaultMargin(_ metric: CheckMetric) -> CheckTolerance.Amount {
        switch metric.kind {
        case .latencyQuantile: return .relative(latencyQuantileShare)
        case .loadPeak: return .relative(loadPeakShare)
        case .count, .rate, .share, .latencyMax, .work: return .absolute(0)
        }
    }
}
