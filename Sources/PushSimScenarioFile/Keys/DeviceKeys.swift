// The keys of `device`, `device.background_sync`, `device.sleep`, `device.low_power`, `device.notification_summary` and `device.focus` (docs/scenarios.md §2, §2a Recovery designs, Device id changes, App reinstalls, Priority and a sleeping device, Low Power Mode, Focus and the scheduled summary, Push channels).
import PushSimCore

enum DeviceKeys {
    static let table = KeyTable<Scenario.Device>([
        ScenarioKey("alerts_off", "probability", default: .written("0"), example: "10%",
                    help: "probability a device has notification display off") { .scalar(ScenarioPrinter.decimal($0.alertsOff)) },
        ScenarioKey("clear_after", "distribution or forever", default: .written("forever"), example: "exponential(2h)",
                    help: "the user clears a shown notification this long after it appears") { d in
            .scalar(d.clearAfter?.description ?? "forever")
        },
        ScenarioKey("app_open", "distribution (mean ≥ 1s)", default: .absent("never"), example: "exponential(4h)",
                    help: "the time between two openings of the app by the user") { d in
            d.appOpen.map { .scalar($0.description) }
        },
        ScenarioKey("background_sync", "mapping", default: .absent("the defaults below"), example: "{throttle: 2/h, force_quit: 30%}",
                    shape: .mapping(backgroundSync.infos), help: "recovery: background_sync: the throttle, force-quits, the delay to the user") { d in
            // Printed with the keys that differ from the defaults only: written as they are, it changes nothing.
            d.backgroundSync.flatMap { $0 == BackgroundSync() ? nil : backgroundSync.mapping($0) }
        },
        ScenarioKey("id_change", "rate (at most 1/h)", default: .written("0/d"), example: "1/30d",
                    help: "rate of device id changes") { d in
            d.idChangeRatePerMicrosecond != 0 ? .scalar(ScenarioPrinter.rate(d.idChangeRatePerMicrosecond)) : nil
        },
        ScenarioKey("uninstall", "rate", default: .written("0/d"), example: "1/90d",
                    help: "rate at which the app is uninstalled; 0: never") { d in
            d.uninstallRatePerMicrosecond != 0 ? .scalar(ScenarioPrinter.rate(d.uninstallRatePerMicrosecond)) : nil
        },
        ScenarioKey("sleep", "mapping", default: .absent("never asleep"), example: "{awake: exponential(2h), asleep: exponential(1h)}",
                    shape: .mapping(sleep.infos), help: "awake and asleep periods while online") { d in
            d.sleep.map(sleep.mapping)
        },
        ScenarioKey("low_power", "mapping", default: .absent("never in Low Power Mode"), example: "{share: 20%}",
                    shape: .mapping(lowPower.infos), help: "phones in Low Power Mode: APNs holds every push until the window ends") { d in
            d.lowPower.map(lowPower.mapping)
        },
        ScenarioKey("notification_summary", "mapping", default: .absent("no summary"), example: "{share: 30%, times: [8h, 18h]}",
                    shape: .mapping(notificationSummary.infos), help: "users who get the app's notifications in a scheduled summary") { d in
            d.notificationSummary.map(notificationSummary.mapping)
        },
        ScenarioKey("focus", "mapping", default: .absent("no Focus"), example: "{share: 40%, windows: [{start: 22h, end: 7h}]}",
                    shape: .mapping(focus.infos), help: "users whose Focus silences the app during daily windows") { d in
            d.focus.map(focus.mapping)
        },
        // Printed only where a summary or a Focus can hold: without one it changes nothing.
        ScenarioKey("time_sensitive_off", "probability", default: .written("0"), example: "10%",
                    help: "the share of users who turned time-sensitive notifications off for the app") { d in
            d.timeSensitiveOff != 0 ? .scalar(ScenarioPrinter.decimal(d.timeSensitiveOff)) : nil
        },
        ScenarioKey("reinstall", "rate (at most 1/h)", default: .written("0/d"), example: "1/60d",
                    help: "rate of app reinstalls") { d in
            d.reinstallRatePerMicrosecond != 0 ? .scalar(ScenarioPrinter.rate(d.reinstallRatePerMicrosecond)) : nil
        },
        // Printed only with reinstalls: without them it changes nothing.
        ScenarioKey("reinstall_delay", "distribution", default: .written("exponential(30m)"), example: "1h",
                    help: "from a reinstall until XIVA knows the new token") { d in
            d.reinstallRatePerMicrosecond != 0 ? .scalar(d.reinstallDelay.description) : nil
        },
        ScenarioKey("doze", "list of windows (constant times)", default: .written("[]"), example: "[{start: 0h, end: 7h, every: 1d}]",
                    shape: .list(items: dozeWindow), help: "windows in which the device dozes (FCM)") { d in
            d.doze.isEmpty ? nil : .list(d.doze.map(ConnectivityKeys.window.mapping))
        },
    ])

    /// A doze window is a connectivity window with constant times: no `length`, no `spread`
    /// (the decoder says so in its own words).
    static let dozeWindow = ConnectivityKeys.window.infos.filter { ["start", "end", "every"].contains($0.name) }

    static let backgroundSync = KeyTable<BackgroundSync>([
        ScenarioKey("throttle", "rate > 0", default: .written("3/h"), example: "2/h",
                    help: "background pushes that may wake the app: one per 1/throttle") { b in
            b.throttlePerMicrosecond != BackgroundSync().throttlePerMicrosecond ? .scalar(ScenarioPrinter.rate(b.throttlePerMicrosecond)) : nil
        },
        ScenarioKey("over_throttle", "hold | drop", default: .written("hold"), example: "drop",
                    help: "a background push sooner than the throttle allows: held (the newest) until it does, or dropped") { b in
            b.overThrottle != .hold ? .scalar(b.overThrottle.rawValue) : nil
        },
        ScenarioKey("force_quit", "probability", default: .written("0"), example: "25%",
                    help: "the user force-quits the app after a use: no background push reaches it until the next launch") { b in
            b.forceQuit != 0 ? .scalar(ScenarioPrinter.decimal(b.forceQuit)) : nil
        },
        ScenarioKey("delay", "distribution", default: .written("0"), example: "lognormal(2s, 20s)",
                    help: "from a sync to the user seeing the synced letters") { b in
            b.delay != .constant(.zero) ? .scalar(b.delay.description) : nil
        },
    ])

    static let lowPower = KeyTable<LowPowerMode>([
        ScenarioKey("share", "probability", default: .required, example: "50%",
                    help: "the share of phones that go into Low Power Mode, drawn once per phone") { .scalar(ScenarioPrinter.decimal($0.share)) },
        ScenarioKey("windows", "list of daily windows", default: .absent("all day"), example: "[{start: 18h, end: 23h}]",
                    shape: .list(items: dailyWindow.infos), help: "the hours of each day it is in Low Power Mode") { l in
            l.windows.isEmpty ? nil : .list(l.windows.map(dailyWindow.mapping))
        },
        ScenarioKey("release_order", "held | shuffled | latency", default: .written("shuffled"), example: "latency",
                    help: "the order of the pushes handed over together when a window ends") { .scalar($0.releaseOrder.rawValue) },
    ])

    static let notificationSummary = KeyTable<NotificationSummary>([
        ScenarioKey("share", "probability", default: .required, example: "60%",
                    help: "the share of users with a summary schedule, drawn once per user") { .scalar(ScenarioPrinter.decimal($0.share)) },
        ScenarioKey("times", "list of times of the day (0h to before 24h)", default: .required, example: "[7h30m, 12h, 18:00]",
                    help: "when the summary is delivered each day") { s in .list(s.times.map { .scalar($0.description) }) },
        ScenarioKey("spread", "duration from 0 to 24h", default: .written("0"), example: "30m",
                    help: "each user shifts each time by an offset drawn in [0, spread)") { s in
            s.spread == .zero ? nil : .scalar(s.spread.description)
        },
    ])

    static let focus = KeyTable<FocusSchedule>([
        ScenarioKey("share", "probability", default: .required, example: "60%",
                    help: "the share of users with Focus windows, drawn once per user") { .scalar(ScenarioPrinter.decimal($0.share)) },
        ScenarioKey("windows", "list of daily windows", default: .required, example: "[{start: 9h, end: 17h}]",
                    shape: .list(items: dailyWindow.infos), help: "the hours of each day the Focus silences the app") { f in
            .list(f.windows.map(dailyWindow.mapping))
        },
    ])

    /// A daily window of `device.low_power`: times of the day, repeating every day; an `end` at or
    /// before `start` ends the next day (stored as `end + 1d`, printed as written).
    static let dailyWindow = KeyTable<OfflineWindow>([
        ScenarioKey("start", "time of day (0h to 24h)", default: .required, example: "{start: 18h, end: 23h}",
                    help: "when the window starts each day") { .scalar($0.start.description) },
        ScenarioKey("end", "time of day (0h to 24h)", default: .required, example: "{start: 22h, end: 6h}",
                    help: "when it ends; at or before `start`: the next day") { w in
            .scalar((w.end.microseconds > SimTime.day ? SimTime(microseconds: w.end.microseconds - SimTime.day) : w.end).description)
        },
        ScenarioKey("spread", "duration from 0 to 24h", default: .written("0"), example: "{start: 0h, end: 7h, spread: 30m}",
                    help: "each phone shifts the window by an offset drawn in [0, spread)") { w in
            w.spread == .zero ? nil : .scalar(w.spread.description)
        },
    ])

    static let sleep = KeyTable<DeviceSleep>([
        ScenarioKey("awake", "distribution (mean ≥ 1s)", default: .required, example: "exponential(3h)",
                    help: "length of each awake period while online") { .scalar($0.awake.description) },
        ScenarioKey("asleep", "distribution (mean ≥ 1s)", default: .required, example: "exponential(30m)",
                    help: "length of each asleep period") { .scalar($0.asleep.description) },
    ])
}
