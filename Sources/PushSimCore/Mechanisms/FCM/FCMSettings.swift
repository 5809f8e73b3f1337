// FCM: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let fcmCollapseKeys = StreamPurpose(frozen: 26) // each letter's FCM collapse key (fcm.collapse_keys)
    package static let fcmStore = StreamPurpose(frozen: 27)        // which collapse key FCM's store drops past four (fcm.collapse_keys > 4)
}
