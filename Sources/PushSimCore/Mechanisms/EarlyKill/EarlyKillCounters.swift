// What `extension.early_kill` counted, declared once.

/// Extension runs the system killed early.
package struct EarlyKillCounters: CounterSet {
    package var kills = 0
    package init() {}
}

extension CounterGroup {
    static let earlyKill = CounterGroup("extension.early_kill", json: nil, place: .queueBlock, shown: { $0.earlyKill.kills > 0 }, isEmpty: { $0.earlyKill == EarlyKillCounters() }, [
        Counter("extension_kills", \.earlyKill.kills, json: "extension_kills", label: "  extensions killed early"),
    ])
}
