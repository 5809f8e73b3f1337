// What `extension.early_kill` counted, declared once.

extension CounterGroup {
    static let earlyKill = CounterGroup("extension.early_kill", json: nil, place: .queueBlock, shown: { $0.extensionKills > 0 }, [
        Counter("extension_kills", \.extensionKills, json: "extension_kills", label: "  extensions killed early"),
    ])
}
