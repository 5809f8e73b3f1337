// What `recovery: catch_up` counted (queue arm), declared once.

extension CounterGroup {
    /// Fetches the app made from its own server when the user opened it online: the catch-up's load.
    static let catchUp = CounterGroup("recovery: catch_up", json: nil, place: .queueBlock, arms: .queueArm, shown: { $0.fetches > 0 }, [
        Counter("fetches", \.fetches, json: "fetches", label: "  catch-up fetches", perLetter: "fetches_per_letter"),
    ])
}
