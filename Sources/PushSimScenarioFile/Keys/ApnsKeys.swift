// The keys of `apns` (docs/scenarios.md §2, §2a APNs as documented, The provider's side of APNs, The legacy binary interface, Priority).
import PushSimCore

enum ApnsKeys {
    private static let defaults = Scenario.Apns()

    /// Version 1's keys always printed; the others only when they differ from the defaults.
    static let table = KeyTable<Scenario.Apns>([
        ScenarioKey("loss", "probability", default: .written("0"), example: "2%",
                    help: "probability a push is lost between XIVA and APNs") { .scalar(ScenarioPrinter.decimal($0.loss)) },
        ScenarioKey("latency", "distribution", default: .written("100ms"), example: "lognormal(150ms, 3s)",
                    help: "APNs → device while online (each push draws its own)") { .scalar($0.latency.description) },
        ScenarioKey("expiration", "duration or forever", default: .written("1d"), example: "0",
                    help: "how long APNs stores a push for an offline device; 0: not stored") { .scalar($0.expiration.description) },
        // The pair is printed together: one without the other would read back the same but say less.
        ScenarioKey("keep_older", "probability", default: .written("0"), example: "0.5",
                    help: "probability the older push stays in the store when a newer one comes") { a in
            keepsOlder(a) ? .scalar(ScenarioPrinter.decimal(a.keepOlder)) : nil
        },
        ScenarioKey("keep_window", "duration", default: .written("1s"), example: "5s",
                    help: "… when the newer one enters less than this after it") { a in
            keepsOlder(a) ? .scalar(a.keepWindow.description) : nil
        },
        ScenarioKey("store", "mapping", default: .absent("one slot, newest kept, per app"), example: "{slots: 5, keep: newest, per: app}",
                    shape: .mapping(store.infos), help: "APNs' offline store: pushes kept per app while the device is offline") { a in
            a.store.isOneSlot ? nil : store.mapping(a.store)
        },
        ScenarioKey("duplicate", "probability", default: .written("0"), example: "1%",
                    help: "probability APNs hands a push to the device twice") { a in
            a.duplicate != defaults.duplicate ? .scalar(ScenarioPrinter.decimal(a.duplicate)) : nil
        },
        ScenarioKey("token_limit", "integer ≥ 1", default: .absent("no limit"), example: "20",
                    help: "the most pushes one device token takes within token_window") { a in
            a.tokenLimit.map { .scalar(String($0)) }
        },
        // Printed only with a limit: without one it changes nothing.
        ScenarioKey("token_window", "duration > 0", default: .written("1h"), example: "10m",
                    help: "the window of token_limit") { a in
            a.tokenLimit == nil ? nil : .scalar(a.tokenWindow.description)
        },
        ScenarioKey("server_error", "probability", default: .written("0"), example: "1%",
                    help: "probability APNs answers a push with a 5xx") { a in
            a.serverError != 0 ? .scalar(ScenarioPrinter.decimal(a.serverError)) : nil
        },
        ScenarioKey("answer_loss", "probability", default: .written("0"), example: "1%",
                    help: "probability APNs accepted a push but its answer never came back") { a in
            a.answerLoss != 0 ? .scalar(ScenarioPrinter.decimal(a.answerLoss)) : nil
        },
        ScenarioKey("priority", "10, 5 or a share of letters at 5", default: .written("10"), example: "30%",
                    help: "the apns-priority of the pushes: 5 waits while the device sleeps") { a in
            guard a.lowPriorityShare != 0 else { return nil }
            return .scalar(a.lowPriorityShare == 1 ? "5" : ScenarioPrinter.decimal(a.lowPriorityShare))
        },
        ScenarioKey("time_sensitive", "probability", default: .written("0"), example: "20%",
                    help: "the share of letters sent with interruption level time-sensitive (break through Focus and the summary)") { a in
            a.timeSensitiveShare != 0 ? .scalar(ScenarioPrinter.decimal(a.timeSensitiveShare)) : nil
        },
        ScenarioKey("interface", "http2 | binary", default: .written("http2"), example: "binary",
                    help: "the provider interface XIVA talks to") { a in
            a.interface != defaults.interface ? .scalar(a.interface.rawValue) : nil
        },
        ScenarioKey("malformed", "probability", default: .written("0"), example: "1%",
                    help: "binary: probability a written notification is malformed") { a in
            a.malformed != defaults.malformed ? .scalar(ScenarioPrinter.decimal(a.malformed)) : nil
        },
        ScenarioKey("error_delay", "distribution", default: .written("100ms"), example: "1s",
                    help: "binary: from the bad notification's arrival at APNs to its error packet at XIVA") { a in
            a.errorDelay != defaults.errorDelay ? .scalar(a.errorDelay.description) : nil
        },
        ScenarioKey("connection_rate", "rate or forever", default: .written("forever"), example: "1000/s",
                    help: "binary: notifications one connection writes per second; forever: writes take no time") { a in
            a.connectionRatePerMicrosecond.map { .scalar(ScenarioPrinter.rate($0)) }
        },
        ScenarioKey("outages", "list of outages", default: .written("[]"), example: "[{start: 1h, end: 3h}]",
                    shape: .list(items: outage.infos), help: "windows in which APNs refuses XIVA (503) or cannot be reached") { a in
            a.outages.isEmpty ? nil : .list(a.outages.map(outage.mapping))
        },
        ScenarioKey("token_refresh", "mapping", default: .absent("the token never fails"), example: "{every: uniform(10m, 70m)}",
                    shape: .mapping(tokenRefresh.infos), help: "XIVA's provider token: refreshed too soon, a 429 locks the connection; too late, 403 until the next refresh") { a in
            a.tokenRefresh.map(tokenRefresh.mapping)
        },
        ScenarioKey("feedback_delay", "duration or forever", default: .written("1d"), example: "2h",
                    help: "binary: from an uninstall to XIVA reading the token from the feedback list") { a in
            a.feedbackDelay != defaults.feedbackDelay ? .scalar(a.feedbackDelay.description) : nil
        },
    ])

    static let store = KeyTable<APNsStorePolicy>([
        ScenarioKey("slots", "integer from 1 to 1000000 or unlimited", default: .written("1"), example: "5",
                    help: "the most pushes the store holds per app") { s in .scalar(s.slots.map(String.init) ?? "unlimited") },
        ScenarioKey("keep", "newest | oldest | random", default: .written("newest"), example: "oldest",
                    help: "which push a full store keeps: the newcomer replaces the first stored, is discarded, or one goes at random") { .scalar($0.keep.rawValue) },
        ScenarioKey("per", "app | collapse_id", default: .written("app"), example: "collapse_id",
                    help: "collapse_id: a push with a collapse id has a slot of its own") { .scalar($0.per.rawValue) },
    ])

    static let tokenRefresh = KeyTable<APNsTokenRefresh>([
        ScenarioKey("every", "distribution", default: .required, example: "uniform(20m, 60m)",
                    help: "from one refresh of the provider token to the next") { .scalar($0.every.description) },
        ScenarioKey("lockout", "distribution", default: .written("90m"), example: "uniform(30m, 2h)",
                    help: "how long a 429 TooManyProviderTokenUpdates leaves the connection unusable") { .scalar($0.lockout.description) },
        ScenarioKey("too_soon", "duration", default: .written("20m"), example: "10m",
                    help: "a refresh sooner than this after the previous one is answered 429") { .scalar($0.tooSoon.description) },
        ScenarioKey("lifetime", "duration > 0", default: .written("1h"), example: "2h",
                    help: "a token older than this is answered 403 ExpiredProviderToken until the next refresh") { .scalar($0.lifetime.description) },
    ])

    /// One APNs outage: a XIVA outage's window, for a share of the phones, of a segment.
    static let outage = KeyTable<APNsOutage>(XivaKeys.outage.keys.map { key in ScenarioKey(key.info) { key.printed($0.window) } } + [
        ScenarioKey("share", "probability > 0", default: .written("1"), example: "{start: 1h, end: 3h, share: 30%}",
                    help: "the share of the phones it concerns, drawn per phone") { o in
            o.share != 1 ? .scalar(ScenarioPrinter.decimal(o.share)) : nil
        },
        ScenarioKey("segment", "segment name", default: .absent("every phone"), example: "{start: 1h, end: 3h, segment: commuters}",
                    help: "only the phones of this segment") { o in o.segment.map { .scalar($0) } },
        ScenarioKey("answer", "refused | unreachable", default: .written("refused"), example: "{start: 1h, end: 3h, answer: unreachable}",
                    help: "503 ServiceUnavailable, or no answer at all") { o in
            o.answer != .refused ? .scalar(o.answer.rawValue) : nil
        },
    ])

    private static func keepsOlder(_ a: Scenario.Apns) -> Bool {
        a.keepOlder != defaults.keepOlder || a.keepWindow != defaults.keepWindow
    }
}
