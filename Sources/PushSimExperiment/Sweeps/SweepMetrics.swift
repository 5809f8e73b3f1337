// The numbers a sweep averages for one arm of one run, by name (the report stage says which: PushSimReport/Sweeps/SweepArmMetrics.swift).

/// The metrics of one arm of one run, by dotted name (`loss_rate`, `latency_s.p90`,
/// `causes.apns_replaced`, `telemetry.estimated_loss_rate`, …).
package struct ArmMetrics: Equatable, Sendable {
    /// "off" or "on", as in the contract's JSON.
    package var queue: String
    package var values: [String: Double]

    package init(queue: String, values: [String: Double]) { self.queue = queue; self.values = values }
}
