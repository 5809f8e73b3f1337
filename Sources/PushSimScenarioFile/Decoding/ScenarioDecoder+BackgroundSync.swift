// Decoding `device.background_sync` (docs/scenarios.md, Recovery designs): the throttle, what it does beyond it, the force-quit share, the delay.
import PushSimCore

extension ScenarioDecoder {
    /// `device.background_sync: {throttle, over_throttle, force_quit, delay}`, every key optional.
    static func backgroundSync(_ fields: Fields, into device: inout Scenario.Device) throws {
        guard let node = fields.value("background_sync") else { return }
        let sync = try Fields(node, path: fields.fullPath("background_sync"), keys: ScenarioSchema.backgroundSyncKeys)
        var settings = BackgroundSync()
        try sync.decode("throttle", "a rate above 0", { (t) throws(ValueParsers.Failure) in
            // A throttle of 0 would never wake the app: that is `catch_up`, which says so.
            let rate = try ValueParsers.rate(t)
            guard rate > 0 else { throw ValueParsers.Failure("expected a rate above 0 (for no wake-ups use `recovery: catch_up`), found `\(t)`") }
            return rate
        }) { settings.throttlePerMicrosecond = $0 }
        try sync.decode("over_throttle", "hold or drop", { (t) throws(ValueParsers.Failure) in
            guard let mode = BackgroundSync.OverThrottle(rawValue: t) else { throw ValueParsers.Failure("expected hold or drop, found `\(t)`") }
            return mode
        }) { settings.overThrottle = $0 }
        try sync.decode("force_quit", "a probability", ValueParsers.probability) { settings.forceQuit = $0 }
        try sync.decode("delay", "a distribution", ValueParsers.distribution) { settings.delay = $0 }
        device.backgroundSync = settings
    }
}
