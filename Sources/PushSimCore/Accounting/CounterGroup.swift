// A mechanism's counters declared once: where each lives in the ledger, and every name it has in partial results, the JSON, the table, `check` and sweeps.

/// How the counts of disjoint sets of devices combine.
package enum CounterMerge: Sendable { case sum, largest }

/// Which arms have a counter (or a whole group) in the reports.
package enum CounterArms: Sendable {
    case both
    /// Only the queue arm counts it: the table shows "—" for the other, the JSON leaves it out.
    case queueArm
}

/// Where a group's rows stand in the report table.
package enum CounterPlace: Sendable {
    /// After the causes of loss: what happened to letters on their way (undeliverable, APNs'
    /// answers, the binary interface, sleep).
    case afterCauses
    /// Inside "the queue at work", after XIVA's rows: what the device and the app did.
    case queueBlock
}

/// One count of a ``Ledger``, declared once. Every output reads it through `path`, so adding a
/// counter is this one declaration (and its stored field, in the same file for a mechanism
/// whose counters are a ``CounterSet``).
package struct Counter: @unchecked Sendable {
    /// Its key in partial results (`pushsim run --shard`), unique over the ledger.
    package let key: String
    package let path: WritableKeyPath<Ledger, Int>
    package let merge: CounterMerge
    /// Its name in the group's JSON object (at the arm's top level for a group without one).
    package let json: String
    /// Its row in the report table, indentation included.
    package let label: String
    package let arms: CounterArms
    /// `pushsim check` compares it (up is worse; absent from an older baseline reads as 0).
    package let checked: Bool
    /// A sweep metric: the count per letter, where the group is shown.
    package let perLetter: String?
    /// Its path inside `MechanismCounts`: a world's ledger is merged once per device and arm
    /// on the coupled path, by the fields' offsets (``MechanismCounts/merge(into:from:)``).
    let pathInCounts: WritableKeyPath<MechanismCounts, Int>

    /// `path` is a mechanism's counter, from `MechanismCounts` (Mechanisms/MechanismRegistry.swift):
    /// joined to the ledger's stored field, every component stays a stored one, so reading and
    /// merging through it is an offset, not a call through an accessor.
    package init(_ key: String, _ path: WritableKeyPath<MechanismCounts, Int>, json: String, label: String,
                 merge: CounterMerge = .sum, arms: CounterArms = .both, checked: Bool = false, perLetter: String? = nil) {
        self.key = key; self.path = Ledger.mechanismCountsPath.appending(path: path); self.json = json; self.label = label
        self.merge = merge; self.arms = arms; self.checked = checked; self.perLetter = perLetter
        self.pathInCounts = path
    }

    /// Adds `other`'s count to `ledger`'s by the counter's rule.
    package func merge(into ledger: inout Ledger, from other: Ledger) {
        switch merge {
        case .sum: ledger[keyPath: path] += other[keyPath: path]
        case .largest: ledger[keyPath: path] = max(ledger[keyPath: path], other[keyPath: path])
        }
    }
}

/// A share of two of a group's counters, declared once: `numerator / (numerator + complement)`,
/// written beside the counters in the JSON (a number from 0 to 1) and the table (a percentage),
/// a sweep metric under its JSON path, and compared by `pushsim check` (down is worse; its
/// noise is that of the `complement` count, which must be a checked counter of the group).
package struct CounterShare: @unchecked Sendable {
    /// Its name in the group's JSON object (`in_time_share`).
    package let json: String
    package let label: String
    package let numerator: WritableKeyPath<Ledger, Int>
    package let complement: WritableKeyPath<Ledger, Int>

    package init(json: String, label: String, numerator: WritableKeyPath<MechanismCounts, Int>,
                 complement: WritableKeyPath<MechanismCounts, Int>) {
        self.json = json; self.label = label
        self.numerator = Ledger.mechanismCountsPath.appending(path: numerator)
        self.complement = Ledger.mechanismCountsPath.appending(path: complement)
    }

    /// The share in `ledger`; nil when both counts are 0 (nothing to divide).
    package func value(_ ledger: Ledger) -> Double? {
        let n = ledger[keyPath: numerator], total = n + ledger[keyPath: complement]
        return total > 0 ? Double(n) / Double(total) : nil
    }
}

/// A mechanism's counters as the reports show them: a JSON object (or keys at the arm's top
/// level), a table block, shown only once the mechanism counted something, so a run without
/// it keeps its bytes.
package struct CounterGroup: @unchecked Sendable {
    /// The mechanism, for messages and docs.
    package let name: String
    /// The arm's JSON object holding the counters; nil: each counter is a key of the arm.
    package let json: String?
    /// A heading row in the table before the counters' rows.
    package let heading: String?
    package let place: CounterPlace
    package let arms: CounterArms
    /// Whether an arm's ledger shows the group (the JSON object, the table block, its sweep metrics).
    package let shown: @Sendable (Ledger) -> Bool
    /// For a group whose counters live in a ``CounterSet`` of their own: whether `other` holds
    /// none, so merging skips it (a mechanism switched off costs one comparison). Nil: the
    /// counters are plain fields of the ledger, merged by `Ledger.merge` itself.
    package let isEmpty: (@Sendable (Ledger) -> Bool)?
    package let counters: [Counter]
    /// Shares of the counters, shown after them (only in a group with a JSON object of its own).
    package let shares: [CounterShare]

    package init(_ name: String, json: String?, heading: String? = nil, place: CounterPlace, arms: CounterArms = .both,
                 shown: @escaping @Sendable (Ledger) -> Bool, isEmpty: (@Sendable (Ledger) -> Bool)? = nil, _ counters: [Counter],
                 shares: [CounterShare] = []) {
        self.name = name; self.json = json; self.heading = heading; self.place = place; self.arms = arms
        self.shown = shown; self.isEmpty = isEmpty; self.counters = counters; self.shares = shares
    }

    /// Whether counter `c` is reported for `arm` (`queueArm` of the group or the counter).
    package func reports(_ c: Counter, onQueueArm: Bool) -> Bool {
        onQueueArm || (arms == .both && c.arms == .both)
    }

    /// The counter's dotted path in an arm's JSON (`app_reinstalls.dropped_letters`), as
    /// `pushsim check` names metrics.
    package func jsonPath(of c: Counter) -> String { json.map { $0 + "." + c.json } ?? c.json }

    /// The share's dotted path in an arm's JSON (`xiva_capacity.in_time_share`).
    package func jsonPath(of s: CounterShare) -> String { json.map { $0 + "." + s.json } ?? s.json }
}

/// A mechanism's counters kept in a value of their own inside the ledger, beside their
/// declarations, so that a new counter is one file's change. Zero when the mechanism is off.
package protocol CounterSet: Equatable, Sendable {
    init()
}
