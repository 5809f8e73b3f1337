// What `device.background_sync` sets for `recovery: background_sync`: the throttle, what it does beyond it, the force-quit share, the delay to the user; and its streams and its cost in the resource estimate.
import Foundation

/// `device.background_sync` (docs/model.md §7, Background-push sync): how iOS treats the
/// silent pushes (`content-available: 1`, priority 5) that wake the app to sync, and how long
/// the app takes to show what it synced. Read only with `recovery: background_sync`.
package struct BackgroundSync: Hashable, Sendable {
    /// What the system does with a background push that comes sooner than the throttle allows.
    package enum OverThrottle: String, Hashable, Sendable, CaseIterable {
        /// Keeps it (the newest replaces an older one kept: any one wakes the app to fetch
        /// everything) and wakes the app with it as soon as the throttle allows.
        case hold
        /// Discards it.
        case drop
    }

    /// At most this many wake-ups per microsecond, as one wake-up per `1/throttle` (Apple: "don't
    /// try to send more than two or three per hour"); above 0.
    package var throttlePerMicrosecond: Double
    package var overThrottle: OverThrottle
    /// The probability that the user force-quits the app when leaving it (and that it is
    /// force-quit at time 0): until the next launch the system delivers it no background push.
    package var forceQuit: Double
    /// From the instant the app syncs to the instant the user sees what it fetched (the fetch,
    /// then the app's own notification).
    package var delay: Distribution

    /// The defaults docs/scenarios.md gives: three an hour, held, nobody force-quits, at once.
    package init(throttlePerMicrosecond: Double = 3 / Double(SimTime.hour), overThrottle: OverThrottle = .hold,
                 forceQuit: Double = 0, delay: Distribution = .constant(.zero)) {
        self.throttlePerMicrosecond = throttlePerMicrosecond; self.overThrottle = overThrottle
        self.forceQuit = forceQuit; self.delay = delay
    }

    /// The least time between two wake-ups, `1/throttle` rounded to the microsecond (at least 1;
    /// a throttle so low that the spacing passes the clock's range never wakes the app twice).
    package var spacing: Int64 {
        let micros = (1 / throttlePerMicrosecond).rounded()
        return micros >= Double(Int64.max) || !micros.isFinite ? Int64.max : max(1, Int64(micros))
    }
}

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let backgroundPushes = StreamPurpose(named: "backgroundPushes") // per arm: a background push's latencies and loss (recovery: background_sync)
    package static let forceQuit = StreamPurpose(named: "forceQuit")             // per arm: whether the user force-quits the app after a use (recovery: background_sync)
    package static let syncDelays = StreamPurpose(named: "syncDelays")           // per arm: from a sync to the user seeing it (recovery: background_sync)
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// Background-push sync (docs/model.md §7): no event, but the queue arm draws and keeps
    /// every launch of the app (its instant and whether the user force-quits it after) and
    /// plans each letter's silent push, worked out once when the arm ends.
    package static func backgroundSyncLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, peakL = c.peakLetters, queueArm = c.queueArm, end = c.end
        if s.recovery == .backgroundSync {
            let opens = s.device.appOpen.map { finite(end / max(truncatedMean($0, at: end), 1) + 2) } ?? 0
            return MechanismLoad(key: "device.app_open", eventsPerDevice: queueArm * (opens + L) * eventsPerLoopStep * 2,
                                 bytesPerDevice: 9 * peak(opens) + 32 * peakL,
                                 fix: "lengthen device.app_open, or lower mail.rate")
        }
        // The queue design's background pushes to a version-2 client's app: an arrival and
        // perhaps a release per letter, each an event of the queue arm.
        if s.recovery == .queue && s.queue.backgroundPushes && s.queue.userClient?.stateful != nil {
            return MechanismLoad(key: "queue.background_pushes", eventsPerDevice: queueArm * L * 2, bytesPerDevice: 32 * peak(4),
                                 fix: "set queue.background_pushes to false, or lower mail.rate")
        }
        return nil
    }
}
