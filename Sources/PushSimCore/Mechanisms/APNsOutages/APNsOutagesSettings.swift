// APNs outages: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let apnsOutages = StreamPurpose(named: "apnsOutages")         // whether an APNs outage for a share of phones concerns this one (apns.outages)
}
