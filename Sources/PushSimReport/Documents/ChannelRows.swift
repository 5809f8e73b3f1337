// The push channels' rows of the report table: PushKit's CallKit failures and FCM's outcomes.
import PushSimCore
import PushSimExperiment

extension ReportTable {
    /// Rows only for a channel that did something in the run (docs/model.md §12), so a run on
    /// APNs reads as before.
    static func channelRows(_ arms: [ArmResult]) -> [[String]] {
        func row(_ label: String, _ value: (Ledger) -> Int) -> [String] {
            [label] + arms.map { ReportTable.grouped(value($0.ledger)) }
        }
        var rows: [[String]] = []
        if arms.contains(where: { $0.ledger.callKitFailures > 0 }) {
            rows.append(row("  PushKit: pushes not reported to CallKit") { $0.callKitFailures })
            rows.append(row("  PushKit: devices cut off") { $0.devicesCutOff })
        }
        if arms.contains(where: { $0.ledger.fcm.accepted > 0 }) {
            rows.append(["FCM's delivery data"])
            rows.append(row("  messages accepted") { $0.fcm.accepted })
            for (key, path) in FCMOutcomes.counts {
                rows.append(row("  " + key.replacingOccurrences(of: "_", with: " ")) { $0.fcm[keyPath: path] })
            }
        }
        return rows
    }
}
