// The keys of `connectivity` and of one offline window (docs/scenarios.md §2, §2a Offline windows that differ per phone).
import PushSimCore

enum ConnectivityKeys {
    static let table = KeyTable<Scenario.Connectivity>([
        // Absent means "always online between windows": there is no word for it, so it is left out.
        ScenarioKey("online", "distribution", default: .absent("always online"), example: "exponential(3h)",
                    help: "length of each online period (with `offline`)") { c in
            c.online.map { .scalar($0.description) }
        },
        ScenarioKey("offline", "distribution", default: .absent("always online"), example: "exponential(40m)",
                    help: "length of each offline period (with `online`)") { c in
            c.offline.map { .scalar($0.description) }
        },
        ScenarioKey("windows", "list of windows", default: .written("[]"), example: "[{start: 8h, end: 9h, every: 1d}]",
                    shape: .list(items: window.infos), help: "offline windows on top of the random periods") { c in
            .list(c.windows.map(window.mapping))
        },
    ])

    /// One window of `connectivity.windows` (and of `device.doze`): `end` or `length`, not both.
    static let window = KeyTable<OfflineWindow>([
        ScenarioKey("start", "duration", default: .required, example: "{start: 8h, end: 9h}",
                    help: "start of the window (time 0 is midnight of the first day)") { w in
            .scalar(w.start.description)
        },
        ScenarioKey("end", "duration", default: .absent("— (`end` or `length`)"), example: "{start: 8h, end: 9h}",
                    help: "end of the window, the same for every device") { w in
            w.length == nil ? .scalar(w.end.description) : nil
        },
        ScenarioKey("length", "distribution", default: .absent("— (`end` or `length`)"), example: "{start: 8h, length: uniform(30m, 1h)}",
                    help: "length of the window, drawn per device and occurrence") { w in
            w.length.map { .scalar($0.description) }
        },
        ScenarioKey("every", "duration", default: .absent("once"), example: "{start: 8h, end: 9h, every: 1d}",
                    help: "the window repeats with this period") { w in
            w.every.map { .scalar($0.description) }
        },
        ScenarioKey("spread", "duration", default: .written("0"), example: "{start: 8h, end: 9h, spread: 30m}",
                    help: "each device shifts the window by up to this long") { w in
            w.spread != .zero ? .scalar(w.spread.description) : nil
        },
    ])
}
