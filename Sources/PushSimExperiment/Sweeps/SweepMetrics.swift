// The numbers a sweep averages for one arm of one run, by name (the report stage says which: PushSimReport/Sweeps/SweepArmMetrics.swift).

/// The metrics of one arm of one run, by dotted name (`loss_rate`, `latency_s.p90`,
/// `causes.apns_replaced`, `telemetry.estimated_loss_rate`, …).
package struct ArmMetrics: Equatable, Sendable {
    /// "off" or "on", as in the contract's JSON.
    package var queue: String
    package var values: [String: Double]
    /// Metrics this arm's design cannot have, with the reason (``DesignMetrics``): "n/a", never 0.
    package var notApplicable: [String: String] = [:]

    package init(queue: String, values: [String: Double], notApplicable: [String: String] = [:]) {
        self.queue = queue; self.values = values; self.notApplicable = notApplicable
    }
}
