// APNs outages: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let apnsOutages = StreamPurpose(named: "apnsOutages")         // whether an APNs outage for a share of phones concerns this one (apns.outages)
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// APNs' outages: every world lays them out and keeps them (with the outage of each);
    /// every arrival at APNs is an event while they are set (the sends they refuse again are
    /// `xiva.retry`'s).
    package static func apnsOutagesLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, armCount = c.armCount, end = c.end
        if !s.apns.outages.isEmpty && s.channel != .fcm {
            let occurrences = outageOccurrences(s.apns.outages.map(\.window), end: end)
            return MechanismLoad(key: "apns.outages", eventsPerDevice: armCount * L, stepsPerWorld: 2 * occurrences,
                                 bytesPerDevice: 0, bytesPerWorld: bytesPerInterval * occurrences,
                                 fix: "lengthen apns.outages' every")
        }
        return nil
    }
}
