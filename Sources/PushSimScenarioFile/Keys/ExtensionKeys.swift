// The keys of `extension` and `extension.media` (docs/scenarios.md §2, §2a The extension killed early, Parallel extension runs, Media attachments).
import PushSimCore

enum ExtensionKeys {
    static let table = KeyTable<Scenario.Extension>([
        ScenarioKey("deadline", "duration or forever", default: .written("30s"), example: "10s",
                    help: "the Notification Service Extension's time budget") { .scalar($0.deadline.description) },
        ScenarioKey("processing", "distribution", default: .written("200ms"), example: "lognormal(200ms, 2s)",
                    help: "its own work before it would show the push") { .scalar($0.processing.description) },
        ScenarioKey("early_kill", "probability", default: .written("0"), example: "1%",
                    help: "probability the system kills a run at start-up or for memory") { e in
            e.earlyKill != 0 ? .scalar(ScenarioPrinter.decimal(e.earlyKill)) : nil
        },
        ScenarioKey("concurrency", "serial | parallel", default: .written("serial"), example: "parallel",
                    help: "how runs of one device share the saved position") { e in
            e.concurrency != .serial ? .scalar(e.concurrency.rawValue) : nil
        },
        ScenarioKey("save_delay", "distribution", default: .absent("the save is written at once"), example: "100ms",
                    help: "with parallel: from a run's start to its save") { e in
            e.saveDelay.map { .scalar($0.description) }
        },
        ScenarioKey("media", "mapping", default: .absent("no attachments"),
                    example: "{share: 20%, size: lognormal(200KB, 5MB), bandwidth: uniform(500kbit/s, 20Mbit/s)}",
                    shape: .mapping(media.infos), help: "letters whose notification shows an attachment the extension downloads") { e in
            e.media.map(media.mapping)
        },
    ])

    static let media = KeyTable<MediaAttachments>([
        ScenarioKey("share", "probability", default: .required, example: "50%",
                    help: "letters whose notification shows an attachment") { .scalar(ScenarioPrinter.decimal($0.share)) },
        ScenarioKey("size", "distribution of sizes", default: .required, example: "1MB",
                    help: "its download size") { .scalar($0.size.byteDescription) },
        ScenarioKey("bandwidth", "distribution of bandwidths", default: .required, example: "10Mbit/s",
                    help: "the bandwidth of one download") { .scalar(ScenarioPrinter.quantity($0.bandwidth, unit: "bit/s")) },
        ScenarioKey("cache_hit", "probability", default: .written("0"), example: "30%",
                    help: "probability the extension finds it cached") { .scalar(ScenarioPrinter.decimal($0.cacheHit)) },
        ScenarioKey("memory_limit", "size greater than 0", default: .absent("no limit"), example: "24MB",
                    help: "the extension's memory limit: a run whose decoded attachment passes it is killed") { m in
            m.memoryLimit.map { .scalar("\($0)B") }
        },
        // Printed only when not the default: a file written before the key keeps its print.
        ScenarioKey("decode_factor", "number from 0.01 to 1000", default: .written("10"), example: "4",
                    help: "decoded bytes per downloaded byte of an attachment") { m in
            m.decodeFactor != 10 ? .scalar(ScenarioPrinter.decimal(m.decodeFactor)) : nil
        },
    ])
}
