// The keys of `mail` and `mail.bursts`: where letters come from (docs/scenarios.md §2, §2a Time of day, Bursts, Replaying real traffic).
import PushSimCore

enum MailKeys {
    /// With `trace`, the trace's letters replace rate, daily_profile and bursts: only the trace is printed.
    static let table = KeyTable<Scenario.Mail>([
        ScenarioKey("rate", "rate", default: .written("40/d"), example: "10/d",
                    help: "Poisson rate of letters per device") { m in
            m.trace == nil ? .scalar(ScenarioPrinter.rate(m.ratePerMicrosecond)) : nil
        },
        ScenarioKey("daily_profile", "list of 24 weights", default: .absent("flat"),
                    example: "[1, 1, 1, 1, 1, 1, 2, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1]", shape: .list(items: []),
                    help: "relative weight of each hour of the day in the letter rate") { m in
            guard m.trace == nil, let profile = m.dailyProfile else { return nil }
            return .list(profile.map { .scalar(ScenarioPrinter.decimal($0)) })
        },
        ScenarioKey("bursts", "mapping", default: .absent("none"), example: "{rate: 1/d, size: 8}", shape: .mapping(bursts.infos),
                    help: "bursts of several letters at once, on top of the rate") { m in
            guard m.trace == nil, let b = m.bursts else { return nil }
            return bursts.mapping(b)
        },
        ScenarioKey("trace", "string (a CSV file)", default: .absent("none"), scope: .topLevel, example: nil,
                    help: "replay the letters of a CSV file instead of rate, daily_profile and bursts") { m in
            m.trace.map { .text($0.path) }
        },
        ScenarioKey("payload_size", "distribution of sizes", default: .absent("every payload fits"), example: "2KB",
                    help: "bytes per letter, checked against APNs' payload limit") { m in
            m.payloadSize.map { .scalar($0.byteDescription) }
        },
    ])

    static let bursts = KeyTable<MailBursts>([
        ScenarioKey("rate", "rate", default: .required, example: "2/d", help: "rate of bursts per device") { b in
            .scalar(ScenarioPrinter.rate(b.ratePerMicrosecond))
        },
        ScenarioKey("size", "integer ≥ 1", default: .required, example: "3", help: "letters in one burst") { b in
            .scalar(String(b.size))
        },
        ScenarioKey("spread", "duration", default: .written("0"), example: "2m", help: "a burst's letters come within this long") { b in
            .scalar(b.spread.description)
        },
    ])
}
