// The keys of `xiva`, one outage and `xiva.retry` (docs/scenarios.md §2, §2a XIVA as a shared server, The provider's side of APNs).
import PushSimCore

enum XivaKeys {
    private static let defaults = Scenario.Xiva()

    /// Version 1's keys always printed; the shared server's only when they differ from the defaults.
    static let table = KeyTable<Scenario.Xiva>([
        ScenarioKey("drop", "probability", default: .written("0"), example: "1%",
                    help: "probability a letter is dropped (unknown subscription)") { .scalar(ScenarioPrinter.decimal($0.drop)) },
        ScenarioKey("latency", "distribution", default: .written("50ms"), example: "exponential(80ms)",
                    help: "backend → XIVA → APNs") { .scalar($0.latency.description) },
        ScenarioKey("retention", "duration or forever", default: .written("3d"), example: "forever",
                    help: "how long numbered payloads can be re-sent") { .scalar($0.retention.description) },
        ScenarioKey("request_latency", "distribution", default: .written("300ms"), example: "1s",
                    help: "re-request sent → its answer is back at the extension") { .scalar($0.requestLatency.description) },
        ScenarioKey("request_error", "probability", default: .written("0"), example: "0.1",
                    help: "probability a re-request is answered with an error") { .scalar(ScenarioPrinter.decimal($0.requestError)) },
        ScenarioKey("resend_latency", "distribution", default: .written("200ms"), example: "2s",
                    help: "answer → re-sent pushes reach APNs") { .scalar($0.resendLatency.description) },
        ScenarioKey("outages", "list of outages", default: .written("[]"), example: "[{start: 1h, end: 2h}]",
                    shape: .list(items: outage.infos), help: "windows in which XIVA is down, the same for every device") { x in
            x.outages.isEmpty ? nil : .list(x.outages.map(outage.mapping))
        },
        ScenarioKey("outage_mode", "delay | drop", default: .written("delay"), example: "drop",
                    help: "letters reaching XIVA during an outage wait for its end, or are lost") { x in
            x.outageMode != defaults.outageMode ? .scalar(x.outageMode.rawValue) : nil
        },
        ScenarioKey("capacity", "rate or forever", default: .written("forever"), example: "100/s",
                    help: "re-requests XIVA serves per second, per partition") { x in
            x.capacityPerMicrosecond.map { .scalar(ScenarioPrinter.rate($0)) }
        },
        ScenarioKey("queue_timeout", "duration or forever", default: .written("forever"), example: "5s",
                    help: "a re-request that would wait longer is answered with an error") { x in
            x.queueTimeout != defaults.queueTimeout ? .scalar(x.queueTimeout.description) : nil
        },
        ScenarioKey("partitions", "integer from 1 to devices", default: .written("1"), example: "2",
                    help: "devices split into this many XIVA partitions") { x in
            x.partitions != defaults.partitions ? .scalar(String(x.partitions)) : nil
        },
        ScenarioKey("resend_buffer", "integer from 0 to 1000000", default: .written("0"), example: "100",
                    help: "binary: notifications kept per connection to write again after an error") { x in
            x.resendBuffer != defaults.resendBuffer ? .scalar(String(x.resendBuffer)) : nil
        },
        ScenarioKey("retry", "mapping", default: .absent("each push sent once"), example: "{attempts: 3, backoff: exponential(2s)}",
                    shape: .mapping(retry.infos), help: "XIVA sends a push again after a 429, a 5xx or a lost answer") { x in
            x.retry.map(retry.mapping)
        },
    ])

    /// One outage: a window with constant times (no `length`, no `spread`).
    static let outage = KeyTable<XivaOutage>([
        ScenarioKey("start", "duration", default: .required, example: "{start: 1h, end: 2h}",
                    help: "start of the outage") { .scalar($0.start.description) },
        ScenarioKey("end", "duration", default: .absent("— (`end` or `length`)"), example: "{start: 1h, end: 2h}",
                    help: "end of the outage") { .scalar($0.end.description) },
        ScenarioKey("length", "duration", default: .absent("— (`end` or `length`)"), example: "{start: 1h, length: 30m}",
                    help: "length of the outage, instead of `end`") { _ in nil },
        ScenarioKey("every", "duration", default: .absent("once"), example: "{start: 1h, end: 2h, every: 1d}",
                    help: "the outage repeats with this period") { o in o.every.map { .scalar($0.description) } },
    ])

    static let retry = KeyTable<XivaRetry>([
        ScenarioKey("attempts", "integer from 1 to 100", default: .required, example: "5",
                    help: "the most sends of one push, the first included") { .scalar(String($0.attempts)) },
        ScenarioKey("backoff", "distribution", default: .required, example: "1s",
                    help: "from a refusal or a missing answer to the next send's arrival at APNs") { .scalar($0.backoff.description) },
    ])
}
