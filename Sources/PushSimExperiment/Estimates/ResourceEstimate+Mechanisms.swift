// The estimate's share of each mechanism of the chain: its events and the memory it holds, as each mechanism states it (PushSimCore's CostModel).
import Foundation
import PushSimCore

extension ResourceEstimate {
    /// One mechanism's part of an estimate, so that a refusal can say which key makes a run too
    /// big and what to change. `events` counts the whole run (every device and arm), `bytes`
    /// what it adds to the peak memory.
    package struct Mechanism: Sendable, Equatable {
        /// The keys that turn it on, as a user writes them (`device.doze`, `xiva.retry`).
        package var key: String
        package var events: Double
        package var bytes: Double
        /// What to change to make it smaller.
        package var fix: String
    }

    /// The units of the chain's cost model (``CostModel``, PushSimCore), under the estimate's names.
    package static let eventsPerExtraSend = CostModel.eventsPerExtraSend
    package static let bytesPerExtraCopy = CostModel.bytesPerExtraCopy
    package static let bytesPerInterval = CostModel.bytesPerInterval
    package static let bytesPerSpeculationRecord = CostModel.bytesPerSpeculationRecord
    package static let eventsPerScanStep = CostModel.eventsPerScanStep
    package static let eventsPerSearchStep = CostModel.eventsPerSearchStep
    package static let eventsPerLoopStep = CostModel.eventsPerLoopStep
    package static let eventsPerDrawnFlip = CostModel.eventsPerDrawnFlip
    /// What every device costs with no letter and no flip: preparing it (its streams, empty
    /// letters and timeline) and each arm's reset and account. 10^12 devices with mail rate 0
    /// take about 8 days of CPU, 0.7 µs or 7 events' worth each (2 × 10^5 take 2.4 s in a debug
    /// build); 4 + 2 per arm is 8 with both arms.
    package static let eventsPerDevice = 4.0
    package static let eventsPerDeviceAndArm = 2.0
    /// Making and merging one ledger (zeroing and adding its latency histogram), in events.
    package static let eventsPerLedger = Double(LatencyHistogram.bucketCount) / 64

    /// The repetitions of `windows` inside [0, end), and the steps to lay them out (``CostModel/repetitions(_:end:)``).
    static func repetitions(_ windows: [OfflineWindow], end: Double) -> (intervals: Double, steps: Double) {
        CostModel.repetitions(windows, end: end)
    }

    /// The intervals of the windows mechanisms add to those every device shares (FCM's doze windows).
    static func dozeIntervals(_ s: Scenario, end: Double) -> Double { CostModel.dozeIntervals(s, end: end) }

    /// The mean flips of an alternating process over [0, end) (``CostModel/alternatingFlips(_:_:end:)``).
    static func alternatingFlips(_ first: Distribution, _ second: Distribution, end: Double) -> Double {
        CostModel.alternatingFlips(first, second, end: end)
    }

    /// Every mechanism of `part` that costs anything (each states its own cost, ``CostModel``);
    /// a mechanism not listed costs no event and no memory beyond its letters' (early kills end
    /// runs sooner; PushKit has no store).
    static func loads(of part: Population, arms: [Arm], scenario s: Scenario, end: Double) -> [MechanismLoad] {
        CostModel.mechanismLoads(s, LoadInput(letters: part.letters, peakLetters: part.peakLetters,
                                              processFlips: part.processFlips, arms: arms, end: end))
    }
}
