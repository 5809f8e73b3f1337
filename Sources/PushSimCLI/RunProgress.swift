// The progress line of a long run on standard error: devices done, events/s, time left.
import Dispatch
import Foundation
import PushSimReport

/// Counts finished devices and events (from any thread) and prints a progress line at most a
/// few times a second: on a terminal one line rewritten in place, elsewhere (a shard's log on
/// a cluster) one line per tenth of the devices.
final class RunProgress: @unchecked Sendable {
    private let console: Console
    private let label: String
    private let total: Int
    private let inPlace: Bool
    private let started = DispatchTime.now().uptimeNanoseconds
    private let lock = NSLock()
    private var devices = 0
    private var events = 0
    private var lastPrinted: UInt64 = 0
    private var lastTenth = 0

    /// `inPlace`: rewrite one line (a terminal) rather than append lines (a log file).
    init(console: Console, label: String, total: Int, inPlace: Bool) {
        self.console = console; self.label = label; self.total = max(total, 1); self.inPlace = inPlace
    }

    func advance(devices count: Int, events more: Int) {
        lock.lock(); defer { lock.unlock() }
        devices += count; events += more
        let now = DispatchTime.now().uptimeNanoseconds
        let tenth = devices * 10 / total
        let due = inPlace ? now - lastPrinted >= 200_000_000 || devices >= total : tenth > lastTenth
        guard due else { return }
        lastPrinted = now; lastTenth = tenth
        console.err((inPlace ? "\r" : "") + RunProgress.line(label: label, devices: devices, total: total, events: events,
                                                              seconds: Double(now - started) / 1e9)
                    + (inPlace && devices < total ? "   " : "\n"))
    }

    /// `run 'x': 120,000/1,000,000 devices, 25.3 M events/s, about 12 s left`.
    static func line(label: String, devices: Int, total: Int, events: Int, seconds: Double) -> String {
        let rate = seconds > 0 ? Double(events) / seconds / 1e6 : 0
        let left = devices > 0 ? seconds / Double(devices) * Double(total - devices) : .infinity
        return "\(label): \(ReportTable.grouped(devices))/\(ReportTable.grouped(total)) devices, "
            + String(format: "%.1f M events/s", rate) + (devices < total ? ", about \(ETA.text(left)) left" : ", done")
    }
}
