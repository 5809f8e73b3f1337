// The binary interface: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let binaryErrors = StreamPurpose(frozen: 40)    // whether a written notification is malformed, its error's round trip (apns.interface: binary)
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// The binary interface: every send joins the connection as an event, and may be
    /// rejected, checked and written again; the connection keeps one entry per error.
    /// Worlds running ahead of it (SpeculativeStepper.swift) hold a day's writes as sweep
    /// entries, twice (the window and its sort's scratch, 24 bytes each), and a record each.
    package static func binaryLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, peakL = c.peakLetters, armCount = c.armCount, end = c.end
        if s.apns.interface == .binary {
            let malformed = min(1, s.apns.malformed + (s.mail.payloadSize == nil ? 0 : 1))
            let writesInAWindow = L * min(1, Double(SimTime.day) / max(1, end))
            return MechanismLoad(key: "apns.interface: binary",
                                 eventsPerDevice: armCount * L * (2 + eventsPerExtraSend * 2 * malformed),
                                 bytesPerDevice: bytesPerExtraCopy * peakL * (1 + 2 * malformed),
                                 bytesPerWorld: bytesPerSpeculationRecord + 2 * 24 * writesInAWindow,
                                 fix: "lower apns.malformed or mail.rate, or use apns.interface: http2")
        }
        return nil
    }
}
