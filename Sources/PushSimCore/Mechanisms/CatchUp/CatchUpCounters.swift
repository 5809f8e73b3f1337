// What `recovery: catch_up` counted (queue arm), declared once.

/// Fetches the app made from its own server when the user opened it online.
package struct CatchUpCounters: CounterSet {
    package var fetches = 0
    package init() {}
}

extension CounterGroup {
    /// Fetches the app made from its own server when the user opened it online: the catch-up's load.
    static let catchUp = CounterGroup("recovery: catch_up", json: nil, place: .queueBlock, arms: .queueArm, shown: { $0.catchUp.fetches > 0 }, isEmpty: { $0.catchUp == CatchUpCounters() }, [
        Counter("fetches", \.catchUp.fetches, json: "fetches", label: "  catch-up fetches", perLetter: "fetches_per_letter"),
    ])
}
