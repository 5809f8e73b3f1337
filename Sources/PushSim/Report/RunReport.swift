// The contract's JSON document of a run, and the metrics a person reads, derived from Ledgers.

extension ArmResult {
    /// The arm's name in the contract: "off" or "on".
    public var name: String { queueOn ? "on" : "off" }

    /// Latency percentiles in seconds, nearest-rank over delivered letters.
    public var latencySeconds: [String: Double] {
        let h = ledger.latency
        return ["p50": Double(h.percentile(0.50)) / 1e6, "p90": Double(h.percentile(0.90)) / 1e6,
                "p99": Double(h.percentile(0.99)) / 1e6, "max": Double(h.maximum) / 1e6]
    }

    /// What the extension's own logs would have shown, next to the truth (queue arm only:
    /// without the queue nothing is numbered, so logs cannot see gaps).
    public var telemetry: JSONValue {
        let l = ledger
        let estimated = l.positionsKnownToTelemetry == 0 ? 0 : Double(l.missedInGaps) / Double(l.positionsKnownToTelemetry)
        return .object([
            "pushes_seen": .int(l.pushesSeenByExtensions),
            "gaps_detected": .int(l.gapsDetected),
            "missed_in_gaps": .int(l.missedInGaps),
            "letters_visible": .int(l.positionsKnownToTelemetry),
            "estimated_loss_rate": .double(estimated),
            "true_loss_rate": .double(l.lossRate),
            "difference": .double(estimated - l.lossRate),
        ])
    }

    /// The arm as the contract's JSON object.
    public var json: JSONValue {
        let l = ledger
        var object: [String: JSONValue] = [
            "queue": .string(name),
            "letters": .int(l.letters), "delivered": .int(l.delivered),
            "summarized": .int(l.summarized), "lost": .int(l.lost),
            "duplicates": .int(l.duplicates),
            "loss_rate": .double(l.lossRate), "duplicate_rate": .double(l.duplicateRate),
            "latency_s": .object(latencySeconds.mapValues { .double($0) }),
            "causes": .object(Dictionary(uniqueKeysWithValues: LossCause.allCases.map { ($0.key, .int(l.count(of: $0))) })),
            "events": .int(l.events),
        ]
        if queueOn {
            object["re_requests"] = .int(l.reRequests)
            object["resent"] = .int(l.resent)
            object["summaries"] = .int(l.summaries)
            object["extension_timeouts"] = .int(l.extensionTimeouts)
            object["telemetry"] = telemetry
        }
        return .object(object)
    }
}

extension RunResult {
    /// The document `pushsim run --json` prints (scenario contract, section 4).
    public var json: JSONValue {
        var object: [String: JSONValue] = ["scenario": .string(scenario), "seed": .uint(seed),
                                           "runs": .array(arms.map(\.json))]
        // Absent without segments (§6.4): a version-1 document keeps its bytes.
        if !segments.isEmpty {
            object["segments"] = .array(segments.map { segment in
                .object(["name": .string(segment.name), "devices": .int(segment.devices),
                         "runs": .array(segment.arms.map(\.json))])
            })
        }
        return .object(object)
    }
}
