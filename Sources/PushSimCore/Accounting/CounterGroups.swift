// Every counter of the ledger: the core counts, and the loops over each mechanism's group (the
// groups and their order are in Mechanisms/MechanismRegistry.swift).

extension Ledger {
    /// The groups whose counters live in a `CounterSet` of their own (merged by declaration).
    static let ownStorageGroups: [CounterGroup] = groups.filter { $0.isEmpty != nil }

    /// The counts every run has (the letters' fates, the queue's work, XIVA's server, the
    /// telemetry view, the channels), by their keys in partial results; the causes, the latency
    /// histogram and the XIVA queue series are written apart.
    package static var coreCounts: [(key: String, path: WritableKeyPath<Ledger, Int>, merge: CounterMerge)] {[
        ("letters", \.letters, .sum), ("delivered", \.delivered, .sum), ("summarized", \.summarized, .sum),
        ("lost", \.lost, .sum), ("duplicates", \.duplicates, .sum), ("events", \.events, .sum),
        ("re_requests", \.reRequests, .sum), ("resent", \.resent, .sum), ("summaries", \.summaries, .sum),
        ("extension_timeouts", \.extensionTimeouts, .sum),
        ("xiva_served", \.xivaServed, .sum), ("xiva_errors", \.xivaErrors, .sum),
        // Maxima are of one partition at one instant: disjoint devices take the larger.
        ("xiva_max_queue", \.xivaMaxQueue, .largest), ("xiva_max_wait_us", \.xivaMaxWaitMicroseconds, .largest),
        ("pushes_seen_by_extensions", \.pushesSeenByExtensions, .sum), ("gaps_detected", \.gapsDetected, .sum),
        ("missed_in_gaps", \.missedInGaps, .sum), ("letters_on_visible_devices", \.lettersOnVisibleDevices, .sum),
        ("positions_known_to_telemetry", \.positionsKnownToTelemetry, .sum), ("held_in_outage", \.heldInOutage, .sum),
        ("callkit_failures", \.callKitFailures, .sum), ("devices_cut_off", \.devicesCutOff, .sum),
    ] + MechanismCounts.fieldTableCounts }

    /// Every integer count of the ledger but the causes and the histogram, with its key and
    /// rule: the core counts, then each group's.
    package static var everyCount: [(key: String, path: WritableKeyPath<Ledger, Int>, merge: CounterMerge)] {
        coreCounts + groups.flatMap { $0.counters.map { ($0.key, $0.path, $0.merge) } }
    }

    /// The shares `pushsim check` compares (down is worse), with their JSON paths, the JSON path
    /// of the complement count whose noise they take, and the two counts' paths.
    package static var checkedShares: [(jsonPath: String, complementPath: String, share: CounterShare, queueArmOnly: Bool)] {
        groups.flatMap { group in
            group.shares.compactMap { share in
                guard let complement = group.counters.first(where: { $0.path == share.complement && $0.checked }) else { return nil }
                return (group.jsonPath(of: share), group.jsonPath(of: complement), share, group.arms == .queueArm)
            }
        }
    }

    /// The counters `pushsim check` compares beyond the core ones, with their JSON paths and
    /// whether only the queue arm has them, in the groups' order.
    package static var checkedCounters: [(jsonPath: String, path: WritableKeyPath<Ledger, Int>, queueArmOnly: Bool)] {
        groups.flatMap { group in
            group.counters.filter(\.checked).map { (group.jsonPath(of: $0), $0.path, group.arms == .queueArm || $0.arms == .queueArm) }
        }
    }
}
