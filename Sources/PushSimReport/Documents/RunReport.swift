// The contract's JSON document of a run, and the metrics a person reads, derived from Ledgers.
import PushSimCore
import PushSimExperiment

extension ArmResult {
    /// The arm's name in the contract: "off" or "on".
    package var name: String { arm.rawValue }

    /// Latency percentiles in seconds, nearest-rank over delivered letters.
    package var latencySeconds: [String: Double] { ArmResult.percentileSeconds(ledger.latency) }

    /// The same percentiles of the latency seen by the user (docs/model.md §10, Focus and the
    /// scheduled summary), over the same delivered letters; nil when the run does not measure it.
    package var seenLatencySeconds: [String: Double]? { ledger.focusSummary.seenLatency.map(ArmResult.percentileSeconds) }

    /// p50, p90, p99 and max of a histogram of microseconds, in seconds.
    static func percentileSeconds(_ h: LatencyHistogram) -> [String: Double] {
        ["p50": Double(h.percentile(0.50)) / 1e6, "p90": Double(h.percentile(0.90)) / 1e6,
         "p99": Double(h.percentile(0.99)) / 1e6, "max": Double(h.maximum) / 1e6]
    }

    /// The loss rate the extension's logs would estimate: letters missed in gaps over the
    /// letters the logging devices knew of.
    package var estimatedLossRate: Double {
        let l = ledger
        return l.positionsKnownToTelemetry == 0 ? 0 : Double(l.missedInGaps) / Double(l.positionsKnownToTelemetry)
    }

    /// What the extension's own logs would have shown, next to the truth (queue arm only:
    /// without the queue nothing is numbered, so logs cannot see gaps). The logs estimate the
    /// loss *without* a queue, so the truth to compare with is the off arm's, which saw the same
    /// letters and connectivity (common random numbers): `difference` is the estimate's error.
    /// Without an off arm (`mode: on`) there is no such truth, and no `difference`.
    package func telemetry(offArm: ArmResult?) -> JSONValue {
        let l = ledger
        var object: [String: JSONValue] = [
            "pushes_seen": .int(l.pushesSeenByExtensions),
            "gaps_detected": .int(l.gapsDetected),
            "missed_in_gaps": .int(l.missedInGaps),
            "letters_visible": .int(l.positionsKnownToTelemetry),
            "estimated_loss_rate": .double(estimatedLossRate),
            "on_arm_loss_rate": .double(l.lossRate),
        ]
        if let offArm {
            object["off_arm_loss_rate"] = .double(offArm.ledger.lossRate)
            object["difference"] = .double(estimatedLossRate - offArm.ledger.lossRate)
        }
        let caveats = telemetryCaveats(offArm: offArm)
        if !caveats.isEmpty {
            object["caveats"] = .array(caveats.map { caveat in
                var members = caveat.figures.mapValues { JSONValue.double($0) }
                members["kind"] = .string(caveat.kind)
                members["says"] = .string(caveat.says)
                return .object(members)
            })
        }
        return .object(object)
    }

    /// Where the logs' estimate is known to mislead in this run, with the size of the effect
    /// (docs/model.md §2, The telemetry view): a delay-mode outage held letters and sent them at its end, so their
    /// pushes arrive out of order and read as gaps; display off (or an extension that never ran)
    /// hides devices, whose letters the logs never see. Empty when neither happened.
    package func telemetryCaveats(offArm: ArmResult?) -> [(kind: String, says: String, figures: [String: Double])] {
        let l = ledger
        var caveats: [(kind: String, says: String, figures: [String: Double])] = []
        let counted = l.letters + l.uninstall.undeliverable
        if l.heldInOutage > 0 {
            var figures = ["letters_held": Double(l.heldInOutage), "held_share": counted == 0 ? 0 : Double(l.heldInOutage) / Double(counted),
                           "estimated_loss_rate": estimatedLossRate]
            var says = "a delay-mode XIVA outage held \(l.heldInOutage) letters and sent them at its end: their pushes "
                + "arrive out of order and the logs count the reordering as gaps, so the estimate overstates the loss"
            if let offArm {
                figures["off_arm_loss_rate"] = offArm.ledger.lossRate
                says += String(format: " (here %.3f %% estimated against %.3f %% without the queue)",
                               estimatedLossRate * 100, offArm.ledger.lossRate * 100)
            }
            caveats.append(("delay_outage_reorders", says, figures))
        }
        if counted > 0 && l.positionsKnownToTelemetry > 0 && l.lettersOnVisibleDevices < counted {
            let hidden = Double(counted - l.lettersOnVisibleDevices) / Double(counted)
            caveats.append(("hidden_devices", String(format: "%.2f %% of the letters were on devices whose extension never "
                + "ran (display off, or no push ever reached it): the logs cannot see them, and their loss is outside the estimate",
                hidden * 100), ["hidden_letter_share": hidden]))
        }
        return caveats
    }

    /// The arm as the contract's JSON object; `offArm` is the run's queue-off arm, the truth
    /// the queue arm's telemetry is compared with.
    package func json(offArm: ArmResult? = nil, loadFrame: LoadFrame? = nil, devices: Int = 0) -> JSONValue {
        let l = ledger
        var object: [String: JSONValue] = [
            "queue": .string(name),
            "letters": .int(l.letters), "delivered": .int(l.delivered),
            "summarized": .int(l.summarized), "lost": .int(l.lost),
            "duplicates": .int(l.duplicates),
            "loss_rate": .double(l.lossRate), "duplicate_rate": .double(l.duplicateRate),
            "latency_s": .object(latencySeconds.mapValues { .double($0) }),
            "causes": .object(Dictionary(uniqueKeysWithValues: LossCause.listed(l.count(of:)).map { ($0.key, .int(l.count(of: $0))) })),
            "events": .int(l.events),
        ]
        if let seen = seenLatencySeconds { object["latency_seen_s"] = .object(seen.mapValues { .double($0) }) }
        // Each mechanism's counters, declared once with their group (Ledger.groups): shown only
        // once the mechanism counted something, so a document without it keeps its bytes.
        for group in Ledger.groups where (arm == .on || group.arms == .both) && group.shown(l) {
            var members: [String: JSONValue] = [:]
            for counter in group.counters where group.reports(counter, onQueueArm: arm == .on) {
                members[counter.json] = .int(l[keyPath: counter.path])
            }
            for share in group.shares { if let value = share.value(l) { members[share.json] = .double(value) } }
            if let name = group.json { object[name] = .object(members) } else { object.merge(members) { $1 } }
        }
        if l.callKitFailures > 0 {
            object["callkit"] = .object(["failures": .int(l.callKitFailures), "devices_cut_off": .int(l.devicesCutOff)])
        }
        if l.fcm.accepted > 0 {
            var fcm: [String: JSONValue] = ["accepted": .int(l.fcm.accepted)]
            for (key, path) in FCMOutcomes.counts { fcm[key] = .int(l.fcm[keyPath: path]) }
            object["fcm"] = .object(fcm)
        }
        if arm == .on {
            object["re_requests"] = .int(l.reRequests)
            object["resent"] = .int(l.resent)
            object["summaries"] = .int(l.summaries)
            object["extension_timeouts"] = .int(l.extensionTimeouts)
            object["xiva"] = .object(["served": .int(l.xivaServed), "errors": .int(l.xivaErrors),
                                      "max_queue": .int(l.xivaMaxQueue),
                                      "max_wait_s": .double(Double(l.xivaMaxWaitMicroseconds) / Double(SimTime.second))])
            object["telemetry"] = telemetry(offArm: offArm)
        }
        if let loadFrame { object["load"] = LoadReport.json(self, frame: loadFrame, devices: devices, fleet: loadFrame.fleet) }
        return .object(object)
    }
}

extension RunResult {
    /// The document `pushsim run --json` prints (scenario contract, section 4).
    package var json: JSONValue {
        var object: [String: JSONValue] = ["scenario": .string(scenario), "seed": .uint(seed),
                                           "runs": .array(arms.map { $0.json(offArm: offArm, loadFrame: loadFrame, devices: totalDevices) })]
        // Absent without segments (docs/model.md §5, Segments): a version-1 document keeps its bytes.
        if !segments.isEmpty {
            object["segments"] = .array(segments.map { segment in
                let segmentOffArm = segment.arms.first { $0.arm == .off }
                return .object(["name": .string(segment.name), "devices": .int(segment.devices),
                                "runs": .array(segment.arms.map {
                                    $0.json(offArm: segmentOffArm, loadFrame: loadFrame, devices: segment.devices)
                                })])
            })
        }
        return .object(object)
    }

    /// The queue-off arm, when the run has one.
    package var offArm: ArmResult? { arms.first { $0.arm == .off }
    }
}
